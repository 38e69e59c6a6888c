"""The standard modules a candidate may import, and their names: one table (kernel bodies for
the lookups).

Today one module, ``math``: ``import math`` / ``import math as m`` bind the module (then
``math.sqrt(x)``, ``math.pi``), ``from math import sqrt, pi as PI`` bind its names.  Each
bound name is an IMPORT node, a child of the MODULE (compiler/parser_import.py); the type
checker resolves a name or a module's attribute through them (compiler/typecheck_calls.py).
Importing any other module is E_UNSUPPORTED_MODULE, a math name not here E_MODULE_NAME, each
located.

A math function call is a CALL whose op is 1 + FIRST_MODULE_CODE + its index in
MATH_FUNCTIONS (after the builtins' codes, scope.B_*): typed by MATH_RULES, compiled by
compiler/emit.py (emit_math_arg) to the instruction in MATH_RULES' opcode column (contract.isa's
math group, MATH_MODES naming each IMM operand).
"""

from __future__ import annotations

import math

import numpy as np

from gpucc.compiler.scope import N_SUPPORTED_BUILTINS, same_name, table_index
from gpucc.compiler.nodes import N_IMPORT
from gpucc.compiler.tokens import _byte_table
from gpucc.compiler.typerules import A_INTEGRAL, A_NUMBER, A_NUMBER_LIST, R_SUM, result_type, takes
from gpucc.contract import isa as O
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, float_to_bits

MODULES = ("math",)
MOD_MATH = 0
MODULE_BYTES, MODULE_LENS = _byte_table(MODULES)


def _rows():
    """name -> (fewest, most arguments, what each must be (typerules.A_*), result (a type or
    R_*), opcode, IMM operand (-1: the list's element kind), 1: the arguments are made floats)."""
    rows = {}
    for op, modes in O.MATH_MODES.items():
        for mode, name in enumerate(modes):
            if name in rows:  # log(x, base): MATH_FLOAT2 once two arguments are given
                continue
            two = op in ("MATH_FLOAT2", "MATH_INT2")
            integral = op in ("MATH_INT", "MATH_INT2")
            result = T_INT if integral or op == "MATH_TO_INT" else T_BOOL if op == "MATH_TEST" else T_FLOAT
            rows[name] = (1 + two, 1 + two, A_INTEGRAL if integral else A_NUMBER, result, O.BY_NAME[op].number,
                          mode, int(not integral and op != "MATH_TO_INT"))  # fmt: skip
    rows["log"] = (1, 2) + rows["log"][2:]
    rows["trunc"] = (1, 1, A_NUMBER, T_INT, O.FLOAT_TO_INT, 0, 0)
    rows["isclose"] = (2, 2, A_NUMBER, T_BOOL, O.MATH_ISCLOSE, 0, 1)
    rows["prod"] = (1, 1, A_NUMBER_LIST, R_SUM, O.MATH_PROD, -1, 0)
    return rows


_RULES = _rows()
MATH_FUNCTIONS = tuple(_RULES)
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
MATH_MEMBERS = MATH_FUNCTIONS + tuple(MATH_CONSTANTS)  # a member code is its index here
N_MATH_FUNCTIONS = len(MATH_FUNCTIONS)
MEMBER_BYTES, MEMBER_LENS = _byte_table(MATH_MEMBERS)
# the bits of each constant (the FLOAT node's val), by member code - N_MATH_FUNCTIONS
CONSTANT_BITS = np.array([float_to_bits(v) for v in MATH_CONSTANTS.values()], dtype=np.int64)
FIRST_MODULE_CODE = N_SUPPORTED_BUILTINS  # a CALL's op - 1 from here on: a math function
MATH_FEWEST, MATH_MOST, MATH_ARG, MATH_RESULT, MATH_OPCODE, MATH_MODE, MATH_FLOATS = range(7)  # MATH_RULES' columns
MATH_RULES = np.array([_RULES[name] for name in MATH_FUNCTIONS], dtype=np.int32)
LOG = MATH_FUNCTIONS.index("log")
LOG_BASE = O.MATH_MODES["MATH_FLOAT2"].index("log")  # log(x, base): MATH_FLOAT2's mode


@nrt_free
def module_code(src, s, e):
    """MOD_* code of the module named src[s:e], or -1."""
    return table_index(src, s, e, MODULE_BYTES, MODULE_LENS)


@nrt_free
def member_code(src, s, e):
    """The member code of the math name src[s:e], or -1."""
    return table_index(src, s, e, MEMBER_BYTES, MEMBER_LENS)


@nrt_free
def find_import(src, toks, tree, s, e):
    """The IMPORT node binding the name src[s:e] (the last one: CPython rebinds), or -1."""
    found = -1
    d = tree.first[0]
    while d != -1:
        t = tree.tok[d]
        if tree.kind[d] == N_IMPORT and same_name(src, toks.start[t], toks.end[t], s, e):
            found = d
        d = tree.next[d]
    return found


@nrt_free
def math_arity_ok(k, nargs):
    return MATH_RULES[k, MATH_FEWEST] <= nargs <= MATH_RULES[k, MATH_MOST]


@nrt_free
def math_type(k, first, next_, type_, n):
    """The type of CALL n of math function k, its arguments typed; -1 - c for an argument c of
    a type it does not take."""
    c = first[n]
    arg = MATH_RULES[k, MATH_ARG]
    while c != -1:
        if not takes(arg, type_[c]):
            return -1 - c
        c = next_[c]
    return result_type(MATH_RULES[k, MATH_RESULT], type_[first[n]])
