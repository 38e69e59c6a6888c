# ValueError where CPython has no int or float answer: an int to a negative int power (CPython
# gives a float; gpucc's documented difference), a negative float to a fractional power
# (CPython gives a complex), int() of nan, and a negative shift count.


# int_power(2, 10) == 1024
# int_power(2, -1) raises ValueError
# int_power(-1, -1) raises ValueError
def int_power(a: int, b: int) -> int:
    return a ** b


# root(16.0) == 4.0
# root(-8.0) raises ValueError
def root(x: float) -> float:
    return x ** 0.5


# truncate_nan(2.5) == 0
# truncate_nan(1e308) raises ValueError
def truncate_nan(x: float) -> int:
    big = x * 10.0  # inf for 1e308, and inf - inf is nan
    return int(big - big)


# shift_left(1, 3) == 8
# shift_left(1, -1) raises ValueError
def shift_left(a: int, n: int) -> int:
    return a << n


# shift_right(-8, 2) == -2
# shift_right(-8, -2) raises ValueError
def shift_right(a: int, n: int) -> int:
    return a >> n
