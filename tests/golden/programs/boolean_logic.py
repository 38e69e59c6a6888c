# Comparison chains evaluate each operand once and stop early; `and` / `or` return an operand
# (Python's values), `not` returns a bool.


# chain(1, 2, 3) == True
# chain(1, 3, 2) == False
# chain(2, 2, 2) == False
def chain(a: int, b: int, c: int) -> bool:
    return a < b <= c != a


# first_falsy(0, 5) == 0
# first_falsy(3, 5) == 5
# first_falsy(3, 0) == 0
def first_falsy(a: int, b: int) -> int:
    return a and b


# first_truthy(0, 5) == 5
# first_truthy(0, 0) == 0
# first_truthy(-1, 5) == -1
def first_truthy(a: int, b: int) -> int:
    return a or b


# safe_ratio(0) == False
# safe_ratio(4) == True
# safe_ratio(20) == False
def safe_ratio(d: int) -> bool:
    return d != 0 and 10 // d >= 1 and not d > 10


# truth_of(0, False) == 2
# truth_of(7, False) == 1
# truth_of(0, True) == 1
def truth_of(n: int, flag: bool) -> int:
    if n and not flag or flag and not n:
        return 1
    return 2
