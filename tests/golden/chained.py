def between(a: int, b: int, c: int) -> bool:
    return a < b <= c


def sorted4(a: int, b: int, c: int, d: int) -> bool:
    return a <= b <= c <= d
