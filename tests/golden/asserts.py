def check(x: int, ok: bool) -> None:
    assert x >= 0
    assert ok == True
    assert 0 < x < 100
    assert ok
    assert x % 2 == 0 or ok


def square(x: int) -> int:
    ...
