"""Type checker, simple statements: a handler per kind for the types of assignments,
expression statements and return (a part of phase 3: compiler/typecheck.py's
`check_statement` calls them and keeps definite assignment and reachability).  Kernel bodies.

Each handler returns 0, -1 (its error recorded: the walk goes on) or -2 - v (check the
function again with local v widened), and writes val[n] for codegen where it checks.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.errors import (
    E_NESTING_TOO_DEEP,
    E_NONE_VALUE,
    E_OPERAND_TYPES,
    E_RETURN_TYPE,
    E_TYPE_MISMATCH,
    E_UNBOUND,
    E_UNPACK,
    E_UNSUPPORTED,
)
from gpucc.compiler.limits import MAX_NESTING
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_MUL,
    BIN_OR,
    N_ASSERT,
    N_CALL,
    N_EXPR_STMT,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_SLICE,
    N_SUBSCRIPT,
    N_TUPLE,
    NO_TYPE,
)
from gpucc.compiler.scope import F_RET, L_PRESET, L_TYPE
from gpucc.compiler.typecheck_base import (  # noqa: F401 - target_bits: typecheck's, as before
    S_NODE,
    ZERO,
    bit,
    expr_fail_types,
    list_request,
    node_fail,
    node_fail_types,
    preset_request,
    same_list,
    target_bits,
    unboxed,
    widen_or_fail,
)
from gpucc.compiler.typecheck_calls import count_from
from gpucc.compiler.typecheck_dict import DICT_DEFAULT, SET_DEFAULT, default_request
from gpucc.compiler.typecheck_expr import type_expr
from gpucc.compiler.typerules import (
    EMPTY_LIST,
    LIST_INT,
    binary_type,
    converts,
    element_type,
    is_counter,
    is_dict,
    is_list,
    is_optional,
    is_set,
    is_tuple,
    join,
    list_view,
)
from gpucc.compiler.typeshapes import known
from gpucc.contract.jitable import nrt_free, type_arity, type_dict_of, type_field
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_NONE, T_STR


@nrt_free
def check_assign(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`x = value`, `x: T = value`: the first assignment gives the local its type (the
    annotation, else its preset, else the value's: `[]` a list of ints, an int local widened
    a float), later ones must agree: one that does not asks for a check with the local
    preset (None and T: Optional[T]; `[]` and lists of T: list[T]).  val[n] = the local's
    type (codegen converts an int into a float, boxes a scalar into an Optional)."""
    c = tree.first[n]
    t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if t < 0:
        return t
    want = tree.op[n]
    if want == T_NONE:
        return node_fail(err, E_NONE_VALUE, toks, tree, n, 0)
    have = scratch.locs[types.slot[n], L_TYPE]
    if want != NO_TYPE and have >= 0 and want != have:
        return node_fail_types(err, E_TYPE_MISMATCH, toks, tree, n, have, want)
    return bind(n, c, t, want, toks, tree, types, scope, scratch.locs, err)


@nrt_free
def bind(n, c, t, want, toks, tree, types, scope, locs, err):
    """Node n (an assignment, a target NAME) binds its local (slot[n]) to a value of type t
    (expression c, -1 for an item of an unpacked value; want: the annotation or NO_TYPE):
    see check_assign.  Returns 0, -1 (err set) or a request to check again (-2 - v, ...)."""
    widen = scope.widen
    v = types.slot[n]
    have = locs[v, L_TYPE]
    if have < 0:
        have = t if want == NO_TYPE else want
        if want == NO_TYPE and locs[v, L_PRESET] >= 0:
            have = locs[v, L_PRESET]
        elif list_view(have) == EMPTY_LIST:  # `xs = []`, `q = deque()`: of ints unless floats or strs go in
            e = T_FLOAT if (widen & bit(v)) != ZERO else T_INT
            have = (have & 15) | ((T_STR if (scope.strs & bit(v)) != ZERO else e) << 4)
        elif have == T_INT and want == NO_TYPE and (widen & bit(v)) != ZERO:
            have = T_FLOAT
        have = known(have)
        locs[v, L_TYPE] = have
    if t == T_FLOAT and have == T_INT and want == NO_TYPE and (widen & bit(v)) == ZERO:
        return -2 - v  # x holds floats too: check again with x a float
    if want == NO_TYPE and not converts(have, t):
        preset = t if list_view(have) == LIST_INT and (have & 15) == (t & 15) or have == DICT_DEFAULT and is_dict(t) else -1
        preset = t if have == SET_DEFAULT and is_set(t) else preset
        if have == T_NONE or t == T_NONE or is_optional(have) or is_optional(t):
            preset = join(have, t)
        r = preset_request(locs, v, preset)
        if r <= -2:
            return r
    if not converts(have, t):
        if c < 0:
            return node_fail_types(err, E_TYPE_MISMATCH, toks, tree, n, have, t)
        return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, have, t)
    tree.val[n] = have
    return 0


