import numpy as np


def gcd(a: int, b: int) -> int:
    return int(np.gcd(a, b))
