"""Type checker: names, types, definite assignment and reachability of one unit (phase 3).

`typecheck` is a kernel body (numba subset, no recursion: explicit stacks).  It reads the
parser's AST (compiler/nodes.py) and fills, for the code generator:

    type[i]   expressions: contract.valuetypes code.  Statements: 1 if control can continue after
              the statement, 0 if it cannot (return/break/continue, or an if/loop no path
              leaves); BLOCK: 1 if control can reach its end
    slot[i]   NAME / ASSIGN / AUGASSIGN / FOR_RANGE target: local slot; PARAM: its index;
              CALL: unit function index; FUNCDEF: its function index
    val[i]    FOR_RANGE: the first of its 3 hidden slots (counter, stop, step)

and the function table `fn` (compiler/scope.py columns).  Hidden loop slots come after the
named locals, 3 per for-loop nesting level (sibling loops share them).

Types are exact: int and bool never convert implicitly (so results print as CPython's),
except that `and`/`or` of mixed types is accepted where only its truth value is used
(conditions, operands of `not`).  Definite assignment is a uint64 bitmask per point
(bit = slot); unreachable points have all bits set.
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler import errors
from gpucc.compiler.arrays import ERR_CODE, Scope, clear_error, fail
from gpucc.compiler.errors import (
    E_BREAK_OUTSIDE_LOOP,
    E_MISSING_RETURN,
    E_NESTING_TOO_DEEP,
    E_NONE_VALUE,
    E_OPERAND_TYPES,
    E_RETURN_TYPE,
    E_SYNTAX,
    E_TOO_MANY_LOCALS,
    E_TYPE_MISMATCH,
    E_UNBOUND,
    E_UNSUPPORTED,
)
from gpucc.compiler.limits import MAX_LOCALS, MAX_NESTING
from gpucc.compiler.nodes import (
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BREAK,
    N_CONTINUE,
    N_DOCSTRING,
    N_ELLIPSIS,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_NAME,
    N_NONE,
    N_PASS,
    N_RETURN,
    N_SETITEM,
    N_WHILE,
    NO_TYPE,
)
from gpucc.compiler.scope import (
    F_IMPORT,
    F_NAME_E,
    F_NAME_S,
    F_NLOCALS,
    F_NODE,
    F_NPARAMS,
    F_RET,
    L_TYPE,
    collect_functions,
    collect_locals,
    last_child,
)
from gpucc.compiler.typecheck_expr import (  # noqa: F401 - S_*, widths, scratch_rows: re-exported (codegen, batch)
    ALL,
    M_BEFORE,
    M_JOIN,
    MASK_WIDTH,
    ONE,
    S_A,
    S_B,
    S_C,
    S_NODE,
    S_STATE,
    WALK_WIDTH,
    ZERO,
    bit,
    calls_in,
    expr_fail,
    is_const_true,
    node_fail,
    scratch_rows,
    type_expr,
    widen_or_fail,
)  # fmt: skip
from gpucc.compiler.typerules import (
    T_EMPTY_LIST,
    binary_type,
    converts,
    element_type,
    is_integral,
    is_list,
)  # fmt: skip
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_LIST_FLOAT, T_LIST_INT, T_NONE


@register_jitable
def _push(walk, sp, n, toks, tree, err):
    if sp >= walk.shape[0]:
        return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, n, MAX_NESTING)
    walk[sp, S_NODE] = n
    walk[sp, S_STATE] = 0
    return sp + 1


@register_jitable
def check_function(f, src, toks, tree, types, nf, scratch, widen, err):
    """Check one function's body (statements walked in source order); sets F_NLOCALS.
    Returns 0, -1 (err set) or -2 - v: local v is assigned a float after an int, so it must
    be checked again as a float (`widen`: the bits of locals that hold floats).  A statement
    that fails does not end the walk (its error is recorded, the first one wins): a later
    one may still widen a local the failing one reads (`[z] + floats` before `z = 0.5`)."""
    nloc = collect_locals(src, toks, tree, types, f, scratch, err)
    if nloc < 0:
        return -1
    kind, op, first, next_, val = tree.kind, tree.op, tree.first, tree.next, tree.val
    type_, slot, fn = types.type, types.slot, types.fn
    locs, stk, masks = scratch.locs, scratch.walk, scratch.masks
    scope = Scope(nf, nloc, fn[f, F_RET], widen)
    mask = ZERO
    for p in range(fn[f, F_NPARAMS]):
        mask |= bit(p)
    live = 1
    depth = 0  # for-loop nesting
    max_depth = 0
    sp = _push(stk, 0, last_child(tree, fn[f, F_NODE]), toks, tree, err)
    while sp > 0:
        top = sp - 1
        n = stk[top, S_NODE]
        k = kind[n]
        st = stk[top, S_STATE]
        if k == N_BLOCK:
            if st == 0:
                stk[top, S_STATE] = 1
                stk[top, S_A] = first[n]
            c = stk[top, S_A]
            if c == -1:
                type_[n] = live
                sp -= 1
            else:
                stk[top, S_A] = next_[c]
                sp = _push(stk, sp, c, toks, tree, err)
            if sp < 0:
                return -1
            continue
        if k == N_IF or k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST:
            c = first[n]
            if st == 0:  # before the body: condition / range arguments / the list
                if k == N_FOR_RANGE or k == N_FOR_LIST:
                    et = T_INT  # the loop variable's type (int also where the list failed to check)
                    for _ in range(op[n] if k == N_FOR_RANGE else 1):
                        t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
                        if t >= 0 and k == N_FOR_RANGE and not is_integral(t):
                            t = expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, T_INT * 16 + t)
                        if t >= 0 and k == N_FOR_LIST:
                            if is_list(t):
                                et = element_type(t)
                            else:
                                t = expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, T_LIST_INT * 16 + t)
                        if t <= -2:
                            return t
                        c = next_[c]
                    v = slot[n]
                    if locs[v, L_TYPE] < 0:
                        locs[v, L_TYPE] = et
                    elif locs[v, L_TYPE] != et:
                        return node_fail(err, E_TYPE_MISMATCH, toks, tree, n, locs[v, L_TYPE] * 16 + et)
                    val[n] = nloc + 3 * depth
                    depth += 1
                    if nloc + 3 * depth > MAX_LOCALS:
                        return node_fail(err, E_TOO_MANY_LOCALS, toks, tree, n, MAX_LOCALS)
                    max_depth = max(max_depth, depth)
                else:
                    t = type_expr(c, 1, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
                    if t <= -2:
                        return t
                    c = next_[c]
                masks[top, M_BEFORE] = mask  # before the body
                masks[top, M_JOIN] = ALL  # AND of the masks at breaks / after the then-branch
                stk[top, S_B] = 0  # some break (then-branch end) is reachable
                stk[top, S_C] = live  # live before the statement
                if k == N_FOR_RANGE or k == N_FOR_LIST:
                    mask |= bit(slot[n])
                stk[top, S_STATE] = 1
                sp = _push(stk, sp, c, toks, tree, err)
                if sp < 0:
                    return -1
                continue
            if k == N_IF and st == 1:  # then-branch done: the else-branch starts from before
                els = next_[next_[c]]
                masks[top, M_JOIN] = mask
                stk[top, S_B] = live
                mask = masks[top, M_BEFORE]
                live = stk[top, S_C]
                if els != -1:
                    stk[top, S_STATE] = 2
                    sp = _push(stk, sp, els, toks, tree, err)
                    if sp < 0:
                        return -1
                    continue
            if k == N_IF:
                mask &= masks[top, M_JOIN]
                live |= stk[top, S_B]
            elif k == N_WHILE and is_const_true(tree, c):
                mask = masks[top, M_JOIN]
                live = stk[top, S_B]
            else:
                mask = masks[top, M_BEFORE]
                live = stk[top, S_C]
                if k == N_FOR_RANGE or k == N_FOR_LIST:
                    depth -= 1
            type_[n] = live
            sp -= 1
            continue
        sp -= 1
        r, mask, live = check_statement(n, src, toks, tree, types, scope, mask, live, scratch, sp, top, err)
        if r <= -2:
            return r
        type_[n] = live
    if err[ERR_CODE] != 0:  # the first error: no later statement widened a local that would have saved it
        return -1
    if live and scope.ret != T_NONE:
        return fail(err, E_MISSING_RETURN, fn[f, F_NAME_S], fn[f, F_NAME_E], 0)
    fn[f, F_NLOCALS] = nloc + 3 * max_depth
    return 0


@register_jitable
def check_statement(n, src, toks, tree, types, scope, mask, live, scratch, sp, top, err):
    """Check simple statement n -> (r, mask, live): r as check_function returns it; mask /
    live after the statement."""
    kind, op, first, next_, val = tree.kind, tree.op, tree.first, tree.next, tree.val
    type_, slot, locs, stk = types.type, types.slot, scratch.locs, scratch.walk
    k = kind[n]
    c = first[n]
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    widen = scope.widen
    if k == N_ASSIGN or k == N_AUGASSIGN:
        t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t < 0:
            return t, mask, live
        v = slot[n]
        have = locs[v, L_TYPE]
        if k == N_AUGASSIGN:
            if (mask & bit(v)) == ZERO or have < 0:
                return fail(err, E_UNBOUND, s, e, 0), mask, live
            if is_list(have):
                return fail(err, E_UNSUPPORTED, s, e, errors.C_LIST_AUGASSIGN), mask, live
            r = binary_type(op[n], have, t)
            if r < 0:
                return fail(err, E_OPERAND_TYPES, s, e, have * 16 + t), mask, live
            if r == T_FLOAT and have == T_INT and (widen & bit(v)) == ZERO:
                return -2 - v, mask, live  # x holds floats too: check again with x a float
            if r != have:
                return fail(err, E_TYPE_MISMATCH, s, e, have * 16 + r), mask, live
        else:
            want = op[n]
            if want == T_NONE:
                return fail(err, E_NONE_VALUE, s, e, 0), mask, live
            if want != NO_TYPE and have >= 0 and want != have:
                return fail(err, E_TYPE_MISMATCH, s, e, have * 16 + want), mask, live
            if have < 0:
                have = t if want == NO_TYPE else want
                if have == T_EMPTY_LIST:  # `xs = []`: a list of ints unless floats go in
                    have = T_LIST_FLOAT if (widen & bit(v)) != ZERO else T_LIST_INT
                elif have == T_INT and want == NO_TYPE and (widen & bit(v)) != ZERO:
                    have = T_FLOAT
                locs[v, L_TYPE] = have
            if t == T_FLOAT and have == T_INT and want == NO_TYPE and (widen & bit(v)) == ZERO:
                return -2 - v, mask, live
            if not converts(have, t):
                return expr_fail(err, E_TYPE_MISMATCH, toks, tree, c, have * 16 + t), mask, live
            mask |= bit(v)
        val[n] = have  # codegen converts an int value stored into a float
    elif k == N_SETITEM:  # children: SUBSCRIPT(obj, index), value
        et = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if et < 0:
            return et, mask, live
        v = next_[c]
        vt = type_expr(v, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if vt < 0:
            return vt, mask, live
        if op[n] >= 0:  # xs[i] op= v evaluates xs and i twice: they must be pure
            if kind[first[c]] != N_NAME or calls_in(tree, next_[first[c]], scratch, sp):
                return fail(err, E_UNSUPPORTED, s, e, errors.C_SUBSCRIPT_AUGASSIGN), mask, live
            vt = binary_type(op[n], et, vt)
            if vt < 0:
                return fail(err, E_OPERAND_TYPES, s, e, et * 16 + type_[v]), mask, live
        if not converts(et, vt):
            return widen_or_fail(toks, tree, types, widen, first[c], et, vt, v, err), mask, live
        val[n] = et
    elif k == N_EXPR_STMT or k == N_ASSERT:
        t = type_expr(c, 1 if k == N_ASSERT else 0, 1 if k == N_EXPR_STMT else 0, src, toks, tree, types, scope,
                      mask, scratch, sp, err)  # fmt: skip
        if t < 0:
            return t, mask, live
    elif k == N_RETURN:
        ret = scope.ret
        t = T_NONE
        if c != -1 and kind[c] == N_NONE:
            type_[c] = T_NONE
        elif c != -1:
            t = type_expr(c, 0, 1 if ret == T_NONE else 0, src, toks, tree, types, scope, mask, scratch, sp, err)
            if t < 0:
                return t, mask, live
        val[n] = ret
        if not converts(ret, t):
            if c != -1:
                return expr_fail(err, E_RETURN_TYPE, toks, tree, c, ret * 16 + t), mask, live
            return fail(err, E_RETURN_TYPE, s, e, ret * 16 + t), mask, live
        mask = ALL
        live = 0
    elif k == N_BREAK or k == N_CONTINUE:
        j = top - 1
        while j >= 0 and kind[stk[j, S_NODE]] != N_WHILE and kind[stk[j, S_NODE]] != N_FOR_RANGE and (
                kind[stk[j, S_NODE]] != N_FOR_LIST):  # fmt: skip
            j -= 1
        if j < 0:
            return fail(err, E_BREAK_OUTSIDE_LOOP, s, e, 0), mask, live
        if k == N_BREAK:
            scratch.masks[j, M_JOIN] &= mask
            stk[j, S_B] |= live
        mask = ALL
        live = 0
    elif k != N_PASS and k != N_DOCSTRING and k != N_ELLIPSIS:
        return fail(err, E_SYNTAX, s, e, 0), mask, live
    return 0, mask, live


@register_jitable
def typecheck(src, toks, tree, n_nodes, types, scratch, err):
    """Check one unit's syntax tree (src: the unit's bytes) and fill types (Types: fn has a
    row per function, at least) and tree.val; scratch.walk and scratch.masks have
    scratch_rows(n_nodes) rows.  Returns the number of functions, or -1 with err set."""
    type_, slot, fn = types.type, types.slot, types.fn
    for i in range(n_nodes):
        type_[i] = -1
        slot[i] = -1
    nf = collect_functions(src, toks, tree, types, err)
    if nf < 0:
        return -1
    for f in range(nf):
        if fn[f, F_IMPORT] == 0:
            widen = ZERO
            r = -2
            while r <= -2:  # at most once per local: each retry widens one more
                r = check_function(f, src, toks, tree, types, nf, scratch, widen, err)
                if r == -1:
                    return -1
                if r <= -2:  # the errors of this pass are moot: check again, local -2 - r widened
                    clear_error(err)
                    widen |= bit(-2 - r)
    return nf
