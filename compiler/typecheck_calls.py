"""Type checker, calls: functions of the unit, supported builtins and methods (a part of
type_expr's walk, compiler/typecheck_expr.py; the builtin and method rules are tables in
compiler/typerules.py).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail, fail_types
from gpucc.compiler.errors import (
    E_BUILTIN_ARGS,
    E_CALL_ARITY,
    E_MODULE_NAME,
    E_NOT_A_FUNCTION,
    E_NOT_CALLABLE_BUILTIN,
    E_OPERAND_TYPES,
    E_TYPE_MISMATCH,
    E_UNKNOWN_FUNCTION,
    E_UNSUPPORTED,
)
from gpucc.compiler.modules import (
    CONSTANT_BITS,
    FIRST_MODULE_CODE,
    MATH_FEWEST,
    MATH_MOST,
    MATH_RULES,
    N_MATH_FUNCTIONS,
    find_import,
    math_arity_ok,
    math_type,
    member_code,
)
from gpucc.compiler.nodes import N_ATTR, N_CALL, N_FLOAT, N_NAME
from gpucc.compiler.scope import (
    B_BOOL,
    B_STR,
    F_NPARAMS,
    F_PTYPE,
    F_RET,
    N_SUPPORTED_BUILTINS,
    builtin_code,
    find_function,
    find_local,
    is_builtin,
    method_code,
)
from gpucc.compiler.typecheck_base import (
    expr_fail_types,
    list_request,
    node_fail_types,
    unboxed,
    widen_or_fail,
    widen_request,
)
from gpucc.compiler.typerules import (
    A_ELEMENT,
    A_LIST_OR_NUMBERS,
    BUILTIN_ARG,
    BUILTIN_NARGS,
    BUILTIN_RULES,
    METHOD_ARG,
    METHOD_MAX_ARGS,
    METHOD_MIN_ARGS,
    METHOD_RECEIVER,
    METHOD_RESULT,
    METHOD_RULES,
    RECEIVER_LIST,
    RECEIVER_STR,
    builtin_arity_ok,
    builtin_type,
    converts,
    element_type,
    is_list,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_STR


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
    if tree.op[n] > FIRST_MODULE_CODE:  # a math function, resolved (math.f(...): resolve_attribute)
        return 0
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    fn = types.fn
    if find_local(src, scratch.locs, scope.nloc, s, e) >= 0:  # Python would call the local's value
        return fail(err, E_NOT_A_FUNCTION, s, e, 0)
    f = find_function(src, fn, scope.nf, s, e)
    nargs = count_from(tree.next, tree.first[n])
    imp = find_import(src, toks, tree, s, e) if f < 0 else -1
    if imp >= 0:  # `from math import sqrt`: an import shadows a builtin (pow)
        return _module_call(tree, n, tree.val[imp], nargs, s, e, err)
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
def _module_call(tree, n, k, nargs, s, e, err):
    """CALL n (its callee src[s:e]) calls math member k with nargs arguments: op[n] set (a
    module or a constant: E_UNSUPPORTED).  Returns 0, or -1 with err set."""
    if k < 0 or k >= N_MATH_FUNCTIONS:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_MODULE_VALUE)
    if not math_arity_ok(k, nargs):
        most = MATH_RULES[k, MATH_MOST]
        return fail(err, E_BUILTIN_ARGS, s, e, (most if nargs > most else MATH_RULES[k, MATH_FEWEST]) * 256 + nargs)
    tree.op[n] = 1 + FIRST_MODULE_CODE + k
    return 0


@nrt_free
def imported(src, toks, tree, scope, scratch, n):
    """The IMPORT node binding NAME n, when no local of that name hides it; else -1."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    if find_local(src, scratch.locs, scope.nloc, s, e) >= 0:
        return -1
    return find_import(src, toks, tree, s, e)


@nrt_free
def resolve_attribute(src, toks, tree, scope, scratch, n, err):
    """METHOD or ATTR n on a module (`math.sqrt(x)`, `math.pi`), before its children are typed:
    made a CALL of math's function (op set: resolved) or the constant's FLOAT.  Any other
    ATTR is E_UNSUPPORTED (attribute access); a METHOD of a value stays.  0, or -1 (err set)."""
    obj = tree.first[n]
    imp = imported(src, toks, tree, scope, scratch, obj) if tree.kind[obj] == N_NAME else -1
    s, e = toks.start[tree.tok[obj]], toks.end[tree.tok[n]]
    if imp < 0 or tree.val[imp] >= 0:
        if tree.kind[n] == N_ATTR:
            return fail(err, E_UNSUPPORTED, toks.start[tree.tok[n] - 1], e, errors.C_ATTRIBUTES)  # from the dot
        return 0
    k = member_code(src, toks.start[tree.tok[n]], e)
    if k < 0:
        return fail(err, E_MODULE_NAME, s, e, 0)
    if tree.kind[n] == N_ATTR:
        return constant_node(tree, n, k, s, e, err)
    args = tree.next[obj]
    if _module_call(tree, n, k, count_from(tree.next, args), s, e, err) < 0:
        return -1
    tree.kind[n] = N_CALL
    tree.first[n] = args
    return 0


