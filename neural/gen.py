"""Random well-typed gpucc programs for differential testing against CPython.

`ProgramGen(seed).program()` writes one program: an entry `f(a: int, b: int, c: bool, x: float,
y: float[, xs: list[int], fs: list[float]])` (returns int, bool or float) and the helpers it may
call: depth-bounded recursive `rec` (int) and `rf` (float), a mutually recursive pair `ev`/`od`,
a `-> None` checker `chk` and plain helpers `h1`, `h2`, ... with int, bool, float and list
parameters and results (each calls only those defined before it, so no call graph is
unbounded).  Bodies use every statement form of the language: assignments (plain, annotated,
augmented with all thirteen ops), int locals, float locals (one may start as an int and be
widened by a later float assignment, one may be annotated `float` and given an int), list
locals `ys` / `gs`, `if/elif/else`, `while`, `for` over `range` with 1-3 arguments (negative
and zero steps, bounds next to the int64 edges) and over lists, nested loops,
`break`/`continue`, `for ... else` / `while ... else`, two simple statements joined by `;`,
returns inside loops, asserts, `pass`, docstrings, calls as statements,
and the list statements of neural/gen_lists.py; one typed function in ten has no final return
(CPython returns None where its end is reached; the VM ends the job with NONE_RETURNED).
Expressions come from neural/gen_expr.py (every operator, builtin and literal form) and
gen_lists.py; with `Shape.structs` (the fuzzer's shape, not the neural curriculum's) f may also
take tuples, lists of tuples, nested lists and `list[bool]`, helpers take and return those and
`Optional[int]`, bodies use the forms of neural/gen_struct.py, and f may keep a `dict[int, int]`
and a `set[int]` (neural/gen_dict.py); with `Shape.iters` (the fuzzer's shape too) bodies use
heapq, functools.reduce, itertools, pow(a, b, m), isinstance, `*=` and `|=` (neural/gen_iters.py).

Every loop runs at most 9 times, recursion is at most 6 deep and lists grow boundedly, so a
program finishes well inside the VM's step and depth limits (and CPython's recursion limit):
outcomes are comparable.  New language features need a new rule here, in gen_expr.py or in
gen_lists.py and nothing else.

`Shape` bounds a program's size (statements per block, nesting, expression depth, which parts
it has): the differential fuzzer uses the default, `FUZZ`, the largest; the neural compiler's
curriculum (neural/data.py) smaller ones; with `Shape.signature` f's parameters (1-4, names
and types drawn) and return type are drawn per program instead of `f(a, b, c, x, y)`.
`ProgramGen(seed)` is `ProgramGen(seed, FUZZ)`: the same program.
"""

from __future__ import annotations

import math
import random
import struct
from dataclasses import dataclass

from gpucc.neural.gen_expr import (
    BINOPS,
    BITOPS,
    FLOAT_EXPONENTS,
    FLOAT_OPS,
    INT_EXPONENTS,
    SHIFT_COUNTS,
    TYPES,
    ExprGen,
    Scope,
    Sig,
)
from gpucc.neural.gen_iters import IMPORTS
from gpucc.neural.gen_lists import LIST_TYPES, elem
from gpucc.neural.gen_str import STR_TYPES
from gpucc.neural.gen_struct import PAIR, STRUCT_PARAMS, STRUCT_TYPES

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
EDGE_VALUES = (0, -1, 1, INT64_MIN, INT64_MAX, 2**32, 2**53 + 1, -(2**53) - 1)
STR_ALPHABET = "aAbBzZ09 _-,.\tßİıΣσςǅﬁé\u2003\U0001F600٣"  # case rules, whitespace, digits of several kinds
FLOAT_EDGE_VALUES = (0.0, -0.0, math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 2.0**53, 2.0**63,
                     -(2.0**63), 0.1, -1.5, 1e-3, 1.0)  # fmt: skip


