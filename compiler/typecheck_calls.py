"""Type checker, calls: functions of the unit, supported builtins and methods (a part of
type_expr's walk, compiler/typecheck_expr.py; the builtin and method rules are tables in
compiler/typerules.py).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail, fail_types
from gpucc.compiler.nodes import N_NAME
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
from gpucc.compiler.modules import FIRST_DESUGARED, FIRST_MODULE_CODE, FIRST_PRELUDE, empty_deque, find_import, math_type
from gpucc.compiler.scope import (
    B_BOOL,
    B_DICT_CALL,
    B_SET_CALL,
    B_POW,
    B_PRINT,
    B_STR,
    F_NODE,
    F_NPARAMS,
    F_PTYPE,
    N_SUPPORTED_BUILTINS,
    call_builtin,
    find_function,
    find_local,
    is_builtin,
    list_method_code,
    method_code,
    synthetic_builtin,
)
from gpucc.compiler.typecheck_base import (  # noqa: F401 - count_from: the callers' import
    count_from,
    expr_fail_types,
    list_request,
    node_fail_types,
    same_list,
    unboxed,
    widen_or_fail,
    widen_request,
)
from gpucc.compiler.typecheck_counter import (
    COUNTER_CALL,
    NOT_COUNTER_METHOD,
    RESOLVED_CALL,
    RESOLVED_COUNTER,
    counter_call_type,
    counter_method,
    is_counter_prelude,
    resolved_type,
)
from gpucc.compiler.typecheck_deque import (
    DEQUE_CALL,
    NOT_DEQUE_METHOD,
    deque_call_type,
    deque_method,
    mark_deque_call,
    same_items,
)
from gpucc.compiler.typecheck_dict import constructor_type, dict_method_type
from gpucc.compiler.typecheck_set import set_method_code, set_method_type
from gpucc.compiler.isinstance import B_ISINSTANCE, classes_node, isinstance_type
from gpucc.compiler.prelude_builtins import POW_MOD_BYTES, POW_MOD_LENS
from gpucc.compiler.typecheck_import import desugared_left, module_call, named_function, prelude_function
from gpucc.compiler.typerules import (
    A_ELEMENT,
    A_LIST_OR_NUMBERS,
    A_SAME,
    MR_ELEMENT,
    MR_SAME,
    BUILTIN_ARG,
    BUILTIN_NARGS,
    BUILTIN_RULES,
    METHOD_ARG,
    METHOD_MAX_ARGS,
    METHOD_MIN_ARGS,
    METHOD_RECEIVER,
    METHOD_RESULT,
    METHOD_RULES,
    RECEIVER_DICT,
    RECEIVER_LIST,
    RECEIVER_SET,
    RECEIVER_STR,
    builtin_arity_ok,
    builtin_type,
    converts,
    element_type,
    is_counter,
    is_deque,
    is_dict,
    is_list,
    is_set,
    list_view,
)  # fmt: skip
from gpucc.compiler.typecheck_infer import callee_type, param_type, visible
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_STR


@nrt_free
def resolve_call(src, toks, tree, types, scope, scratch, n, err):
    """Find what CALL n calls, before its arguments are typed: a function of the unit (slot[n]
    = its index) or a supported builtin (op[n] = 1 + its B_* code), with as many arguments as
    it takes.  Returns >= 0, or -1 with err set."""
    if tree.op[n] > FIRST_MODULE_CODE or tree.op[n] == 1 + B_ISINSTANCE:  # resolved (math.f(...): resolve_attribute)
        return 0
    if tree.val[n] == RESOLVED_CALL or tree.val[n] == RESOLVED_COUNTER:  # compiler/typecheck_counter.py
        return types.slot[n]
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    fn = types.fn
    made = synthetic_builtin(toks, tree.tok[n]) >= 0  # desugar.py's call of a builtin
    if not made and find_local(src, scratch.locs, scope.nloc, s, e) >= 0:  # Python would call the local's value
        return fail(err, E_NOT_A_FUNCTION, s, e, 0)
    f = -1 if made else find_function(src, fn, scope.nf, s, e)
    nargs = count_from(tree.next, tree.first[n])
    imp = find_import(src, toks, tree, s, e, fn[scope.f, F_NODE]) if f < 0 and not made else -1
    if imp >= 0 and tree.val[imp] >= FIRST_DESUGARED:  # what compiler/desugar.py left
        return fail(err, E_UNSUPPORTED, s, e, desugared_left(tree.val[imp]))
    if imp >= 0 and empty_deque(tree, n, tree.val[imp]):  # `from collections import deque`, deque()
        return 0
    if imp >= 0 and tree.val[imp] >= FIRST_PRELUDE:  # `from bisect import bisect_left as bl`
        f = prelude_function(src, fn, scope.nf, tree.val[imp])
    elif imp >= 0:  # `from math import sqrt`: an import shadows a builtin (pow)
        return module_call(tree, n, tree.val[imp], tree.first[n], s, e, err)
    if f < 0:
        b = call_builtin(src, toks, tree, n)
        if b == B_DICT_CALL or b == B_SET_CALL:  # compiler/typecheck_dict.py
            tree.op[n] = 1 + b
            return 0
        if b == B_ISINSTANCE and nargs != 2:
            return fail(err, E_BUILTIN_ARGS, s, e, 2 * 256 + nargs)
        if b == B_ISINSTANCE:  # compiler/isinstance.py
            tree.op[n] = 1 + b
            return classes_node(src, toks, tree, tree.next[tree.first[n]], err)
        if b == B_POW and nargs == 3:  # pow(a, b, m): the builtins' prelude (compiler/prelude_builtins.py)
            f = named_function(src, fn, scope.nf, 0, POW_MOD_BYTES, POW_MOD_LENS)
    if f < 0:
        if b < 0 or b >= N_SUPPORTED_BUILTINS:
            return fail(err, E_NOT_CALLABLE_BUILTIN if is_builtin(src, s, e) else E_UNKNOWN_FUNCTION, s, e, 0)
        if not builtin_arity_ok(b, nargs):
            return fail(err, E_BUILTIN_ARGS, s, e, BUILTIN_RULES[b, BUILTIN_NARGS] * 256 + nargs)
        tree.op[n] = 1 + b
        return 0
    if is_counter_prelude(src, toks, tree, fn, f):
        tree.val[n] = COUNTER_CALL
    if mark_deque_call(src, toks, tree, fn, f, n):  # deque(xs) typed a deque, deque(): compiler/typecheck_deque.py
        return 0
    if nargs != fn[f, F_NPARAMS]:
        return fail(err, E_CALL_ARITY, s, e, fn[f, F_NPARAMS] * 256 + nargs)
    if visible(fn, scope.f, f, s, toks, tree, err) < 0:
        return -1
    types.slot[n] = f
    return f


@nrt_free
def type_call(toks, tree, types, scope, scratch, n, err):
    """Type of CALL n, its arguments typed: the builtin's result, or the function's return
    type if each argument converts to its parameter's type; -1 with err set, or a widen
    request (an int local among min / max's float arguments)."""
    first, next_, type_ = tree.first, tree.next, types.type
    if tree.op[n] == 1 + B_ISINSTANCE:
        return isinstance_type(toks, tree, types, n, err)
    if tree.op[n] > 0 and (tree.op[n] - 1 == B_DICT_CALL or tree.op[n] - 1 == B_SET_CALL):
        return constructor_type(tree.op[n] - 1 == B_SET_CALL, n, toks, tree, types, err)
    if tree.op[n] > 0:
        b = tree.op[n] - 1
        c = first[n]
        while c != -1 and b != B_STR and b != B_BOOL and b != B_PRINT:  # str(None), bool(None): no T is needed
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
        want = param_type(fn, f, p, type_[c])
        r = list_request(tree, types, scope, scratch.locs, c, want)
        if r <= -2:  # `xs = []` passed as a list[str]
            return r
        if not converts(want, type_[c]):
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, want, type_[c])
        p += 1
        c = next_[c]
    if tree.val[n] == COUNTER_CALL:
        return counter_call_type(toks, tree, types, n, callee_type(fn, f, n, toks, tree, err), err)
    if tree.val[n] == DEQUE_CALL:
        return deque_call_type(callee_type(fn, f, n, toks, tree, err))
    return resolved_type(tree, n, callee_type(fn, f, n, toks, tree, err))