@nrt_free
def constant_node(tree, n, k, s, e, err):
    """Node n (src[s:e]) names math member k: made its constant's FLOAT (a function or the
    module as a value: E_UNSUPPORTED).  0, or -1 with err set."""
    if k < N_MATH_FUNCTIONS:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_MODULE_VALUE)
    tree.kind[n] = N_FLOAT
    tree.val[n] = CONSTANT_BITS[k - N_MATH_FUNCTIONS]
    tree.first[n] = -1
    return 0


@nrt_free
def type_call(toks, tree, types, scope, scratch, n, err):
    """Type of CALL n, its arguments typed: the builtin's result, or the function's return
    type if each argument converts to its parameter's type; -1 with err set, or a widen
    request (an int local among min / max's float arguments)."""
    first, next_, type_ = tree.first, tree.next, types.type
    if tree.op[n] > 0:
        b = tree.op[n] - 1
        c = first[n]
        while c != -1 and b != B_STR and b != B_BOOL:  # str(None), bool(None): no T is needed
            unboxed(tree, types, c)
            c = next_[c]
        if b >= FIRST_MODULE_CODE:
            t = math_type(b - FIRST_MODULE_CODE, first, next_, type_, n)
        else:
            t = builtin_type(b, first, next_, type_, n)
        if t < 0 and b < FIRST_MODULE_CODE and BUILTIN_RULES[b, BUILTIN_ARG] == A_LIST_OR_NUMBERS:
            r = widen_request(tree, types, first[n], scope.widen)
            if r <= -2:
                return r
        if t < 0:
            return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, type_[first[n]], type_[-1 - t])
        return t
    fn, f = types.fn, types.slot[n]
    c = first[n]
    p = 0
    while c != -1:
        want = fn[f, F_PTYPE + p]
        r = list_request(tree, types, scope, scratch.locs, c, want)
        if r <= -2:  # `xs = []` passed as a list[str]
            return r
        if not converts(want, type_[c]):
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, want, type_[c])
        p += 1
        c = next_[c]
    return fn[f, F_RET]


@nrt_free
def type_method(src, toks, tree, types, scope, scratch, n, err):
    """Type of the method call n: a list method (xs.append(v), xs.sort(): None) or a str
    method (typerules.METHOD_RULES); -1 with err set, or a widen request (widen_or_fail)."""
    next_, type_ = tree.next, types.type
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = method_code(src, s, e)
    obj = tree.first[n]
    t = type_[obj]
    receiver = METHOD_RULES[m, METHOD_RECEIVER] if m >= 0 else -1
    if m < 0 or (receiver == RECEIVER_LIST and t == T_STR) or (receiver == RECEIVER_STR and is_list(t)):
        return fail(err, E_UNSUPPORTED, s, e, errors.C_METHOD)
    if not (is_list(t) or t == T_STR):
        return fail_types(err, E_OPERAND_TYPES, s, e, t, t)
    nargs = count_from(next_, next_[obj])
    fewest, most = METHOD_RULES[m, METHOD_MIN_ARGS], METHOD_RULES[m, METHOD_MAX_ARGS]
    if nargs < fewest or nargs > most:
        return fail(err, E_BUILTIN_ARGS, s, e, (fewest if nargs < fewest else most) * 256 + nargs)
    tree.op[n] = 1 + m
    c = next_[obj]
    for p in range(nargs):
        want = METHOD_RULES[m, METHOD_ARG + p]
        if want == A_ELEMENT and not converts(element_type(t), type_[c]):  # xs.append(v)
            return widen_or_fail(toks, tree, types, scope, scratch.locs, obj, element_type(t), type_[c], c, err)
        r = list_request(tree, types, scope, scratch.locs, c, want)
        if r <= -2:  # sep.join(xs) of `xs = []`
            return r
        if want >= 0 and not converts(want, type_[c]):
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, want, type_[c])
        c = next_[c]
    return METHOD_RULES[m, METHOD_RESULT]
