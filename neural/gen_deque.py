"""The collections.deque forms of the random programs (neural/gen.py; Shape.collections, the
fuzzer's shape only): f's local `qq = deque([...])` (or `deque()`), the ints and bools read from
it and the statements that change it (neural/gen_dict.py draws them beside its dicts' and
Counter's: the deque is one of `self.s.dicts`).

Reads: `len`, `q[i]` (IndexError), `sum` / `min` / `max` (ValueError of an empty one), `count`,
`index` (ValueError), `sorted(q)[i]`, `list(q)[i]`, `in`, `==` of deques, truth.  Statements:
append / appendleft, extend / extendleft of a list display, pop / popleft (IndexError), an int
local set from popleft, `q[i] = e`, rotate (both signs), remove (ValueError), reverse, clear, a
loop folding it into an int local and a BFS-like `while q` draining it.
"""

from __future__ import annotations

DEQUE = "deque[int]"


class DequeGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, int_expr, index and gen_dict's _key /
    _keyed); sets deque_used, so that neural/gen.py imports deque."""

    def _items(self, d: int) -> str:
        return ", ".join(self._key(d) for _ in range(self.r.randint(0, 4)))

    def deque_local(self, made: list) -> list[str]:
        """`qq = deque([...])` or `qq = deque()`, added to made (f's keyed locals), and up to two
        statements changing it (the forms show up often enough: tests/compiler/test_differential.py)."""
        self.deque_used = True
        made.append(("qq", DEQUE))
        items = self._items(1)
        out = [f"    qq = deque([{items}])" if items or self.r.random() < 0.5 else "    qq = deque()"]
        for _ in range(self.r.randint(0, 2)):
            out += self.deque_stmt("    ", "qq", 8)
        return out

    def deque_read(self, type_: str, d: int) -> str | None:
        """An int or bool read from f's deque (None when it has none)."""
        r, q = self.r, self._keyed(DEQUE)
        if not q:
            return None
        k = r.randrange(8)
        if type_ == "bool":
            if k < 3:
                return f"{self._key(d)} {r.choice(['in', 'not in'])} {q}"
            if k < 6:
                return f"{q} {r.choice(['==', '!='])} deque([{self._items(d - 1)}])"
            return f"bool({q})"
        if k == 0:
            return f"len({q})"
        if k == 1:
            return f"{q}[{self.index(d - 1)}]"
        if k == 2:
            return f"{r.choice(['sum', 'min', 'max'])}({q})"
        if k == 3:
            return f"{q}.{r.choice(['count', 'index'])}({self._key(d)})"
        if k == 4:
            return f"{r.choice(['sorted', 'list'])}({q})[{self.index(d - 1)}]"
        return f"sum(x * {r.randint(1, 9)} for x in {q})"

    def deque_stmt(self, pad: str, q: str | None = None, kinds: int = 12) -> list[str] | None:
        """A statement changing f's deque q (drawn when None), or a loop reading it, of the first
        `kinds` kinds (8: none that sets an int local); None when f has none."""
        r, q = self.r, q or self._keyed(DEQUE)
        if not q:
            return None
        k = r.randrange(kinds)
        if k < 3:
            return [f"{pad}{q}.{r.choice(['append', 'appendleft'])}({self._key(2)})"]
        if k == 3:
            return [f"{pad}{q}.{r.choice(['extend', 'extendleft'])}([{self._items(2)}])"]
        if k == 4:
            return [f"{pad}{q}.{r.choice(['pop', 'popleft'])}()"]
        if k == 5:
            return [f"{pad}{q}.rotate({r.randint(-5, 5)})" if r.random() < 0.8 else f"{pad}{q}.rotate()"]
        if k == 6:
            return [f"{pad}{q}[{self.index(1, calls=False)}] = {self._key(2)}"]
        if k == 7:
            return [f"{pad}{q}.remove({self._key(2)})" if r.random() < 0.6 else f"{pad}{q}.reverse()"]
        ints = self.s.assignable["int"]
        if not ints:
            return None
        t = r.choice(ints)
        if k == 8:
            return [f"{pad}{t} = {q}.popleft()"]
        if k == 9:
            return [f"{pad}for xx in {q}:", f"{pad}    {t} = ({t} * 7 + xx) % 1000003"]
        if k == 10:
            return [f"{pad}while {q}:", f"{pad}    {t} = ({t} * 5 + {q}.popleft()) % 1000003"]
        return [f"{pad}{q}.clear()"]
