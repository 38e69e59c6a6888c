"""The code generator's operator -> instruction tables: binary and unary operators, comparisons,
`and` / `or`, builtins (by the argument's class), min / max folds, methods and their modes, the
value instruction standing for a list one.  Module-level arrays (numba reads global arrays as
constants), built from the instruction names of contract/isa.py; -1 where there is none.
tests/compiler/test_codegen_tables.py checks each against the operators' meanings in the table."""

from __future__ import annotations

import numpy as np

from gpucc.compiler.nodes import BIN_NAMES, BOOL_NAMES, UN_NAMES
from gpucc.compiler.scope import (
    BUILTINS,
    DICT_METHODS,
    LIST_METHODS,
    METHODS,
    N_SUPPORTED_BUILTINS,
    SET_METHODS,
    STR_METHODS,
)
from gpucc.contract import isa as O


def _opcodes(rows) -> np.ndarray:
    """int32 table of the named instructions' opcodes (None: -1)."""
    return np.array([[-1 if name is None else O.BY_NAME[name].number for name in row] for row in rows], dtype=np.int32)


# binary operators (nodes.BIN_*): their instructions are BINARY_<word> (ints) and FLOAT_<word>
# where the set has them (`/` has no int one, the bit operations no float ones)
_BIN_WORDS = {"+": "ADD", "-": "SUB", "*": "MUL", "//": "FLOORDIV", "%": "MOD", "/": "DIV", "**": "POW",
              "&": "AND", "|": "OR", "^": "XOR", "<<": "LSHIFT", ">>": "RSHIFT"}  # fmt: skip
BIN_OPCODES, FLOAT_OPCODES = _opcodes(
    [[name if name in O.BY_NAME else None for name in (f"{t}_{_BIN_WORDS[b]}" for b in BIN_NAMES)]
     for t in ("BINARY", "FLOAT")])  # fmt: skip
# unary operators (nodes.UN_*) on an int or bool, on a float (`not`: after the truth test)
_UNARY_ROWS = {"-": ("UNARY_NEG", "FLOAT_NEG"), "+": (None, None), "not": ("UNARY_NOT", "UNARY_NOT"),
               "~": ("UNARY_INVERT", None)}  # fmt: skip
UNARY_OPCODES, FLOAT_UNARY_OPCODES = _opcodes(zip(*(_UNARY_ROWS[u] for u in UN_NAMES)))
# comparisons (contract.isa CMP_*) of ints, and the comparison that swaps the operands:
# a c b == b MIRRORED[c] a
CMP_OPCODES = np.array(O.CMP_OPCODES, dtype=np.int32)
MIRRORED = np.array([O.CMP_NAMES.index(m) for m in (">", ">=", "==", "!=", "<", "<=")], dtype=np.int32)
# `and` / `or` (nodes.BOOL_*): the truth of a left operand that decides the result
DECIDING_TRUTH = np.array([{"and": 0, "or": 1}[b] for b in BOOL_NAMES], dtype=np.int32)
# by a truth value (0 / 1): the jump taken on it, and the one that keeps the value when it jumps
(JUMP_IF, JUMP_IF_OR_POP) = _opcodes([("JUMP_IF_FALSE", "JUMP_IF_TRUE"),
                                      ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP")])  # fmt: skip
# builtins (scope.B_*): the instruction applied to the argument, by its class (ON_*); bool()
# is a truth test (emit_builtin_arg); min / max of numbers fold the arguments pairwise, of
# strs take the min / max of the list of them (emit_builtin_end)
ON_NUMBER, ON_FLOAT, ON_LIST, ON_STR = range(4)  # an int or bool, a float, a list, a str
_BUILTIN_ROWS = {
    "abs": ("INT_ABS", "FLOAT_ABS", None, None),
    "min": (None, None, "LIST_MIN", None),
    "max": (None, None, "LIST_MAX", None),
    "int": (None, "FLOAT_TO_INT", None, "STR_TO_NUM"),
    "float": ("INT_TO_FLOAT", None, None, "STR_TO_NUM"),
    "bool": (None, None, None, None),
    "len": (None, None, "LIST_LEN", "LIST_LEN"),
    "sum": (None, None, "LIST_SUM", None),
    "sorted": (None, None, "LIST_SORTED", None),
    "str": ("STR_FROM", "STR_FROM", None, None),
    "ord": (None, None, None, "STR_ORD"),
    "chr": ("STR_CHR", None, None, None),
    "reversed": (None, None, None, None),  # emit_reversed
    "round": (None, None, None, None),  # emit_round
    "pow": (None, None, None, None),  # emit_arith's `**`
    "print": (None, None, None, None),  # emit_builtin_arg drops each argument
    **{b: ("STR_RADIX", None, None, None) for b in ("bin", "oct", "hex")},  # builtin_operand: the base
}
BUILTIN_OPCODES = _opcodes(_BUILTIN_ROWS[b] for b in BUILTINS[:N_SUPPORTED_BUILTINS])
# the pairwise fold of min / max of numbers, by the result's type: int, float
_FOLD_ROWS = {"min": ("INT_MIN2", "FLOAT_MIN2"), "max": ("INT_MAX2", "FLOAT_MAX2")}
FOLD_OPCODES = _opcodes(_FOLD_ROWS.get(b, (None, None)) for b in BUILTINS[:N_SUPPORTED_BUILTINS])
# methods (scope.M_*): the instruction and its IMM operand (a str method's mode: its place in
# scope.STR_METHODS; -1: the receiver's element kind)
_METHOD_ROWS = {"append": ("LIST_APPEND", 0), "sort": ("LIST_SORT", -1),
                **{m: (name, mode) for name, group in STR_METHODS.items() for mode, m in enumerate(group)},
                **{m: (None, 0) for m in DICT_METHODS + SET_METHODS}}  # fmt: skip  # compiler/emit_dict.py
# the other list methods (-2: a value instruction of constant typed_values(==, element, list));
# xs.copy() is xs[:] (LIST_SLICE, no part given)
_LIST_METHOD_ROWS = {"clear": ("LIST_CLEAR", 0), "extend": ("LIST_EXTEND", 0), "pop": ("LIST_POP", 0),
                     "insert": ("LIST_INSERT", 0), "reverse": ("LIST_REVERSE", 0), "index": ("VALUE_INDEX", -2),
                     "count": ("VALUE_COUNT", -2), "remove": ("VALUE_REMOVE", -2), "copy": ("LIST_SLICE", 0)}
_METHOD_ROWS = [_METHOD_ROWS[m] for m in METHODS[: -len(LIST_METHODS)]] + [_LIST_METHOD_ROWS[m] for m in LIST_METHODS]
METHOD_OPCODES = _opcodes([[row[0] for row in _METHOD_ROWS]])[0]
# a list instruction taking an element kind -> the value instruction doing it for any element type
_VALUE_OPS = {op: op.replace("LIST_", "VALUE_") for op in ("LIST_MIN", "LIST_MAX", "LIST_SORTED", "LIST_SORT")}
VALUE_OF_LIST_OP = np.array([O.BY_NAME[_VALUE_OPS[op.name]].number if op.name in _VALUE_OPS else -1
                             for op in O.TABLE], dtype=np.int32)  # fmt: skip
METHOD_MODES = np.array([row[1] for row in _METHOD_ROWS], dtype=np.int32)