@nrt_free
def check_unpack(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`a, (b, c) = value`: the value, then its items bound to the target's names; a tuple
    display of as many items as the target, item by item (its type is never made: `p, q =
    (a, 'x'), (b, 'y')` unpacks a type too large to hold)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    target = first[n]
    value = next_[target]
    if kind[value] != N_TUPLE or count_from(next_, first[value]) != count_from(next_, first[target]):
        t = type_expr(value, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t < 0:
            return t
        return bind_target(target, t, toks, tree, types, scope, scratch, sp, err)
    c = first[value]
    while c != -1:
        t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t < 0:
            return t
        c = next_[c]
    types.type[target] = -1  # a tuple built from the items, never a list: no length check
    a, c = first[target], first[value]
    while a != -1:
        if kind[a] == N_NAME:
            r = bind(a, c, types.type[c], NO_TYPE, toks, tree, types, scope, scratch.locs, err)
            types.type[a] = types.type[c]
        else:
            r = bind_target(a, types.type[c], toks, tree, types, scope, scratch, sp, err)
        if r < 0:
            return r
        a, c = next_[a], next_[c]
    return 0


@nrt_free
def bind_target(target, t, toks, tree, types, scope, scratch, sp, err):
    """Unpack a value of type t into target (a TUPLE of NAMEs and TUPLEs; walk stack rows
    from sp): a tuple's fields one to one, a list's elements (as many as the names: checked
    at run time), each NAME bound (`bind`).  type[m] = the value each target node m takes.
    Returns 0, -1 (err set) or a request to check again."""
    kind, first, next_, stk = tree.kind, tree.first, tree.next, scratch.walk
    types.type[target] = t
    top = sp
    stk[top, S_NODE] = target
    top += 1
    while top > sp:
        top -= 1
        m = stk[top, S_NODE]
        tt = types.type[m]
        if kind[m] == N_NAME:
            r = bind(m, -1, tt, NO_TYPE, toks, tree, types, scope, scratch.locs, err)
            if r < 0:
                return r
            continue
        items = count_from(next_, first[m])
        if not (is_list(tt) and tt != EMPTY_LIST or is_tuple(tt) and type_arity(tt) == items):
            return node_fail_types(err, E_UNPACK, toks, tree, m, items, tt)
        c = first[m]
        i = 0
        while c != -1:
            types.type[c] = type_field(tt, i) if is_tuple(tt) else element_type(tt)
            if top >= stk.shape[0]:
                return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, m, MAX_NESTING)
            stk[top, S_NODE] = c
            top += 1
            c = next_[c]
            i += 1
    return 0


@nrt_free
def check_augassign(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`x op= value`: x assigned before, a number or a str, and `x op value` of x's type (an
    int x that gets a float is widened; an Optional value is unboxed).  val[n] = x's type."""
    t = type_expr(tree.first[n], 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if t < 0:
        return t
    t = unboxed(tree, types, tree.first[n])
    v = types.slot[n]
    have = scratch.locs[v, L_TYPE]
    if (mask & bit(v)) == ZERO or have < 0:
        return node_fail(err, E_UNBOUND, toks, tree, n, 0)
    if is_list(have) and tree.op[n] == BIN_ADD and is_list(t):  # xs += ys: xs.extend(ys), in place
        tree.val[n] = have
        return same_list(toks, tree, types, scope, scratch.locs, have, v, tree.first[n], err)
    in_place = (is_list(have) and tree.op[n] == BIN_MUL and (t == T_INT or t == T_BOOL)) or (
        is_dict(have) and not is_counter(have) and tree.op[n] == BIN_OR and is_dict(t) and join(have, t) == have) or (
        is_set(have) and binary_type(tree.op[n], have, t) == have)
    if in_place:  # xs *= n: xs[:] = xs * n; d |= e: d.update(e); s op= t (compiler/codegen_stmt.py)
        tree.val[n] = have
        return 0
    if is_list(have) or is_set(have):  # in place in CPython: the object changes, not the local
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_LIST_AUGASSIGN)
    r = binary_type(tree.op[n], have, t)
    if r < 0:
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, have, t)
    if r == T_FLOAT and have == T_INT and (scope.widen & bit(v)) == ZERO:
        return -2 - v  # x holds floats too: check again with x a float
    if r != have:
        return node_fail_types(err, E_TYPE_MISMATCH, toks, tree, n, have, r)
    tree.val[n] = have
    return 0


