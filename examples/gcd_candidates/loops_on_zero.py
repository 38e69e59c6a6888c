def gcd(a: int, b: int) -> int:
    # never ends when exactly one argument is 0: subtracting 0 changes nothing
    while True:
        if a == b:
            return a
        if a > b:
            a -= b
        else:
            b -= a
