# gpucc suite: sum of squares 1*1 + 2*2 + ... + n*n.


def sum_squares(n: int) -> int:
    """Return the sum of k * k for k = 1 .. n (0 when n <= 0)."""
    ...


@cases([(0, 0), (1, 1), (2, 5), (3, 14), (10, 385), (100, 338350), (1000, 333833500), (-5, 0)])
def test_table(n: int, want: int) -> None:
    assert sum_squares(n) == want


def test_differences() -> None:
    for n in range(1, 60):
        assert sum_squares(n) - sum_squares(n - 1) == n * n
