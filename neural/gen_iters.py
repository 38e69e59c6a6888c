"""The forms of issue 13's items 4-6 in the random programs (neural/gen.py, under `Shape.iters`:
the fuzzer's shape, not the neural curriculum's): heapq, functools.reduce, itertools,
pow(a, b, m), isinstance, `xs *= n` and `d |= e`.

Reads (anywhere an int or bool goes): `pow(a, b, m)` (ValueError for m == 0 and a base not
invertible), `isinstance(v, T)` of a name of f's, sums and lengths over itertools'
permutations / combinations / combinations_with_replacement / product / chain of a `list[int]`,
`heapq.nsmallest` / `nlargest`.  Statements: an int local set to a `functools.reduce` (TypeError
of an empty list without init), an accumulate or a groupby fold; heapq's push / pop / heapify /
heapreplace / heappushpop on a `list[int]` (IndexError when empty); `ys *= e % 2` and
`dd |= {k: v}`.  A list is changed only outside `for v in xs` loops (neural/gen_lists.py's
rule); the heapq functions always take a `list[int]` (a prelude function has one signature).
"""

from __future__ import annotations

IMPORTS = ["import functools", "import heapq", "import itertools", "from itertools import accumulate, groupby", ""]
CLASSES = ("int", "float", "bool", "str", "list", "tuple", "dict", "set", "(int, float)", "(str, list)")
FOLDS = ("p + q", "p * 2 - q", "max(p, q)", "p ^ q", "min(p, q) - 1")


class IterGen:
    """Mixed into neural/gen_expr.ExprGen (uses its r, s, int_expr); `self.iters` turns it on."""

    def _ints(self) -> str | None:
        names = self.s.names.get("list[int]", [])
        return self.r.choice(names) if names else None

    def iter_scalar(self, type_: str, d: int) -> str | None:
        """An int or bool of the forms above (parenthesized where it is an operation), or None."""
        r, s = self.r, self.s
        if type_ == "bool":
            typed = [t for t in ("int", "bool", "str", "list[int]") if s.names.get(t)]  # a float's is not static
            return f"isinstance({r.choice(s.names[r.choice(typed)])}, {r.choice(CLASSES)})" if typed else None
        xs, k = self._ints(), r.randrange(4)
        if k == 0 or not xs:
            return f"pow({self.int_expr(d - 1)}, {self.int_expr(d - 1)}, {self.int_expr(d - 1)})"
        if k == 1:
            return f"sum(heapq.{r.choice(['nsmallest', 'nlargest'])}({r.randint(-1, 4)}, {xs}))"
        n = r.randint(1, 3)
        it = r.choice([f"itertools.permutations({xs}, {n})", f"itertools.combinations({xs}, {n})",
                       f"itertools.combinations_with_replacement({xs}, {min(n, 2)})",
                       f"itertools.product({xs}, {r.choice(s.names['list[int]'])})",
                       f"itertools.product({xs}, repeat={min(n, 2)})"])  # fmt: skip
        if k == 2:
            return f"len(list({it}))"
        if r.random() < 0.3:
            return f"sum(itertools.chain({xs}, [{self.int_expr(d - 1)}]))"
        return f"sum(p[0] - p[-1] * {r.randint(-3, 3)} for p in {it})"

    def iter_stmt(self, ind: int, d: int) -> list[str]:
        """One statement of the forms above."""
        r, s, pad = self.r, self.s, "    " * ind
        t, xs = r.choice(s.assignable["int"]), self._ints()
        lists = [v for v in s.assignable.get("list[int]", []) if s.list_loops == 0]
        dicts = [n for n, u in getattr(s, "dicts", ()) if u.startswith("dict")]
        k = r.randrange(5)
        if k == 0 and xs:
            init = f", {self.int_expr(1)}" if r.random() < 0.6 else ""
            return [f"{pad}{t} = functools.reduce(lambda p, q: {r.choice(FOLDS)}, {xs}{init})"]
        if k == 1 and xs:
            return [f"{pad}{t} = " + r.choice([f"sum(accumulate({xs}))", f"len(list(groupby({xs})))",
                                                 f"sum(k * len(list(g)) for k, g in groupby(sorted({xs})))",
                                                 f"sum(accumulate({xs}, lambda p, q: {r.choice(FOLDS)}, initial=1))"])]  # fmt: skip
        if k == 2 and lists:
            ys, e = r.choice(lists), self.int_expr(1)
            return [pad + r.choice([f"heapq.heappush({ys}, {e})", f"{t} = heapq.heappop({ys})", f"heapq.heapify({ys})",
                                    f"{t} = heapq.heapreplace({ys}, {e})", f"{t} = heapq.heappushpop({ys}, {e})"])]  # fmt: skip
        if k == 3 and lists:
            return [f"{pad}{r.choice(lists)} *= ({self.int_expr(1)}) % 2"]
        if k == 4 and dicts:
            return [f"{pad}{r.choice(dicts)} |= {{({self.int_expr(1)}) % 5: {self.int_expr(1)}}}"]
        return [f"{pad}{t} = {self.iter_scalar('int', self.shape.expr_depth)}"]
