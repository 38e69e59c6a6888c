# A loop that never ends runs past the step limit, the VM's deterministic timeout (and past a
# CPython line budget in the test that runs this file).


# spin(1) runs past the step limit
def spin(n: int) -> int:
    while n > 0:
        n = n * 1
    return n


# spin_guard(0) == 0
def spin_guard(n: int) -> int:
    return spin(n)
