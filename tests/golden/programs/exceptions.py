# raise and try / except / else / finally: what is caught, what goes on, what runs on the way out.


# parse_or("12", -1) == 12
# parse_or("x", -1) == -1
# parse_or("", -1) raises IndexError
def parse_or(s: str, default: int) -> int:
    if s == "":
        raise IndexError("empty")
    try:
        return int(s)
    except ValueError:
        return default


# ratio(6, 3) == 2
# ratio(6, 0) raises ZeroDivisionError
# ratio(-6, 3) raises ValueError
def ratio(a: int, b: int) -> int:
    if a < 0:
        raise ValueError("negative")
    try:
        return a // b
    except ZeroDivisionError:
        raise


# steps(4) == 134
# steps(-1) == 234
def steps(n: int) -> int:
    log = []
    try:
        log.append(10 // (n + 1) * 0 + 1)
    except ZeroDivisionError:
        log.append(2)
    finally:
        log.append(3)
    log.append(4)
    return log[0] * 100 + log[1] * 10 + log[2]


# guarded(2) == 6
# guarded(0) raises ZeroDivisionError
def guarded(n: int) -> int:
    t = 1
    try:
        t = 12 // n
    finally:
        t += 0
    return t
