# if/elif/else, while, for over range with 1, 2 and 3 arguments (negative steps too), break,
# continue, nested loops and a return from inside a loop.


# classify(-3) == -1
# classify(0) == 0
# classify(5) == 1
# classify(500) == 2
def classify(n: int) -> int:
    if n < 0:
        return -1
    elif n == 0:
        return 0
    elif n < 100:
        return 1
    else:
        return 2


# ranges(5) == 55
# ranges(0) == 22
def ranges(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    for i in range(2, n):
        total += i * 2
    for i in range(10, 0, -3):
        total += i
    for i in range(n, -n, -2):
        total += 1
    return total


# skip_and_stop(10) == 25
# skip_and_stop(3) == 4
def skip_and_stop(n: int) -> int:
    total = 0
    i = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 2 == 0:
            continue
        total += i
    return total


# first_pair(10) == 209
# first_pair(2) == -1
def first_pair(n: int) -> int:
    for a in range(1, n):
        for b in range(a, n):
            if a * b == 18 and a != b:
                return a * 100 + b
    return -1


# loop_var_survives(4) == 3
# loop_var_survives(0) == -1
def loop_var_survives(n: int) -> int:
    i = -1
    for i in range(n):
        pass
    return i
