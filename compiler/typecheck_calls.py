"""Type checker, calls: functions of the unit, supported builtins and list methods (a part of
type_expr's walk, compiler/typecheck_expr.py; the builtin and method rules are tables in
compiler/typerules.py).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import (
    E_BUILTIN_ARGS,
    E_CALL_ARITY,
    E_NOT_A_FUNCTION,
    E_NOT_CALLABLE_BUILTIN,
    E_OPERAND_TYPES,
    E_TYPE_MISMATCH,
    E_UNKNOWN_FUNCTION,
    E_UNSUPPORTED,
)
from gpucc.compiler.scope import (
    F_NPARAMS,
    F_PTYPE,
    F_RET,
    M_APPEND,
    N_SUPPORTED_BUILTINS,
    builtin_code,
    find_function,
    find_local,
    is_builtin,
    method_code,
)
from gpucc.compiler.typecheck_base import expr_fail, node_fail, widen_or_fail, widen_request
from gpucc.compiler.typerules import (
    A_LIST_OR_NUMBERS,
    BUILTIN_ARG,
    BUILTIN_NARGS,
    BUILTIN_RULES,
    METHOD_NARGS,
    builtin_arity_ok,
    builtin_type,
    converts,
    element_type,
    is_list,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE


@nrt_free
def count_from(next_, c):
    """The number of siblings c, next[c], ... (0 for c = -1)."""
    count = 0
    while c != -1:
        count += 1
        c = next_[c]
    return count


@nrt_free
def resolve_call(src, toks, tree, types, scope, scratch, n, err):
    """Find what CALL n calls, before its arguments are typed: a function of the unit (slot[n]
    = its index) or a supported builtin (op[n] = 1 + its B_* code), with as many arguments as
    it takes.  Returns >= 0, or -1 with err set."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    fn = types.fn
    if find_local(src, scratch.locs, scope.nloc, s, e) >= 0:  # Python would call the local's value
        return fail(err, E_NOT_A_FUNCTION, s, e, 0)
    f = find_function(src, fn, scope.nf, s, e)
    nargs = count_from(tree.next, tree.first[n])
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


@nrt_free
def type_call(toks, tree, types, scope, n, err):
    """Type of CALL n, its arguments typed: the builtin's result, or the function's return
    type if each argument converts to its parameter's type; -1 with err set, or a widen
    request (an int local among min / max's float arguments)."""
    first, next_, type_ = tree.first, tree.next, types.type
    if tree.op[n] > 0:
        b = tree.op[n] - 1
        t = builtin_type(b, first, next_, type_, n)
        if t < 0 and BUILTIN_RULES[b, BUILTIN_ARG] == A_LIST_OR_NUMBERS:
            r = widen_request(tree, types, first[n], scope.widen)
            if r <= -2:
                return r
        if t < 0:
            return node_fail(err, E_OPERAND_TYPES, toks, tree, n, -t - 1)
        return t
    fn, f = types.fn, types.slot[n]
    c = first[n]
    p = 0
    while c != -1:
        if not converts(fn[f, F_PTYPE + p], type_[c]):
            return expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, fn[f, F_PTYPE + p] * 16 + type_[c])
        p += 1
        c = next_[c]
    return fn[f, F_RET]


@nrt_free
def type_method(src, toks, tree, types, scope, n, err):
    """Type (None) of the list method call n: xs.append(v), xs.sort(); -1 with err set, or
    a widen request (widen_or_fail)."""
    next_, type_ = tree.next, types.type
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = method_code(src, s, e)
    obj = tree.first[n]
    if m < 0:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_METHOD)
    nargs = count_from(next_, next_[obj])
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