@nrt_free
def check_setitem(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`xs[i] = value`, `xs[i] op= value` (children: SUBSCRIPT(xs, i), value): the value goes
    into the list (a local list of ints that gets a float is widened).  val[n] = the element type."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    c = first[n]
    et = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if et < 0:
        return et
    if types.type[first[c]] == T_STR:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_STR_SETITEM)
    v = next_[c]
    vt = type_expr(v, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if vt < 0:
        return vt
    if kind[c] == N_SLICE:  # xs[a:b:k] = ys: ys a list of xs's type (LIST_SET_SLICE)
        obj = first[c]
        if not is_list(types.type[obj]):
            return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_ASSIGN_TARGET)
        tree.val[n] = types.type[obj]
        slot = types.slot[obj] if kind[obj] == N_NAME else -1
        return same_list(toks, tree, types, scope, scratch.locs, types.type[obj], slot, v, err)
    if tree.op[n] >= 0:  # xs[i] op= v evaluates xs and i twice: they must be pure (m[i][j] += v too)
        obj = first[c]
        if kind[obj] != N_NAME and kind[obj] != N_SUBSCRIPT or calls_in(tree, c, scratch, sp):
            return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_SUBSCRIPT_AUGASSIGN)
        vt = binary_type(tree.op[n], et, vt)
        if vt < 0:
            return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, et, types.type[v])
    if not converts(et, vt) and is_dict(types.type[first[c]]):  # d[k] = v
        dt = types.type[first[c]]
        r = default_request(tree, types, scratch.locs, first[c], type_dict_of(element_type(dt), known(vt)))
        return r if r <= -2 else expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, v, et, vt)
    if not converts(et, vt):
        return widen_or_fail(toks, tree, types, scope, scratch.locs, first[c], et, vt, v, err)
    tree.val[n] = et
    return 0


@nrt_free
def check_delete(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`del d[k]` (its child: SUBSCRIPT(d, k)), of a dict only."""
    c = tree.first[n]
    if tree.kind[c] != N_SUBSCRIPT:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_DEL_TARGET)
    t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if t < 0:
        return t
    if not is_dict(types.type[tree.first[c]]):
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_DEL_TARGET)
    return 0


@nrt_free
def check_expression(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """An expression statement (it may call a `-> None` function) or `assert` (its truth)."""
    k = tree.kind[n]
    t = type_expr(tree.first[n], 1 if k == N_ASSERT else 0, 1 if k == N_EXPR_STMT else 0, src, toks, tree, types,
                  scope, mask, scratch, sp, err)  # fmt: skip
    return min(0, t)


@nrt_free
def check_return(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`return [value]`: the value (None if none) converts to the function's return type (a
    function without a return annotation takes its first return's type); val[n] = the return
    type."""
    c = tree.first[n]
    ret = types.fn[scope.f, F_RET]
    t = T_NONE
    if c != -1 and tree.kind[c] == N_NONE:
        types.type[c] = T_NONE
    elif c != -1:
        t = type_expr(c, 0, 1 if ret == T_NONE else 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t < 0:
            return t
    if ret == NO_TYPE:
        ret = LIST_INT if t == EMPTY_LIST else t
        types.fn[scope.f, F_RET] = ret
    tree.val[n] = ret
    r = list_request(tree, types, scope, scratch.locs, c, ret) if c != -1 else 0
    if r <= -2:  # `xs = []` returned as a list[str]
        return r
    if not converts(ret, t):
        if c != -1:
            return expr_fail_types(err, E_RETURN_TYPE, toks, tree, c, ret, t)
        return node_fail_types(err, E_RETURN_TYPE, toks, tree, n, ret, t)
    return 0


@nrt_free
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
