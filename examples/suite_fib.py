# gpucc suite: Fibonacci numbers.


def fib(n: int) -> int:
    """Return the n-th Fibonacci number: fib(0) == 0, fib(1) == 1."""
    ...


@cases([(0, 0), (1, 1), (2, 1), (3, 2), (10, 55), (20, 6765)])
def test_table(n: int, want: int) -> None:
    assert fib(n) == want


def test_recurrence() -> None:
    for n in range(2, 16):
        assert fib(n) == fib(n - 1) + fib(n - 2)
