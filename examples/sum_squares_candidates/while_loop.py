def square(k: int) -> int:
    return k * k


def sum_squares(n: int) -> int:
    total = 0
    k = 1
    while k <= n:
        total = total + square(k)
        k += 1
    return total
