# Floor division and modulo follow Python (round toward -infinity, the remainder takes the
# divisor's sign); unary minus and plus; precedence.


# floordiv(7, 2) == 3
# floordiv(-7, 2) == -4
# floordiv(7, -2) == -4
# floordiv(-7, -2) == 3
# floordiv(0, -5) == 0
def floordiv(a: int, b: int) -> int:
    return a // b


# mod(7, 3) == 1
# mod(-7, 3) == 2
# mod(7, -3) == -2
# mod(-7, -3) == -1
# mod(-9223372036854775807, 10) == 3
def mod(a: int, b: int) -> int:
    return a % b


# mixed(5) == -11
# mixed(-5) == 20
def mixed(x: int) -> int:
    y = -x + +3 * 2 - x // 2 % 4
    y -= x * 2
    return y


# bool_arith(True, False) == 3
# bool_arith(False, True) == 1
def bool_arith(a: bool, b: bool) -> int:
    return a * 3 + b - (not a) * 0 + -b + (a and b) + (b or a) * 0 + b
