"""Code generator, loops: `while`, `for` over a range or a list, `break` and `continue` (a part
of phase 4, see compiler/codegen.py, whose statement walk calls these handlers).

Loops test at the bottom, one jump per iteration: `JUMP test; top: body; test: cond;
JUMP_IF_TRUE top`.  A `for` loop over a range tests with FOR_LOOP (FOR_RANGE; JUMP exit;
JUMP top where FOR_LOOP's jump field is too small), one over a list with FOR_LIST; JUMP
exit; JUMP top: the next value is pushed and taken by STORE_VAR at the top.  `while True`
has no test: its body ends in JUMP top.
A loop's frame on the statement walk keeps the chains of jumps waiting for its exit and its
test; `break` and `continue` join them (`if c: break` / `continue`, no else: one
conditional jump).
"""

from __future__ import annotations

from gpucc.compiler.codegen_branch import emit_branch
from gpucc.compiler.codegen_expr import DONE, emit_expr
from gpucc.compiler.codegen_stmt import emit_unpack_value
from gpucc.compiler.emit import CG_DEPTH, CG_ENTRY, CG_PC, emit, patch, patch_to
from gpucc.compiler.nodes import N_BOOL, N_BREAK, N_FOR_LIST, N_FOR_RANGE, N_INT, N_UNARY, N_WHILE, UN_NOT
from gpucc.compiler.scope import last_child
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, is_const_true, loop_target
from gpucc.contract.isa import FOR_LIST, FOR_LOOP, FOR_RANGE, JUMP, LOAD_INT, RANGE_CHECK, STORE_VAR, STR_CHR
from gpucc.contract.jitable import nrt_free, pack_fields
from gpucc.contract.valuetypes import T_STR

# a loop's frame columns on the statement walk, besides S_NODE and S_STATE:
LOOP_TOP = S_A  # the pc of the loop's top (absolute, as cg[CG_PC])
LOOP_EXIT = S_B  # the jumps to its exit (break)
LOOP_TEST = S_C  # the jumps to its test (the entry jump, continue); -1 in `while True`

JUMP_FIELD_MAX = 0xFFFF  # the largest jump target of a packed operand's lo field (FOR_LOOP)


@nrt_free
def falls_through(types, n):
    """Whether statement n can complete normally (the type checker's mark: type 1 / 0)."""
    return types.type[n] != 0


@nrt_free
def _is_loop(k):
    return k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST


@nrt_free
def _tested_at_bottom(tree, n):
    """A loop tested at the bottom: `for` and every `while` but `while True`."""
    return tree.kind[n] != N_WHILE or not is_const_true(tree, tree.first[n])


@nrt_free
def _enclosing_loop(tree, stk, top):
    """The walk row of the innermost loop around the statement at row top (-1: none)."""
    j = top - 1
    while j >= 0 and not _is_loop(tree.kind[stk[j, S_NODE]]):
        j -= 1
    return j


@nrt_free
def _loop_jumps(tree, stk, j, is_break):
    """The chain a break (LOOP_EXIT) or continue (LOOP_TEST) of loop row j joins; -1 for a
    continue in `while True`, whose target, the top, is placed already."""
    if is_break:
        return stk[j, LOOP_EXIT]
    return stk[j, LOOP_TEST] if _tested_at_bottom(tree, stk[j, S_NODE]) else -1


@nrt_free
def _keep_loop_jumps(tree, out, stk, j, is_break, chain):
    """Give loop row j the chain that grew from _loop_jumps' (a `while True` continue's
    jumps are pointed at the top now)."""
    if is_break:
        stk[j, LOOP_EXIT] = chain
    elif _tested_at_bottom(tree, stk[j, S_NODE]):
        stk[j, LOOP_TEST] = chain
    else:
        patch_to(out, chain, stk[j, LOOP_TOP] - out.cg[CG_ENTRY])


@nrt_free
def emit_loop_jump(n, top, toks, tree, out, scratch):
    """`break` / `continue`: a jump joining its loop's chain."""
    stk = scratch.walk
    j = _enclosing_loop(tree, stk, top)
    is_break = tree.kind[n] == N_BREAK
    chain = emit(out, JUMP, _loop_jumps(tree, stk, j, is_break), toks.line[tree.tok[n]])
    _keep_loop_jumps(tree, out, stk, j, is_break, chain)


@nrt_free
def emit_loop_branch(cond, jump, top, toks, tree, types, out, scratch, err):
    """`if cond: break` / `if cond: continue` (jump: that statement), the if at row top: one
    conditional jump joining the loop's chain.  False if no loop encloses it."""
    stk = scratch.walk
    j = _enclosing_loop(tree, stk, top)
    if j < 0:
        return False
    is_break = tree.kind[jump] == N_BREAK
    chain = emit_branch(cond, 1, _loop_jumps(tree, stk, j, is_break), toks, tree, types, out, scratch, top + 1, err)
    _keep_loop_jumps(tree, out, stk, j, is_break, chain)
    return True


