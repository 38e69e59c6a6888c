"""Code generator, loops: `while`, `for` over a range or a list, `break` and `continue` (a part
of phase 4, see compiler/codegen.py, whose statement walk calls these handlers).

Loops test at the bottom, one jump per iteration: `JUMP test; top: body; test: cond;
JUMP_IF_TRUE top`.  A `for` loop over a range tests with FOR_LOOP (FOR_RANGE; JUMP exit;
JUMP top where FOR_LOOP's jump field is too small), one over a list with FOR_LIST; JUMP
exit; JUMP top: the next value is pushed and taken by STORE_VAR at the top.  `while True`
has no test: its body ends in JUMP top.
A loop's frame on the statement walk keeps the chains of jumps waiting for its exit and its
test; `break` and `continue` join them (`if c: break` / `continue`, no else: one
conditional jump).  The loops' tops and bottoms are compiler/loop_code.py's (comprehensions
use them too).
"""

from __future__ import annotations

from gpucc.compiler.codegen_branch import emit_branch
from gpucc.compiler.codegen_expr import DONE, emit_expr
from gpucc.compiler.emit import CG_DEPTH, CG_ENTRY, emit, patch, patch_to
from gpucc.compiler.emit_dict import for_test
from gpucc.compiler.loop_code import (  # noqa: F401 - LOOP_* and JUMP_FIELD_MAX: the loops' frame, as before
    JUMP_FIELD_MAX,
    LOOP_EXIT,
    LOOP_TEST,
    LOOP_TOP,
    close_list_loop,
    close_range_loop,
    emit_unpack_value,
    nonzero_literal,
    open_loop,
    store_loop_variable,
    tested_at_bottom,
)  # fmt: skip
from gpucc.compiler.nodes import N_BREAK, N_FOR_LIST, N_FOR_RANGE, N_WHILE
from gpucc.compiler.scope import loop_else
from gpucc.compiler.typecheck import S_NODE, S_STATE
from gpucc.compiler.typecheck_frames import loop_target
from gpucc.contract.isa import JUMP, LOAD_INT, RANGE_CHECK, STORE_VAR
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_STR


@nrt_free
def falls_through(types, n):
    """Whether statement n can complete normally (the type checker's mark: type 1 / 0)."""
    return types.type[n] != 0


@nrt_free
def _is_loop(k):
    return k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST


@nrt_free
def enclosing_loop(tree, stk, top):
    """The walk row of the innermost loop around the statement at row top (-1: none); not a
    loop whose else-branch it is in (the walk's state 2 there)."""
    j = top - 1
    while j >= 0 and not (_is_loop(tree.kind[stk[j, S_NODE]]) and stk[j, S_STATE] < 2):
        j -= 1
    return j


@nrt_free
def _loop_end(n, st, top, tree, out, stk):
    """After a loop's bottom (visit st 1): its else-branch to walk, the breaks' jumps kept for
    the end of it; at the end (visit 2, or 1 with no else) the breaks' target.  Returns the
    else-branch or DONE."""
    els = loop_else(tree, n)
    if st == 1 and els != -1:
        return els
    patch(out, stk[top, LOOP_EXIT])
    return DONE


@nrt_free
def _close_loop(top, stk, out, h, opc, line, is_range):
    """A for loop's bottom (loop_code's close_*), its exit (the loop ran out) here; the jumps
    of its breaks kept in LOOP_EXIT."""
    breaks = stk[top, LOOP_EXIT]
    stk[top, LOOP_EXIT] = -1
    if is_range:
        close_range_loop(out, stk, top, h, line)
    else:
        close_list_loop(out, stk, top, h, opc, line)
    stk[top, LOOP_EXIT] = breaks


@nrt_free
def _loop_jumps(tree, stk, j, is_break):
    """The chain a break (LOOP_EXIT) or continue (LOOP_TEST) of loop row j joins; -1 for a
    continue in `while True`, whose target, the top, is placed already."""
    if is_break:
        return stk[j, LOOP_EXIT]
    return stk[j, LOOP_TEST] if tested_at_bottom(tree, stk[j, S_NODE]) else -1


@nrt_free
def _keep_loop_jumps(tree, out, stk, j, is_break, chain):
    """Give loop row j the chain that grew from _loop_jumps' (a `while True` continue's
    jumps are pointed at the top now)."""
    if is_break:
        stk[j, LOOP_EXIT] = chain
    elif tested_at_bottom(tree, stk[j, S_NODE]):
        stk[j, LOOP_TEST] = chain
    else:
        patch_to(out, chain, stk[j, LOOP_TOP] - out.cg[CG_ENTRY])


