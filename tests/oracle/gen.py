"""Random well-typed gpucc programs for differential testing against CPython.

`ProgramGen(seed).program()` writes one program: an entry `f(a: int, b: int, c: bool)` (returns
int or bool) and the helpers it may call: a depth-bounded recursive `rec`, a mutually recursive
pair `ev`/`od`, a `-> None` checker `chk` and plain helpers `h1`, `h2`, ... (each calls only
those defined before it, so no call graph is unbounded).  Bodies use every statement and
expression form of today's language: assignments (plain, annotated, augmented with all five
ops), `if/elif/else`, `while`, `for` over `range` with 1-3 arguments (negative and zero steps,
bounds next to the int64 edges), nested loops, `break`/`continue`, returns inside loops,
asserts, `pass`, docstrings, calls as statements; `+ - * // %`, unary `- + not`, comparison
chains, `and`/`or` values and truth tests, int literals in every base.

Every loop runs at most 9 times and recursion is at most 6 deep, so a program finishes well
inside the VM's step and depth limits (and CPython's recursion limit): outcomes are comparable.
New language features need a new rule here and nothing else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
EDGE_VALUES = (0, -1, 1, INT64_MIN, INT64_MAX, 2**32)
LITERALS = ("3000000000", "0x7fff_ffff_ffff_ffff", "(-9223372036854775807 - 1)", "0b1011", "0o17",
            "1_000", "4294967296", "0", "-1", "0X1F")  # fmt: skip
BINOPS = ("+", "-", "*", "//", "%", "+", "-", "*")
CMPOPS = ("<", "<=", "==", "!=", ">", ">=")
DEPTH_MOD = 7  # recursive helpers get a depth in [0, 6]


@dataclass(frozen=True)
class Sig:
    """A function a body may call: name, parameter types, return type ("int"/"bool"/"None").
    depth: the last parameter is a recursion depth (callers pass `(e) % DEPTH_MOD`)."""

    name: str
    params: tuple[str, ...]
    ret: str
    depth: bool = False


@dataclass(frozen=True)
class GenProgram:
    source: str
    entry: str
    params: tuple[str, ...]  # the entry's parameter types

    def inputs(self, r: random.Random, n: int) -> list[tuple]:
        """n argument tuples for the entry: edge values, small and wide ints, both bools."""
        return [tuple(random_arg(r, t) for t in self.params) for _ in range(n)]


def random_arg(r: random.Random, type_: str):
    if type_ == "bool":
        return r.random() < 0.5
    k = r.random()
    if k < 0.25:
        return r.choice(EDGE_VALUES)
    if k < 0.75:
        return r.randint(-10, 10)
    if k < 0.9:
        return r.randint(-(2**40), 2**40)
    return r.randint(INT64_MIN, INT64_MAX)


class _Scope:
    """What the body being written may read, assign and call."""

    def __init__(self, ints, bools, assignable, calls, ret):
        self.ints, self.bools, self.assignable = list(ints), list(bools), list(assignable)
        self.calls: list[Sig] = calls
        self.ret = ret
        self.loops = 0  # enclosing loops


class ProgramGen:
    """One random program per seed (see the module docstring)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.s: _Scope | None = None

    # ------------------------------------------------------------ expressions

    def int_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.25:
            k = r.random()
            if k < 0.6 and s.ints:
                return r.choice(s.ints)
            if k < 0.85:
                return str(r.randint(-9, 9))
            if k < 0.93 or d <= 0:
                return r.choice(LITERALS)
            return self.call("int", d)
        k = r.randrange(10)
        if k == 0:
            return f"{r.choice('-+')}{self.int_expr(d - 1)}"
        if k == 1:
            return f"({self.int_expr(d - 1)} {r.choice(['and', 'or'])} {self.int_expr(d - 1)})"
        if k == 2:
            return f"({self.bool_expr(d - 1)} {r.choice(BINOPS)} {self.int_expr(d - 1)})"
        if k == 3:
            return self.call("int", d)
        op = r.choice(BINOPS)
        if op in ("//", "%") and r.random() < 0.5:  # a nonzero literal divisor: fewer early exits
            return f"({self.int_expr(d - 1)} {op} {r.choice([-7, -3, -2, -1, 1, 2, 3, 10])})"
        return f"({self.int_expr(d - 1)} {op} {self.int_expr(d - 1)})"

    def bool_expr(self, d: int, truth: bool = False) -> str:
        """truth: only the truth value is used (mixed int/bool `and`/`or` allowed)."""
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.2:
            return r.choice(s.bools + ["True", "False"])
        k = r.randrange(8)
        if k == 0:
            return f"(not {self.truth(d - 1)})"
        if k == 1:
            return f"({self.bool_expr(d - 1, truth)} {r.choice(['and', 'or'])} {self.bool_expr(d - 1, truth)})"
        if k == 2 and truth:
            return f"({self.int_expr(d - 1)} {r.choice(['and', 'or'])} {self.bool_expr(d - 1, True)})"
        if k == 3:
            return self.call("bool", d)
        if k == 4:
            return f"({self.bool_expr(d - 1)} {r.choice(['==', '!=', '<'])} {self.bool_expr(d - 1)})"
        ops = [r.choice(CMPOPS) for _ in range(r.choice([1, 1, 2, 3]))]
        parts = [self.int_expr(d - 1) for _ in range(len(ops) + 1)]
        return "(" + " ".join(p for pair in zip(parts, ops + [""]) for p in pair).strip() + ")"

    def truth(self, d: int) -> str:
        """A condition: an int or a bool expression."""
        return self.int_expr(d) if self.r.random() < 0.25 else self.bool_expr(d, True)

    def call(self, ret: str, d: int) -> str:
        """A call of a function returning `ret`, or a plain expression of that type if there is
        none (or inside nested loops, where calls would multiply the work)."""
        options = [g for g in self.s.calls if g.ret == ret]
        if not options or self.s.loops > 1:
            return self.int_expr(0) if ret == "int" else self.bool_expr(0)
        return self.call_of(self.r.choice(options), d)

    def call_of(self, g: Sig, d: int) -> str:
        args = [self.int_expr(d - 1) if t == "int" else self.bool_expr(d - 1) for t in g.params]
        if g.depth:
            args[-1] = f"({args[-1]}) % {DEPTH_MOD}"
        return f"{g.name}({', '.join(args)})"

    # ------------------------------------------------------------ statements

    def block(self, ind: int, d: int) -> list[str]:
        r, s, pad, out = self.r, self.s, "    " * ind, []
        for _ in range(r.randint(1, 3)):
            k = r.randrange(16 if d > 0 else 7)
            if k in (0, 1):
                target = r.choice(s.assignable)
                ann = ": int" if r.random() < 0.15 else ""
                out.append(f"{pad}{target}{ann} = {self.int_expr(2)}")
            elif k == 2:
                rhs = self.int_expr(r.choice([1, 1, 2, 4])) if r.random() < 0.8 else self.bool_expr(1)
                out.append(f"{pad}{r.choice(s.assignable)} {r.choice(BINOPS)}= {rhs}")
            elif k == 3:
                out.append(f"{pad}{r.choice(s.bools)} = {self.bool_expr(2)}")
            elif k == 4:
                out.append(f"{pad}assert {self.truth(1)}")
            elif k == 5:
                voids = [g for g in s.calls if g.ret == "None"]
                if voids and s.loops <= 1:
                    out.append(f"{pad}{self.call_of(r.choice(voids), 2)}")
                else:
                    out.append(f"{pad}pass")
            elif k == 6:
                out.append(f"{pad}if {self.truth(1)}:")
                out.append(f"{pad}    {self.return_stmt()}")
            elif k in (7, 8):
                out += self.if_stmt(ind, d)
            elif k in (9, 14):
                out += self.for_stmt(ind, d)
            elif k in (10, 15):
                out += self.while_stmt(ind, d)
            elif k in (11, 12) and s.loops:
                word = r.choice(["break", "continue"])
                if r.random() < 0.2:  # bare, last in its block: the rest is unreachable
                    out.append(f"{pad}{word}")
                    return out
                out.append(f"{pad}if {self.truth(1)}:")
                out.append(f"{pad}    {word}")
            else:
                out.append(f"{pad}{r.choice(s.assignable)} = {self.call('int', 2)}")
        return out

    def return_stmt(self) -> str:
        ret = self.s.ret
        if ret == "None":
            voids = [g for g in self.s.calls if g.ret == "None"]
            return f"return {self.call_of(self.r.choice(voids), 1)}" if voids and self.r.random() < 0.3 else "return"
        return f"return {self.int_expr(2) if ret == 'int' else self.bool_expr(2)}"

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
        v = r.choice(self.s.ints)  # next to the int64 edges when v is
        if k == 4:
            return f"{v}, {v} + {r.randint(0, 4)}"
        return f"{v}, {v} - {r.randint(0, 8)}, -{r.randint(1, 3)}"

    def for_stmt(self, ind: int, d: int) -> list[str]:
        s, pad = self.s, "    " * ind
        target = self.r.choice(s.assignable) if self.r.random() < 0.2 else f"i{s.loops}"
        out = [f"{pad}for {target} in range({self.range_args()}):"]
        return out + self.loop_body(ind, d, [target])

    def while_stmt(self, ind: int, d: int) -> list[str]:
        pad, n = "    " * ind, f"n{self.s.loops}"
        cond = f"{n} < {self.r.randint(1, 4)}"
        if self.r.random() < 0.3:  # `and` only: with `or` the loop could run forever
            cond += f" and {self.truth(1)}"
        out = [f"{pad}{n} = 0", f"{pad}while {cond}:", f"{pad}    {n} += 1"]
        return out + self.loop_body(ind, d, [n])

    def loop_body(self, ind: int, d: int, readable: list[str]) -> list[str]:
        s = self.s
        saved = s.ints
        s.ints = s.ints + [v for v in readable if v not in s.ints]
        s.loops += 1
        out = self.block(ind + 1, d - 1)
        s.loops -= 1
        s.ints = saved
        return out

    # ------------------------------------------------------------ functions

    def function(self, sig: Sig, names: tuple[str, ...], calls: list[Sig], d: int, ints=("t",)) -> list[str]:
        """A function whose body sets its locals (`ints`, bool `q`), runs random statements,
        then returns a value of its type."""
        params = [n for n, t in zip(names, sig.params) if t == "int"]
        bools = [n for n, t in zip(names, sig.params) if t == "bool"]
        self.s = _Scope(params, bools, params, calls, sig.ret)
        out = [f"def {sig.name}({', '.join(f'{n}: {t}' for n, t in zip(names, sig.params))}) -> {sig.ret}:"]
        if self.r.random() < 0.2:
            out.append('    """A generated function."""')
        for v in ints:
            out.append(f"    {v}{': int' if self.r.random() < 0.2 else ''} = {self.int_expr(1)}")
            self.s.ints.append(v)
            self.s.assignable.append(v)
        out.append(f"    q = {self.bool_expr(1)}")
        self.s.bools.append("q")
        out += self.block(1, d)
        if sig.ret != "None" or self.r.random() < 0.5:
            out.append(f"    {self.return_stmt()}")
        return out + [""]

    def recursive(self, sig: Sig, partner: Sig, calls: list[Sig]) -> list[str]:
        """`sig(n, d)`: a base case at d <= 0, else a call of `partner` (itself or its mutual
        partner) with d - 1, sometimes twice (d - 1 and d - 2, like fib)."""
        self.s = _Scope(["n", "d"], [], ["n"], calls, sig.ret)
        expr = self.int_expr if sig.ret == "int" else self.bool_expr
        body = f"{partner.name}({self.int_expr(1)}, d - 1)"
        if self.r.random() < 0.5:
            op = self.r.choice(["+", "-", "and", "or"] if sig.ret == "int" else ["and", "or"])
            body = f"({body} {op} {partner.name}({self.int_expr(1)}, d - 2))"
        else:
            body = f"({expr(1)} {self.r.choice(['and', 'or'])} {body})"
        return [f"def {sig.name}(n: int, d: int) -> {sig.ret}:", "    if d <= 0:",
                f"        return {expr(2)}", f"    n = {self.int_expr(1)}", f"    return {body}", ""]  # fmt: skip

    def program(self) -> GenProgram:
        r, lines, calls = self.r, [], []
        if r.random() < 0.6:
            rec = Sig("rec", ("int", "int"), "int", depth=True)
            lines += self.recursive(rec, rec, [])
            calls.append(rec)
        if r.random() < 0.4:
            ev, od = Sig("ev", ("int", "int"), "bool", True), Sig("od", ("int", "int"), "bool", True)
            lines += self.recursive(ev, od, []) + self.recursive(od, ev, [])
            calls += [ev, od]
        if r.random() < 0.4:
            chk = Sig("chk", ("int", "bool"), "None")
            lines += self.function(chk, ("u", "v"), list(calls), 1)
            calls.append(chk)
        for k in range(r.randint(0, 2)):
            params = tuple(r.choice(["int", "int", "bool"]) for _ in range(r.randint(1, 3)))
            h = Sig(f"h{k + 1}", params, r.choice(["int", "int", "bool", "None"]))
            lines += self.function(h, tuple(f"u{i}" for i in range(len(params))), list(calls), 1)
            calls.append(h)
        ret = "int" if r.random() < 0.8 else "bool"
        f = Sig("f", ("int", "int", "bool"), ret)
        lines += self.function(f, ("a", "b", "c"), calls, 3, ints=("x", "y"))
        return GenProgram("\n".join(lines), "f", f.params)
