"""The dict and set forms of the random programs (neural/gen.py, the fuzzer's shape only):
f's locals `dd: dict[int, int]` and `ss: set[int]`, the ints and bools read from them and the
statements that change them.

Locals: displays, `{}` / set() (typed by their annotation or by what goes in), comprehensions.
Reads: `len`, `d[k]` (KeyError), `get` with a default, `in` / `not in`, `sum` / `min` / `max` /
`sorted` of keys, values and elements, `|` `&` `-` `^` of sets, `==` of dicts and sets, `<=`,
and the iteration order itself (`[x for x in ss][i]`: CPython's table order for ints).
Statements: `d[k] = e`, `d[k] += e`, `del d[k]`, `d.pop(k, e)`, `setdefault`, `s.add`,
`s.discard`, `s.remove` (KeyError), rebinding to a comprehension, and loops over `dd`,
`dd.items()`, `dd.values()` and `ss` that fold into an int local (none changes the object it
iterates: CPython's RuntimeError is tests/compiler/test_lang_dicts.py's).  Keys are small
(an expression mod a small literal), so the objects stay small.  Under Shape.collections, a
`cc = Counter([...])` local too (its program imports Counter): `cc[k]` of missing keys,
`most_common`, `total`, `==`, `in`, `cc[k] op= e`, `del cc[k]`, `update` / `subtract` of a list
or a Counter, `+ - & |` of Counters and unary `+` / `-`; `gd = defaultdict(int)`, `gl =
defaultdict(list)` locals (their reads insert): `gd[k]`, `len`, `get`, `in`, `==`, `sum` of
values, `len(gl[k])`, `sum(gl[k])`, `gd[k] op= e`, `gl[k].append(e)`; a `qq = deque([...])` local
(neural/gen_deque.py); and the sets' in-place forms:
`ss |= e` (`&=` `-=` `^=`), `update`, `intersection_update`, `difference_update`,
`symmetric_difference_update` of a set, a list or `dd`, `union` / `intersection` / `difference` /
`symmetric_difference` of those, `issuperset`, `isdisjoint`, `<`, `>`, `pop` (KeyError), `clear`.
"""

from __future__ import annotations

from gpucc.neural.gen_deque import DEQUE

DICT, SET, COUNTER = "dict[int, int]", "set[int]", "Counter[int]"
DD_INT, DD_LIST = "defaultdict[int, int]", "defaultdict[int, list[int]]"


class DictGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, int_expr, index and truth).  The
    dict and set locals of the function being written are `self.s.dicts` (absent: none)."""

    def _key(self, d: int) -> str:
        return f"({self.int_expr(max(d - 1, 0))}) % {self.r.choice([3, 5, 7, 11])}"

    def _keyed(self, t: str) -> str | None:
        names = [n for n, u in getattr(self.s, "dicts", ()) if u == t]
        return self.r.choice(names) if names else None

    def dict_locals(self) -> list[str]:
        """f's dict and set locals (each with probability one half)."""
        r, out, made = self.r, [], []
        if r.random() < 0.5:
            pairs = ", ".join(f"{self._key(1)}: {self.int_expr(1)}" for _ in range(r.randint(0, 3)))
            out.append(f"    dd: {DICT} = {{{pairs}}}" if r.random() < 0.5 or not pairs else f"    dd = {{{pairs}}}")
            made.append(("dd", DICT))
        if r.random() < 0.5:
            items = [self._key(1) for _ in range(r.randint(0, 4))]
            out.append(f"    ss = {{{', '.join(items)}}}" if items else r.choice(["    ss = set()", f"    ss: {SET} = set()"]))
            made.append(("ss", SET))
        if self.shape.collections and r.random() < 0.4:  # Shape.collections: a Counter too
            out.append(f"    cc = Counter([{', '.join(self._key(1) for _ in range(r.randint(0, 5)))}])")
            made.append(("cc", COUNTER))
            self.counter_used = True  # neural/gen.py imports Counter
        for name, t, factory in (("gd", DD_INT, "int"), ("gl", DD_LIST, "list")):
            if self.shape.collections and r.random() < 0.3:  # and defaultdicts
                out.append(f"    {name} = defaultdict({factory})")
                made.append((name, t))
                self.defaultdict_used = True
        if self.shape.collections and r.random() < 0.4:  # a deque too: neural/gen_deque.py
            out += self.deque_local(made)
        self.s.dicts = made
        return out

    def counter_read(self, type_: str, d: int) -> str | None:
        """An int or bool read from f's Counter: a missing key counts 0, most_common, total,
        ==; None when f has none (Shape.collections)."""
        r, cc = self.r, self._keyed(COUNTER)
        if not cc:
            return None
        k = r.randrange(5)
        if type_ == "bool":
            other = ", ".join(self._key(d - 1) for _ in range(r.randint(0, 3)))
            return f"{self._key(d)} in {cc}" if k < 2 else f"{cc} {r.choice(['==', '!='])} Counter([{other}])"
        other = f"Counter([{', '.join(self._key(d - 1) for _ in range(r.randint(0, 3)))}])"
        if r.random() < 0.4:  # an operator's Counter
            op = r.choice(["+", "-", "&", "|", "u+", "u-"])
            made = f"({op[1]}{cc})" if op[0] == "u" else f"({cc} {op} {other})"
            return f"{made}[{self._key(d)}]" if k < 3 else f"len({made}) * 100 + sum({made}.values())"
        if k == 0:
            return f"{cc}.total()"
        if k == 1:
            return f"{cc}.most_common({self.index(d - 1)})[{self.index(d - 1)}][{r.choice([0, 1])}]"
        if k == 2:
            return f"sum(k * 10 + v for k, v in {cc}.most_common())"
        return f"{cc}[{self._key(d)}]"

    def counter_stmt(self, pad: str) -> list[str] | None:
        """A statement changing f's Counter: a count changed (a missing key's too) or deleted."""
        r, cc, ints = self.r, self._keyed(COUNTER), self.s.assignable["int"]
        if not cc:
            return None
        key = f"{r.choice(ints or ['1'])} % {r.choice([3, 5, 7])}"  # evaluated twice by op=: a name
        k = r.randrange(5)  # small counts: CPython's total() and most_common() are unchecked library code
        if k >= 3:
            items = ", ".join(self._key(2) for _ in range(r.randint(0, 3)))
            arg = f"[{items}]" if r.random() < 0.5 else f"Counter([{items}])"
            return [f"{pad}{cc}.{r.choice(['update', 'subtract'])}({arg})"]
        if k == 0:
            return [f"{pad}{cc}[{key}] {r.choice(['+=', '-='])} {r.randint(0, 9)}"]
        if k == 1:
            return [f"{pad}del {cc}[{self._key(2)}]"]
        return [f"{pad}{cc}[{self._key(2)}] = {r.randint(-3, 9)}"]

    def set_operand(self, d: int) -> str:
        """An argument of a set method: a set, a list of keys, or f's dict (Shape.collections)."""
        r, dd = self.r, self._keyed(DICT)
        k = r.randrange(4)
        if k == 0 and dd:
            return dd
        if k <= 1:
            return f"[{', '.join(self._key(d) for _ in range(r.randint(0, 4)))}]"
        return self.set_expr(d)

    def set_in_place(self, pad: str, ss: str) -> list[str]:
        """A statement changing set ss in place (Shape.collections)."""
        r = self.r
        k = r.randrange(5)
        if k == 0:
            return [f"{pad}{ss} {r.choice(['|=', '&=', '-=', '^='])} {self.set_expr(1)}"]
        if k == 1:
            return [f"{pad}{ss} = {ss}.{r.choice(['union', 'intersection', 'difference', 'symmetric_difference'])}"
                    f"({self.set_operand(1)})"]  # fmt: skip
        if k == 2 and self.s.assignable["int"]:
            return [f"{pad}{r.choice(self.s.assignable['int'])} = {ss}.pop()"]
        if k == 3 and r.random() < 0.2:
            return [f"{pad}{ss}.clear()"]
        method = r.choice(["update", "intersection_update", "difference_update", "symmetric_difference_update"])
        return [f"{pad}{ss}.{method}({self.set_operand(1)})"]

    def set_expr(self, d: int) -> str:
        r, s = self.r, self._keyed(SET)
        if self.shape.collections and s and d > 0 and r.random() < 0.2:
            name = r.choice(["union", "intersection", "difference", "symmetric_difference", "copy"])
            return f"{s}.{name}({self.set_operand(d - 1) if name != 'copy' else ''})"
        k = r.randrange(5)
        if s and (d <= 0 or k == 0):
            return s
        if k == 1 and s:
            return f"({s} {r.choice(['|', '&', '-', '^'])} {self.set_expr(d - 1)})"
        if k == 2 and (dd := self._keyed(DICT)):
            return f"set({dd}.values())" if r.random() < 0.3 else f"{{x % 4 for x in {dd}}}"
        return f"{{{', '.join(self._key(d) for _ in range(r.randint(1, 3)))}}}"

    def dict_scalar(self, type_: str, d: int) -> str | None:
        """An int or bool read from f's dicts and sets (parenthesized), or None when it has none."""
        read = self._read(type_, d)
        return f"({read})" if read else None

    def defaultdict_read(self, type_: str, d: int) -> str | None:
        """An int or bool read from f's defaultdicts (a missing key's read inserts it)."""
        r, gd, gl = self.r, self._keyed(DD_INT), self._keyed(DD_LIST)
        k = r.randrange(4)
        if type_ == "bool":
            if gd and k == 0:
                return f"{gd} {r.choice(['==', '!='])} {{{self._key(d - 1)}: {self.int_expr(d - 1)}}}"
            return f"{self._key(d)} {r.choice(['in', 'not in'])} {gd or gl}"
        if gl and (k < 2 or not gd):
            return f"{r.choice(['len', 'sum'])}({gl}[{self._key(d)}])"
        if k == 2:
            return r.choice([f"len({gd})", f"sum({gd}.values())", f"{gd}.get({self._key(d)}, {self.int_expr(d - 1)})"])
        return f"{gd}[{self._key(d)}]"

    def defaultdict_stmt(self, pad: str) -> list[str] | None:
        """A statement changing f's defaultdicts: a value changed (a missing key's made first)."""
        r, gd, gl, ints = self.r, self._keyed(DD_INT), self._keyed(DD_LIST), self.s.assignable["int"]
        if gl and (r.random() < 0.5 or not gd):
            return [f"{pad}{gl}[{self._key(2)}].append({self.int_expr(1)})"]
        key = f"{r.choice(ints or ['1'])} % {r.choice([3, 5, 7])}"  # evaluated twice by op=: a name
        return [f"{pad}{gd}[{key}] {r.choice(['+=', '-=', '='])} {self.int_expr(1)}"]

    def _read(self, type_: str, d: int) -> str | None:
        r, dd, ss = self.r, self._keyed(DICT), self._keyed(SET)
        if (self._keyed(DD_INT) or self._keyed(DD_LIST)) and r.random() < 0.4:
            return self.defaultdict_read(type_, d)
        if self._keyed(COUNTER) and r.random() < 0.5:
            return self.counter_read(type_, d)
        if self._keyed(DEQUE) and r.random() < 0.5:
            return self.deque_read(type_, d)
        if not dd and not ss:
            return None
        if type_ == "int":
            k = r.randrange(9)
            if dd and k == 0:
                return f"{dd}[{self._key(d)}]"
            if dd and k == 1:
                return f"{dd}.get({self._key(d)}, {self.int_expr(d - 1)})"
            if dd and k == 2:
                return f"sum({dd}.{r.choice(['values', 'keys'])}())"
            if dd and k == 3:
                return f"len({dd})"
            if ss and k == 4:
                return f"[x for x in {self.set_expr(d - 1)}][{self.index(d - 1)}]"
            if k == 5:
                return f"len({self.set_expr(d - 1)})"
            if k == 6:
                return f"{r.choice(['min', 'max', 'sum'])}({self.set_expr(d - 1)})"
            if dd and k == 7:
                return f"sorted({dd}.items())[{self.index(d - 1)}][{r.choice([0, 1])}]"
            return f"sum({self.set_expr(d - 1)})"
        k = r.randrange(5)
        if dd and k == 0:
            return f"{self._key(d)} {r.choice(['in', 'not in'])} {dd}"
        if dd and k == 1:
            return f"{dd} == {{{self._key(d)}: {self.int_expr(d - 1)}}}"
        if k == 2 and ss and self.shape.collections and r.random() < 0.5:
            if r.random() < 0.5:
                return f"{ss}.{r.choice(['issuperset', 'isdisjoint', 'issubset'])}({self.set_operand(d - 1)})"
            return f"{self.set_expr(d - 1)} {r.choice(['<', '>'])} {self.set_expr(d - 1)}"
        if k == 2:
            return f"{self.set_expr(d - 1)} {r.choice(['<=', '>=', '==', '!='])} {self.set_expr(d - 1)}"
        return f"{self._key(d)} {r.choice(['in', 'not in'])} {self.set_expr(d - 1)}"

    def dict_stmt(self, ind: int, d: int) -> list[str] | None:
        """A statement changing f's dicts or sets, or a loop folding one into an int; None when
        f has none."""
        r, pad, dd, ss = self.r, "    " * ind, self._keyed(DICT), self._keyed(SET)
        ints = self.s.assignable["int"]
        if (self._keyed(DD_INT) or self._keyed(DD_LIST)) and r.random() < 0.4:
            return self.defaultdict_stmt(pad)
        if self._keyed(COUNTER) and r.random() < 0.5:
            return self.counter_stmt(pad)
        if self._keyed(DEQUE) and r.random() < 0.5:
            return self.deque_stmt(pad)
        if not dd and not ss:
            return None
        if ss and self.shape.collections and r.random() < 0.3:
            return self.set_in_place(pad, ss)
        k = r.randrange(8)
        if dd and k == 0:  # an augmented one evaluates its key twice: a name, never a call
            op = r.choice(["=", "+=", "-="])
            key = self._key(2) if op == "=" else f"{r.choice(ints or ['1'])} % {r.choice([3, 5, 7])}"
            return [f"{pad}{dd}[{key}] {op} {self.int_expr(1)}"]
        if dd and k == 1:
            return [pad + r.choice([f"del {dd}[{self._key(2)}]", f"{dd}.pop({self._key(2)}, {self.int_expr(1)})",
                                    f"{dd}.setdefault({self._key(2)}, {self.int_expr(1)})"])]  # fmt: skip
        if dd and k == 2:
            return [f"{pad}{dd} = {{x: {r.choice(['x * x', 'x + 1', '-x'])} for x in {self.set_expr(1)}}}"]
        if ss and k == 3:
            return [f"{pad}{ss}.{r.choice(['add', 'add', 'discard', 'remove'])}({self._key(2)})"]
        if ss and k == 4:
            return [f"{pad}{ss} = {self.set_expr(2)}"]
        if not ints:
            return None
        t = r.choice(ints)
        if dd and k == 5:
            return [f"{pad}for kk, vv in {dd}.items():", f"{pad}    {t} = ({t} * 3 + kk - vv) % 1000003"]
        source = r.choice([n for n in (dd, ss, dd and f"{dd}.values()") if n])
        return [f"{pad}for xx in {source}:", f"{pad}    {t} = ({t} * 7 + xx) % 1000003"]
