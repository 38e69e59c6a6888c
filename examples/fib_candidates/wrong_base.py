def fib(n: int) -> int:
    # wrong: starts the sequence at 1, 1
    a = 1
    b = 1
    for _ in range(n):
        t = a + b
        a = b
        b = t
    return a
