"""isinstance(x, T), decided when compiled from x's static type (kernel bodies).

T is a builtin type's name among CLASSES or a tuple of them (anything else: a located
E_UNSUPPORTED).  The type checker (compiler/typecheck_calls.py) makes T an INT node of the
classes' mask; codegen (compiler/codegen_expr.py) runs x,
then: a bool is an int (as in CPython); an Optional[T] x tested against a class T is in is
`x is not None` (None is an instance of none of them); any other answer is a constant, x's value
dropped.  A float tested against int or float is not decided (a located E_UNSUPPORTED): where
gpucc converts an int to a declared float (a parameter, an annotated local, a list[float]'s
element), CPython keeps the int, so either answer could be wrong.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.nodes import N_INT, N_NAME, N_TUPLE
from gpucc.compiler.scope import BUILTINS, table_index
from gpucc.compiler.tokens import _byte_table
from gpucc.compiler.typerules import is_dict, is_list, is_set
from gpucc.compiler.typeshapes import is_optional, is_tuple
from gpucc.contract.jitable import nrt_free, type_element
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR

CLASSES = ("int", "float", "bool", "str", "list", "tuple", "dict", "set")
CLASS_BYTES, CLASS_LENS = _byte_table(CLASSES)
IS_NOT_NONE = 2  # instance_answer: `x is not None`
B_ISINSTANCE = BUILTINS.index("isinstance")


@nrt_free
def classes_node(src, toks, tree, c, err):
    """isinstance's second argument c made an INT node of its classes' mask (bit k: CLASSES[k]):
    0, or -1 with err set."""
    first = tree.first[c] if tree.kind[c] == N_TUPLE else c
    mask = 0
    k = first
    while k != -1:
        s, e = toks.start[tree.tok[k]], toks.end[tree.tok[k]]
        i = table_index(src, s, e, CLASS_BYTES, CLASS_LENS) if tree.kind[k] == N_NAME else -1
        if i < 0:
            return fail(err, E_UNSUPPORTED, s, e, errors.C_ISINSTANCE_CLASS)
        mask |= 1 << i
        k = tree.next[k] if k != c else -1
    tree.kind[c] = N_INT
    tree.val[c] = mask
    tree.first[c] = -1
    return 0


@nrt_free
def _class_of(t):
    """t's index in CLASSES (-1: None)."""
    if t == T_INT:
        return 0
    if t == T_FLOAT:
        return 1
    if t == T_BOOL:
        return 2
    if t == T_STR:
        return 3
    if is_list(t):
        return 4
    if is_tuple(t):
        return 5
    if is_dict(t):
        return 6
    if is_set(t):
        return 7
    return -1


@nrt_free
def instance_answer(t, mask):
    """isinstance of a value of type t against the classes of mask: 0, 1 or IS_NOT_NONE."""
    optional = is_optional(t)
    k = _class_of(type_element(t) if optional else t)
    hit = (k >= 0 and ((mask >> k) & 1) == 1) or (k == 2 and (mask & 1) == 1)  # a bool is an int
    return 0 if not hit else IS_NOT_NONE if optional else 1


@nrt_free
def isinstance_type(toks, tree, types, n, err):
    """The type of isinstance CALL n, its x typed: bool, or -1 with err set where the answer is
    not static (a float, or an Optional float, against int or float)."""
    x = tree.first[n]
    t = types.type[x]
    if (type_element(t) if is_optional(t) else t) == T_FLOAT and tree.val[tree.next[x]] & 3 != 0:
        return fail(err, E_UNSUPPORTED, toks.start[tree.tok[n]], toks.end[tree.tok[n]], errors.C_ISINSTANCE_FLOAT)
    return T_BOOL
