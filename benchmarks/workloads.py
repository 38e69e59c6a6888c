"""Generated candidate workloads shared by the benchmarks (deterministic: seeded).

Each workload is a list of candidate sources in the gpucc language (valid Python too), the
name of the function every candidate defines, and the argument tuples of the test grid.
"""

from __future__ import annotations

import random

LOOP_TEMPLATE = '''\
def score(n: int) -> int:
    total = 0
    i = 0
    while i < n:
        x = (i * {a} + {b}) % {m}
        if x % {k} == 0:
            total += x // {k}
        else:
            total -= {c}
        i += 1
    for j in range(0, n, {step}):
        total = total + j % {a}
    return total
'''

CALL_TEMPLATE = '''\
def step(x: int) -> int:
    if x % 2 == 0:
        return x // 2
    return {a} * x + {b}


def walk(x: int, limit: int) -> int:
    count = 0
    while x != 1 and count < limit:
        x = step(x)
        count += 1
    return count


def score(n: int) -> int:
    total = 0
    for s in range(1, n + 1):
        total += walk(s + {c}, {limit})
    return total + fib({f})


def fib(k: int) -> int:
    if k < 2:
        return k
    return fib(k - 1) + fib(k - 2)
'''


STR_TEMPLATE = '''\
def score(n: int) -> int:
    tail = ""
    total = 0
    for i in range(n):
        word = str(i * {a} % {m})
        if word == word[::-1]:
            total += len(word)
        tail = (tail + word[-1])[-{k}:]
        total += tail.count("{c}") + ord(word[0])
        if "{c}{d}" in word:
            total -= word.find("{d}")
    parts = tail.replace("{c}", " ").split()
    return total + len(parts) + len("-".join(parts).upper())
'''


LIST_TEMPLATE = '''\
def score(n: int) -> int:
    xs: list[int] = []
    for i in range(n):
        xs.append(i * {a} % {m})
    total = 0
    for i in range(n):
        v = xs[i]
        if v % {k} == {c}:
            total += v
        xs[i] = v // 2 + total % 7
    ys = sorted(xs[::{step}])
    for v in ys:
        total += v % {a}
    if {c} in ys:
        total += 1
    return total + len(ys) + sum(xs[-{k}:]) + max(xs) - min(ys)
'''


def loop_heavy(n_candidates: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [
        LOOP_TEMPLATE.format(
            a=rng.randint(3, 97), b=rng.randint(0, 1000), m=rng.randint(50, 5000),
            k=rng.randint(2, 9), c=rng.randint(1, 9), step=rng.randint(1, 4),
        )
        for _ in range(n_candidates)
    ]  # fmt: skip


def call_heavy(n_candidates: int, seed: int = 2) -> list[str]:
    rng = random.Random(seed)
    return [
        CALL_TEMPLATE.format(
            a=3, b=1, c=rng.randint(0, 50), limit=rng.randint(20, 60), f=rng.randint(8, 12),
        )
        for _ in range(n_candidates)
    ]  # fmt: skip


def str_heavy(n_candidates: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    return [
        STR_TEMPLATE.format(a=rng.randint(3, 97), m=rng.randint(50, 100000), k=rng.randint(4, 12),
                            c=rng.randint(0, 9), d=rng.randint(0, 9))
        for _ in range(n_candidates)
    ]  # fmt: skip


def list_heavy(n_candidates: int, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    return [
        LIST_TEMPLATE.format(a=rng.randint(3, 97), m=rng.randint(50, 5000), k=rng.randint(2, 9),
                             c=rng.randint(0, 9), step=rng.randint(1, 4))
        for _ in range(n_candidates)
    ]  # fmt: skip
