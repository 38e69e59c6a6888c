"""The type checker's statement walk frames (compiler/typecheck.py's check_function): their
states and columns (an IF / loop frame's masks and liveness), pushing one, a BLOCK frame's next
statement, an IF / loop frame opened (its header typed: the condition, range(...) or a list;
a for loop's variable bound), its else-branch opened, and the branches joined at its end."""

from __future__ import annotations

from gpucc.compiler.errors import (
    E_NESTING_TOO_DEEP,
    E_TOO_MANY_LOCALS,
    E_TYPE_MISMATCH,
)
from gpucc.compiler.limits import MAX_LOCALS, MAX_NESTING
from gpucc.compiler.narrowing import (
    enter_loop,
    join_branches,
    open_body,
    open_else,
    open_loop_else,
)
from gpucc.compiler.nodes import (
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_WHILE,
)
from gpucc.compiler.scope import (
    L_TYPE,
    loop_else,
)
from gpucc.compiler.typecheck_base import (
    ALL,
    S_A,
    S_B,
    S_C,
    S_NODE,
    S_STATE,
    bit,
    expr_fail_types,
    is_const_true,
    node_fail,
    node_fail_types,
    unboxed,
)  # fmt: skip
from gpucc.compiler.typecheck_expr import type_expr
from gpucc.compiler.typecheck_stmt import (
    bind_target,
    target_bits,
)
from gpucc.compiler.typecheck_versions import (
    VERSIONS_WIDTH,
)
from gpucc.compiler.typerules import LIST_INT, element_type, is_integral, is_sized
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_INT

# a statement frame's state (S_STATE): just pushed; its body (then-branch) walked; its else-branch walked
FRESH, IN_BODY, IN_ELSE = range(3)
# a BLOCK frame, after S_NODE and S_STATE:
BLOCK_NEXT = S_A  # the next statement to check
# an IF / loop frame, after S_NODE and S_STATE (its definite-assignment masks: the masks row
# of the same index, Scratch.masks: uint64[scratch_rows, MASK_WIDTH]; the columns after these
# two are compiler/narrowing.py's):
LIVE_AT_JOIN = S_B  # control reaches the join from inside: the then-branch's end; a break
LIVE_BEFORE = S_C  # control reaches the statement
MASK_BEFORE = 0  # the mask before the statement (its body starts from it)
MASK_JOIN = 1  # the AND of the masks where control joins from inside (as LIVE_AT_JOIN)
MASK_WIDTH = VERSIONS_WIDTH  # narrowing.py's columns, then typecheck_versions.py's


@nrt_free
def is_loop(k):
    return k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST


@nrt_free
def push_frame(walk, sp, n, toks, tree, err):
    """Push a fresh frame for statement n at sp; returns sp + 1, or -1 with err set."""
    if sp >= walk.shape[0]:
        return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, n, MAX_NESTING)
    walk[sp, S_NODE] = n
    walk[sp, S_STATE] = FRESH
    return sp + 1


@nrt_free
def _step_block(n, top, live, toks, tree, types, scratch, err):
    """BLOCK frame top: push its next statement, or pop it at its end (type[n]: whether
    control reaches it).  Returns the new stack size, or -1 with err set."""
    stk = scratch.walk
    if stk[top, S_STATE] == FRESH:
        stk[top, S_STATE] = IN_BODY
        stk[top, BLOCK_NEXT] = tree.first[n]
    c = stk[top, BLOCK_NEXT]
    if c == -1:
        types.type[n] = live
        return top
    stk[top, BLOCK_NEXT] = tree.next[c]
    return push_frame(stk, top + 1, c, toks, tree, err)


