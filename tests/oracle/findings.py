"""The differential fuzzer's findings: disagreements with CPython it found in gpucc, each with
a minimal reproducer.  FIXED ones stay fixed (tests/compiler/test_differential.py runs them on
every backend); OPEN ones still disagree there (strict xfail: once fixed, move it to FIXED).
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
    "F4": Finding("an int local read inside a list literal that meets a float list before the float assignment "
                  "that widens it was a compile error (the checker stopped at the first error, before the widening)",
                  "def f(u: int, w: float) -> bool:\n    gs = [w]\n    z = u\n    q = 3 in [z] + gs\n    z = w\n"
                  "    return q\n", (3, 0.5)),
    "F5": Finding("bool(xs) of a list compiled to max(xs): ValueError for [], the largest element otherwise",
                  "def f(xs: list[int]) -> bool:\n    return bool(xs)\n", ([],)),
    "F6": Finding("`xs[i] = v` evaluated i before v (Python evaluates v first): an index that raises hid the "
                  "value's exception",
                  "def f(xs: list[int], a: int) -> int:\n    xs[a + a] = xs[5]\n    return 0\n", ([1], 2**62)),
    "F7": Finding("the truth of an Optional (`if o:`) jumped on the raw slot, None's NONE_REF read as true (a wrong "
                  "answer; then a located compile error): now None is false, else the value's truth, as CPython",
                  "def f(a: int) -> int:\n    o = None\n    if a > 0:\n        o = a\n    if o:\n        return 1\n"
                  "    return 0\n", (0,)),
    "F8": Finding("an Optional left operand of a binary operator raised TypeError on None before the right operand "
                  "ran (UNBOX as it was loaded): now UNBOX_LATE, after the right operand, as CPython evaluates both",
                  "def f(a: int, xs: list[int]) -> int:\n    o = None\n    if a > 0:\n        o = a\n"
                  "    return o + xs[a]\n", (0, [])),
    "F9": Finding("F8's comparison form: an Optional left operand of a comparison was unboxed as it was loaded, so "
                  "None raised TypeError before the right operand ran (CPython: the right operand's exception first); "
                  "now UNBOX_LATE there too, chains included",
                  "def f(a: int, xs: list[int]) -> bool:\n    o = None\n    if a > 0:\n        o = a\n"
                  "    return o < xs[a]\n", (0, [])),
    "F10": Finding("F9's fix missed the assert form: `assert o >= s` compares its operands itself (ASSERT_CMP, to "
                   "report them), so an Optional left operand marked UNBOX_LATE was never unboxed and None compared "
                   "as NONE_REF: AssertionError where CPython raises TypeError (found by the seed 1 long run)",
                   "def f(a: int, s: int) -> int:\n    o = None\n    if a > 0:\n        o = a\n    assert o >= s\n"
                   "    return 0\n", (0, 1)),
}

OPEN: dict[str, Finding] = {}
