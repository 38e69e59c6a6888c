# OverflowError past the int64 range or the float range: int() of inf or of a float beyond
# int64, a float power too large for a double, a shift past 64 bits, abs() of INT64_MIN.


# truncate(-2.5) == -2
# truncate(9.3e18) raises OverflowError
def truncate(x: float) -> int:
    return int(x)


# truncate_scaled(1.5, 10.0) == 15
# truncate_scaled(1e308, 10.0) raises OverflowError
def truncate_scaled(x: float, k: float) -> int:
    return int(x * k)  # inf


# float_power(2.0, 10) == 1024.0
# float_power(2.0, 10000) raises OverflowError
def float_power(x: float, n: int) -> float:
    return x ** n


# shift_left(1, 62) == 4611686018427387904
# shift_left(1, 63) raises OverflowError
# shift_left(1, 64) raises OverflowError
# shift_left(0, 64) == 0
def shift_left(a: int, n: int) -> int:
    return a << n


# absolute(-9223372036854775807) == 9223372036854775807
# absolute(-9223372036854775808) raises OverflowError
def absolute(a: int) -> int:
    return abs(a)
