"""Code generator, conditions: a condition compiled as jumps (a part of phase 4, see
compiler/codegen.py), for `if`, `while` and `if c: break` / `continue`.

Kernel body (numba subset, no recursion: an explicit stack on Scratch.walk).  `and`, `or`
and `not` become control flow, no values; any other expression is pushed (codegen_expr) and
tested by a truth jump.
"""

from __future__ import annotations

from gpucc.compiler.codegen_expr import emit_expr
from gpucc.compiler.emit import emit, emit_truth, patch
from gpucc.compiler.emit_tables import DECIDING_TRUTH, JUMP_IF
from gpucc.compiler.nodes import N_BOOLOP, N_UNARY, UN_NOT
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE
from gpucc.contract.jitable import nrt_free

# emit_branch's frame columns besides S_NODE and S_STATE (the visits so far):
BR_WHEN = S_A  # the truth (0 / 1) of this node on which to jump
BR_OWNER = S_B  # the frame whose local chain (BR_JUMPS) the jumps join (-1: the caller's chain)
BR_JUMPS = S_C  # BOOLOP: its local chain (jumps to just after it)


@nrt_free
def _push(stk, sp, n, when, owner):
    """Put node n's frame on the walk stack at row sp; returns the new sp."""
    stk[sp, S_NODE] = n
    stk[sp, S_STATE] = 0
    stk[sp, BR_WHEN] = when
    stk[sp, BR_OWNER] = owner
    return sp + 1


@nrt_free
def emit_branch(root, when, chain, toks, tree, types, out, scratch, sp0, err):
    """Emit code that jumps when the truth of `root` is `when` (0 / 1) and falls through
    otherwise.  The jumps go to a label not placed yet: they are added to the placeholder
    chain `chain`; returns its new head.  Frames on the walk stack above row sp0."""
    kind, op, first, next_ = tree.kind, tree.op, tree.first, tree.next
    stk = scratch.walk
    sp = _push(stk, sp0, root, when, -1)
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        w = stk[top, BR_WHEN]
        owner = stk[top, BR_OWNER]
        c = first[n]
        if kind[n] == N_UNARY and op[n] == UN_NOT:  # not x: x's branch, the other way
            sp = _push(stk, sp, c, 1 - w, owner) if st == 0 else sp - 1
        elif kind[n] == N_BOOLOP:
            # left: jump out when it decides the result as wanted, else past the right side
            decides = DECIDING_TRUTH[op[n]]
            if st == 0:
                stk[top, BR_JUMPS] = -1
                sp = _push(stk, sp, c, decides, top if w != decides else owner)
            elif st == 1:
                sp = _push(stk, sp, next_[c], w, owner)
            else:
                patch(out, stk[top, BR_JUMPS])
                sp -= 1
        else:  # a value: push it, jump on its truth
            emit_expr(n, toks, tree, types, out, scratch, sp, err)
            line = toks.line[tree.tok[n]]
            emit_truth(out, types.type[n], line)
            if owner < 0:
                chain = emit(out, JUMP_IF[w], chain, line)
            else:
                stk[owner, BR_JUMPS] = emit(out, JUMP_IF[w], stk[owner, BR_JUMPS], line)
            sp -= 1
    return chain
