"""The type rules of the gpucc language: which operand types an operator, builtin or method
takes and what it gives (kernel bodies: pure functions of type codes, for compiler/typecheck.py).

Types are contract.valuetypes codes plus T_EMPTY_LIST, the type of `[]` before its context
(an annotation, a parameter, the other operand) gives it one; it never reaches the VM.
Error results are -1 or, where both operand types go into the message, -1 - (lt * 16 + rt).
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_AND,
    BIN_DIV,
    BIN_LSHIFT,
    BIN_MUL,
    BIN_OR,
    BIN_RSHIFT,
    BIN_XOR,
    CMP_IN,
    CMP_NOT_IN,
)
from gpucc.compiler.scope import B_ABS, B_BOOL, B_FLOAT, B_INT, B_LEN, B_MAX, B_MIN, B_SORTED, B_SUM
from gpucc.contract.isa import CMP_EQ, CMP_NE
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_LIST_FLOAT, T_LIST_INT

T_EMPTY_LIST = 15


@register_jitable
def is_list(t):
    return t == T_LIST_INT or t == T_LIST_FLOAT or t == T_EMPTY_LIST


@register_jitable
def is_number(t):
    return t == T_INT or t == T_BOOL or t == T_FLOAT


@register_jitable
def is_integral(t):
    return t == T_INT or t == T_BOOL


@register_jitable
def element_type(t):
    """The element type of list type t (`[]`'s: int)."""
    return T_FLOAT if t == T_LIST_FLOAT else T_INT


@register_jitable
def join_lists(a, b):
    """The list type both list types a and b are, or -1 (`[]` joins any)."""
    if a == b or b == T_EMPTY_LIST:
        return a
    if a == T_EMPTY_LIST:
        return b
    return -1


@register_jitable
def binary_type(bop, lt, rt):
    """Result type of `lt <bop> rt` (nodes.BIN_* code), or -1 when Python's result type is
    not one gpucc has: an int mixed with a float is a float, bools act as ints except that
    & | ^ of two bools is a bool; list + list, list * int and int * list are lists."""
    if is_list(lt) or is_list(rt):
        if bop == BIN_ADD and is_list(lt) and is_list(rt):
            return join_lists(lt, rt)
        if bop == BIN_MUL and is_list(lt) and is_integral(rt):
            return lt
        if bop == BIN_MUL and is_list(rt) and is_integral(lt):
            return rt
        return -1
    f = lt == T_FLOAT or rt == T_FLOAT
    if bop == BIN_AND or bop == BIN_OR or bop == BIN_XOR:
        if f:
            return -1
        return T_BOOL if lt == T_BOOL and rt == T_BOOL else T_INT
    if bop == BIN_LSHIFT or bop == BIN_RSHIFT:
        return -1 if f else T_INT
    if bop == BIN_DIV or f:
        return T_FLOAT
    return T_INT


@register_jitable
def converts(want, got):
    """Whether a value of type got may stand where want is expected: the same type, an int
    or bool where a float is expected (converted, as PEP 484's numeric tower allows), or
    `[]` where any list is expected."""
    if want == got or (want == T_FLOAT and is_integral(got)):
        return True
    return is_list(want) and got == T_EMPTY_LIST


@register_jitable
def compare_ok(cmp, lt, rt):
    """Whether `lt <cmp> rt` is a comparison gpucc has: numbers with numbers, `x in xs` /
    `not in` of a number in a list, == / != of two lists."""
    if cmp == CMP_IN or cmp == CMP_NOT_IN:
        return is_number(lt) and is_list(rt)
    if is_list(lt) or is_list(rt):
        return (cmp == CMP_EQ or cmp == CMP_NE) and is_list(lt) and is_list(rt) and join_lists(lt, rt) >= 0
    return is_number(lt) and is_number(rt)


@register_jitable
def builtin_type(b, first, next_, type_, n):
    """Result type of a call of supported builtin b (scope.B_*), or -1 - (lt * 16 + rt) for
    arguments of types it does not take (min / max: one list, or numbers all of one type)."""
    c = first[n]
    t = type_[c]
    if b == B_LEN or b == B_SUM or b == B_SORTED:
        if not is_list(t):
            return -1 - (t * 16 + t)
        return T_INT if b == B_LEN else (element_type(t) if b == B_SUM else t)
    if b == B_BOOL:
        return T_BOOL
    if (b == B_MIN or b == B_MAX) and next_[c] == -1:  # min(xs) / max(xs)
        return element_type(t) if is_list(t) else -1 - (t * 16 + t)
    if not is_number(t):
        return -1 - (t * 16 + t)
    if b == B_ABS:
        return T_FLOAT if t == T_FLOAT else T_INT
    if b == B_INT:
        return T_INT
    if b == B_FLOAT:
        return T_FLOAT
    c = next_[c]
    while c != -1:  # min, max of several numbers
        if type_[c] != t:
            return -1 - (t * 16 + type_[c])
        c = next_[c]
    return t


@register_jitable
def list_literal_type(first, next_, type_, n):
    """Type of the list literal n from its elements' types: ints -> list[int], any float ->
    list[float], none -> `[]`; -1 - construct code (errors.C_*) for other elements."""
    t = T_EMPTY_LIST
    c = first[n]
    while c != -1:
        e = type_[c]
        if e == T_BOOL:
            return -2  # lists of bools
        if not is_number(e):
            return -3  # lists of lists
        if e == T_FLOAT or t == T_LIST_FLOAT:
            t = T_LIST_FLOAT
        else:
            t = T_LIST_INT
        c = next_[c]
    return t
