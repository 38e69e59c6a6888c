"""Result statuses a VM job (one candidate x test x case) can end with: one table."""

from __future__ import annotations

# number order is the table order; name, short label for reports, meaning
_ROWS = [
    ("OK", "passed", "returned normally"),
    ("ASSERT_FAILED", "AssertionError", "an assert was false"),
    ("ZERO_DIVISION", "ZeroDivisionError", "integer division or modulo by zero"),
    ("INDEX_ERROR", "IndexError", "index out of range"),
    ("OVERFLOW", "OverflowError", "an int result outside 64 bits (CPython's ints are unbounded: a limit, never caught)"),
    ("VALUE_ERROR", "ValueError", "e.g. range() step is zero"),
    ("STEP_LIMIT", "step limit", "ran past the step limit (the deterministic timeout)"),
    ("STACK_LIMIT", "stack limit", "value stack exhausted"),
    ("RECURSION_LIMIT", "RecursionError", "call depth past the recursion limit"),
    ("MEMORY_LIMIT", "memory limit", "what the job still reaches outgrew its heap"),
    ("INVALID_BYTECODE", "invalid bytecode", "bad opcode, operand or jump at run time"),
    ("NOT_RUN", "not run", "the job was not launched (compile or link error)"),
    ("TYPE_ERROR", "TypeError", "e.g. ord() of a str whose length is not 1"),
    ("NONE_RETURNED", "returned None", "a function declared to return a value reached its end (CPython returns None)"),
    ("KEY_ERROR", "KeyError", "a key not in a dict (d[k], del d[k], d.pop(k)) or set (s.remove(x))"),
    ("RUNTIME_ERROR", "RuntimeError", "a dict or set changed size while a for loop iterated over it; raise RuntimeError(...)"),
    ("NOT_IMPLEMENTED", "NotImplementedError", "raise NotImplementedError(...)"),
    ("EXCEPTION", "Exception", "raise Exception(...)"),
    ("OVERFLOW_ERROR", "OverflowError", "CPython's own: a float out of range (math.exp(1000), 2.0 ** 10000, int / round of inf), chr past a C int; raise OverflowError(...)"),
]

NAMES = tuple(r[0] for r in _ROWS)
LABELS = tuple(r[1] for r in _ROWS)
MEANINGS = tuple(r[2] for r in _ROWS)
# the statuses as plain names (tests/contract/test_named_constants.py keeps them equal to the table)
OK = 0
ASSERT_FAILED = 1
ZERO_DIVISION = 2
INDEX_ERROR = 3
OVERFLOW = 4
VALUE_ERROR = 5
STEP_LIMIT = 6
STACK_LIMIT = 7
RECURSION_LIMIT = 8
MEMORY_LIMIT = 9
INVALID_BYTECODE = 10
NOT_RUN = 11
TYPE_ERROR = 12
NONE_RETURNED = 13
KEY_ERROR = 14
RUNTIME_ERROR = 15
NOT_IMPLEMENTED = 16
EXCEPTION = 17
OVERFLOW_ERROR = 18

# Exceptions a program can raise and catch (try / except).  The limits (step, stack,
# recursion, memory), invalid bytecode and `returned None` are never caught.  OVERFLOW (an
# int past int64) is a limit CPython does not have, never caught; CPython's own OverflowError
# (a float out of range, a raise statement's) is OVERFLOW_ERROR, caught.  The ValueError of
# `**` (an int to a negative power, a negative float to a fractional one: CPython answers) is
# a limit too; `catchable` is the rule.
RAISABLE = (ASSERT_FAILED, ZERO_DIVISION, INDEX_ERROR, OVERFLOW_ERROR, VALUE_ERROR, TYPE_ERROR, KEY_ERROR,
            RUNTIME_ERROR, NOT_IMPLEMENTED, EXCEPTION)  # fmt: skip
RAISABLE_MASK = sum(1 << s for s in RAISABLE)
# the classes a raise or an except names: the status each raises (-1: none, except only) and
# the statuses it catches (a bit each)
EXCEPTION_CLASSES = (
    ("AssertionError", ASSERT_FAILED, (ASSERT_FAILED,)),
    ("ZeroDivisionError", ZERO_DIVISION, (ZERO_DIVISION,)),
    ("IndexError", INDEX_ERROR, (INDEX_ERROR,)),
    ("OverflowError", OVERFLOW_ERROR, (OVERFLOW_ERROR,)),
    ("ValueError", VALUE_ERROR, (VALUE_ERROR,)),
    ("TypeError", TYPE_ERROR, (TYPE_ERROR,)),
    ("KeyError", KEY_ERROR, (KEY_ERROR,)),
    ("RuntimeError", RUNTIME_ERROR, (RUNTIME_ERROR, NOT_IMPLEMENTED)),
    ("NotImplementedError", NOT_IMPLEMENTED, (NOT_IMPLEMENTED,)),
    ("Exception", EXCEPTION, RAISABLE),
    ("ArithmeticError", -1, (ZERO_DIVISION, OVERFLOW_ERROR)),
    ("LookupError", -1, (INDEX_ERROR, KEY_ERROR)),
    ("BaseException", -1, RAISABLE),
)
EXCEPTION_NAMES = tuple(c[0] for c in EXCEPTION_CLASSES)
EXCEPTION_STATUS = tuple(c[1] for c in EXCEPTION_CLASSES)
EXCEPTION_MASKS = tuple(sum(1 << s for s in c[2]) for c in EXCEPTION_CLASSES)


def catchable(st, raised, from_pow):
    """Whether an except clause may catch status st: `raised` by a raise statement (or raised
    again), `from_pow` by `**` (BINARY_POW, FLOAT_POW).  Kernels call it (contract/jitable.py)."""
    if st < 0 or st > 62:
        return False
    if from_pow and st == VALUE_ERROR and not raised:
        return False
    return (RAISABLE_MASK >> st) & 1 == 1
