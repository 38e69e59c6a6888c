def parse(s: str) -> int:
    if s == "":
        raise ValueError("empty")
    return int(s)


def total(xs: list[str]) -> int:
    t = 0
    for s in xs:
        try:
            t += 100 // parse(s)
        except (ValueError, IndexError) as e:
            if s == "!":
                raise e
            continue
        except ZeroDivisionError:
            t -= 1
        else:
            t += 1
    return t


def logged(xs: list[int], i: int) -> int:
    try:
        v = xs[i]
    finally:
        xs.append(i)
    return v
