def is_prime(n: int) -> bool:
    # wrong: d * d < n misses squares of primes (9, 25, 49, ...)
    if n < 2:
        return False
    d = 2
    while d * d < n:
        if n % d == 0:
            return False
        d += 1
    return True