@nrt_free
def _open_branches(n, top, src, toks, tree, types, scope, mask, live, depth, scratch, err):
    """IF / loop frame top, fresh: check its header (the condition, the range arguments or
    the list: their errors are recorded, the walk goes on), bind a for loop's variable, and
    push the body.  Returns (sp, mask, depth) for the body: sp the new stack size, or -1 (the
    walk ends, err set) or a widen request (-2 - v)."""
    k = tree.kind[n]
    if k == N_WHILE:  # its condition runs again after its body
        enter_loop(n, tree, types, scratch, top + 1)
    if k == N_FOR_RANGE:
        r = _range_header(n, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    elif k == N_FOR_LIST:
        r = _list_header(n, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    else:  # the condition: only its truth is used
        r = type_expr(tree.first[n], 1, 0, src, toks, tree, types, scope, mask, scratch, top + 1, err)
    if r <= -2:
        return r, mask, depth
    if k == N_FOR_RANGE or k == N_FOR_LIST:
        r = _bind_loop_variable(n, r, depth, toks, tree, types, scope, scratch, top + 1, err)
        if r < 0:
            return r, mask, depth
        depth += 1
        enter_loop(n, tree, types, scratch, top + 1)
    open_body(n, top, src, toks, tree, types, scope, scratch, top + 1)
    stk, masks = scratch.walk, scratch.masks
    masks[top, MASK_BEFORE] = mask
    masks[top, MASK_JOIN] = ALL
    stk[top, LIVE_AT_JOIN] = 0
    stk[top, LIVE_BEFORE] = live
    if k == N_FOR_LIST and tree.op[n] == 1:
        mask |= target_bits(tree, types, loop_target(tree, n), stk, top + 1)
    elif k == N_FOR_RANGE or k == N_FOR_LIST:
        mask |= bit(types.slot[n])
    stk[top, S_STATE] = IN_BODY
    return push_frame(stk, top + 1, body_of(tree, n), toks, tree, err), mask, depth


@nrt_free
def loop_target(tree, n):
    """The target TUPLE of `for a, b in xs` (FOR_LIST n with op 1): after the body."""
    return tree.next[tree.next[tree.first[n]]]


@nrt_free
def body_of(tree, n):
    """The body of IF / loop n: the child after its header (the condition, the list, or
    FOR_RANGE's op[n] range arguments)."""
    c = tree.first[n]
    for _ in range(tree.op[n] if tree.kind[n] == N_FOR_RANGE else 1):
        c = tree.next[c]
    return c


@nrt_free
def _range_header(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`for x in range(args)`: op[n] integral arguments.  The loop variable's type (int), or
    a widen request."""
    c = tree.first[n]
    for _ in range(tree.op[n]):
        t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
        if t <= -2:
            return t
        if t >= 0 and not is_integral(unboxed(tree, types, c)):
            expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, T_INT, t)
        c = tree.next[c]
    return T_INT


@nrt_free
def _list_header(n, src, toks, tree, types, scope, mask, scratch, sp, err):
    """`for x in xs`: a list, a str or a tuple of fields of one type.  The loop variable's type
    (the element type; int where xs failed to check), or a widen request."""
    c = tree.first[n]
    t = type_expr(c, 0, 0, src, toks, tree, types, scope, mask, scratch, sp, err)
    if t <= -2:
        return t
    t = unboxed(tree, types, c) if t >= 0 else t
    if t >= 0 and is_sized(t) and element_type(t) >= 0:
        return element_type(t)
    if t >= 0:
        expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, LIST_INT, t)
    return T_INT


@nrt_free
def _bind_loop_variable(n, et, depth, toks, tree, types, scope, scratch, sp, err):
    """For loop n at for-loop nesting depth: its variable gets (or has) type et (a target's
    names: typecheck_stmt.bind_target, walk stack rows from sp); its 3 hidden slots come
    after the named locals (val[n]: the first).  Returns 0, -1 with err set (the walk ends)
    or a request to check again."""
    locs, v = scratch.locs, types.slot[n]
    if tree.kind[n] == N_FOR_LIST and tree.op[n] == 1:
        r = bind_target(loop_target(tree, n), et, toks, tree, types, scope, scratch, sp, err)
        if r < 0:
            return r
    elif locs[v, L_TYPE] < 0:
        locs[v, L_TYPE] = et
    elif locs[v, L_TYPE] != et:
        return node_fail_types(err, E_TYPE_MISMATCH, toks, tree, n, locs[v, L_TYPE], et)
    tree.val[n] = scope.nloc + 3 * depth
    if scope.nloc + 3 * (depth + 1) > MAX_LOCALS:
        return node_fail(err, E_TOO_MANY_LOCALS, toks, tree, n, MAX_LOCALS)
    return 0


@nrt_free
def _open_else(n, top, mask, live, toks, tree, scratch, err):
    """IF frame top, its then-branch walked: that branch's end joins; the else-branch (if
    any: pushed) starts from before the if.  Returns (sp, mask, live) for the else-branch."""
    stk, masks = scratch.walk, scratch.masks
    masks[top, MASK_JOIN] = mask
    stk[top, LIVE_AT_JOIN] = live
    stk[top, S_STATE] = IN_ELSE
    open_else(top, scratch)
    els = tree.next[tree.next[tree.first[n]]]
    sp = top + 1 if els == -1 else push_frame(stk, top + 1, els, toks, tree, err)
    return sp, masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]


@nrt_free
def _open_loop_else(n, top, mask, live, toks, tree, scratch, err):
    """Loop frame top, its body walked: its `else:` starts where the loop ends without a break
    (from before it, as the body may run no time; never after `while True`).  Returns (sp,
    mask, live) for the else-branch; its breaks (MASK_JOIN, LIVE_AT_JOIN) join after it."""
    stk, masks = scratch.walk, scratch.masks
    stk[top, S_STATE] = IN_ELSE
    forever = tree.kind[n] == N_WHILE and is_const_true(tree, tree.first[n])
    open_loop_else(top, forever, scratch)
    sp = push_frame(stk, top + 1, loop_else(tree, n), toks, tree, err)
    if forever:
        return sp, ALL, 0
    return sp, masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]


@nrt_free
def _join_branches(n, top, mask, live, tree, scratch):
    """IF / loop frame top, its branches walked: (mask, live) after the statement.  An if
    joins its two branches, a loop's else its end and the loop's breaks; `while True` is left
    only where it breaks; other loops may run their body no time."""
    stk, masks = scratch.walk, scratch.masks
    k = tree.kind[n]
    join_branches(n, top, tree, scratch)
    if k == N_IF or loop_else(tree, n) >= 0:
        return mask & masks[top, MASK_JOIN], live | stk[top, LIVE_AT_JOIN]
    if k == N_WHILE and is_const_true(tree, tree.first[n]):
        return masks[top, MASK_JOIN], stk[top, LIVE_AT_JOIN]
    return masks[top, MASK_BEFORE], stk[top, LIVE_BEFORE]
