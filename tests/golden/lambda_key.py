def by_length(words: list[str]) -> list[str]:
    """sorted with a lambda key and reverse=True: pairs (key, -index), sorted, read backwards."""
    return sorted(words, key=lambda w: len(w), reverse=True)


def closest(xs: list[int], t: int) -> int:
    """min with a key: the first of the least keys; a nested helper typed from its call."""
    def dist(a, b):
        return abs(a - b)
    return min(xs, key=lambda x: dist(x, t))