@dataclass(frozen=True)
class Shape:
    """How large a program ProgramGen writes."""

    statements: int = 3  # statements per block: 1 .. statements
    nesting: int = 3  # blocks nested inside f's body (if / for / while)
    expr_depth: int = 2  # depth of a statement's expressions
    helpers: bool = True  # rec, rf, ev / od, chk and h1, h2, ... before f
    prologue: bool = True  # f first sets its locals (ints, floats, q, maybe lists); else it has only parameters
    lists: bool = True  # f may take list parameters and set list locals
    strs: bool = True  # f may take str parameters, set a str local; expressions may read strs
    structs: bool = False  # tuples, nested lists, list[bool], Optional[int], dicts, sets (gen_struct.py, gen_dict.py)
    signature: bool = False  # f's 1-4 parameters (names, types) and return type drawn per program; else a-y
    loop_else: bool = False  # loops may have an `else:`, a line two simple statements joined by `;`
    iters: bool = False  # heapq, functools.reduce, itertools, pow(a, b, m), isinstance, *= / |= (gen_iters.py)
    collections: bool = False  # with structs: f may set a Counter and a deque local (neural/gen_dict.py, gen_deque.py)


FUZZ = Shape(structs=True, loop_else=True, iters=True, collections=True)
# a drawn signature's parameter and local names and its types (list[int] only with Shape.lists)
SIG_NAMES = ("n", "m", "k", "a", "b", "i", "j", "x", "y", "lo", "hi", "v", "p", "num", "val", "flag", "xs",
             "nums", "total", "count", "r", "limit", "acc", "res", "ok", "step")  # fmt: skip
SIG_TYPES = ("int", "int", "int", "bool", "float", "float", "list[int]")


@dataclass(frozen=True)
class GenProgram:
    source: str
    entry: str
    params: tuple[str, ...]  # the entry's parameter types

    def inputs(self, r: random.Random, n: int) -> list[tuple]:
        """n argument tuples for the entry: edge values, small and wide ints and floats, bools."""
        return [tuple(random_arg(r, t) for t in self.params) for _ in range(n)]


def random_arg(r: random.Random, type_: str):
    if type_ == PAIR:
        return (random_arg(r, "int"), random_arg(r, "int"))
    if type_ in STRUCT_PARAMS:  # a list of pairs, of int lists or of bools
        return [random_arg(r, type_[5:-1]) for _ in range(r.choice([0, 1, 2, 3, 5]))]
    if type_ in LIST_TYPES or type_ == "list[str]":
        return [random_arg(r, elem(type_)) for _ in range(r.choice([0, 1, 2, 3, 4, 5, 8]))]
    if type_ == "str":
        return "".join(r.choice(STR_ALPHABET) for _ in range(r.choice([0, 1, 2, 3, 5, 8, 13])))
    k = r.random()
    if type_ == "bool":
        return k < 0.5
    if type_ == "float":
        if k < 0.35:
            return r.choice(FLOAT_EDGE_VALUES)
        if k < 0.7:
            return r.randint(-40, 40) / 4
        if k < 0.9:
            return r.uniform(-1e6, 1e6)
        return struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]  # any double, nan too
    if k < 0.25:
        return r.choice(EDGE_VALUES)
    if k < 0.75:
        return r.randint(-10, 10)
    if k < 0.9:
        return r.randint(-(2**40), 2**40)
    return r.randint(INT64_MIN, INT64_MAX)


