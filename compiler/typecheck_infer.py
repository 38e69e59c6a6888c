"""Type checker, functions typed from their calls (kernel bodies): what a call of such a
function asks of the driver (typecheck.check_all), nested defs' scopes.

A parameter without an annotation takes the type of the first argument a call passes it (a
later call must pass a value that converts to it); a function without a return annotation
takes its first return's type (None when no return gives a value).  So such a function is
checked when a call first needs it: the call's check asks for it (CALLEE_REQUEST - g, a
request as typecheck_base's widening ones), the caller's check stops, the callee is checked
(and the functions it asks for, a chain linked through F_WAITER: no recursion), then the caller
again from its start.  A call of a function being checked (recursion) uses its return type
so far; before any return has given one, that is a located error (E_RETURN_UNKNOWN).

A nested def is hoisted by the parser (FUNCDEF.val = its enclosing FUNCDEF, F_PARENT = that
function's row); its name is visible in its own body, in its enclosing function after the def
and in the functions nested in that one, as CPython's scoping makes it (E_UNKNOWN_FUNCTION
elsewhere, E_UNBOUND before the def).
"""

from __future__ import annotations

from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_RETURN_UNKNOWN, E_UNBOUND, E_UNKNOWN_FUNCTION
from gpucc.compiler.limits import MAX_LOCALS
from gpucc.compiler.nodes import N_PARAM, NO_TYPE
from gpucc.compiler.scope import F_NODE, F_PARENT, F_PTYPE, F_RET, F_STATE
from gpucc.compiler.typecheck_base import PRESET_REQUEST, node_fail
from gpucc.compiler.typerules import EMPTY_LIST, LIST_INT
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE

UNCHECKED, CHECKING, CHECKED = range(3)  # F_STATE
CALLEE_REQUEST = PRESET_REQUEST - MAX_LOCALS  # - g: check function g first (below the other requests)


@nrt_free
def is_inferred(tree, fn, f):
    """Whether function f leaves out a parameter's or its return's annotation."""
    d = fn[f, F_NODE]
    if tree.op[d] == NO_TYPE:
        return True
    c = tree.first[d]
    while c != -1 and tree.kind[c] == N_PARAM:
        if tree.op[c] == NO_TYPE:
            return True
        c = tree.next[c]
    return False


@nrt_free
def visible(fn, caller, callee, call_start, toks, tree, err):
    """Whether caller may call callee by its name at byte call_start: 0, or -1 with err set."""
    parent = fn[callee, F_PARENT]
    if parent < 0 or caller == callee:
        return 0
    s, e = toks.start[tree.tok[fn[callee, F_NODE]]], toks.end[tree.tok[fn[callee, F_NODE]]]
    g = caller
    while g >= 0 and g != parent:
        g = fn[g, F_PARENT]
    if g < 0:  # not inside the enclosing function: the name is its local
        return fail(err, E_UNKNOWN_FUNCTION, call_start, call_start + e - s, 0)
    if caller == parent and call_start < s:
        return fail(err, E_UNBOUND, call_start, call_start + e - s, 0)
    return 0


@nrt_free
def callee_type(fn, callee, n, toks, tree, err):
    """The type of CALL n of callee, its arguments checked: callee's return type, a request to
    check callee first (CALLEE_REQUEST - callee), or -1 with err set (callee is being
    checked and no return has given its type yet)."""
    if fn[callee, F_STATE] == UNCHECKED and is_inferred(tree, fn, callee):
        return CALLEE_REQUEST - callee
    if fn[callee, F_RET] == NO_TYPE:
        return node_fail(err, E_RETURN_UNKNOWN, toks, tree, n, 0)
    return fn[callee, F_RET]


@nrt_free
def param_type(fn, callee, p, t):
    """Parameter p of callee as a call passing a value of type t sees it: an unannotated one
    not yet typed takes t."""
    if fn[callee, F_PTYPE + p] == NO_TYPE and t >= 0 and t != T_NONE:
        fn[callee, F_PTYPE + p] = LIST_INT if t == EMPTY_LIST else t
    return fn[callee, F_PTYPE + p]


@nrt_free
def ready(tree, fn, f):
    """Whether every parameter of f has a type (annotated, or given by a call)."""
    d = fn[f, F_NODE]
    p = 0
    c = tree.first[d]
    while c != -1 and tree.kind[c] == N_PARAM:
        if fn[f, F_PTYPE + p] == NO_TYPE:
            return False
        p += 1
        c = tree.next[c]
    return True
