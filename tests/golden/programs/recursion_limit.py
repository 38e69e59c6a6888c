# Recursion without a base case raises RecursionError (the VM allows 256 frames, CPython
# about 1000: both raise it here).


# down(5) raises RecursionError
def down(n: int) -> int:
    return down(n - 1) + 1


# ping(0) raises RecursionError
def ping(n: int) -> bool:
    return pong(n + 1)


def pong(n: int) -> bool:
    return ping(n + 1)
