def sum_squares(n: int) -> int:
    total = 0
    for k in range(1, n + 1):
        total += k * k
    return total
