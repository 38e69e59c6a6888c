# An int result outside 64 bits raises OverflowError, never a silent wrap. (CPython's ints are
# unbounded: this is the language's one documented difference, and the differential tests
# check CPython with every arithmetic result range-checked.)


# add_one(9223372036854775806) == 9223372036854775807
# add_one(9223372036854775807) raises OverflowError
def add_one(x: int) -> int:
    return x + 1


# negate(-9223372036854775808) raises OverflowError
def negate(x: int) -> int:
    return -x


# floordiv_min(-9223372036854775808) raises OverflowError
def floordiv_min(x: int) -> int:
    return x // -1


# grow(31) == 2147483648
# grow(63) raises OverflowError
def grow(n: int) -> int:
    x = 1
    for i in range(n):
        x *= 2
    return x
