# A float divided by zero (`/`, `//`, `%`, also when the zero is an int or -0.0) raises
# ZeroDivisionError, as in CPython; so does 0.0 to a negative power.  A zero divisor never
# gives inf or nan.


# divide(7.0, 2.0) == 3.5
# divide(7.0, 0.0) raises ZeroDivisionError
# divide(-0.0, -0.0) raises ZeroDivisionError
def divide(x: float, y: float) -> float:
    return x / y


# floor_divide(-7.5, 2.0) == -4.0
# floor_divide(7.5, 0.0) raises ZeroDivisionError
def floor_divide(x: float, y: float) -> float:
    return x // y


# remainder(-7.5, 2) == 0.5
# remainder(7.5, 0) raises ZeroDivisionError
def remainder(x: float, n: int) -> float:
    x %= n
    return x


# power(0.0, 2.0) == 0.0
# power(0.0, -1.0) raises ZeroDivisionError
# power(-0.0, -3.0) raises ZeroDivisionError
def power(x: float, y: float) -> float:
    return x ** y
