def squares(xs: list[int], k: int) -> list[int]:
    """A list comprehension: its own x (the parameter k is read), a condition, one list."""
    x = k
    return [x * x + k for x in xs if x > 0] + [x]


def pairs(n: int) -> int:
    """Nested clauses over ranges (the second reads the first's variable); sum folds."""
    return sum(i * j for i in range(n) for j in reversed(range(i)) if j % 2 == 0)


def checks(words: list[str]) -> bool:
    """any / all stop at the first deciding element; min of numbers folds; all(xs) is bare."""
    return any(w.isupper() for w in words) and min(len(w) for w in words) > 1 and all(words)
