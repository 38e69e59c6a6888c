def loops(n: int) -> int:
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        for j in range(i, 0, -1):
            if j > 5:
                break
            total += j
    k = 0
    while True:
        k += 1
        if k * k > n:
            break
    for d in range(0, n, k):
        total -= d
    return total + k
