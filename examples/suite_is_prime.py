# gpucc suite: primality.


def is_prime(n: int) -> bool:
    """Return True if n is a prime number (n may be any int)."""
    ...


@cases([2, 3, 5, 13, 97, 7919, 104729])
def test_primes(n: int) -> None:
    assert is_prime(n)


@cases([-7, 0, 1, 4, 9, 25, 91, 7917, 104727])
def test_composites(n: int) -> None:
    assert not is_prime(n)


@cases([(2, True), (49, False), (121, False), (127, True)])
def test_table(n: int, want: bool) -> None:
    assert is_prime(n) == want


def count_primes(below: int) -> int:
    count = 0
    for n in range(below):
        if is_prime(n):
            count += 1
    return count


def test_count() -> None:
    assert count_primes(200) == 46
