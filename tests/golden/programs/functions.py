# Helpers, self and mutual recursion, functions returning None, bool parameters and returns.


def square(x: int) -> int:
    """A helper."""
    return x * x


# sum_squares(3) == 14
# sum_squares(0) == 0
def sum_squares(n: int) -> int:
    total: int = 0
    for i in range(1, n + 1):
        total += square(i)
    return total


# fib(10) == 55
# fib(1) == 1
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


# is_even(10) == True
# is_even(7) == False
def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


def check_positive(x: int) -> None:
    if x > 0:
        return
    assert x > 0


# checked_double(4) == 8
# checked_double(-4) raises AssertionError
def checked_double(x: int) -> int:
    check_positive(x)
    return 2 * x


# depth(200) == 200
def depth(n: int) -> int:
    if n == 0:
        return 0
    return 1 + depth(n - 1)
