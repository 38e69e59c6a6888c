def fibonacci(n: int) -> int:
    # does not implement the interface: the suite calls fib()
    a = 0
    b = 1
    for _ in range(n):
        t = a + b
        a = b
        b = t
    return a
