def pick(a: int, b: int) -> int:
    return a and b or -1


def flags(x: int, strict: bool) -> bool:
    if x and not strict:
        return True
    return strict or x > 10 and x != 12
