def gcd(a: int, b: int) -> int:
    # wrong: the smaller number is not always a divisor of the larger
    if a < b:
        return a
    return b
