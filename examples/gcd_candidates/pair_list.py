def gcd(a: int, b: int) -> int:
    pair = [a, b]
    while pair[1] != 0:
        pair = [pair[1], pair[0] % pair[1]]
    return pair[0]
