"""What the parts of the type checker share (kernel bodies): the walk stack's frame layout
(codegen walks on it too), definite-assignment bits, error spans and widening requests.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail, fail_types
from gpucc.compiler.errors import E_TYPE_MISMATCH, E_UNSUPPORTED
from gpucc.compiler.limits import MAX_LOCALS
from gpucc.compiler.nodes import N_BINARY, N_BOOL, N_BOOLOP, N_CALL, N_COMPARE, N_IFEXP, N_INT, N_NAME, N_SUBSCRIPT
from gpucc.compiler.scope import L_PRESET
from gpucc.compiler.typecheck_defaultdict import dd_request
from gpucc.compiler.typerules import EMPTY_LIST, LIST_FLOAT, LIST_INT, LIST_STR, is_deque, list_view
from gpucc.contract.jitable import nrt_free, type_list_of
from gpucc.contract.typecodes import DEQUE, LIST, OPTIONAL
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_NONE

# The walk stack (Scratch.walk: int32[scratch_rows, WALK_WIDTH]) holds a frame per node being
# walked: the node and its visit state, then three values each walker names per frame kind
# (typecheck_expr X_*, typecheck BLOCK_* / BRANCH_*; codegen's frames use S_A, S_B, S_C).
S_NODE, S_STATE, S_A, S_B, S_C = range(5)
WALK_WIDTH = 5

# a request to check a function again with local v's `[]` a list[str]: STR_REQUEST - v (the
# float widening's -2 - v are above it); with local v first bound as its preset type
# (scope.L_PRESET): PRESET_REQUEST - v
STR_REQUEST = -2 - MAX_LOCALS
PRESET_REQUEST = STR_REQUEST - MAX_LOCALS

# definite assignment: a uint64 mask per point, bit v = local slot v is assigned
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ONE = np.uint64(1)
ZERO = np.uint64(0)


@nrt_free
def scratch_rows(n_nodes):
    """Rows of the walk stack and the masks (Scratch.walk, Scratch.masks) for n_nodes nodes."""
    return n_nodes + 8


@nrt_free
def bit(s):
    return ONE << np.uint64(s)


@nrt_free
def is_const_true(tree, n):
    """`while True:` / `while 1:` (a loop left only by break or return)."""
    return (tree.kind[n] == N_BOOL or tree.kind[n] == N_INT) and tree.val[n] != 0


@nrt_free
def expr_start(toks, tree, n):
    """Byte offset of an expression's leftmost token (where a caret should point)."""
    kind = tree.kind
    while kind[n] == N_BINARY or kind[n] == N_BOOLOP or kind[n] == N_COMPARE:
        n = tree.first[n]
    return toks.start[tree.tok[n]]


@nrt_free
def expr_fail(err, code, toks, tree, n, arg):
    """Record error `code` spanning expression n (from its leftmost token); returns -1."""
    s = expr_start(toks, tree, n)
    return fail(err, code, s, max(s, toks.end[tree.tok[n]]), arg)


@nrt_free
def expr_fail_types(err, code, toks, tree, n, expected, got):
    """expr_fail of a type mismatch: the type expected and the one got."""
    s = expr_start(toks, tree, n)
    return fail_types(err, code, s, max(s, toks.end[tree.tok[n]]), expected, got)


@nrt_free
def node_fail(err, code, toks, tree, n, arg):
    """Record error `code` spanning node n's token; returns -1."""
    t = tree.tok[n]
    return fail(err, code, toks.start[t], toks.end[t], arg)


@nrt_free
def node_fail_types(err, code, toks, tree, n, expected, got):
    """node_fail of a type mismatch: the type expected and the one got."""
    t = tree.tok[n]
    return fail_types(err, code, toks.start[t], toks.end[t], expected, got)


# tree.val of an expression (NAME, CALL, SUBSCRIPT, IFEXP) whose Optional[T] value is used as
# its T: codegen unboxes it (UNBOX: TypeError on None, as CPython's None + 1, len(None) ...)
UNBOXED = 1
# ... the left operand of a binary operator: unboxed after the right operand ran (CPython
# evaluates both operands before the operator raises TypeError on None)
UNBOX_LATE = 2


@nrt_free
def can_unbox(kind):
    """Whether an expression of this kind may be marked UNBOXED (its val is free)."""
    return kind == N_NAME or kind == N_CALL or kind == N_SUBSCRIPT or kind == N_IFEXP


@nrt_free
def unboxed(tree, types, c):
    """The type of expression c where a value of its T is needed: an Optional[T] is marked
    UNBOXED and typed T."""
    t = types.type[c]
    if t >= 0 and (t & 15) == OPTIONAL and can_unbox(tree.kind[c]):
        t = t >> 4
        types.type[c] = t
        tree.val[c] = UNBOXED
    return t


