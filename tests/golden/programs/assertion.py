# A false assert raises AssertionError: plain, chained and through a helper.


# within(5) == 5
# within(-1) raises AssertionError
# within(100) raises AssertionError
def within(x: int) -> int:
    assert x >= 0
    assert 0 <= x < 100
    return x


# flag_set(True) == True
# flag_set(False) raises AssertionError
def flag_set(ok: bool) -> bool:
    assert ok
    return ok
