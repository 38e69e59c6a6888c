def sum_squares(n: int) -> int:
    # wrong: range(n) stops at n - 1
    total = 0
    for k in range(n):
        total += k * k
    return total
