"""The standard modules a candidate may import, and their names: one table (kernel bodies for
the lookups).

Four modules: ``math``, ``sys`` (its ``maxsize``), ``bisect`` and ``collections`` (its
``Counter``; their functions written in the language: compiler/preludes.py).  ``import math`` / ``import math as m``
bind the module (then ``math.sqrt(x)``, ``math.pi``), ``from math import sqrt, pi as PI`` bind
its names.  Each bound name is an IMPORT node, a child of the MODULE
(compiler/parser_module.py); the type checker resolves a name or a module's attribute through
them (compiler/typecheck_import.py).  Importing any other module is E_UNKNOWN_MODULE, a name
a module does not have here E_MODULE_MEMBER, each located.

A member code indexes MEMBERS: math's functions, then the constants (CONSTANTS: a constant
becomes its INT or FLOAT node), then the prelude functions (a call of one is a call of the
unit's function of that name, which the prelude appended to the unit defines).  A math function call is a CALL whose op is 1 +
FIRST_MODULE_CODE + its index in MATH_FUNCTIONS (after the builtins' codes, scope.B_*): typed
by MATH_RULES, compiled by compiler/emit_math.py to the instruction in MATH_RULES' opcode
column (contract.isa's math group, MATH_MODES naming each IMM operand).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from gpucc.compiler.scope import BUILTINS, same_name, table_index
from gpucc.compiler.nodes import N_IMPORT, N_LIST
from gpucc.compiler.tokens import _byte_table
from gpucc.compiler.typerules import A_INTEGRAL, A_NUMBER, A_NUMBER_LIST, R_SUM, result_type, takes
from gpucc.contract import isa as O
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, float_to_bits

MODULES = ("math", "sys", "bisect", "heapq", "functools", "itertools", "collections")
MOD_MATH, MOD_SYS, MOD_BISECT, MOD_HEAPQ, MOD_FUNCTOOLS, MOD_ITERTOOLS, MOD_COLLECTIONS = range(7)
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
# the modules' constants: module, name, type, value
CONSTANTS = ((MOD_MATH, "pi", T_FLOAT, math.pi), (MOD_MATH, "e", T_FLOAT, math.e), (MOD_MATH, "tau", T_FLOAT, math.tau),
             (MOD_MATH, "inf", T_FLOAT, math.inf), (MOD_MATH, "nan", T_FLOAT, math.nan),
             (MOD_SYS, "maxsize", T_INT, sys.maxsize))  # fmt: skip
# the functions compiler/preludes.py writes in the language: module, name
PRELUDE_FUNCTIONS = ((MOD_BISECT, "bisect_left"), (MOD_BISECT, "bisect_right"), (MOD_BISECT, "bisect")) + tuple(
    (MOD_HEAPQ, name) for name in ("heappush", "heappop", "heapreplace", "heappushpop", "heapify", "nlargest",
                                   "nsmallest", "_siftdown", "_siftup")) + ((MOD_COLLECTIONS, "Counter"),
                                                                            (MOD_COLLECTIONS, "deque"))  # fmt: skip
# the functions compiler/desugar.py rewrites where they are called (compiler/desugar_folds.py: the folds,
# compiler/desugar_itertools.py: the comprehensions): module, name
DESUGARED_FUNCTIONS = ((MOD_FUNCTOOLS, "reduce"),) + tuple((MOD_ITERTOOLS, name) for name in (
    "accumulate", "groupby", "permutations", "combinations", "combinations_with_replacement", "product", "chain")) + (
    (MOD_COLLECTIONS, "defaultdict"),)  # compiler/desugar_defaultdict.py: an empty display
MEMBERS = MATH_FUNCTIONS + tuple(c[1] for c in CONSTANTS) + tuple(p[1] for p in PRELUDE_FUNCTIONS) + tuple(
    d[1] for d in DESUGARED_FUNCTIONS)  # a member code is its index here  # fmt: skip
MEMBER_MODULE = np.array([MOD_MATH] * len(MATH_FUNCTIONS) + [c[0] for c in CONSTANTS] + [p[0] for p in PRELUDE_FUNCTIONS]
                         + [d[0] for d in DESUGARED_FUNCTIONS], dtype=np.int32)  # fmt: skip
N_MATH_FUNCTIONS = len(MATH_FUNCTIONS)
FIRST_PRELUDE = N_MATH_FUNCTIONS + len(CONSTANTS)  # member codes from here on: prelude functions
FIRST_DESUGARED = FIRST_PRELUDE + len(PRELUDE_FUNCTIONS)  # member codes from here on: desugared functions
REDUCE, ACCUMULATE, GROUPBY, PERMUTATIONS, COMBINATIONS, COMBINATIONS_WR, PRODUCT, CHAIN, DEFAULTDICT_MEMBER = range(
    FIRST_DESUGARED, FIRST_DESUGARED + len(DESUGARED_FUNCTIONS))
MEMBER_BYTES, MEMBER_LENS = _byte_table(MEMBERS)
# each constant's type and value (the INT node's val, the FLOAT node's bits), by member code - N_MATH_FUNCTIONS
CONSTANT_TYPES = np.array([c[2] for c in CONSTANTS], dtype=np.int32)
CONSTANT_BITS = np.array([c[3] if c[2] == T_INT else float_to_bits(c[3]) for c in CONSTANTS], dtype=np.int64)
MATH_CONSTANTS = {c[1]: c[3] for c in CONSTANTS if c[0] == MOD_MATH}
FIRST_MODULE_CODE = len(BUILTINS)  # a CALL's op - 1 from here on: a math function (past every builtin's code)
MATH_FEWEST, MATH_MOST, MATH_ARG, MATH_RESULT, MATH_OPCODE, MATH_MODE, MATH_FLOATS = range(7)  # MATH_RULES' columns
MATH_RULES = np.array([_RULES[name] for name in MATH_FUNCTIONS], dtype=np.int32)
LOG = MATH_FUNCTIONS.index("log")
LOG_BASE = O.MATH_MODES["MATH_FLOAT2"].index("log")  # log(x, base): MATH_FLOAT2's mode
COUNTER_MEMBER = MEMBERS.index("Counter")
# Counter's prelude: its parameter's name marks the unit's function `Counter` as the prelude's
# (compiler/typecheck_counter.py), its methods the prelude functions they call (the first
# without, the second with an argument; -1: none, a located error; the third 1: of a mapping
# argument, the prelude after the second), in COUNTER_METHODS' order
COUNTER_PARAM = "_gpucc_counted"
COUNTER_METHODS = ("most_common", "elements", "total", "update", "subtract")
COUNTER_PRELUDES = ("_gpucc_most_common", "_gpucc_most_common_n", "_gpucc_elements", "_gpucc_total", "_gpucc_update",
                    "_gpucc_update_counts", "_gpucc_subtract", "_gpucc_subtract_counts", "_gpucc_counter_add",
                    "_gpucc_counter_sub", "_gpucc_counter_and", "_gpucc_counter_or", "_gpucc_counter_pos",
                    "_gpucc_counter_neg")  # fmt: skip
COUNTER_METHOD_CALLS = np.array([(0, 1, 0), (2, -1, 0), (3, -1, 0), (-1, 4, 1), (-1, 6, 1)], dtype=np.int32)
# + - & | of two Counters, unary + and - of one: the prelude each calls (-1: none), by nodes.BIN_* / UN_*
COUNTER_BINARY = np.array([8, 9, -1, -1, -1, -1, -1, 10, 11, -1, -1, -1], dtype=np.int32)
COUNTER_UNARY = np.array([13, 12, -1, -1], dtype=np.int32)
COUNTER_METHOD_BYTES, COUNTER_METHOD_LENS = _byte_table(COUNTER_METHODS)
COUNTER_PRELUDE_BYTES, COUNTER_PRELUDE_LENS = _byte_table(COUNTER_PRELUDES + (COUNTER_PARAM,))
DEQUE_MEMBER = MEMBERS.index("deque")
# deque's prelude (compiler/typecheck_deque.py), as Counter's: its parameter's name marks the
# unit's function `deque`; its methods a list has not, the prelude functions they call (the
# first without, the second with an argument; -1: none), in DEQUE_METHODS' order; sort and
# pop(i) are a list's only (a located error)
DEQUE_PARAM = "_gpucc_deque_of"
DEQUE_METHODS = ("popleft", "appendleft", "extendleft", "rotate", "sort", "pop")
DEQUE_PRELUDES = ("_gpucc_popleft", "_gpucc_appendleft", "_gpucc_extendleft", "_gpucc_rotate1", "_gpucc_rotate")
DEQUE_METHOD_CALLS = np.array([(0, -1), (-1, 1), (-1, 2), (3, 4), (-1, -1), (-2, -1)], dtype=np.int32)  # -2: the list's
DEQUE_METHOD_BYTES, DEQUE_METHOD_LENS = _byte_table(DEQUE_METHODS)
DEQUE_PRELUDE_BYTES, DEQUE_PRELUDE_LENS = _byte_table(DEQUE_PRELUDES + (DEQUE_PARAM,))
EMPTY_DEQUE_MARK = -11  # tree.val of the display a call `deque()` becomes (compiler/typecheck_deque.py)


@nrt_free
def module_code(src, s, e):
    """MOD_* code of the module named src[s:e], or -1."""
    return table_index(src, s, e, MODULE_BYTES, MODULE_LENS)


@nrt_free
def member_code(src, m, s, e):
    """The member code of module m's name src[s:e], or -1."""
    k = table_index(src, s, e, MEMBER_BYTES, MEMBER_LENS)
    return k if k >= 0 and MEMBER_MODULE[k] == m else -1