@nrt_free
def type_method(src, toks, tree, types, scope, scratch, n, err):
    """Type of the method call n: a list method (xs.append(v), xs.sort(): None) or a str
    method (typerules.METHOD_RULES); -1 with err set, or a widen request (widen_or_fail)."""
    next_, type_ = tree.next, types.type
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = method_code(src, s, e)
    obj = tree.first[n]
    t = type_[obj]
    if is_set(t) and set_method_code(src, s, e) >= 0:  # s.union(t), ...: compiler/typecheck_set.py
        return set_method_type(set_method_code(src, s, e), n, toks, tree, types, scratch.locs, err)
    if is_counter(t):  # c.most_common(): a CALL of its prelude function, typed as one
        g = counter_method(src, toks, tree, types, scope.nf, n, count_from(next_, next_[obj]), err)
        if g != NOT_COUNTER_METHOD:
            return -1 if g < 0 else type_call(toks, tree, types, scope, scratch, n, err)
    if is_deque(t):  # q.popleft(): a CALL of its prelude function; q.sort(): a located error
        g = deque_method(src, toks, tree, types, scope, scratch.locs, n, count_from(next_, next_[obj]), err)
        if g != NOT_DEQUE_METHOD:
            return g if g < 0 else type_call(toks, tree, types, scope, scratch, n, err)
    if is_list(t) and list_method_code(src, s, e) >= 0:  # xs.pop(): the list's, not the dict's
        m = list_method_code(src, s, e)
    keyed = is_dict(t) or is_set(t)
    receiver = METHOD_RULES[m, METHOD_RECEIVER] if m >= 0 else -1
    fits = (receiver == RECEIVER_LIST and t != T_STR) or (receiver == RECEIVER_STR and not is_list(t))
    if keyed:
        fits = receiver == (RECEIVER_DICT if is_dict(t) else RECEIVER_SET)
    if m < 0 or not fits:  # a list method of a str, a str method of a list, a dict method of a set ...
        return fail(err, E_UNSUPPORTED, s, e, errors.C_METHOD)
    if not (is_list(t) or t == T_STR or keyed):
        return fail_types(err, E_OPERAND_TYPES, s, e, t, t)
    nargs = count_from(next_, next_[obj])
    fewest, most = METHOD_RULES[m, METHOD_MIN_ARGS], METHOD_RULES[m, METHOD_MAX_ARGS]
    if nargs < fewest or nargs > most:
        return fail(err, E_BUILTIN_ARGS, s, e, (fewest if nargs < fewest else most) * 256 + nargs)
    tree.op[n] = 1 + m
    if keyed:
        return dict_method_type(m, n, toks, tree, types, scratch.locs, err)
    c = next_[obj]
    for p in range(nargs):
        want = METHOD_RULES[m, METHOD_ARG + p]
        if want == A_ELEMENT and not converts(element_type(t), type_[c]):  # xs.append(v)
            return widen_or_fail(toks, tree, types, scope, scratch.locs, obj, element_type(t), type_[c], c, err)
        if want == A_SAME and is_list(t) and not same_items(t, type_[c]):  # xs.extend(ys): a list of xs's type
            v = types.slot[obj] if tree.kind[obj] == N_NAME else -1
            r = same_list(toks, tree, types, scope, scratch.locs, t, v, c, err)
            if r != 0:
                return r
        r = list_request(tree, types, scope, scratch.locs, c, want)
        if r <= -2:  # sep.join(xs) of `xs = []`
            return r
        if want >= 0 and not converts(want, list_view(type_[c])):  # ''.join(q) of a deque too
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, want, type_[c])
        c = next_[c]
    r = METHOD_RULES[m, METHOD_RESULT]
    return element_type(t) if r == MR_ELEMENT else (t if r == MR_SAME else r)
