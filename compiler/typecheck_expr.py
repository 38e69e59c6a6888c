"""Type checker, expressions: types of expression trees, calls, builtins and list methods
(a part of phase 3, see compiler/typecheck.py; the rules themselves are compiler/typerules.py).

Kernel bodies (numba subset, no recursion: explicit stacks on Scratch.walk).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import (
    E_BUILTIN_ARGS,
    E_CALL_ARITY,
    E_NESTING_TOO_DEEP,
    E_NONE_VALUE,
    E_NOT_A_FUNCTION,
    E_NOT_CALLABLE_BUILTIN,
    E_OPERAND_TYPES,
    E_SYNTAX,
    E_TYPE_MISMATCH,
    E_UNBOUND,
    E_UNDEFINED_NAME,
    E_UNKNOWN_FUNCTION,
    E_UNSUPPORTED,
    E_VOID_VALUE,
)
from gpucc.compiler.limits import MAX_NESTING
from gpucc.compiler.nodes import (
    N_BINARY,
    N_BOOL,
    N_BOOLOP,
    N_CALL,
    N_CMP_LINK,
    N_COMPARE,
    N_FLOAT,
    N_IFEXP,
    N_INT,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_SLICE,
    N_SUBSCRIPT,
    N_UNARY,
    UN_NOT,
)
from gpucc.compiler.scope import (
    F_NPARAMS,
    F_PTYPE,
    F_RET,
    L_TYPE,
    M_APPEND,
    N_SUPPORTED_BUILTINS,
    builtin_code,
    find_function,
    find_local,
    is_builtin,
    method_code,
)
from gpucc.compiler.typerules import (
    A_LIST_OR_NUMBERS,
    BUILTIN_ARG,
    BUILTIN_NARGS,
    BUILTIN_RULES,
    METHOD_NARGS,
    binary_type,
    builtin_arity_ok,
    builtin_type,
    compare_ok,
    converts,
    element_type,
    is_integral,
    is_list,
    join_lists,
    list_literal_type,
    unary_type,
)  # fmt: skip
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_NONE

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ONE = np.uint64(1)
ZERO = np.uint64(0)

# the walk stack's columns (Scratch.walk: int32[scratch_rows, WALK_WIDTH]): the node, the
# visit state, three values whose meaning depends on the walker and the node's kind
S_NODE, S_STATE, S_A, S_B, S_C = range(5)
WALK_WIDTH = 5
# the definite-assignment masks of an if / loop row (Scratch.masks: uint64[scratch_rows,
# MASK_WIDTH]): before its body, and the AND of the masks where its paths join
M_BEFORE, M_JOIN = range(2)
MASK_WIDTH = 2


@register_jitable
def scratch_rows(n_nodes):
    """Rows of the walk stack and the masks (Scratch.walk, Scratch.masks) for n_nodes nodes."""
    return n_nodes + 8


@register_jitable
def bit(s):
    return ONE << np.uint64(s)


@register_jitable
def is_const_true(tree, n):
    """`while True:` / `while 1:` (a loop left only by break or return)."""
    return (tree.kind[n] == N_BOOL or tree.kind[n] == N_INT) and tree.val[n] != 0


@register_jitable
def expr_start(toks, tree, n):
    """Byte offset of an expression's leftmost token (where a caret should point)."""
    kind = tree.kind
    while kind[n] == N_BINARY or kind[n] == N_BOOLOP or kind[n] == N_COMPARE:
        n = tree.first[n]
    return toks.start[tree.tok[n]]


@register_jitable
def expr_fail(err, code, toks, tree, n, arg):
    """Record error `code` spanning expression n (from its leftmost token); returns -1."""
    s = expr_start(toks, tree, n)
    return fail(err, code, s, max(s, toks.end[tree.tok[n]]), arg)


@register_jitable
def node_fail(err, code, toks, tree, n, arg):
    """Record error `code` spanning node n's token; returns -1."""
    t = tree.tok[n]
    return fail(err, code, toks.start[t], toks.end[t], arg)


@register_jitable
def _resolve_call(src, toks, tree, types, scope, scratch, n, err):
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    fn, next_ = types.fn, tree.next
    if find_local(src, scratch.locs, scope.nloc, s, e) >= 0:  # Python would call the local's value
        return fail(err, E_NOT_A_FUNCTION, s, e, 0)
    f = find_function(src, fn, scope.nf, s, e)
    nargs = 0
    c = tree.first[n]
    while c != -1:
        nargs += 1
        c = next_[c]
    if f < 0:
        b = builtin_code(src, s, e)
        if b < 0 or b >= N_SUPPORTED_BUILTINS:
            return fail(err, E_NOT_CALLABLE_BUILTIN if is_builtin(src, s, e) else E_UNKNOWN_FUNCTION, s, e, 0)
        if not builtin_arity_ok(b, nargs):
            return fail(err, E_BUILTIN_ARGS, s, e, BUILTIN_RULES[b, BUILTIN_NARGS] * 256 + nargs)
        tree.op[n] = 1 + b
        return 0
    if nargs != fn[f, F_NPARAMS]:
        return fail(err, E_CALL_ARITY, s, e, fn[f, F_NPARAMS] * 256 + nargs)
    types.slot[n] = f
    return f