@nrt_free
def emit_loop_jump(n, top, toks, tree, out, scratch):
    """`break` / `continue`: a jump joining its loop's chain."""
    stk = scratch.walk
    j = enclosing_loop(tree, stk, top)
    is_break = tree.kind[n] == N_BREAK
    chain = emit(out, JUMP, _loop_jumps(tree, stk, j, is_break), toks.line[tree.tok[n]])
    _keep_loop_jumps(tree, out, stk, j, is_break, chain)


@nrt_free
def emit_loop_branch(cond, jump, top, toks, tree, types, out, scratch, err):
    """`if cond: break` / `if cond: continue` (jump: that statement), the if at row top: one
    conditional jump joining the loop's chain.  False if no loop encloses it."""
    stk = scratch.walk
    j = enclosing_loop(tree, stk, top)
    if j < 0:
        return False
    is_break = tree.kind[jump] == N_BREAK
    chain = emit_branch(cond, 1, _loop_jumps(tree, stk, j, is_break), toks, tree, types, out, scratch, top + 1, err)
    _keep_loop_jumps(tree, out, stk, j, is_break, chain)
    return True


@nrt_free
def emit_while(n, st, top, toks, tree, types, out, scratch, err):
    """`while cond: body` (visit 0: the top; then the test); returns the body to walk or DONE."""
    stk = scratch.walk
    cond = tree.first[n]
    line = toks.line[tree.tok[n]]
    if st == 0:
        open_loop(tree, out, stk, top, n, line)
        return tree.next[cond]
    if st == 2:
        return _loop_end(n, st, top, tree, out, stk)
    loop_top = stk[top, LOOP_TOP] - out.cg[CG_ENTRY]
    if tested_at_bottom(tree, n):
        patch(out, stk[top, LOOP_TEST])
        chain = emit_branch(cond, 1, -1, toks, tree, types, out, scratch, top + 1, err)
        patch_to(out, chain, loop_top)
    elif falls_through(types, tree.next[cond]):
        emit(out, JUMP, loop_top, line)
    return _loop_end(n, st, top, tree, out, stk)


@nrt_free
def emit_for_range(n, st, top, toks, tree, types, out, scratch, err):
    """`for x in range(...)`: start, stop and step into the hidden slots h, h + 1, h + 2
    (range(n): 0, n, 1; RANGE_CHECK for a step that may be 0); FOR_LOOP at the bottom."""
    stk = scratch.walk
    h = tree.val[n]
    line = toks.line[tree.tok[n]]
    if st == 0:
        nargs = tree.op[n]
        c = tree.first[n]
        step = -1
        for a in range(3):
            if (a == 0 and nargs == 1) or (a == 2 and nargs < 3):
                emit(out, LOAD_INT, a // 2, line)
            else:
                emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
                step = c
                c = tree.next[c]
            emit(out, STORE_VAR, h + a, line)
        if nargs == 3 and not nonzero_literal(tree, step):
            emit(out, RANGE_CHECK, h, line)
        open_loop(tree, out, stk, top, n, line)
        store_loop_variable(out, types.slot[n], False, line)
        return c  # the body
    if st == 1:
        _close_loop(top, stk, out, h, 0, line, True)
    return _loop_end(n, st, top, tree, out, stk)


@nrt_free
def emit_for_list(n, st, top, toks, tree, types, out, scratch, err):
    """`for x in xs` (or in a str: its code points, each made a str at the top; a dict, a set,
    d.keys() / values() / items(): emit_dict.for_test): the object and 0 into the hidden slots
    h, h + 1; the for test; JUMP exit; JUMP top at the bottom."""
    stk = scratch.walk
    h = tree.val[n]
    line = toks.line[tree.tok[n]]
    opc, it = for_test(tree, types, tree.first[n])
    if st == 0:
        c = tree.first[n]
        emit_expr(it, toks, tree, types, out, scratch, top + 1, err)
        emit(out, STORE_VAR, h, line)
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, h + 1, line)
        open_loop(tree, out, stk, top, n, line)
        if tree.op[n] == 1:  # for a, (b, c) in xs
            out.cg[CG_DEPTH] += 1
            emit_unpack_value(loop_target(tree, n), tree, types, out, stk, top + 1, line)
        else:
            store_loop_variable(out, types.slot[n], types.type[c] == T_STR, line)
        return tree.next[c]
    if st == 1:
        _close_loop(top, stk, out, h, opc, line, False)
    return _loop_end(n, st, top, tree, out, stk)