@nrt_free
def import_op(m, owner):
    """An IMPORT node's op: module m, imported in FUNCDEF owner (-1: at module level)."""
    return m | ((owner + 1) << 8)


@nrt_free
def import_module(tree, imp):
    """The module IMPORT node imp binds from."""
    return tree.op[imp] & 0xFF


@nrt_free
def _visible(tree, imp, fnode):
    """Whether IMPORT imp binds in the code of node fnode (a FUNCDEF, or the MODULE for module
    code): imported at module level, or in fnode or a function enclosing it."""
    owner = (tree.op[imp] >> 8) - 1
    while owner >= 0 and fnode > 0:
        if owner == fnode:
            return True
        fnode = tree.val[fnode]  # the enclosing FUNCDEF (-1: none)
    return owner < 0


@nrt_free
def find_import(src, toks, tree, s, e, fnode):
    """The IMPORT node binding the name src[s:e] in the code of node fnode (the last one:
    CPython rebinds), or -1."""
    found = -1
    d = tree.first[0]
    while d != -1:
        t = tree.tok[d]
        if tree.kind[d] == N_IMPORT and same_name(src, toks.start[t], toks.end[t], s, e) and _visible(tree, d, fnode):
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


@nrt_free
def empty_deque(tree, n, k):
    """CALL n of module member k: `deque()` (no arguments) made the empty display EMPTY_DEQUE_MARK
    (True: resolved; compiler/typecheck_deque.py types it); False for any other call."""
    if k != DEQUE_MEMBER or tree.first[n] != -1:
        return False
    tree.kind[n] = N_LIST
    tree.val[n] = EMPTY_DEQUE_MARK
    return True