@register_jitable
def type_expr(root, truth, void_ok, src, toks, tree, types, scope, mask, scratch, sp0, err):
    """Type the expression at root (postorder walk on the walk stack above sp0; mask: the
    locals definitely assigned here).

    truth: only its truth value is used; void_ok: root may be a call of a `-> None` function.
    Returns the root's type, -1 with err set, or -2 - v: check the function again with local
    v widened (see widen_request)."""
    kind, op, first, next_ = tree.kind, tree.op, tree.first, tree.next
    type_, slot, fn, locs, stk = types.type, types.slot, types.fn, scratch.locs, scratch.walk
    sp = sp0
    stk[sp, S_NODE] = root
    stk[sp, S_STATE] = 0
    stk[sp, S_A] = truth
    sp += 1
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        k = kind[n]
        if stk[top, S_STATE] == 0:  # first visit
            stk[top, S_STATE] = 1
            stk[top, S_B] = first[n]
            if k == N_CALL:
                if _resolve_call(src, toks, tree, types, scope, scratch, n, err) < 0:
                    return -1
        c = stk[top, S_B]
        if c != -1:  # type the next child first
            if sp >= stk.shape[0]:
                return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, n, MAX_NESTING)
            stk[top, S_B] = next_[c]
            ctx = 0
            if k == N_BOOLOP:
                ctx = stk[top, S_A]
            elif (k == N_UNARY and op[n] == UN_NOT) or (k == N_IFEXP and c == next_[first[n]]):
                ctx = 1
            stk[sp, S_NODE] = c
            stk[sp, S_STATE] = 0
            stk[sp, S_A] = ctx
            sp += 1
            continue
        sp -= 1
        t = T_INT
        if k == N_INT:
            t = T_INT
        elif k == N_BOOL:
            t = T_BOOL
        elif k == N_COMPARE:
            t = T_BOOL
            left = first[n]
            link = next_[left]
            while link != -1:
                if not compare_ok(op[link], type_[left], type_[link]):
                    lt, rt = type_[left], type_[link]
                    return node_fail(err, E_OPERAND_TYPES, toks, tree, link, lt * 16 + rt)
                left = first[link]
                link = next_[link]
        elif k == N_NAME:
            s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
            v = find_local(src, locs, scope.nloc, s, e)
            if v < 0:
                return fail(err, E_UNDEFINED_NAME, s, e, 0)
            if (mask & bit(v)) == ZERO or locs[v, L_TYPE] < 0:
                return fail(err, E_UNBOUND, s, e, 0)
            slot[n] = v
            t = locs[v, L_TYPE]
        elif k == N_FLOAT:
            t = T_FLOAT
        elif k == N_UNARY:
            ct = type_[first[n]]
            t = unary_type(op[n], ct)
            if t < 0:
                return node_fail(err, E_OPERAND_TYPES, toks, tree, n, ct * 16 + ct)
        elif k == N_BINARY:
            lt, rt = type_[first[n]], type_[next_[first[n]]]
            t = binary_type(op[n], lt, rt)
            if t < 0:
                return node_fail(err, E_OPERAND_TYPES, toks, tree, n, lt * 16 + rt)
        elif k == N_IFEXP:
            bt, ot = type_[first[n]], type_[next_[next_[first[n]]]]
            t = bt
            if bt != ot:  # lists join (`[]` takes the other's type); a float and an int or bool give a float
                if is_list(bt) and is_list(ot):
                    t = join_lists(bt, ot)
                elif (bt == T_FLOAT or ot == T_FLOAT) and converts(T_FLOAT, bt) and converts(T_FLOAT, ot):
                    t = T_FLOAT
                else:
                    t = -1
                if t < 0:
                    return node_fail(err, E_OPERAND_TYPES, toks, tree, n, bt * 16 + ot)
        elif k == N_LIST:
            t = list_literal_type(first, next_, type_, n)
            if t < 0:
                return node_fail(err, E_UNSUPPORTED, toks, tree, n, -1 - t)
        elif k == N_SUBSCRIPT or k == N_SLICE:
            ot = type_[first[n]]
            c = next_[first[n]]
            while c != -1:
                if not is_integral(type_[c]):
                    return expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, T_INT * 16 + type_[c])
                c = next_[c]
            if not is_list(ot):
                return node_fail(err, E_OPERAND_TYPES, toks, tree, n, ot * 16 + T_INT)
            t = element_type(ot) if k == N_SUBSCRIPT else ot
        elif k == N_METHOD:
            t = _method_type(src, toks, tree, types, scope, n, err)
            if t < 0:
                return t
            if not (void_ok and n == root):
                return node_fail(err, E_VOID_VALUE, toks, tree, n, 0)
        elif k == N_BOOLOP:
            lt, rt = type_[first[n]], type_[next_[first[n]]]
            if lt == rt:
                t = lt
            elif stk[sp, S_A] == 0:
                r = widen_request(tree, types, first[n], scope.widen)
                if r <= -2:  # an int local here holds floats too
                    return r
                return node_fail(err, E_OPERAND_TYPES, toks, tree, n, lt * 16 + rt)
        elif k == N_CMP_LINK:
            t = type_[first[n]]
        elif k == N_CALL and op[n] > 0:
            t = builtin_type(op[n] - 1, first, next_, type_, n)
            if t < 0 and BUILTIN_RULES[op[n] - 1, BUILTIN_ARG] == A_LIST_OR_NUMBERS:
                r = widen_request(tree, types, first[n], scope.widen)
                if r <= -2:  # an int local among float arguments holds floats too
                    return r
            if t < 0:
                return node_fail(err, E_OPERAND_TYPES, toks, tree, n, -t - 1)
        elif k == N_CALL:
            f = slot[n]
            c = first[n]
            p = 0
            while c != -1:
                if not converts(fn[f, F_PTYPE + p], type_[c]):
                    return expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, fn[f, F_PTYPE + p] * 16 + type_[c])
                p += 1
                c = next_[c]
            t = fn[f, F_RET]
            if t == T_NONE and not (void_ok and n == root):
                return node_fail(err, E_VOID_VALUE, toks, tree, n, 0)
        elif k == N_NONE:
            return node_fail(err, E_NONE_VALUE, toks, tree, n, 0)
        else:
            return node_fail(err, E_SYNTAX, toks, tree, n, 0)
        type_[n] = t
    return type_[root]