@nrt_free
def widen_request(tree, types, c, widen):
    """Operands c, next[c], ... mix ints and floats where one type is needed (min, max, the
    value of and / or): if one is an int local v not widened yet, -2 - v asks for a check
    with it a float (a local that meets floats holds floats, the numeric tower); else 0."""
    kind, next_, type_, slot = tree.kind, tree.next, types.type, types.slot
    has_float = False
    d = c
    while d != -1:
        has_float = has_float or type_[d] == T_FLOAT
        d = next_[d]
    while has_float and c != -1:
        if kind[c] == N_NAME and type_[c] == T_INT and (widen & bit(slot[c])) == ZERO:
            return -2 - slot[c]
        c = next_[c]
    return 0


@nrt_free
def preset_request(locs, v, t):
    """Ask for a check of the function with local v of type t from its first binding on (once
    per local: its first assignment gave it a type that later ones do not convert to, None
    before a T, a `[]` before lists of T): PRESET_REQUEST - v, or 0."""
    if locs[v, L_PRESET] >= 0 or t < 0:
        return 0
    locs[v, L_PRESET] = t
    return PRESET_REQUEST - v


@nrt_free
def list_request(tree, types, scope, locs, value, want):
    """A local list of ints `value` (from `[]`, it may be) where list type `want` is wanted:
    ask for a check with its `[]` a `want` (a list[str]: STR_REQUEST - its slot; a list of
    other than numbers: preset_request); else 0."""
    if tree.kind[value] == N_SUBSCRIPT:  # a defaultdict's value (compiler/typecheck_defaultdict.py)
        v = dd_request(tree, types, locs, value, want)
        return PRESET_REQUEST - v if v >= 0 else 0
    if tree.kind[value] != N_NAME:
        return 0
    return slot_request(scope, locs, types.slot[value], types.type[value], want)


@nrt_free
def slot_request(scope, locs, v, have, want):
    """list_request of local v (of type have)."""
    if list_view(have) != LIST_INT or (want & 15) != (have & 15):  # `[]`'s, or `deque()`'s
        return 0
    if list_view(want) == LIST_STR:
        return STR_REQUEST - v if (scope.strs & bit(v)) == ZERO else 0
    return 0 if list_view(want) == LIST_INT or list_view(want) == LIST_FLOAT else preset_request(locs, v, want)


@nrt_free
def same_list(toks, tree, types, scope, locs, t, v, value, err):
    """xs.extend(ys), xs += ys: ys (node value) must be a list of xs's type t (or `[]`); v: xs's
    local slot (-1: xs is no local).  0; a check request when xs or ys is a local `[]` another
    type would fit (widen_or_fail, list_request); else the type error (-1)."""
    vt = types.type[value]
    if vt == t or vt == EMPTY_LIST:
        return 0
    if v >= 0 and t == LIST_INT and vt == LIST_FLOAT and (scope.widen & bit(v)) == ZERO:
        return -2 - v
    r = slot_request(scope, locs, v, t, vt) if v >= 0 else 0
    if r <= -2:
        return r
    r = list_request(tree, types, scope, locs, value, t)
    if r <= -2:
        return r
    return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, value, t, vt)


@nrt_free
def widen_or_fail(toks, tree, types, scope, locs, obj, et, vt, value, err):
    """A value of type vt goes into a list obj of element type et that does not take it: if
    obj is a local list of ints (from `[]`) not widened yet, -2 - its slot asks for a check
    with it a list of floats (a str or other: list_request); else the type error (-1)."""
    v = types.slot[obj]
    if et == T_INT and vt == T_FLOAT and tree.kind[obj] == N_NAME and (scope.widen & bit(v)) == ZERO:
        return -2 - v
    if type_list_of(vt) < 0:  # a list of these would be a type too large to hold
        return expr_fail(err, E_UNSUPPORTED, toks, tree, value, errors.C_TYPE_TOO_LARGE)
    want = type_list_of(vt) if vt != T_NONE else T_NONE
    if is_deque(types.type[obj]) and want != T_NONE:  # q.append(v) of `q = deque()`
        want = want ^ LIST ^ DEQUE
    r = list_request(tree, types, scope, locs, obj, want)
    if r <= -2:
        return r
    return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, value, et, vt)


@nrt_free
def target_bits(tree, types, target, stk, sp):
    """The definite-assignment bits of the locals a target's NAMEs assign (walk stack rows
    from sp; bind_target went this deep already)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    bits = ZERO
    top = sp
    stk[top, S_NODE] = target
    top += 1
    while top > sp:
        top -= 1
        m = stk[top, S_NODE]
        if kind[m] == N_NAME:
            bits |= bit(types.slot[m])
        top = push_children(stk, top, first, next_, kind, m, -1)
    return bits


@nrt_free
def push_children(stk, top, first, next_, kind, n, skip):
    """Push node n's children, but those of kind `skip`, on the walk stack (rows from top) for
    a preorder walk; -> the new top (children past the stack's last row are not walked)."""
    c = first[n]
    while c != -1 and top < stk.shape[0]:
        if kind[c] != skip:
            stk[top, S_NODE] = c
            top += 1
        c = next_[c]
    return top


@nrt_free
def count_from(next_, c):
    """The number of siblings c, next[c], ... (0 for c = -1)."""
    count = 0
    while c != -1:
        count += 1
        c = next_[c]
    return count