@nrt_free
def _open_loop(tree, out, stk, top, n, line):
    """The loop's frame, and its entry jump to the test when it has one."""
    stk[top, LOOP_EXIT] = -1
    stk[top, LOOP_TEST] = emit(out, JUMP, -1, line) if _tested_at_bottom(tree, n) else -1
    stk[top, LOOP_TOP] = out.cg[CG_PC]


@nrt_free
def _store_loop_variable(out, slot, chars, line):
    """At a for loop's top: store the value its test jumped here with (chars: a code point of
    a str, stored as a 1-char str)."""
    out.cg[CG_DEPTH] += 1
    if chars:
        emit(out, STR_CHR, 0, line)
    emit(out, STORE_VAR, slot, line)


@nrt_free
def _step_or_exit(out, stk, top, opc, slots, loop_top, line):
    """The long form of a for loop's test: opc (FOR_RANGE / FOR_LIST: push the next value
    and skip the next instruction, or fall through at the end); JUMP exit; JUMP top."""
    cg = out.cg
    emit(out, opc, slots, line)
    cg[CG_DEPTH] -= 1  # falling through pushes nothing
    stk[top, LOOP_EXIT] = emit(out, JUMP, stk[top, LOOP_EXIT], line)
    cg[CG_DEPTH] += 1
    emit(out, JUMP, loop_top, line)


@nrt_free
def _nonzero_literal(tree, n):
    """A range() step known not to be zero (no RANGE_CHECK needed)."""
    kind = tree.kind
    if kind[n] == N_UNARY and tree.op[n] != UN_NOT:
        n = tree.first[n]
    return (kind[n] == N_INT or kind[n] == N_BOOL) and tree.val[n] != 0


@nrt_free
def emit_while(n, st, top, toks, tree, types, out, scratch, err):
    """`while cond: body` (visit 0: the top; then the test); returns the body to walk or DONE."""
    stk = scratch.walk
    cond = tree.first[n]
    line = toks.line[tree.tok[n]]
    if st == 0:
        _open_loop(tree, out, stk, top, n, line)
        return tree.next[cond]
    loop_top = stk[top, LOOP_TOP] - out.cg[CG_ENTRY]
    if _tested_at_bottom(tree, n):
        patch(out, stk[top, LOOP_TEST])
        chain = emit_branch(cond, 1, -1, toks, tree, types, out, scratch, top + 1, err)
        patch_to(out, chain, loop_top)
    elif falls_through(types, last_child(tree, n)):
        emit(out, JUMP, loop_top, line)
    patch(out, stk[top, LOOP_EXIT])
    return DONE


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
        if nargs == 3 and not _nonzero_literal(tree, step):
            emit(out, RANGE_CHECK, h, line)
        _open_loop(tree, out, stk, top, n, line)
        _store_loop_variable(out, types.slot[n], False, line)
        return c  # the body
    loop_top = stk[top, LOOP_TOP] - out.cg[CG_ENTRY]
    patch(out, stk[top, LOOP_TEST])
    if loop_top <= JUMP_FIELD_MAX:
        emit(out, FOR_LOOP, pack_fields(loop_top, h), line)
    else:
        _step_or_exit(out, stk, top, FOR_RANGE, h, loop_top, line)
    out.cg[CG_DEPTH] -= 1  # falls through with nothing pushed
    patch(out, stk[top, LOOP_EXIT])
    return DONE


@nrt_free
def emit_for_list(n, st, top, toks, tree, types, out, scratch, err):
    """`for x in xs` (or in a str: its code points, each made a str at the top): the list and
    index 0 into the hidden slots h, h + 1; FOR_LIST; JUMP exit; JUMP top at the bottom."""
    stk = scratch.walk
    h = tree.val[n]
    line = toks.line[tree.tok[n]]
    if st == 0:
        c = tree.first[n]
        emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
        emit(out, STORE_VAR, h, line)
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, h + 1, line)
        _open_loop(tree, out, stk, top, n, line)
        if tree.op[n] == 1:  # for a, (b, c) in xs
            out.cg[CG_DEPTH] += 1
            emit_unpack_value(loop_target(tree, n), tree, types, out, stk, top + 1, line)
        else:
            _store_loop_variable(out, types.slot[n], types.type[c] == T_STR, line)
        return tree.next[c]
    patch(out, stk[top, LOOP_TEST])
    _step_or_exit(out, stk, top, FOR_LIST, h, stk[top, LOOP_TOP] - out.cg[CG_ENTRY], line)
    out.cg[CG_DEPTH] -= 1
    patch(out, stk[top, LOOP_EXIT])
    return DONE