class ProgramGen(ExprGen):
    """One random program per seed and shape (see the module docstring)."""

    widened: set[str]  # float locals of the function being written that start as ints

    def __init__(self, seed: int, shape: Shape = FUZZ):
        super().__init__(seed, shape.strs, shape.structs)
        self.shape = shape
        self.iters = shape.iters
        self.counter_used = False  # a function sets a Counter local (Shape.collections): import it
        self.deque_used = False  # a function sets a deque local (Shape.collections): import it
        self.defaultdict_used = False  # ... a defaultdict local

    # ------------------------------------------------------------ statements

    def block(self, ind: int, d: int) -> list[str]:
        r, s, pad, out = self.r, self.s, "    " * ind, []
        e = self.shape.expr_depth
        for _ in range(r.randint(1, self.shape.statements)):
            k = r.randrange(23) if d > 0 else r.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 20, 21])
            if k >= 20 and self.iters and r.random() < 0.15:  # their hidden locals count (64 at most)
                out += self.iter_stmt(ind, d)
            elif k >= 20 and self.strs and s.assignable["str"] and r.random() < 0.4:
                out += self.str_stmt(ind, d)
            elif k >= 20 and self.structs and r.random() < 0.7:
                out += self.struct_stmt(ind, d)
            elif k >= 20:
                out += self.list_stmt(ind, d)
            elif k in (0, 1):
                ann = ": int" if r.random() < 0.15 else ""
                out.append(f"{pad}{r.choice(s.assignable['int'])}{ann} = {self.int_expr(e)}")
                if self.shape.loop_else and r.random() < 0.1:  # a second simple statement on the line
                    out[-1] += f"; {r.choice(s.assignable['int'])} {self.augassign('int')}"
            elif k == 2:
                out.append(f"{pad}{r.choice(s.assignable['int'])} {self.augassign('int')}")
            elif k == 3:
                out.append(f"{pad}{r.choice(s.assignable['bool'])} = {self.bool_expr(e)}")
            elif k == 4:
                out.append(f"{pad}assert {self.truth(1)}")
            elif k == 5:
                voids = [g for g in s.calls if g.ret == "None" and self.may_call(g)]
                out.append(f"{pad}{self.call_of(r.choice(voids), e)}" if voids and s.loops <= 1 else f"{pad}pass")
            elif k == 6:
                out.append(f"{pad}if {self.truth(1)}:")
                out.append(f"{pad}    {self.return_stmt()}")
            elif k == 7:
                out.append(f"{pad}{self.float_assign()}")
            elif k == 8:
                out.append(f"{pad}{r.choice(s.assignable['float'])} {self.augassign('float')}")
            elif k in (9, 10):
                out += self.if_stmt(ind, d)
            elif k in (11, 16):
                out += self.for_stmt(ind, d)
            elif k in (12, 17):
                out += self.while_stmt(ind, d)
            elif k in (13, 14) and s.loops:
                word = r.choice(["break", "continue"])
                if r.random() < 0.2:  # bare, last in its block: the rest is unreachable
                    out.append(f"{pad}{word}")
                    return out
                out.append(f"{pad}if {self.truth(1)}:")
                out.append(f"{pad}    {word}")
            elif k == 18:
                out.append(f"{pad}{r.choice(s.assignable['float'])} = {self.call('float', e)}")
            else:
                out.append(f"{pad}{r.choice(s.assignable['int'])} = {self.call('int', e)}")
        return out

    def augassign(self, type_: str) -> str:
        """`op= rhs` for an int or float target: any operator of its type (an int target never
        takes a float)."""
        r = self.r
        if type_ == "float":
            op = r.choice(FLOAT_OPS + ("**",))
            return f"{op}= {r.choice(FLOAT_EXPONENTS) if op == '**' else self.num_expr(r.choice([1, 1, 2]))}"
        op = r.choice(BINOPS + BITOPS + ("<<", ">>", "**"))
        if op in ("<<", ">>"):
            rhs = r.choice(SHIFT_COUNTS + (self.int_expr(1),))
        elif op == "**":
            rhs = r.choice(INT_EXPONENTS)
        else:
            rhs = self.int_expr(r.choice([1, 1, 2, 4])) if r.random() < 0.8 else self.bool_expr(1)
        return f"{op}= {rhs}"

    def float_assign(self) -> str:
        """A float local or parameter gets a float, or an int (converted); sometimes annotated
        (never a widened local: its first assignment already typed it int-then-float)."""
        r, s = self.r, self.s
        target = r.choice(s.assignable["float"])
        ann = ": float" if target not in self.widened and r.random() < 0.15 else ""
        e = self.shape.expr_depth
        value = self.float_expr(e) if r.random() < 0.7 else self.int_expr(e)
        return f"{target}{ann} = {value}"

    def return_stmt(self) -> str:
        ret, r = self.s.ret, self.r
        if ret == "None":
            voids = [g for g in self.s.calls if g.ret == "None" and self.may_call(g)]
            return f"return {self.call_of(r.choice(voids), 1)}" if voids and r.random() < 0.3 else "return"
        if ret == "float" and r.random() < 0.25:  # an int or bool returned as a float
            return f"return {self.expr(r.choice(['int', 'int', 'bool']), self.shape.expr_depth)}"
        return f"return {self.expr(ret, self.shape.expr_depth)}"

    def if_stmt(self, ind: int, d: int) -> list[str]:
        pad = "    " * ind
        out = [f"{pad}if {self.truth(2)}:"] + self.block(ind + 1, d - 1)
        for _ in range(self.r.choice([0, 0, 1, 2])):
            out += [f"{pad}elif {self.truth(1)}:"] + self.block(ind + 1, d - 1)
        if self.r.random() < 0.5:
            out += [f"{pad}else:"] + self.block(ind + 1, d - 1)
        return out

    def bound(self) -> str:
        """A range bound in [-4, 4]."""
        return self.r.choice([str(self.r.randint(-4, 4)), f"({self.int_expr(1)}) % 9 - 4"])

    def range_args(self) -> str:
        r = self.r
        k = r.randrange(7)
        if k == 0:
            return r.choice([str(r.randint(0, 6)), f"({self.int_expr(1)}) % 7"])
        if k == 1:
            return f"{self.bound()}, {self.bound()}"
        if k == 2:
            return f"{self.bound()}, {self.bound()}, {r.choice(['-3', '-2', '-1', '1', '2', '3'])}"
        if k == 3:  # may be 0: ValueError
            return f"{self.bound()}, {self.bound()}, ({self.int_expr(1)}) % 5 - 2"
        if k == 5:  # literal windows at the int64 edges, huge steps: the counter must not wrap
            top, bottom, half = "0x7fff_ffff_ffff_ffff", "(-9223372036854775807 - 1)", "4611686018427387904"
            return r.choice([f"{top} - {r.randint(0, 6)}, {top}, {r.choice(['1', '2', '5', half])}",
                             f"{bottom} + {r.randint(0, 6)}, {bottom}, -{r.choice(['1', '3', half])}",
                             f"{bottom}, {top}, {half}", f"{top}, {bottom}, -{half}"])  # fmt: skip
        v = r.choice(self.s.names["int"])  # next to the int64 edges when v is
        if k == 4:
            return f"{v}, {v} + {r.randint(0, 4)}"
        return f"{v}, {v} - {r.randint(0, 8)}, -{r.randint(1, 3)}"

    def for_stmt(self, ind: int, d: int) -> list[str]:
        s, pad = self.s, "    " * ind
        target = self.r.choice(s.assignable["int"]) if self.r.random() < 0.2 else f"i{s.loops}"
        out = [f"{pad}for {target} in range({self.range_args()}):"]
        return out + self.loop_body(ind, d, [target]) + self.loop_else(ind, d)

    def while_stmt(self, ind: int, d: int) -> list[str]:
        pad, n = "    " * ind, f"n{self.s.loops}"
        cond = f"{n} < {self.r.randint(1, 4)}"
        if self.r.random() < 0.3:  # `and` only: with `or` the loop could run forever
            cond += f" and {self.truth(1)}"
        out = [f"{pad}{n} = 0", f"{pad}while {cond}:", f"{pad}    {n} += 1"]
        return out + self.loop_body(ind, d, [n]) + self.loop_else(ind, d)

    def loop_else(self, ind: int, d: int) -> list[str]:
        """Sometimes an `else:` (run when no break left the loop; a break in it is the outer loop's)."""
        if not self.shape.loop_else or self.r.random() >= 0.15:
            return []
        return ["    " * ind + "else:"] + self.block(ind + 1, d - 1)

    def loop_body(self, ind: int, d: int, readable: list[str]) -> list[str]:
        s = self.s
        saved = s.names["int"]
        s.names["int"] = saved + [v for v in readable if v not in saved]
        s.loops += 1
        out = self.block(ind + 1, d - 1)
        s.loops -= 1
        s.names["int"] = saved
        return out

    # ------------------------------------------------------------ functions

    def function(self, sig: Sig, names: tuple[str, ...], calls: list[Sig], d: int,
                 ints=("t",), floats=("z",), prologue: bool = True, declare=()) -> list[str]:  # fmt: skip
        """A function whose body sets its locals (`ints`, `floats`, maybe lists `ys` and `gs`,
        bool `q`; none without `prologue`; then each (name, type) of `declare`), runs random
        statements, then (mostly) returns a value of its type: without that return, a path that
        reaches the end returns None."""
        r = self.r
        params = {t: [n for n, pt in zip(names, sig.params) if pt == t] for t in TYPES}
        self.s = Scope(params, params, calls, sig.ret)
        self.widened = set()
        out = [f"def {sig.name}({', '.join(f'{n}: {t}' for n, t in zip(names, sig.params))}) -> {sig.ret}:"]
        if r.random() < 0.2:
            out.append('    """A generated function."""')
        if prologue:
            out += self.prologue(ints, floats)
        for v, t in declare:
            out.append(f"    {v} = {self.expr(t, 1)}")
            self.s.names[t].append(v)
            self.s.assignable[t].append(v)
        out += self.block(1, d)
        if r.random() < (0.9 if sig.ret != "None" else 0.5):  # else its end may be reached: None returned
            out.append(f"    {self.return_stmt()}")
        return out + [""]

    def prologue(self, ints: tuple[str, ...], floats: tuple[str, ...]) -> list[str]:
        """A function's first statements: its locals set (and typed)."""
        r, out = self.r, []
        for v in ints:
            out.append(f"    {v}{': int' if r.random() < 0.2 else ''} = {self.int_expr(1)}")
            self.s.names["int"].append(v)
            self.s.assignable["int"].append(v)
        for v, t in (("ys", "list[int]"), ("gs", "list[float]")):
            if r.random() < 0.4 and self.shape.lists:
                out += self.list_local(v, t)
        if self.strs and r.random() < 0.5:
            out.append(f"    sw = {self.str_expr(1)}")
            self.s.names["str"].append("sw")
            self.s.assignable["str"].append("sw")
        if self.structs:
            out += self.struct_locals() + self.dict_locals()
        widen = []
        for v in floats:
            k = r.random()
            if k < 0.4:
                out.append(f"    {v} = {self.float_expr(1)}")
            elif k < 0.6:
                out.append(f"    {v}: float = {self.int_expr(1)}")
            else:  # an int first; the float assignment below widens it
                out.append(f"    {v} = {self.int_expr(1)}")
                self.widened.add(v)
                widen.append(v)
            if v not in widen:  # a widened local read by another's first value: typed in a cycle
                self.s.names["float"].append(v)
            self.s.assignable["float"].append(v)
        self.s.names["float"] += widen
        out.append(f"    q = {self.bool_expr(2)}")  # may read a widened local before its widening
        self.s.names["bool"].append("q")
        self.s.assignable["bool"].append("q")
        floats = self.s.names["float"]
        self.s.names["float"] = [v for v in floats if v not in widen]  # a float without reading v
        for v in widen:
            rhs = r.choice([f"= {self.float_expr(1)}", f"+= {self.float_expr(1)}", "/= 2", "*= 0.5", "-= 1.5",
                            f"/= {self.small_int(1)}"])  # fmt: skip
            out.append(f"    {v} {rhs}")
        self.s.names["float"] = floats
        return out

    def list_local(self, v: str, t: str) -> list[str]:
        """A list local's first assignment: a list expression, or `[]` typed by its annotation
        or (a float list) by the float appended next."""
        k, s = self.r.random(), self.s
        if k < 0.6:
            first = [f"    {v}{f': {t}' if self.r.random() < 0.2 else ''} = {self.list_expr(t, 1)}"]
        elif k < 0.8 or t == "list[int]":
            first = [f"    {v}: {t} = []" if k < 0.8 else f"    {v} = []"]
        else:
            first = [f"    {v} = []", f"    {v}.append({self.float_expr(1)})"]
        s.names[t].append(v)
        s.assignable[t].append(v)
        return first

    def recursive(self, sig: Sig, partner: Sig, calls: list[Sig]) -> list[str]:
        """`sig(n, d)`: a base case at d <= 0, else a call of `partner` (itself or its mutual
        partner) with d - 1, sometimes twice (d - 1 and d - 2, like fib)."""
        t0 = sig.params[0]
        names = {t0: ["n"]}
        names["int"] = names.get("int", []) + ["d"]
        self.s = Scope(names, {t0: ["n"]}, calls, sig.ret)
        body = f"{partner.name}({self.expr(partner.params[0], 1)}, d - 1)"
        if self.r.random() < 0.5:
            op = self.r.choice({"int": ["+", "-", "and", "or"], "float": ["+", "-", "*", "and", "or"]}.get(sig.ret, ["and", "or"]))
            body = f"({body} {op} {partner.name}({self.expr(partner.params[0], 1)}, d - 2))"
        else:
            body = f"({self.expr(sig.ret, 1)} {self.r.choice(['and', 'or'])} {body})"
        return [f"def {sig.name}(n: {t0}, d: int) -> {sig.ret}:", "    if d <= 0:",
                f"        return {self.expr(sig.ret, 2)}", f"    n = {self.expr(t0, 1)}", f"    return {body}", ""]  # fmt: skip

    def program(self) -> GenProgram:
        r, shape = self.r, self.shape
        lines, calls = self.helpers() if shape.helpers else ([], [])
        if shape.signature:
            return self.drawn_signature(lines, calls)
        ret = r.choice(["int", "int", "bool", "float", "float"])
        lists = LIST_TYPES if r.random() < 0.6 and shape.lists else ()
        strs = STR_TYPES[: 3 - len(lists)] if shape.strs and r.random() < 0.5 else ()  # 8 parameters at most
        structs = ()
        if shape.structs and r.random() < 0.5:
            structs = tuple(r.sample(list(STRUCT_PARAMS), min(r.randint(1, 2), 3 - len(lists) - len(strs))))
        f = Sig("f", ("int", "int", "bool", "float", "float", *lists, *strs, *structs), ret)
        names = ("a", "b", "c", "x", "y") + ("xs", "fs")[: len(lists)] + ("st", "ws")[: len(strs)]
        names += tuple(STRUCT_PARAMS[t] for t in structs)
        lines += self.function(f, names, calls, shape.nesting, ints=("s", "t"), floats=("w", "z"),
                               prologue=shape.prologue)  # fmt: skip
        return GenProgram("\n".join(self.imports() + lines), "f", f.params)

    def imports(self) -> list[str]:
        used = [n for n, u in (("Counter", self.counter_used), ("defaultdict", self.defaultdict_used),
                               ("deque", self.deque_used)) if u]
        counter = [f"from collections import {', '.join(used)}", ""] if used else []
        return (IMPORTS if self.shape.iters else []) + counter

    def drawn_signature(self, lines: list[str], calls: list[Sig]) -> GenProgram:
        """f with 1-4 parameters of drawn names and types and a drawn scalar return type (Shape.signature);
        a local is set first for each scalar type no parameter has (statements need a target of
        each: `t = 0`-like lines, as real functions start)."""
        r, shape = self.r, self.shape
        n = r.randint(1, 4)
        names = r.sample(SIG_NAMES, n + 3)
        types = tuple(r.choice(SIG_TYPES if shape.lists else SIG_TYPES[:-1]) for _ in range(n))
        ret = r.choice(["int", "int", "bool", "float"])  # scalars: evaluate.judge compares values, not heap contents
        declare = tuple((v, t) for v, t in zip(names[n:], ("int", "bool", "float")) if t not in types)
        f = Sig("f", types, ret)
        lines += self.function(f, tuple(names[:n]), calls, shape.nesting, prologue=shape.prologue, declare=declare)
        return GenProgram("\n".join(self.imports() + lines), "f", types)

    def helpers(self) -> tuple[list[str], list[Sig]]:
        """The functions f may call: their lines and signatures."""
        r, lines, calls = self.r, [], []
        if r.random() < 0.5:
            rec = Sig("rec", ("int", "int"), "int", depth=True)
            lines += self.recursive(rec, rec, [])
            calls.append(rec)
        if r.random() < 0.4:
            rf = Sig("rf", ("float", "int"), "float", depth=True)
            lines += self.recursive(rf, rf, [])
            calls.append(rf)
        if r.random() < 0.3:
            ev, od = Sig("ev", ("int", "int"), "bool", True), Sig("od", ("int", "int"), "bool", True)
            lines += self.recursive(ev, od, []) + self.recursive(od, ev, [])
            calls += [ev, od]
        if r.random() < 0.4:
            chk = Sig("chk", ("int", "bool", "float"), "None")
            lines += self.function(chk, ("u", "v", "w"), list(calls), 1)
            calls.append(chk)
        kinds = ["int", "int", "bool", "float", "float", *LIST_TYPES, *(STR_TYPES if self.strs else ()),
                 *(STRUCT_TYPES if self.structs else ())]  # fmt: skip
        for k in range(r.randint(0, 2)):
            params = tuple(r.choice(kinds) for _ in range(r.randint(1, 3)))
            h = Sig(f"h{k + 1}", params, r.choice(kinds + ["None"]))
            lines += self.function(h, tuple(f"u{i}" for i in range(len(params))), list(calls), 1)
            calls.append(h)
        return lines, calls