@register_jitable
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


@register_jitable
def widen_or_fail(toks, tree, types, widen, obj, et, vt, value, err):
    """A value of type vt goes into a list obj of element type et that does not take it: if
    obj is a local list of ints (from `[]`) not widened yet, -2 - its slot asks for a check
    with it a list of floats; else the type error (-1)."""
    v = types.slot[obj]
    if et == T_INT and vt == T_FLOAT and tree.kind[obj] == N_NAME and (widen & bit(v)) == ZERO:
        return -2 - v
    return expr_fail(err, E_TYPE_MISMATCH, toks, tree, value, et * 16 + vt)


@register_jitable
def _method_type(src, toks, tree, types, scope, n, err):
    """Type (None) of the list method call n: xs.append(v), xs.sort(); -1 with err set, or
    a widen request (widen_or_fail)."""
    next_, type_ = tree.next, types.type
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = method_code(src, s, e)
    obj = tree.first[n]
    if m < 0:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_METHOD)
    nargs = 0
    c = next_[obj]
    while c != -1:
        nargs += 1
        c = next_[c]
    if nargs != METHOD_NARGS[m]:
        return fail(err, E_BUILTIN_ARGS, s, e, METHOD_NARGS[m] * 256 + nargs)
    if not is_list(type_[obj]):
        return fail(err, E_OPERAND_TYPES, s, e, type_[obj] * 16 + type_[obj])
    tree.op[n] = 1 + m
    if m == M_APPEND:
        et, v = element_type(type_[obj]), next_[obj]
        if not converts(et, type_[v]):
            return widen_or_fail(toks, tree, types, scope.widen, obj, et, type_[v], v, err)
    return T_NONE


@register_jitable
def calls_in(tree, root, scratch, sp0):
    """Whether the expression at root calls a function or method (walk stack above sp0)."""
    kind, first, next_, stk = tree.kind, tree.first, tree.next, scratch.walk
    sp = sp0
    stk[sp, S_NODE] = root
    sp += 1
    while sp > sp0:
        sp -= 1
        n = stk[sp, S_NODE]
        if kind[n] == N_CALL or kind[n] == N_METHOD:
            return True
        c = first[n]
        while c != -1 and sp < stk.shape[0]:
            stk[sp, S_NODE] = c
            sp += 1
            c = next_[c]
    return False
