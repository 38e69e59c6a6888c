# Division or modulo by zero raises ZeroDivisionError (both operators, also in an augmented
# assignment); short-circuiting can avoid it.


# ratio(10, 2) == 5
# ratio(1, 0) raises ZeroDivisionError
def ratio(a: int, b: int) -> int:
    return a // b


# remainder(7, 0) raises ZeroDivisionError
def remainder(a: int, b: int) -> int:
    a %= b
    return a


# guarded(0) == False
def guarded(b: int) -> bool:
    return b != 0 and 100 // b > 1
