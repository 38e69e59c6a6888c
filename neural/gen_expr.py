"""Random well-typed gpucc expressions of each type (int, bool, float; lists in gen_lists.py)
for neural/gen.py.

`ExprGen` writes them from what the enclosing body may read and call (`Scope`): arithmetic
`+ - * / // % **` on ints, floats and both mixed, unary `- + ~ not`, `& | ^` on ints and bools,
shifts (counts 0, 63, 64, negative and computed), comparison chains mixing ints and floats,
`and`/`or` values and truth tests (float truth included), conditional expressions (a float
branch with an int one is converted), `abs min max int float bool`, calls of the program's
functions (a float parameter may get an int or a bool), literals in every base and float
literals (0.0, -0.0, 1e-3, 1e22, ...), and scalars read from lists (`len`, `xs[i]`, `sum`,
`in`, `==`, ...: gen_lists.ListGen) and from strs (`len`, `find`, `in`, comparisons, the `is*`
tests, ...: gen_str.StrGen, where `strs` is set).

`int / int` only ever divides operands within +-2**20: gpucc converts each int operand to a
float first, which is exact only up to 2**53 (a documented difference, see tests/oracle/oracle.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gpucc.neural.gen_deque import DequeGen
from gpucc.neural.gen_dict import DictGen
from gpucc.neural.gen_iters import IterGen
from gpucc.neural.gen_lists import LIST_TYPES, ListGen
from gpucc.neural.gen_str import STR_TYPES, StrGen
from gpucc.neural.gen_struct import STRUCT_LISTS, STRUCT_TYPES, StructGen

LITERALS = ("3000000000", "0x7fff_ffff_ffff_ffff", "(-9223372036854775807 - 1)", "0b1011", "0o17",
            "1_000", "4294967296", "0", "-1", "0X1F")  # fmt: skip
FLOAT_LITERALS = ("0.0", "-0.0", "1e-3", "2.5", "1e22", "0.1", "1.5e3", ".25", "3.", "1_000.5", "-1.5",
                  "123456789012345.0", "1e-22", "0.5", "4.0", "1E5")  # fmt: skip
BINOPS = ("+", "-", "*", "//", "%", "+", "-", "*")
FLOAT_OPS = ("+", "-", "*", "/", "//", "%", "+", "-", "*", "/")
BITOPS = ("&", "|", "^")
CMPOPS = ("<", "<=", "==", "!=", ">", ">=")
SHIFT_COUNTS = ("0", "1", "3", "2", "63", "64", "-1", "65", "5")
INT_EXPONENTS = ("0", "1", "2", "3", "2", "-1", "63")
FLOAT_EXPONENTS = ("2", "3", "0", "-1", "0.5", "-0.5", "2.0", "1e-3", "-2")
DEPTH_MOD = 7  # recursive helpers get a depth in [0, 6]
TYPES = ("int", "bool", "float") + LIST_TYPES + STR_TYPES + STRUCT_TYPES


@dataclass(frozen=True)
class Sig:
    """A function a body may call: name, parameter types, return type ("int"/"bool"/"float"/
    "list[int]"/"list[float]"/"str"/"list[str]"/"None").  depth: the last parameter is a recursion depth (callers pass `(e) % DEPTH_MOD`)."""

    name: str
    params: tuple[str, ...]
    ret: str
    depth: bool = False


class Scope:
    """What the body being written may read (`names[type]`), assign (`assignable[type]`) and
    call, and the type it returns."""

    def __init__(self, names: dict[str, list[str]], assignable: dict[str, list[str]], calls: list[Sig], ret: str):
        self.names = {t: list(names.get(t, ())) for t in TYPES}
        self.assignable = {t: list(assignable.get(t, ())) for t in TYPES}
        self.calls = calls
        self.ret = ret
        self.loops = 0  # enclosing loops
        self.list_loops = 0  # enclosing `for v in xs` loops (no appends, no calls passing lists)
        self.comprehensions = 0  # enclosing comprehensions (their variables' names)


class ExprGen(ListGen, StrGen, StructGen, DictGen, IterGen, DequeGen):
    """Expressions of a given type and depth for the body described by `self.s` (the list forms
    in neural/gen_lists.py, the str forms in neural/gen_str.py: only with `strs`, the tuple,
    nested list and Optional forms in neural/gen_struct.py and the dict and set forms in
    neural/gen_dict.py: only with `structs`)."""

    def __init__(self, seed: int, strs: bool = False, structs: bool = False):
        self.r = random.Random(seed)
        self.s: Scope | None = None
        self.strs = strs  # int and bool expressions may read strs
        self.structs = structs  # int and bool expressions may read tuples, nested lists, Optionals
        self.iters = False  # the forms of neural/gen_iters.py (ProgramGen: Shape.iters)

    def expr(self, type_: str, d: int) -> str:
        if type_ in STRUCT_TYPES:
            return self.struct_expr(type_, d)
        if type_ in LIST_TYPES:
            return self.list_expr(type_, d)
        if type_ == "str":
            return self.str_expr(d)
        if type_ == "list[str]":
            return self.str_list_expr(d)
        return {"int": self.int_expr, "bool": self.bool_expr, "float": self.float_expr}[type_](d)

    def num_expr(self, d: int) -> str:
        """An int or a float expression."""
        return self.float_expr(d) if self.r.random() < 0.5 else self.int_expr(d)

    def int_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.25:
            k = r.random()
            if k < 0.6 and s.names["int"]:
                return r.choice(s.names["int"])
            if k < 0.85:
                return str(r.randint(-9, 9))
            if k < 0.93 or d <= 0:
                return r.choice(LITERALS)
            return self.call("int", d)
        e = lambda: self.int_expr(d - 1)
        k = r.randrange(20)
        if k == 0:  # `~` parenthesised: `~a ** 0.5` is `~(a ** 0.5)`, a float
            return r.choice([f"-{e()}", f"+{e()}", f"(~{e()})"])
        if k == 1:
            return f"({e()} {r.choice(['and', 'or'])} {e()})"
        if k == 2:
            return f"({self.bool_expr(d - 1)} {r.choice(BINOPS + BITOPS)} {e()})"
        if k == 3:
            return self.call("int", d)
        if k in (4, 5):
            return f"({e()} {r.choice(BITOPS)} {e()})"
        if k == 6:
            count = r.choice(SHIFT_COUNTS + (e(), f"({e()}) % 70"))
            return f"({e()} {r.choice(['<<', '>>'])} {count})"
        if k == 7:
            return f"({e()} ** {r.choice(INT_EXPONENTS + (f'({e()}) % 5',))})"
        if k == 8:
            return f"int({self.float_expr(d - 1)})" if r.random() < 0.8 else f"int({self.bool_expr(d - 1)})"
        if k == 9:
            return self.builtin("int", d)
        if k == 10:
            return f"({e()} if {self.truth(d - 1)} else {e()})"
        if k in (11, 12) and (read := self.list_scalar("int", d)):
            return read
        if k == 13 and self.strs and (read := self.str_scalar("int", d)):
            return read
        if k in (14, 15) and self.structs and (read := self.struct_scalar("int", d)):
            return read
        if k == 16 and self.iters and r.random() < 0.25 and (read := self.iter_scalar("int", d)):  # each adds locals
            return read
        op = r.choice(BINOPS)
        if op in ("//", "%") and r.random() < 0.5:  # a nonzero literal divisor: fewer early exits
            return f"({e()} {op} {r.choice([-7, -3, -2, -1, 1, 2, 3, 10])})"
        return f"({e()} {op} {e()})"

    def float_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.25:
            k = r.random()
            if k < 0.6 and s.names["float"]:
                return r.choice(s.names["float"])
            if k < 0.9 or d <= 0:
                return r.choice(FLOAT_LITERALS)
            return self.call("float", d)
        f = lambda: self.float_expr(d - 1)
        k = r.randrange(16)
        if k < 4:  # mixed int/float operands in either order
            left, right = (f(), self.num_expr(d - 1)) if r.random() < 0.5 else (self.num_expr(d - 1), f())
            return f"({left} {r.choice(FLOAT_OPS)} {right})"
        if k == 4:
            return f"({self.small_int(d - 1)} / {self.small_int(d - 1)})"
        if k == 5:  # an int base needs a float exponent (int ** int is an int)
            if r.random() < 0.7:
                return f"({f()} ** {r.choice(FLOAT_EXPONENTS + (f(),))})"
            return f"({self.int_expr(d - 1)} ** {r.choice(('0.5', '-0.5', '2.0', '1e-3', f()))})"
        if k == 6:
            return f"{r.choice('-+')}{f()}"
        if k == 7:
            return f"float({self.int_expr(d - 1) if r.random() < 0.8 else self.bool_expr(d - 1)})"
        if k == 8:
            return self.builtin("float", d)
        if k == 9:  # a float branch and an int one: the int is converted
            branches = [f(), f() if r.random() < 0.5 else self.int_expr(d - 1)]
            r.shuffle(branches)
            return f"({branches[0]} if {self.truth(d - 1)} else {branches[1]})"
        if k == 10:
            return f"({f()} {r.choice(['and', 'or'])} {f()})"
        if k == 11:
            return self.call("float", d)
        if k == 12 and (read := self.list_scalar("float", d)):
            return read
        return f"({f()} {r.choice(FLOAT_OPS + ('**',))} {f()})"

    def small_int(self, d: int) -> str:
        """An int within +-2**20 (an operand of int / int, see the module docstring)."""
        if self.r.random() < 0.4:
            return str(self.r.randint(-9, 9))
        return f"(({self.int_expr(d)}) % {self.r.choice([7, 100, 2**20])} - {self.r.choice([0, 3, 50])})"

    def builtin(self, type_: str, d: int) -> str:
        """abs(x), min(...) or max(...) of one numeric type."""
        e = lambda: self.expr(type_, d - 1)
        if self.r.random() < 0.4:
            return f"abs({e()})"
        return f"{self.r.choice(['min', 'max'])}({', '.join(e() for _ in range(self.r.choice([2, 2, 3])))})"

    def bool_expr(self, d: int, truth: bool = False) -> str:
        """truth: only the truth value is used (mixed int/float/bool `and`/`or` allowed)."""
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.2:
            return r.choice(s.names["bool"] + ["True", "False"])
        b = lambda: self.bool_expr(d - 1, truth)
        k = r.randrange(13)
        if k == 12 and (read := self.list_scalar("bool", d)):
            return read
        if k == 0:
            return f"(not {self.truth(d - 1)})"
        if k == 1:
            return f"({b()} {r.choice(['and', 'or'])} {b()})"
        if k == 2 and truth:
            return f"({self.num_expr(d - 1)} {r.choice(['and', 'or'])} {self.bool_expr(d - 1, True)})"
        if k == 3:
            return self.call("bool", d)
        if k == 4:
            return f"({self.bool_expr(d - 1)} {r.choice(['==', '!=', '<'] + list(BITOPS))} {self.bool_expr(d - 1)})"
        if k == 5:
            return f"bool({self.num_expr(d - 1)})"
        if k == 6:
            return f"({self.bool_expr(d - 1)} if {self.truth(d - 1)} else {self.bool_expr(d - 1)})"
        if k == 11 and self.strs and (read := self.str_scalar("bool", d)):
            return read
        if k in (9, 10) and self.structs and (read := self.struct_scalar("bool", d)):
            return read
        if k == 8 and self.iters and r.random() < 0.3 and (read := self.iter_scalar("bool", d)):
            return read
        ops = [r.choice(CMPOPS) for _ in range(r.choice([1, 1, 2, 3]))]
        operand = self.num_expr if k in (7, 8, 9) else self.int_expr
        parts = [operand(d - 1) for _ in range(len(ops) + 1)]
        return "(" + " ".join(p for pair in zip(parts, ops + [""]) for p in pair).strip() + ")"

    def truth(self, d: int) -> str:
        """A condition: an int, float, bool or list expression."""
        k = self.r.random()
        if k < 0.05:
            return self.some_list(d)
        return self.int_expr(d) if k < 0.2 else self.float_expr(d) if k < 0.35 else self.bool_expr(d, True)

    def call(self, ret: str, d: int) -> str:
        """A call of a function returning `ret`, or a plain expression of that type if there is
        none (or inside nested loops, where calls would multiply the work)."""
        options = [g for g in self.s.calls if g.ret == ret and self.may_call(g)]
        if not options or self.s.loops > 1:
            return self.expr(ret, 0)
        return self.call_of(self.r.choice(options), d)

    def may_call(self, g: Sig) -> bool:
        """Not a function given a list inside `for v in xs` (it could append to xs)."""
        return not (self.s.list_loops and any(t in LIST_TYPES + STRUCT_LISTS for t in g.params))

    def call_of(self, g: Sig, d: int) -> str:
        """A call of g; a float parameter sometimes gets an int or a bool (converted)."""
        args = []
        for t in g.params:
            if t == "float" and self.r.random() < 0.3:
                t = self.r.choice(["int", "int", "bool"])
            args.append(self.expr(t, d - 1))
        if g.depth:
            args[-1] = f"({args[-1]}) % {DEPTH_MOD}"
        return f"{g.name}({', '.join(args)})"
