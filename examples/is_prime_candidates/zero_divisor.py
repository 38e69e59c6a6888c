def is_prime(n: int) -> bool:
    # counts the divisors, but range(n + 1) starts at 0: ZeroDivisionError
    if n < 2:
        return False
    count = 0
    for d in range(n + 1):
        if n % d == 0:
            count += 1
    return count == 2
