# range() with a step of zero raises ValueError; a literal zero step is compiled as a check too.


# walk(0) raises ValueError
# walk(2) == 12
def walk(step: int) -> int:
    total = 0
    for i in range(0, 7, step):
        total += i
    return total


# literal_zero() raises ValueError
def literal_zero() -> int:
    for i in range(5, 0, 0):
        return i
    return -1
