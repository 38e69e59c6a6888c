def scaled(xs: list[float], k: int) -> list[float]:
    """Python's order: in `ys[i] = v` v is evaluated first; `ys[i] op= v` reads ys[i] before v."""
    ys = xs[:]
    for i in range(len(ys)):
        ys[i] = ys[i] * k
        ys[i] += 0.5
    ys.append(k)
    return sorted(ys)


def total(xs: list[int]) -> int:
    t = 0
    for x in xs:
        if x in [1, 2] and bool(xs):
            t += x
    return t + sum(xs[::-1]) + len(xs)
