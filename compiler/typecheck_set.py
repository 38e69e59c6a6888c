"""The set methods beyond add / discard / remove (typing; their code: compiler/emit_set.py):
`s.update(*its)`, `intersection_update`, `difference_update`, `symmetric_difference_update`,
`union`, `intersection`, `difference`, `symmetric_difference`, `issubset`, `issuperset`,
`isdisjoint`, `copy`, `clear`, `pop`.  An argument is a set of the receiver's type, or a list,
tuple, range, dict (its keys) or dict view whose elements are of the set's element type: CPython
takes each by its own path (vm/reference_set.py's operand forms).  METHOD nodes of these get
op = 1 + FIRST_SET_METHOD + k.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_TYPE_MISMATCH
from gpucc.compiler.nodes import N_NAME
from gpucc.compiler.scope import METHODS, table_index
from gpucc.compiler.tokens import _byte_table
from gpucc.compiler.typecheck_base import count_from, expr_fail_types
from gpucc.compiler.typecheck_dict import default_request
from gpucc.compiler.typerules import element_type, is_counter, is_dict, is_list, is_set
from gpucc.compiler.typeshapes import is_tuple, join
from gpucc.contract.jitable import nrt_free, type_list_of, type_set_of
from gpucc.contract.valuetypes import T_BOOL, T_NONE, T_STR

# name: (fewest, most arguments, result: R_*)
R_NONE, R_SAME, R_BOOL, R_ELEMENT = range(4)
_SET_METHODS = {
    "update": (0, 3, R_NONE), "intersection_update": (1, 3, R_NONE), "difference_update": (1, 3, R_NONE),
    "symmetric_difference_update": (1, 1, R_NONE), "union": (0, 3, R_SAME), "intersection": (0, 3, R_SAME),
    "difference": (0, 3, R_SAME), "symmetric_difference": (1, 1, R_SAME), "issubset": (1, 1, R_BOOL),
    "issuperset": (1, 1, R_BOOL), "isdisjoint": (1, 1, R_BOOL), "copy": (0, 0, R_SAME), "clear": (0, 0, R_NONE),
    "pop": (0, 0, R_ELEMENT),
}  # fmt: skip
SET_METHOD_NAMES = tuple(_SET_METHODS)
(SM_UPDATE, SM_INTERSECTION_UPDATE, SM_DIFFERENCE_UPDATE, SM_SYMMETRIC_DIFFERENCE_UPDATE, SM_UNION, SM_INTERSECTION,
 SM_DIFFERENCE, SM_SYMMETRIC_DIFFERENCE, SM_ISSUBSET, SM_ISSUPERSET, SM_ISDISJOINT, SM_COPY, SM_CLEAR,
 SM_POP) = range(len(SET_METHOD_NAMES))  # fmt: skip
SET_METHOD_RULES = np.array([_SET_METHODS[m] for m in SET_METHOD_NAMES], dtype=np.int32)
SET_METHOD_BYTES, SET_METHOD_LENS = _byte_table(SET_METHOD_NAMES)
FIRST_SET_METHOD = len(METHODS)  # after every scope.M_* code
FORM_SET, FORM_ITER, FORM_DICT = 0, 1, 2  # vm/reference_set.py's operand forms


@nrt_free
def set_method_code(src, s, e):
    """SM_* code of the set method named src[s:e], or -1."""
    return table_index(src, s, e, SET_METHOD_BYTES, SET_METHOD_LENS)


@nrt_free
def operand_form(t, ct):
    """The form (FORM_*) an argument of type ct takes as an operand of set t's methods, or -1."""
    et = element_type(t)
    if is_set(ct):
        return FORM_SET if join(t, ct) == t else -1
    if ct == T_STR or not (is_list(ct) or is_tuple(ct) or is_dict(ct)):
        return -1
    if is_list(ct) and join(ct, type_list_of(et)) != type_list_of(et):  # a list of another type (`[]` takes any)
        return -1
    if not is_list(ct) and element_type(ct) != et:
        return -1
    return FORM_DICT if is_dict(ct) and not is_counter(ct) else FORM_ITER  # a Counter: CPython's iterable path


@nrt_free
def set_method_type(k, n, toks, tree, types, locs, err):
    """Type of set method k (SM_*) called at METHOD n on a set, its arguments typed; -1 with err
    set, or a request to check again (a set() local typed by an argument)."""
    next_, type_ = tree.next, types.type
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    obj = tree.first[n]
    t = type_[obj]
    nargs = count_from(next_, next_[obj])
    fewest, most = SET_METHOD_RULES[k, 0], SET_METHOD_RULES[k, 1]
    if nargs < fewest or nargs > most:
        return fail(err, E_BUILTIN_ARGS, s, e, (fewest if nargs < fewest else most) * 256 + nargs)
    tree.op[n] = 1 + FIRST_SET_METHOD + k
    c = next_[obj]
    while c != -1:
        ct = type_[c]
        if operand_form(t, ct) < 0:
            want = ct if is_set(ct) else type_set_of(element_type(ct)) if is_list(ct) or is_dict(ct) else -1
            r = default_request(tree, types, locs, obj, want) if tree.kind[obj] == N_NAME else 0
            if r <= -2:
                return r
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, t, ct)
        c = next_[c]
    result = SET_METHOD_RULES[k, 2]
    if result == R_NONE:
        return T_NONE
    if result == R_BOOL:
        return T_BOOL
    return element_type(t) if result == R_ELEMENT else t
