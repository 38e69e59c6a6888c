# gpucc suite: greatest common divisor.
# Run: pytest --gpu-candidates examples/


def gcd(a: int, b: int) -> int:
    """Return the greatest common divisor of a >= 0 and b >= 0 (gcd(0, 0) == 0)."""
    ...


def divides(d: int, n: int) -> bool:
    return n % d == 0


@cases([(12, 18, 6), (18, 12, 6), (7, 5, 1), (100, 1, 1), (1071, 462, 21), (832040, 514229, 1), (9, 0, 9), (0, 9, 9), (0, 0, 0)])
def test_table(a: int, b: int, want: int) -> None:
    assert gcd(a, b) == want


def test_divides_both() -> None:
    for a in range(1, 40):
        for b in range(1, 40, 3):
            g = gcd(a, b)
            assert divides(g, a) and divides(g, b)
            assert gcd(b, a) == g
