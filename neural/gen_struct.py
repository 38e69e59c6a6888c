"""The structured forms of the random programs (neural/gen.py): tuples, lists of tuples, nested
lists, `list[bool]` and `Optional[int]` expressions, the scalars read from them, and their
statements.

Expressions: pair literals and names, fields swapped, `min` / `max` of pairs and of lists of
pairs, `sorted`, indexing and slices, `+` and `* n`, conditional expressions, list
comprehensions building pairs, rows and bools (over lists of pairs with `a, b` targets, over
rows, over ranges), calls of helpers taking and returning these types; an Optional is None,
an int, a conditional of both or a name that is None on some paths.  Scalars: fields `p[0]`,
`m[i][j]`, `len`, `sum` of rows and bools, the six comparisons of tuples, `==` / `<` of nested
lists and of lists of pairs, `in` / `not in`, `any` / `all`, `is None` / `is not None`, `==`
of Optionals, and an Optional used as its int (`o + e`, `-o`, `o < e`: TypeError on None, as in
CPython).  Statements: swaps `a, b = b, a % b`, unpacking (`u, v = p`, `(u, v), w = p, e`,
`u, v = m[i]`), `m[i][j] = e`, `m[i][j] op= e`, `append`, `sort()`, `ps[i] = p`, `bs[i] = e`,
`for a, b in ps`, `for i, (a, b) in ...`, `for row in m`, `for b in bs`, and the Optional
idioms narrowing it to its int (`if o is None: o = e`, `if o is not None: t += o`, `t = o` after
them, `if o: ...`, `o != None and ...`, `while o is not None and o > 0`); its truth (`not o`,
`bool(o)`, `o if o else e`).

Every type holds ints and bools only: no float in a tuple, so neither nan's identity inside a
tuple comparison nor the numeric tower's conversions (tests/oracle/tower.py types no tuple)
can tell CPython from gpucc.  Growth stays bounded as for lists: inside a loop an expression
adds a literal and calls nothing; nothing appends inside a `for` over a list.
"""

from __future__ import annotations

PAIR, PAIRS, OPT = "tuple[int, int]", "list[tuple[int, int]]", "Optional[int]"
MATRIX, BOOLS = "list[list[int]]", "list[bool]"
STRUCT_TYPES = (PAIR, PAIRS, MATRIX, BOOLS, OPT)
STRUCT_LISTS = (PAIRS, MATRIX, BOOLS)  # lists a callee may append to
STRUCT_PARAMS = {PAIR: "pa", PAIRS: "pl", MATRIX: "ml", BOOLS: "bl"}  # the entry's structured parameters
LOCALS = {PAIR: "p", PAIRS: "ps", MATRIX: "m", BOOLS: "bs", OPT: "o"}
OPT_SPELLINGS = ("Optional[int]", "int | None")
TUPLE_CMPS = ("<", "<=", "==", "!=", ">", ">=")


class StructGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, expr, int_expr, bool_expr, truth,
    index, slice_parts, repeat, small_range, list_expr, call, augassign and loop_body)."""

    def struct_expr(self, t: str, d: int) -> str:
        return {PAIR: self.pair_expr, PAIRS: self.pairs_expr, MATRIX: self.matrix_expr, BOOLS: self.bools_expr,
                OPT: self.opt_expr}[t](d)  # fmt: skip

    def _name_or(self, t: str, literal, d: int, p: float = 0.3) -> str | None:
        """A name of type t or a literal (at depth 0 or with probability p), else None."""
        r, s = self.r, self.s
        if d <= 0 or r.random() < p:
            if s.names[t] and r.random() < 0.7:
                return r.choice(s.names[t])
            return literal(max(d - 1, 0))
        return None

    def pair_literal(self, d: int) -> str:
        return f"({self.int_expr(d)}, {self.int_expr(d)})"

    def pair_expr(self, d: int) -> str:
        if leaf := self._name_or(PAIR, self.pair_literal, d):
            return leaf
        r, p = self.r, lambda: self.pair_expr(d - 1)
        k = r.randrange(7)
        if k == 0:
            name = r.choice(self.s.names[PAIR] or ["(1, 2)"])
            return f"({name}[1], {name}[0])"
        if k == 1:
            return f"{r.choice(['min', 'max'])}({p()}, {p()})"
        if k == 2:
            return f"{self.pairs_expr(d - 1)}[{self.index(d - 1)}]"
        if k == 3:
            return f"{r.choice(['min', 'max'])}({self.pairs_expr(d - 1)})"
        if k == 4:
            return f"sorted({self.pairs_expr(d - 1)})[{self.index(d - 1)}]"
        if k == 5:
            return f"({p()} if {self.truth(d - 1)} else {p()})"
        return self.call(PAIR, d)

    def _list_literal(self, item, d: int) -> str:
        return f"[{', '.join(item(d) for _ in range(self.r.randint(1, 3)))}]"

    def _grown(self, t: str, d: int, literal) -> str | None:
        """`+` and `*` of lists of type t (a literal operand inside loops), or None."""
        r, s = self.r, self.s
        k = r.randrange(3)
        again = lambda: self.struct_expr(t, d - 1)
        if k == 0:
            return f"({again()} + {literal(d - 1) if s.loops else again()})"
        if k == 1:
            return f"({literal(d - 1)} * {self.repeat(d - 1)})"
        return None

    def _list_forms(self, t: str, d: int, literal, comprehension) -> str:
        """The forms every structured list type takes: growth, sorted, slices, conditionals,
        comprehensions and calls."""
        r = self.r
        again = lambda: self.struct_expr(t, d - 1)
        k = r.randrange(6)
        if k == 0 and (grown := self._grown(t, d, literal)):
            return grown
        if k == 1:
            return f"sorted({again()})"
        if k == 2:
            return f"{again()}[{self.slice_parts(d - 1)}]"
        if k == 3:
            return f"({again()} if {self.truth(d - 1)} else {again()})"
        if k == 4:
            return comprehension(d)
        options = [g for g in self.s.calls if g.ret == t]
        return self.call_of(r.choice(options), d) if options and not self.s.loops else again()

    def pairs_literal(self, d: int) -> str:
        return self._list_literal(self.pair_literal, d)

    def pairs_expr(self, d: int) -> str:
        return self._name_or(PAIRS, self.pairs_literal, d) or self._list_forms(PAIRS, d, self.pairs_literal,
                                                                              self.pairs_comprehension)  # fmt: skip

    def pairs_comprehension(self, d: int) -> str:
        """`[(e, e) for cp in ps if c]` or `[(e, e) for v in range(...)]`."""
        if self.r.random() < 0.5:
            head, cp = self._over_pairs(d)
            return self._comprehension(lambda: self.pair_literal(d - 1), head, [cp], PAIR, d)
        v = f"cv{self.s.comprehensions}"
        return self._comprehension(lambda: self.pair_literal(d - 1), f"for {v} in range({self.small_range(d - 1)})",
                                   [v], "int", d)  # fmt: skip

    def _over_pairs(self, d: int) -> tuple[str, str]:
        """`for cp in ps` (gpucc unpacks no tuple in a comprehension's target) and cp."""
        cp = f"cp{self.s.comprehensions}"
        return f"for {cp} in {self.pairs_expr(d - 1)}", cp

    def _comprehension(self, element, head: str, names: list[str], t: str, d: int) -> str:
        """`[element head if c]`: names (of type t) readable in the element and condition."""
        r, s = self.r, self.s
        saved = s.names[t]
        s.names[t] = saved + names
        s.comprehensions += 1
        s.loops += 1
        text = element()
        cond = f" if {self.truth(d - 1)}" if r.random() < 0.4 else ""
        s.loops -= 1
        s.comprehensions -= 1
        s.names[t] = saved
        return f"[{text} {head}{cond}]"

    def matrix_literal(self, d: int) -> str:
        rows = [self.list_expr("list[int]", 0) if self.r.random() < 0.3 else self.r.choice(["[]", "[0, 1]"])
                for _ in range(self.r.randint(0, 2))]  # fmt: skip
        return f"[{', '.join(rows + [self.list_literal('list[int]', max(d, 1))])}]"  # a typed row last

    def matrix_expr(self, d: int) -> str:
        return self._name_or(MATRIX, self.matrix_literal, d) or self._list_forms(MATRIX, d, self.matrix_literal,
                                                                                self.matrix_comprehension)  # fmt: skip

    def matrix_comprehension(self, d: int) -> str:
        """`[[e] * n for v in range(...)]`, `[row[a:b] for row in m]` or `[[a, b] for a, b in ps]`."""
        r, s = self.r, self.s
        k = r.randrange(3)
        if k == 0:
            v = f"cv{s.comprehensions}"
            head = f"for {v} in range({self.small_range(d - 1)})"
            return self._comprehension(lambda: f"[{self.int_expr(d - 1)}] * {self.repeat(d - 1)}", head, [v], "int", d)
        if k == 1:
            row = f"cr{s.comprehensions}"
            head = f"for {row} in {self.matrix_expr(d - 1)}"
            element = lambda: r.choice([f"{row}[{self.slice_parts(d - 1)}]", f"sorted({row})", f"{row} + [{row}[0]]"])
            return self._comprehension(element, head, [row], "list[int]", d)
        head, cp = self._over_pairs(d)
        return self._comprehension(lambda: f"[{cp}[0], {self.int_expr(d - 1)}]", head, [cp], PAIR, d)

    def bools_literal(self, d: int) -> str:
        return self._list_literal(self.bool_expr, d)

    def bools_expr(self, d: int) -> str:
        return self._name_or(BOOLS, self.bools_literal, d) or self._list_forms(BOOLS, d, self.bools_literal,
                                                                              self.bools_comprehension)  # fmt: skip

    def bools_comprehension(self, d: int) -> str:
        """`[cp[0] < cp[1] for cp in ps]`, `[e for v in range(...)]` (e a bool)."""
        if self.r.random() < 0.5:
            head, cp = self._over_pairs(d)
            return self._comprehension(lambda: f"{cp}[0] < {cp}[1]", head, [cp], PAIR, d)
        v = f"cv{self.s.comprehensions}"
        return self._comprehension(lambda: self.bool_expr(d - 1), f"for {v} in range({self.small_range(d - 1)})",
                                   [v], "int", d)  # fmt: skip

    def opt_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.4:
            if s.names[OPT] and r.random() < 0.6:
                return r.choice(s.names[OPT])
            return "None" if r.random() < 0.5 else self.int_expr(max(d - 1, 0))
        k = r.randrange(4)
        o = lambda: self.opt_expr(d - 1)
        if k == 0:
            return f"({self.int_expr(d - 1)} if {self.truth(d - 1)} else None)"
        if k == 1:
            return f"(None if {self.truth(d - 1)} else {self.int_expr(d - 1)})"
        if k == 2:
            return f"({o()} if {self.truth(d - 1)} else {o()})"
        return self.call(OPT, d)

    # ------------------------------------------------------------ scalars

    def struct_scalar(self, type_: str, d: int) -> str | None:
        """An int or bool expression read from structured values, or None (mostly, when the
        body has none)."""
        r, s = self.r, self.s
        if getattr(s, "dicts", None) and r.random() < 0.35:  # f's dicts and sets: neural/gen_dict.py
            return self.dict_scalar(type_, d)
        if not any(s.names[t] for t in STRUCT_TYPES) and r.random() < 0.7:
            return None
        opt = s.names[OPT]
        if type_ == "int":
            k = r.randrange(9)
            if k == 0:
                return f"{self.pair_expr(d - 1)}[{r.choice(['0', '1', '-1', '-2'])}]"
            if k == 1:
                return f"len({self.struct_expr(r.choice(STRUCT_LISTS), d - 1)})"
            if k == 2:
                return f"{self.matrix_expr(d - 1)}[{self.index(d - 1)}][{self.index(d - 1)}]"
            if k == 3:
                return f"sum({self.matrix_expr(d - 1)}[{self.index(d - 1)}])"
            if k == 4:
                return f"sum({self.bools_expr(d - 1)})"
            if k == 5 and opt:  # used as its int: TypeError on None; or narrowed (never None there)
                o, e = r.choice(opt), self.int_expr(d - 1)
                if r.random() < 0.5:
                    return r.choice([f"({o} if {o} is not None else {e})", f"({e} if {o} is None else {o} * 2)",
                                     f"({o} if {o} else {e})"])  # fmt: skip
                return r.choice([f"({o} {r.choice(['+', '-', '*', '//', '%'])} {e})", f"({e} + {o})", f"-{o}",
                                 f"abs({o})", f"max({o}, 0)"])  # fmt: skip
            if k == 6:
                head, cp = self._over_pairs(d)
                element = lambda: f"{cp}[0] {r.choice(['+', '*', '-'])} {cp}[1]"
                return f"sum({self._comprehension(element, head, [cp], PAIR, d)})"
            if k == 7:
                return f"{self.pairs_expr(d - 1)}[{self.index(d - 1)}][{r.choice(['0', '1'])}]"
            return f"len({self.matrix_expr(d - 1)}[{self.index(d - 1)}])"
        k = r.randrange(9)
        if k == 0:
            return f"({self.pair_expr(d - 1)} {r.choice(TUPLE_CMPS)} {self.pair_expr(d - 1)})"
        if k == 1:
            return f"({self.pair_expr(d - 1)} {r.choice(['in', 'not in'])} {self.pairs_expr(d - 1)})"
        if k == 2:
            return f"{self.bools_expr(d - 1)}[{self.index(d - 1)}]"
        if k == 3 and opt:
            o = r.choice(opt)
            e = self.int_expr(d - 1)
            if r.random() < 0.5:  # its truth, or narrowed by the left operand
                return r.choice([f"(not {o})", f"bool({o})", f"({o} is not None and {o} > {e})",
                                 f"({o} is None or {o} < {e})", f"({o} != None and {e} <= {o} < {self.int_expr(d - 1)})"])
            return r.choice([f"({o} is None)", f"({o} is not None)", f"({o} == {self.opt_expr(d - 1)})", f"({o} != {e})",
                             f"({o} {r.choice(['<', '>='])} {e})"])  # fmt: skip
        if k == 4:
            t = r.choice((PAIRS, MATRIX, BOOLS))
            return f"({self.struct_expr(t, d - 1)} {r.choice(TUPLE_CMPS)} {self.struct_expr(t, d - 1)})"
        if k == 5:
            return f"({self.list_expr('list[int]', d - 1)} {r.choice(['in', 'not in'])} {self.matrix_expr(d - 1)})"
        if k == 6:
            return f"{r.choice(['any', 'all', 'bool', 'max', 'min'])}({self.bools_expr(d - 1)})"
        if k == 7:
            return f"({r.choice(['True', 'False'])} in {self.bools_expr(d - 1)})"
        head, cp = self._over_pairs(d)
        return f"{r.choice(['any', 'all'])}({self._comprehension(lambda: f'{cp}[0] < {cp}[1]', head, [cp], PAIR, d)})"

    # ------------------------------------------------------------ statements

    def struct_locals(self) -> list[str]:
        """Some of f's structured locals set: a pair, a list of pairs, a matrix, a list of
        bools, an Optional that is None on some paths."""
        r, s, out = self.r, self.s, []
        for t, v in LOCALS.items():
            if r.random() < (0.3 if t == OPT else 0.5):
                continue
            if t == OPT:
                out += self.optional_local(v)
            elif t != PAIR and r.random() < 0.25:
                out.append(f"    {v}: {t} = []")
            else:
                ann = f": {t}" if r.random() < 0.2 else ""
                out.append(f"    {v}{ann} = {self.struct_expr(t, 1)}")
            s.names[t].append(v)
            s.assignable[t].append(v)
        return out

    def optional_local(self, v: str) -> list[str]:
        """`v = None` (maybe annotated) set on some path, or an int set to None on some path."""
        r = self.r
        if r.random() < 0.6:
            ann = f": {r.choice(OPT_SPELLINGS)}" if r.random() < 0.4 else ""
            return [f"    {v}{ann} = None", f"    if {self.truth(1)}:", f"        {v} = {self.int_expr(1)}"]
        return [f"    {v} = {self.int_expr(1)}", f"    if {self.truth(1)}:", f"        {v} = None"]

    def struct_stmt(self, ind: int, d: int) -> list[str]:
        r, s, pad = self.r, self.s, "    " * ind
        if getattr(s, "dicts", None) and r.random() < 0.35 and (out := self.dict_stmt(ind, d)):
            return out
        ints = s.assignable["int"]
        k = r.randrange(9 if d > 0 else 7)
        if k == 0 and ints:
            a, b = r.choice(ints), r.choice(ints)
            rhs = r.choice([f"{b}, {a} % {b}", f"{b}, {a}", f"{b}, {a} + {b}", f"{self.int_expr(1)}, {a}"])
            return [f"{pad}{a}, {b} = {rhs}"]
        if k == 1 and ints:
            u, v, w = (r.choice(ints) for _ in range(3))
            forms = [f"{u}, {v} = {self.pair_expr(2)}", f"({u}, {v}), {w} = {self.pair_expr(1)}, {self.int_expr(1)}",
                     f"{u}, {v} = {self.matrix_expr(1)}[{self.index(1)}]"]  # fmt: skip
            return [pad + r.choice(forms)]
        if k == 2 and s.assignable[OPT]:
            o, t = r.choice(s.assignable[OPT]), r.choice(ints or ["_"])
            if r.random() < 0.3 or not ints:
                return [f"{pad}{o} = {self.opt_expr(2)}"]
            return self.narrowing_stmt(pad, o, t)
        if k >= 7:
            return self.for_struct(ind, d)
        targets = [(n, t) for t in (PAIR,) + STRUCT_LISTS for n in s.assignable[t]]
        if not targets:
            return [f"{pad}pass"]
        name, t = r.choice(targets)
        if t == PAIR or k == 3:
            return [f"{pad}{name} = {self.struct_expr(t, 2)}"]
        return [pad + self.mutation(name, t)]

    def narrowing_stmt(self, pad: str, o: str, t: str) -> list[str]:
        """An Optional o narrowed to its int, read where only an int goes (int local t): after
        `is None` / `is not None` / `!= None` / its truth, in and after an `if`, in a `while`."""
        r, e = self.r, self.int_expr(1)
        k = r.randrange(7)
        if k == 0:
            return [f"{pad}if {o} is None:", f"{pad}    {o} = {e}"] + ([f"{pad}{t} = {o}"] if r.random() < 0.5 else [])
        if k == 1:
            return [f"{pad}if {o} is not None:", f"{pad}    {t} += {o}"]
        if k == 2:
            return [f"{pad}if {o} is not None and {o} > {e}:", f"{pad}    {t} = {o}"]
        if k == 3:
            return [f"{pad}if {o}:", f"{pad}    {t} = {o} * 2", f"{pad}elif {o} is None:", f"{pad}    {o} = {e}",
                    f"{pad}else:", f"{pad}    {t} = {o} - 1"]  # fmt: skip
        if k == 4:
            return [f"{pad}if {o} != None:", f"{pad}    {t} = {o}", f"{pad}    {o} = None"]
        if k == 5:
            return [f"{pad}{t} = {e} if {o} is None else {o}"]
        return [f"{pad}while {o} is not None and {o} > 0:", f"{pad}    {t} += {o}", f"{pad}    {o} = {o} // 3"]

    def mutation(self, name: str, t: str) -> str:
        """An item store, augmented store, append or sort() of list `name` (of type t)."""
        r, s = self.r, self.s
        k = r.randrange(4)
        if k == 0 and s.list_loops:  # nothing appends inside a `for` over a list
            k = 1
        if k == 0 and t != MATRIX or k == 0 and r.random() < 0.5:
            row = lambda d: self.list_expr("list[int]", d)
            item = {PAIRS: self.pair_expr, MATRIX: row, BOOLS: self.bool_expr}[t](1)
            return f"{name}.append({item})"
        if k == 1:
            return f"{name}.sort()"
        if t == MATRIX:
            i, j = self.index(1, calls=False), self.index(1, calls=False)
            if k == 0:
                return f"{name}[{i}].append({self.int_expr(1)})"
            return f"{name}[{i}][{j}] {self.augassign('int')}" if k == 2 else f"{name}[{i}][{j}] = {self.int_expr(2)}"
        value = self.pair_expr(2) if t == PAIRS else self.bool_expr(2)
        return f"{name}[{self.index(1)}] = {value}"

    def for_struct(self, ind: int, d: int) -> list[str]:
        """`for a, b in ps`, `for i, (a, b) in [(e, row) ...]`, `for row in m` or `for b in bs`."""
        r, s, pad = self.r, self.s, "    " * ind
        n = s.loops
        k = r.randrange(4)
        readable = {"int": [], "list[int]": [], "bool": []}
        if k == 0:
            a, b = f"a{n}", f"b{n}"
            head, readable["int"] = f"for {a}, {b} in {self.pairs_expr(1)}:", [a, b]
        elif k == 1:
            i, a, b, row = f"i{n}", f"a{n}", f"b{n}", f"cr{s.comprehensions}"
            source = f"[({self.int_expr(0)}, {row}) for {row} in {self.matrix_expr(1)}]"
            head, readable["int"] = f"for {i}, ({a}, {b}) in {source}:", [i, a, b]
        elif k == 2:
            head, readable["list[int]"] = f"for r{n} in {self.matrix_expr(1)}:", [f"r{n}"]
        else:
            head, readable["bool"] = f"for vb{n} in {self.bools_expr(1)}:", [f"vb{n}"]
        saved = {t: s.names[t] for t in readable}
        for t, names in readable.items():
            s.names[t] = saved[t] + names
        s.list_loops += 1
        out = [pad + head] + self.loop_body(ind, d, [])
        s.list_loops -= 1
        s.names.update(saved)
        return out
