"""Type checker, collections.deque (kernel bodies).  A deque is a list whose type has the DEQUE
head (contract/typecodes.py): every list form a deque has takes it (compiler/typerules.is_list:
len, truth, iteration, `q[i]`, `q[i] = v`, `del q[i]`, `x in q`, append, pop(), extend,
insert, index, count, remove, reverse, clear, copy, `+` and `*` of deques), and the list
instructions run it (a deque is laid out as a list in the heap).  Its own type keeps what
differs: its repr, `==` (a deque never equals a list: a located error, as any == of two shapes),
sorted / list / reversed of it (lists), and the list forms a deque has not (slices, sort,
pop(i): located errors).

`deque(xs)` calls the prelude function `deque` (compiler/preludes.py), which returns a new
list of xs's items; the call's type is that list's as a deque.  `deque()` is an empty display
marked as a deque's (no prelude: the type checker makes the call one where it resolves it) (EMPTY_DEQUE until its uses type it, as `[]`'s: compiler/typecheck_stmt.bind).
The methods a list has not are calls of prelude functions, the receiver their first argument,
as Counter's (compiler/typecheck_counter.py): `q.popleft()` is `_gpucc_popleft(q)`.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_UNKNOWN_FUNCTION, E_UNSUPPORTED
from gpucc.compiler.modules import (
    DEQUE_MEMBER,
    EMPTY_DEQUE_MARK,
    DEQUE_METHOD_BYTES,
    DEQUE_METHOD_CALLS,
    DEQUE_METHOD_LENS,
    DEQUE_PRELUDE_BYTES,
    DEQUE_PRELUDE_LENS,
    DEQUE_PRELUDES,
    MEMBER_BYTES,
    MEMBER_LENS,
    empty_deque,
)
from gpucc.compiler.nodes import N_CALL
from gpucc.compiler.scope import F_NAME_E, F_NAME_S, F_NODE, F_NPARAMS, table_index
from gpucc.compiler.typecheck_counter import RESOLVED_CALL
from gpucc.compiler.typecheck_import import named_function
from gpucc.compiler.typecheck_base import widen_or_fail
from gpucc.compiler.typerules import converts, element_type, is_deque, is_list, list_view
from gpucc.contract.jitable import nrt_free
from gpucc.contract.typecodes import DEQUE, LIST, UNKNOWN

DEQUE_CALL = -12  # tree.val of a CALL of deque's prelude (its type becomes a deque's)
EMPTY_DEQUE = DEQUE | (UNKNOWN << 4)  # `deque()`'s type until its uses type it
NOT_DEQUE_METHOD = -1000  # deque_method: a list method (the list rules type it)
PARAM_MARK = len(DEQUE_PRELUDES)  # DEQUE_PRELUDE_BYTES' last row: deque's parameter name
LIST_ONLY = -2  # DEQUE_METHOD_CALLS: the list's method (q.pop())
APPENDLEFT, EXTENDLEFT = 1, 2  # DEQUE_PRELUDES' rows


@nrt_free
def is_deque_prelude(src, toks, tree, d):
    """Whether FUNCDEF d is deque's prelude: named deque, its parameter modules.DEQUE_PARAM (not
    a candidate's own deque)."""
    t = tree.tok[d]
    if table_index(src, toks.start[t], toks.end[t], MEMBER_BYTES, MEMBER_LENS) != DEQUE_MEMBER:
        return False
    p = tree.first[d]
    if p == -1:
        return False
    t = tree.tok[p]
    return table_index(src, toks.start[t], toks.end[t], DEQUE_PRELUDE_BYTES, DEQUE_PRELUDE_LENS) == PARAM_MARK


@nrt_free
def mark_deque_call(src, toks, tree, fn, f, n):
    """CALL n of the unit's function f: of deque's prelude, marked DEQUE_CALL, or without
    arguments made the empty display (True: resolved)."""
    if not is_deque_prelude(src, toks, tree, fn[f, F_NODE]):
        return False
    tree.val[n] = DEQUE_CALL
    return empty_deque(tree, n, DEQUE_MEMBER)  # compiler/modules.py


@nrt_free
def deque_call_type(t):
    """The type of a CALL of deque's prelude, which returns t (a list): the deque of its items."""
    return t ^ LIST ^ DEQUE if t >= 0 and (t & 15) == LIST else t


@nrt_free
def deque_display_type(tree, n, t):
    """The type of display n (t: a list display's): `deque()`'s EMPTY_DEQUE, else t."""
    return EMPTY_DEQUE if tree.val[n] == EMPTY_DEQUE_MARK else t


@nrt_free
def same_items(t, vt):
    """Whether q.extend(v) / xs.extend(v) of a list or deque t takes v of type vt as one of its
    own type: a list and a deque of one element type (CPython extends by any iterable)."""
    return is_list(t) and is_list(vt) and is_deque(t) != is_deque(vt) and list_view(t) == list_view(vt)


@nrt_free
def deque_method(src, toks, tree, types, scope, locs, n, nargs, err):
    """METHOD n of a deque, its children typed: a deque method made a CALL of its prelude
    function (>= 0: the function, to type as a call), NOT_DEQUE_METHOD for a list method (and
    for popleft's prelude's q.pop(0)), -1 with err set (a list form a deque has not, or a wrong
    number of arguments), or a check request (appendleft / extendleft of what `q = deque()`'s
    elements do not take yet, as append's: typecheck_base.widen_or_fail)."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = table_index(src, s, e, DEQUE_METHOD_BYTES, DEQUE_METHOD_LENS)
    fn, f = types.fn, scope.f
    if m < 0 or table_index(src, fn[f, F_NAME_S], fn[f, F_NAME_E], DEQUE_PRELUDE_BYTES, DEQUE_PRELUDE_LENS) == 0:
        return NOT_DEQUE_METHOD
    p = DEQUE_METHOD_CALLS[m, min(nargs, 1)] if nargs <= 1 else -1
    if p == LIST_ONLY:
        return NOT_DEQUE_METHOD
    if DEQUE_METHOD_CALLS[m, 0] < 0 and DEQUE_METHOD_CALLS[m, 1] < 0 or DEQUE_METHOD_CALLS[m, 0] == LIST_ONLY:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_DEQUE_FORM)  # sort, pop(i)
    if p < 0:
        most = 0 if DEQUE_METHOD_CALLS[m, 1] < 0 else 1
        return fail(err, E_BUILTIN_ARGS, s, e, most * 256 + nargs)
    obj = tree.first[n]
    if p == APPENDLEFT or p == EXTENDLEFT:  # their items go into q: its element type must take them
        a = tree.next[obj]
        et, vt = element_type(types.type[obj]), types.type[a] if p == APPENDLEFT else element_type(types.type[a])
        if vt >= 0 and not converts(et, vt):
            return widen_or_fail(toks, tree, types, scope, locs, obj, et, vt, a, err)
    g = named_function(src, fn, scope.nf, p, DEQUE_PRELUDE_BYTES, DEQUE_PRELUDE_LENS)
    if g < 0 or fn[g, F_NPARAMS] != nargs + 1:  # the prelude is missing: preludes.py's pattern did not see it
        return fail(err, E_UNKNOWN_FUNCTION, s, e, 0)
    tree.kind[n] = N_CALL  # its first child, the receiver, is the first argument
    tree.op[n] = 0
    tree.val[n] = RESOLVED_CALL
    types.slot[n] = g
    return g
