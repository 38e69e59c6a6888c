"""The list forms of the random programs (neural/gen.py): `list[int]` and `list[float]`
expressions, the scalars read from lists, and the list statements.

Expressions: names, literals (a `list[float]` literal holds at least one float; its int
elements are converted), indexing with negative and out-of-range indices, slices with any part
left out, negative and zero steps and int64-edge bounds, `+`, `* n` and `n *`, `sorted`, `and` /
`or`, conditional expressions and calls of list-returning helpers.  Scalars: `len`, `xs[i]`,
`sum`, `min`, `max`, `in` / `not in` (an int in a float list and the reverse), `==` / `!=`, a
list's truth.  Comprehensions: `[e for v in xs if c]` over a list or a small range, and the
generator expressions of `sum min max any all`.  Statements: assignment (plain and annotated, `[]` typed by its annotation or by
the float appended next), `xs[i] = e`, `xs[i] op= e`, `append`, `sort()`, `for v in xs`; with Shape.structs
(the fuzzer's) also `reverse()`, the other list methods (insert, extend, pop, remove, clear, index, count),
`xs += [...]` and `xs[a:b:k] = [...]`.

Growth stays bounded, so CPython and the VM's heap (no garbage collection within a job) both
finish: inside a loop a list expression never calls a function, `+` has a literal operand and
`*` repeats a literal; nothing appends inside `for v in xs` (whose list may be an alias).
"""

from __future__ import annotations

LIST_TYPES = ("list[int]", "list[float]")
EDGE_BOUNDS = ("0x7fff_ffff_ffff_ffff", "(-9223372036854775807 - 1)")


def elem(list_type: str) -> str:
    return list_type[5:-1]


class ListGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, expr and int_expr)."""

    def list_expr(self, t: str, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.3:
            if s.names[t] and r.random() < 0.75:
                return r.choice(s.names[t])
            return self.list_literal(t, max(d, 1))
        L = lambda: self.list_expr(t, d - 1)
        k = r.randrange(9)
        if s.loops:  # bounded growth: a literal operand, no calls
            if k < 3:
                return f"({L()} + {self.list_literal(t, d - 1)})" if k else f"({self.list_literal(t, d - 1)} + {L()})"
            if k == 3:
                return f"({self.list_literal(t, d - 1)} * {self.repeat(d - 1)})"
        elif k < 3:
            return f"({L()} + {L()})"
        elif k == 3:
            return f"({L()} * {self.repeat(d - 1)})" if r.random() < 0.7 else f"({self.repeat(d - 1)} * {L()})"
        if k == 4:
            return f"sorted({L()})"
        if k == 5:
            return f"{L()}[{self.slice_parts(d - 1)}]"
        if k == 6:
            return f"({L()} {r.choice(['and', 'or'])} {L()})"
        if k == 7:
            return f"({L()} if {self.truth(d - 1)} else {L()})"
        if k == 8 and r.random() < 0.5:
            return "[" + self.comprehension(elem(t), d) + "]"
        options = [g for g in s.calls if g.ret == t]
        if options and not s.loops:
            return self.call_of(r.choice(options), d)
        return L()

    def comprehension(self, type_: str, d: int) -> str:
        """`e for v in xs if c` (in brackets or a call's parentheses: the caller's), e of
        type_; v (named for its type and depth, a variable of the comprehension alone) runs
        over a list or a small range; the element and condition call nothing (as in a loop)."""
        r, s = self.r, self.s
        over = r.choice(LIST_TYPES + ("int",))
        source = f"range({self.small_range(d - 1)})" if over == "int" else self.list_expr(over, d - 1)
        v = f"c{elem(over)[0] if over != 'int' else 'i'}{s.comprehensions}"
        et = elem(over) if over != "int" else "int"
        saved = s.names[et]
        s.names[et] = saved + [v]
        s.comprehensions += 1
        s.loops += 1
        element = self.truth(d - 1) if type_ == "bool" else self.expr(type_, d - 1)
        cond = f" if {self.truth(d - 1)}" if r.random() < 0.4 else ""
        s.loops -= 1
        s.comprehensions -= 1
        s.names[et] = saved
        return f"{element} for {v} in {source}{cond}"

    def small_range(self, d: int) -> str:
        """range()'s arguments: at most about 9 values."""
        return self.r.choice(["3", "0", f"({self.int_expr(d)}) % 9", f"-2, ({self.int_expr(d)}) % 7"])

    def list_literal(self, t: str, d: int) -> str:
        """`[...]` of type t with 1 to 4 elements: a float list holds a float (ints converted)."""
        r, n = self.r, self.r.randint(1, 4)
        if t == "list[int]":
            items = [self.int_expr(d - 1) for _ in range(n)]
        else:
            items = [self.float_expr(d - 1)] + [self.num_expr(d - 1) for _ in range(n - 1)]
            r.shuffle(items)
        return f"[{', '.join(items)}]"

    def repeat(self, d: int) -> str:
        """A small repeat count, possibly negative or zero (an empty list)."""
        return self.r.choice(["0", "1", "2", "3", "-1", f"(({self.int_expr(d)}) % 4 - 1)"])

    def index(self, d: int, calls: bool = True) -> str:
        """An index: mostly within a short list, negative too, sometimes far out of range;
        calls=False: no call in it (the target of `xs[i] op= e`)."""
        r, k = self.r, self.r.random()
        if k < 0.4:
            return str(r.randint(-4, 4))
        if k < 0.75 or not calls:
            name = r.choice(self.s.names["int"] or ["0"])
            return f"{name} % {r.choice([2, 3, 5])} - {r.randint(0, 2)}"
        if k < 0.9:
            return f"len({self.list_expr(r.choice(LIST_TYPES), 0)}) - {r.randint(1, 2)}"
        return f"({self.int_expr(d)})"

    def slice_parts(self, d: int) -> str:
        r = self.r
        part = lambda: r.choice(["", "", str(r.randint(-6, 6)), str(r.randint(-2, 2)), f"({self.int_expr(d)}) % 7 - 3",
                                 r.choice(EDGE_BOUNDS)])  # fmt: skip
        if r.random() < 0.5:
            return f"{part()}:{part()}"
        step = r.choice(["", "1", "-1", "2", "-2", "3", f"({self.int_expr(d)}) % 5 - 2"])  # may be 0: ValueError
        return f"{part()}:{part()}:{step}"

    def some_list(self, d: int) -> str:
        return self.list_expr(self.r.choice(LIST_TYPES), d)

    def list_scalar(self, type_: str, d: int) -> str | None:
        """An int, float or bool expression read from a list, or None if the body has none."""
        r, s = self.r, self.s
        if not (s.names["list[int]"] or s.names["list[float]"]) and r.random() < 0.7:
            return None
        if r.random() < 0.2:  # a generator expression folded by its consumer
            if type_ == "bool":
                return f"{r.choice(['any', 'all'])}({self.comprehension('bool', d)})"
            return f"{r.choice(['sum', 'min', 'max'])}({self.comprehension(type_, d)})"
        if type_ == "bool":
            k = r.randrange(4)
            if k == 0:
                return f"({self.num_expr(d - 1)} {r.choice(['in', 'not in'])} {self.some_list(d - 1)})"
            if k == 1:
                t = r.choice(LIST_TYPES)
                return f"({self.list_expr(t, d - 1)} {r.choice(['==', '!='])} {self.list_expr(t, d - 1)})"
            return f"bool({self.some_list(d - 1)})" if k == 2 else f"(not {self.some_list(d - 1)})"
        if type_ == "int" and r.random() < 0.3:
            return f"len({self.some_list(d - 1)})"
        t = f"list[{type_}]"
        k = r.randrange(3)
        if k == 0:
            return f"{self.list_expr(t, d - 1)}[{self.index(d - 1)}]"
        if k == 1:
            return f"sum({self.list_expr(t, d - 1)})"
        return f"{r.choice(['min', 'max'])}({self.list_expr(t, d - 1)})"

    def list_stmt(self, ind: int, d: int) -> list[str]:
        """One statement over a list the body may assign (or a `for` over any list)."""
        r, s, pad = self.r, self.s, "    " * ind
        targets = [(n, t) for t in LIST_TYPES for n in s.assignable[t]]
        if not targets:
            return [f"{pad}pass"]
        name, t = r.choice(targets)
        k = r.randrange(7 if d > 0 else 6)
        if k == 0:
            return [f"{pad}{name} = {self.list_expr(t, 2)}"]
        if k == 1:
            value = self.expr(elem(t), 2) if t == "list[int]" or r.random() < 0.7 else self.int_expr(2)
            return [f"{pad}{name}[{self.index(1)}] = {value}"]
        if k == 2:
            return [f"{pad}{name}[{self.index(1, calls=False)}] {self.augassign(elem(t))}"]
        if k in (3, 4) and not s.list_loops:
            value = self.expr(elem(t), 2) if t == "list[int]" or r.random() < 0.7 else self.int_expr(2)
            return [f"{pad}{name}.append({value})"]
        if k in (3, 4, 5) and self.structs:  # the fuzzer's shape: index / count / remove name a typed constant
            return [f"{pad}{self.list_method(name, t, not s.list_loops)}"]
        if k in (3, 4, 5):
            return [f"{pad}{name}.sort()"]
        return self.for_list(ind, d)

    def list_method(self, name: str, t: str, grows: bool) -> str:
        """A statement calling a list method: sort() or reverse(), and where the list may grow
        (not inside `for v in xs`) the others, `+=` and a slice assignment, literal operands."""
        r = self.r
        k = r.randrange(11 if grows else 2)
        if k < 2:
            return f"{name}.{['sort()', 'reverse()'][k]}"
        value = self.expr(elem(t), 1) if t == "list[int]" or r.random() < 0.7 else self.int_expr(1)
        forms = [f"{name}.insert({self.index(1, calls=False)}, {value})", f"{name}.extend({self.list_literal(t, 1)})",
                 f"{name}.pop({self.index(1, calls=False) if r.random() < 0.7 else ''})", f"{name}.remove({value})",
                 f"{name}.clear()", f"{name} += {self.list_literal(t, 1)}", f"{name}.index({value})",
                 f"{name}.count({value})", f"{name}[{self.slice_parts(1)}] = {self.list_literal(t, 1)}"]
        return forms[k - 2]

    def for_list(self, ind: int, d: int) -> list[str]:
        """`for v in <list>:` with v an int or float loop variable named for its type."""
        s, t = self.s, self.r.choice(LIST_TYPES)
        v = f"v{elem(t)[0]}{s.loops}"
        out = ["    " * ind + f"for {v} in {self.list_expr(t, 1)}:"]
        s.list_loops += 1
        saved = s.names[elem(t)]
        s.names[elem(t)] = saved + [v]
        out += self.loop_body(ind, d, [])
        s.names[elem(t)] = saved
        s.list_loops -= 1
        return out
