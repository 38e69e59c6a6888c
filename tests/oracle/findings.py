"""The differential fuzzer's findings: disagreements with CPython it found in gpucc, each with
a minimal reproducer.  All are fixed; tests/unit/test_differential.py keeps them fixed on
every backend.  A new finding goes here once fixed; until then the fuzzer reports it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    what: str
    source: str  # a minimal reproducer: f(*args) disagreed
    args: tuple


FIXED = {
    "F1": Finding("an int or bool literal left of `+` or `*` with a float on the right computed garbage",
                  "def f(x: float) -> float:\n    return 8 + x * 1 + (3 * x)\n", (0.5,)),
    "F2": Finding("an int local read by min / max / and / or before the float assignment that widens it "
                  "was a compile error",
                  "def f(a: int) -> float:\n    z = a\n    y = min(z, 0.5)\n    z = 1.5\n    return y\n", (3,)),
    "F3": Finding("the reference interpreter raised OverflowError for a negative float to a huge "
                  "fractional power (the documented outcome is ValueError)",
                  "def f(x: float, y: float) -> float:\n    return x ** y\n", (-3.75, 888683.5)),
}
