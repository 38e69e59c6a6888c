def fib_pair(n: int, a: int, b: int) -> int:
    # tail-recursive helper: after k steps (a, b) = (fib(k), fib(k + 1))
    if n == 0:
        return a
    return fib_pair(n - 1, b, a + b)


def fib(n: int) -> int:
    return fib_pair(n, 0, 1)
