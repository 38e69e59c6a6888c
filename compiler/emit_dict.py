"""Emission of the dict and set forms (phase 4, with compiler/emit.py's primitives): displays,
`d[k]`, comparisons, methods, set operators, set() / dict() and what a for loop over a dict, a
set or a dict's keys() / values() / items() runs.  Every instruction names the dict's or set's
type (its CONST operand: contract/isa.py's dict group), `{}`'s unknown parts made ints.
Kernel bodies.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.emit import CG_DEPTH, emit, emit_compare, emit_convert, emit_typed, patch
from gpucc.compiler.nodes import BIN_AND, BIN_OR, BIN_SUB, CMP_IN, CMP_NOT_IN, N_METHOD
from gpucc.compiler.scope import (
    M_ADD,
    M_DISCARD,
    M_GET,
    M_ITEMS,
    M_KEYS,
    M_POP,
    M_SETDEFAULT,
    M_UPDATE,
    M_VALUES,
)
from gpucc.compiler.typerules import (
    A_ELEMENT,
    A_VALUE,
    METHOD_ARG,
    METHOD_RULES,
    element_type,
    is_counter,
    is_defaultdict,
    is_dict,
    is_set,
    keyed_join,
)
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.jitable import nrt_free, type_is_heap, type_value_of
from gpucc.contract.typecodes import LIST, SET, STR
from gpucc.contract.valuetypes import T_FLOAT


@nrt_free
def is_keyed(t):
    """A dict or a set."""
    return is_dict(t) or is_set(t)


@nrt_free
def method_argument_type(m, p, t):
    """The type argument p of dict or set method m converts to, on a receiver of type t."""
    want = METHOD_RULES[m, METHOD_ARG + p]
    if want == A_ELEMENT:
        return element_type(t)
    return type_value_of(t) if want == A_VALUE else t


@nrt_free
def emit_display_step(out, t, k, child_type, more, line, err):
    """Display of type t (NEW_DICT / NEW_SET pushed): after child k (-1: none yet) of the given
    type, its conversion and, after a value or an element, its insertion; before the next
    item (more), a copy of the object to insert into."""
    if k >= 0 and is_set(t):
        emit_convert(out, element_type(t), child_type, line)
        emit_typed(out, O.SET_ADD, known(t), line, err)
    elif k >= 0 and k % 2 == 0:  # a key
        emit_convert(out, element_type(t), child_type, line)
    elif k >= 0:  # its value: d k v -> v d k
        emit_convert(out, type_value_of(t), child_type, line)
        emit(out, O.ROT_THREE, 0, line)
        emit_typed(out, O.DICT_SET, known(t), line, err)
    if more and (is_set(t) or k % 2 == 1):
        emit(out, O.DUP_TOP, 0, line)


@nrt_free
def emit_keyed_compare(out, cmp, lt, rt, line, err):
    """`k in d`, `x in s` (k converted to the keys' type under d), == and != of dicts or sets,
    the subset tests <= and >= of sets."""
    if cmp == CMP_IN or cmp == CMP_NOT_IN:
        if element_type(rt) == T_FLOAT and lt != T_FLOAT:
            emit(out, O.ROT_TWO, 0, line)
            emit_convert(out, T_FLOAT, lt, line)
            emit(out, O.ROT_TWO, 0, line)
        emit_typed(out, O.DICT_CONTAINS if is_dict(rt) else O.SET_CONTAINS, known(rt), line, err)
        if cmp == CMP_NOT_IN:
            emit(out, O.UNARY_NOT, 0, line)
        return
    t = known(keyed_join(lt, rt))
    if cmp == O.CMP_GE or cmp == O.CMP_GT:
        emit(out, O.ROT_TWO, 0, line)
    if cmp != O.CMP_EQ and cmp != O.CMP_NE:  # <= >= < > of sets: subset tests
        emit_typed(out, O.SET_LE if cmp == O.CMP_LE or cmp == O.CMP_GE else O.SET_LT, t, line, err)
        return
    emit_typed(out, O.DICT_EQ if is_dict(t) else O.SET_EQ, t, line, err)
    if cmp == O.CMP_NE:
        emit(out, O.UNARY_NOT, 0, line)


@nrt_free
def emit_comparison(out, cmp, lt, rt, line, err):
    """emit_compare, or emit_keyed_compare when a dict or set is compared."""
    if is_keyed(lt) or is_keyed(rt):
        emit_keyed_compare(out, cmp, lt, rt, line, err)
    else:
        emit_compare(out, cmp, lt, rt, line, err)


@nrt_free
def emit_subscript_key(out, t, key_type, line, err):
    """d[k] of dict type t, d and k pushed: k converted to the keys' type, DICT_GET; of a
    Counter, DICT_GET_DEFAULT of 0 (a missing key counts 0 and is not inserted); of a
    defaultdict, _defaultdict_read."""
    emit_convert(out, element_type(t), key_type, line)
    if is_counter(t):
        emit(out, O.LOAD_INT, 0, line)
        emit_typed(out, O.DICT_GET_DEFAULT, known(t), line, err)
    elif is_defaultdict(t):
        _defaultdict_read(out, known(t), line, err)
    else:
        emit_typed(out, O.DICT_GET, known(t), line, err)


@nrt_free
def _defaultdict_read(out, t, line, err):
    """d[k] of defaultdict type t (d, k pushed), a missing key's entry made first (CPython's
    __missing__): a number's 0 by DICT_SETDEFAULT; a str, list, set or dict, made only when
    the key is missing, as CPython's factory call: `k in d` tested on copies of d and k, then
    DICT_SETDEFAULT of a new empty value, or DICT_GET."""
    v = type_value_of(t)
    if not type_is_heap(v):
        emit(out, O.LOAD_INT, 0, line)  # 0, 0.0 (its bits) and False
        emit_typed(out, O.DICT_SETDEFAULT, t, line, err)
        return
    emit(out, O.DUP_TOP, 0, line)  # d k k
    emit(out, O.ROT_THREE, 0, line)  # k d k
    emit(out, O.ROT_TWO, 0, line)  # k k d
    emit(out, O.DUP_TOP, 0, line)  # k k d d
    emit(out, O.ROT_THREE, 0, line)  # k d k d
    emit_typed(out, O.DICT_CONTAINS, t, line, err)
    found = emit(out, O.JUMP_IF_TRUE, -1, line)
    emit(out, O.ROT_TWO, 0, line)  # d k
    h = v & 15
    if h == STR:
        emit_typed(out, O.LOAD_STR, 0, line, err)  # a pool entry 0 starts an empty str
    else:
        emit(out, O.NEW_LIST if h == LIST else O.NEW_SET if h == SET else O.NEW_DICT, 0, line)
    emit_typed(out, O.DICT_SETDEFAULT, t, line, err)
    end = emit(out, O.JUMP, -1, line)
    patch(out, found)
    out.cg[CG_DEPTH] += 1  # k d again (the missing path left its value)
    emit(out, O.ROT_TWO, 0, line)
    emit_typed(out, O.DICT_GET, t, line, err)
    patch(out, end)


@nrt_free
def emit_set_operator(out, bop, t, line, err):
    """a | b, a & b, a - b, a ^ b of sets (a new set of type t)."""
    opc = O.SET_OR if bop == BIN_OR else O.SET_AND if bop == BIN_AND else O.SET_SUB if bop == BIN_SUB else O.SET_XOR
    emit_typed(out, opc, known(t), line, err)


@nrt_free
def emit_keyed_method(out, m, t, nargs, line, err):
    """Method m (scope.M_*) of a dict or set of type t, its receiver and arguments pushed."""
    c = known(t)
    if m == M_GET:
        if nargs == 1:  # d.get(k): None when absent
            emit(out, O.LOAD_INT, O.NONE_REF, line)
        emit_typed(out, O.DICT_GET_DEFAULT, c, line, err)
    elif m == M_SETDEFAULT:
        emit_typed(out, O.DICT_SETDEFAULT, c, line, err)
    elif m == M_POP:
        emit_typed(out, O.DICT_POP if nargs == 1 else O.DICT_POP_DEFAULT, c, line, err)
    elif m == M_UPDATE:
        emit_typed(out, O.DICT_UPDATE, c, line, err)
    elif m == M_KEYS or m == M_VALUES or m == M_ITEMS:
        emit(out, O.DICT_LIST, m - M_KEYS, line)
    else:
        emit_typed(out, O.SET_ADD if m == M_ADD else O.SET_DISCARD if m == M_DISCARD else O.SET_REMOVE, c, line, err)


@nrt_free
def emit_constructor(out, is_set_call, nargs, t, arg_type, line, err):
    """set() / dict(); set(xs) of a list; set(s) of a set: its copy (s | s)."""
    if nargs == 0:
        emit(out, O.NEW_SET if is_set_call else O.NEW_DICT, 0, line)
    elif is_set(arg_type):
        emit(out, O.DUP_TOP, 0, line)
        emit_typed(out, O.SET_OR, known(t), line, err)
    else:
        emit_typed(out, O.SET_FROM, known(t), line, err)


@nrt_free
def emit_as_list(out, t, line):
    """A dict's keys or a set's elements as a new list, for the builtins that take a list."""
    emit(out, O.DICT_LIST, 3 if is_set(t) else 0, line)


@nrt_free
def for_test(tree, types, it):
    """(the for test, the node to evaluate) of a loop over expression it: FOR_SET over a set,
    FOR_DICT_KEYS over a dict, FOR_DICT_KEYS / VALUES / ITEMS over d.keys() / values() / items()
    (d itself evaluated: its view, no copy), FOR_LIST over anything else."""
    t = types.type[it]
    node = np.int64(it)  # one tuple type on every return (numba unifies no int32 / int64 tuples)
    if tree.kind[it] == N_METHOD and is_dict(types.type[tree.first[it]]):
        m = tree.op[it] - 1
        if m == M_KEYS or m == M_VALUES or m == M_ITEMS:
            return np.int64(O.FOR_DICT_KEYS + (m - M_KEYS)), np.int64(tree.first[it])
    if is_dict(t):
        return np.int64(O.FOR_DICT_KEYS), node
    if is_set(t):
        return np.int64(O.FOR_SET), node
    return np.int64(O.FOR_LIST), node
