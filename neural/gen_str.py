"""The str forms of the random programs (neural/gen.py): `str` and `list[str]` expressions, the
scalars read from strs, and the str statements.

Expressions: names, literals (empty, ASCII, escapes, Unicode with case rules of their own:
'ß', 'İ', 'Σ', astral chars, whitespace of several kinds), `+`, `* n`, indexing and slices
(negative, out of range, any step), `str()` of ints and bools, `chr`, the case methods, strip
(with and without chars), replace, the padding methods, `join`, conditional expressions and
calls of str-returning helpers; `list[str]` from `split` / `rsplit` (with and without sep and
maxsplit), literals and `sorted`.  Scalars: `len`, `ord`, `find` and friends, `count`, `int()`
of digit strings, `in` / `not in`, the six comparisons, `==` of lists of strs, the `is*` tests,
`startswith` / `endswith`.  Statements: assignment, `s += e`, `for ch in s`.

Growth stays bounded, as for lists (no garbage collection within a job yet): inside a loop a
str grows only by a literal, and `*` repeats a literal.
"""

from __future__ import annotations

STR_TYPES = ("str", "list[str]")
STR_LITERALS = ('""', '"a"', '"abc"', '"Hello World"', '"  padded\\t"', '"ß"', '"İstanbul"', '"ΣΑΣ"',
                '"\\U0001F600x"', '"a,b,,c"', '"123"', '"-42"', '"x\\ny"', '"\\u00e9t\\u00e9"', '"ǅemal"',
                '"MiXeD cAsE"', '"\\x00\\x7f"', '"1_000"', '" 7 "', '"aaa"', '"ﬁ"', '"\\u2003 \\u3000"')  # fmt: skip
SEPARATORS = ('","', '" "', '"a"', '"ab"', '"\\n"', '"ß"')
CASE_METHODS = ("lower", "upper", "swapcase", "capitalize", "title", "casefold")
IS_METHODS = ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isdecimal", "isnumeric")
FIND_METHODS = ("find", "rfind", "count", "index", "rindex")
PAD_METHODS = ("center", "ljust", "rjust")
OLD_PARTS = SEPARATORS + ('""',)  # replace's old part: the empty str inserts between every char
INT_TEXTS = ('"123"', '"-42"', '" 7 "', '"1_000"', '"x"', '"٣"', '"99999999999999999999"')


class StrGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, expr, int_expr, index, slice_parts,
    repeat, truth and call)."""

    def str_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.3:
            if s.names["str"] and r.random() < 0.7:
                return r.choice(s.names["str"])
            return r.choice(STR_LITERALS)
        e = lambda: self.str_expr(d - 1)
        k = r.randrange(14)
        if k == 0:
            return f"({e()} + {r.choice(STR_LITERALS) if s.loops else e()})"
        if k == 1:
            return f"({r.choice(STR_LITERALS)} * {self.repeat(d - 1)})"
        if k == 2:
            return f"{e()}[{self.index(d - 1)}]"
        if k == 3:
            return f"{e()}[{self.slice_parts(d - 1)}]"
        if k == 4:
            return f"str({self.int_expr(d - 1) if r.random() < 0.8 else self.bool_expr(d - 1)})"
        if k == 5:
            return f"chr({r.choice(['65', '0x1F600', '223', '931', f'({self.int_expr(d - 1)}) % 1114112'])})"
        if k == 6:
            return f"{e()}.{r.choice(CASE_METHODS)}()"
        if k == 7:
            chars = r.choice(["", '" "', '"ab"', '"x"'])
            return f"{e()}.{r.choice(['strip', 'lstrip', 'rstrip'])}({chars})"
        if k == 8:
            count = r.choice(["", ", 1", ", 0", ", -1", ", 2"])
            return f"{e()}.replace({r.choice(OLD_PARTS)}, {r.choice(STR_LITERALS[:4])}{count})"
        if k == 9:
            width = r.choice(["0", "5", "-2", "12", f"({self.int_expr(d - 1)}) % 9"])
            if r.random() < 0.3:
                return f"{e()}.zfill({width})"
            fill = r.choice(["", ', "*"', ', "ß"'])
            return f"{e()}.{r.choice(PAD_METHODS)}({width}{fill})"
        if k == 10:
            return f"{r.choice(OLD_PARTS)}.join({self.str_list_expr(d - 1)})"
        if k == 11:
            return f"({e()} if {self.truth(d - 1)} else {e()})"
        if k == 12:
            return self.call("str", d)
        return e()

    def str_list_expr(self, d: int) -> str:
        r, s = self.r, self.s
        if d <= 0 or r.random() < 0.3:
            if s.names["list[str]"] and r.random() < 0.7:
                return r.choice(s.names["list[str]"])
            return f"[{', '.join(r.choice(STR_LITERALS) for _ in range(r.randint(0, 3)))}]"
        k = r.randrange(4)
        if k == 0:
            return f"{self.str_expr(d - 1)}.split()"
        if k == 1:
            maxsplit = r.choice(["", ", 1", ", 0", ", -1"])
            return f"{self.str_expr(d - 1)}.{r.choice(['split', 'rsplit'])}({r.choice(SEPARATORS)}{maxsplit})"
        if k == 2:
            return f"sorted({self.str_list_expr(d - 1)})"
        return self.call("list[str]", d)

    def str_scalar(self, type_: str, d: int) -> str | None:
        """An int or bool expression read from strs, or None (a body without strs, mostly)."""
        r, s = self.r, self.s
        if not (s.names["str"] or s.names["list[str]"]) and r.random() < 0.7:
            return None
        t = lambda: self.str_expr(d - 1)
        if type_ == "int":
            k = r.randrange(4)
            if k == 0:
                return f"len({t() if r.random() < 0.8 else self.str_list_expr(d - 1)})"
            if k == 1:
                return f"ord({t()}[{self.index(d - 1)}])"
            if k == 2:
                return f"{t()}.{r.choice(FIND_METHODS)}({r.choice(SEPARATORS + STR_LITERALS[:3])})"
            return f"int({r.choice(INT_TEXTS) if r.random() < 0.7 else 'str(' + self.int_expr(d - 1) + ')'})"
        k = r.randrange(5)
        if k == 0:
            return f"({t()} {r.choice(['in', 'not in'])} {t() if r.random() < 0.6 else self.str_list_expr(d - 1)})"
        if k == 1:
            return f"({t()} {r.choice(['<', '<=', '==', '!=', '>', '>='])} {t()})"
        if k == 2:
            return f"({self.str_list_expr(d - 1)} {r.choice(['==', '!='])} {self.str_list_expr(d - 1)})"
        if k == 3:
            return f"{t()}.{r.choice(IS_METHODS)}()"
        return f"{t()}.{r.choice(['startswith', 'endswith'])}({r.choice(SEPARATORS + STR_LITERALS[:3])})"

    def str_stmt(self, ind: int, d: int) -> list[str]:
        """One statement over a str the body may assign (or a `for` over a str)."""
        r, s, pad = self.r, self.s, "    " * ind
        names = s.assignable["str"]
        if not names:
            return [f"{pad}pass"]
        name = r.choice(names)
        k = r.randrange(3 if d > 0 else 2)
        if k == 0:
            return [f"{pad}{name} = {self.str_expr(2)}"]
        if k == 1:
            return [f"{pad}{name} += {r.choice(STR_LITERALS) if s.loops else self.str_expr(1)}"]
        v = f"ch{s.loops}"
        out = [f"{pad}for {v} in {self.str_expr(1)}:"]
        saved = s.names["str"]
        s.names["str"] = saved + [v]
        out += self.loop_body(ind, d, [])
        s.names["str"] = saved
        return out
