"""Result statuses a VM job (one candidate x test x case) can end with: one table."""

from __future__ import annotations

# number order is the table order; name, short label for reports, meaning
_ROWS = [
    ("OK", "passed", "returned normally"),
    ("ASSERT_FAILED", "AssertionError", "an assert was false"),
    ("ZERO_DIVISION", "ZeroDivisionError", "integer division or modulo by zero"),
    ("INDEX_ERROR", "IndexError", "index out of range"),
    ("OVERFLOW", "OverflowError", "an int result outside 64 bits"),
    ("VALUE_ERROR", "ValueError", "e.g. range() step is zero"),
    ("STEP_LIMIT", "step limit", "ran past the step limit (the deterministic timeout)"),
    ("STACK_LIMIT", "stack limit", "value stack exhausted"),
    ("RECURSION_LIMIT", "RecursionError", "call depth past the recursion limit"),
    ("MEMORY_LIMIT", "memory limit", "list heap exhausted"),
    ("INVALID_BYTECODE", "invalid bytecode", "bad opcode, operand or jump at run time"),
    ("NOT_RUN", "not run", "the job was not launched (compile or link error)"),
    ("TYPE_ERROR", "TypeError", "e.g. ord() of a str whose length is not 1"),
    ("NONE_RETURNED", "returned None", "a function declared to return a value reached its end (CPython returns None)"),
    ("KEY_ERROR", "KeyError", "a key not in a dict (d[k], del d[k], d.pop(k)) or set (s.remove(x))"),
    ("RUNTIME_ERROR", "RuntimeError", "a dict or set changed size while a for loop iterated over it"),
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
