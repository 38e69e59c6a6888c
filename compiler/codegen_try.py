"""Code generator, exceptions: `try` / `except` / `else` / `finally` and `raise` (a part of
phase 4, see compiler/codegen.py, whose statement walk calls these handlers).  Kernel bodies.

    [SETUP_TRY fin]  SETUP_TRY handler
      body
    POP_TRY                              (where the body falls through)
      else
    JUMP end
    handler:                             (the exception value on the stack: depth d + 1)
      DUP_TOP  EXC_MATCH classes  JUMP_IF_FALSE next      (not for `except:` / `except Exception:`)
      clause's body  POP_TOP  JUMP end
    next:  ...  RERAISE                  (no clause caught it)
    end:
    [POP_TRY  finally  JUMP done         the finally's two copies: the normal path's, and
     fin:  finally  RERAISE  done:]      the exceptional one's (the value on the stack)

A clause's body runs with the exception value on the operand stack: `raise` / `raise e` raise
it again (DUP_TOP, RERAISE).  `break` / `continue` leaving a try close what is open on the way
(`leave_tries`: POP_TRY out of a body, POP_TOP out of a clause); the type checker rejects
them (and `return`) where a finally would have to run.  A TRY frame's visits: 0 its body,
then its else, its clauses, the finally's copies (`_phase` tells which a visit count is).
"""

from __future__ import annotations

from gpucc.compiler.codegen_expr import DONE, emit_expr
from gpucc.compiler.codegen_loops import enclosing_loop, falls_through
from gpucc.compiler.emit import CG_DEPTH, CG_MAXD, emit, patch
from gpucc.compiler.nodes import N_CALL, N_EXCEPT, N_FINALLY, N_TRY, N_TRY_ELSE
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE
from gpucc.compiler.typecheck_try import clause_of
from gpucc.contract.isa import DUP_TOP, EXC_MATCH, JUMP, JUMP_IF_FALSE, POP_TOP, POP_TRY, RAISE, RERAISE, SETUP_TRY
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import RAISABLE_MASK

TRY_HANDLER = S_A  # the except part's SETUP_TRY, then the jump of a clause's failed test
TRY_END = S_B  # the jumps past the except part, then past the finally's exceptional copy
TRY_FINALLY = S_C  # the finally's SETUP_TRY
# what a TRY frame walks (_phase): its body, its else, a clause, the finally's copies
PH_BODY, PH_ELSE, PH_CLAUSE, PH_FINALLY, PH_FINALLY_EXC, PH_DONE = range(6)


@nrt_free
def _clauses(tree, n):
    """TRY n's number of except clauses."""
    m = 0
    c = tree.next[tree.first[n]]
    while c != -1:
        m += tree.kind[c] == N_EXCEPT
        c = tree.next[c]
    return m


@nrt_free
def _with_else(tree, types, n):
    """Whether TRY n's else clause is emitted (it has one, and the body can reach it)."""
    return clause_of(tree, n, N_TRY_ELSE) != -1 and falls_through(types, tree.first[n])


@nrt_free
def _phase(tree, types, n, visit):
    """What TRY n's frame walks when its visit count is `visit`: (PH_*, k), k the except
    clause's index for PH_CLAUSE."""
    v_clauses = 1 + _with_else(tree, types, n)  # the visit that opens the first clause
    m = _clauses(tree, n)
    if visit == 1:
        return PH_BODY, 0
    if visit < v_clauses + 1:
        return PH_ELSE, 0
    if visit <= v_clauses + m:
        return PH_CLAUSE, visit - v_clauses - 1
    v_finally = v_clauses + m + 1
    if visit == v_finally and clause_of(tree, n, N_FINALLY) != -1:
        return PH_FINALLY, 0
    if visit == v_finally + 1 and clause_of(tree, n, N_FINALLY) != -1:
        return PH_FINALLY_EXC, 0
    return PH_DONE, 0


@nrt_free
def statement_depth(tree, types, stk, top):
    """The operand-stack depth of a statement at walk row top: an exception value per clause
    (or finally's exceptional copy) around it."""
    d = 0
    for j in range(top):
        t = stk[j, S_NODE]
        if tree.kind[t] == N_TRY:
            ph = _phase(tree, types, t, stk[j, S_STATE])[0]
            d += ph == PH_CLAUSE or ph == PH_FINALLY_EXC
    return d


@nrt_free
def leave_tries(n, top, toks, tree, types, out, stk, emit_them):
    """What `break` / `continue` n (walk row top) leaves between it and its loop: POP_TRY for a
    try body, POP_TOP for an except clause (the exception value).  Emits it when emit_them
    (the jump follows: the emitter's depth is the statement's again); returns how many."""
    j = enclosing_loop(tree, stk, top)
    count = 0
    line = toks.line[tree.tok[n]]
    depth = out.cg[CG_DEPTH]
    for r in range(top - 1, j, -1):
        t = stk[r, S_NODE]
        if tree.kind[t] == N_TRY:
            ph = _phase(tree, types, t, stk[r, S_STATE])[0]
            leave = POP_TRY if ph == PH_BODY and _clauses(tree, t) > 0 else (POP_TOP if ph == PH_CLAUSE else -1)
            if leave >= 0:
                count += 1
                if emit_them:
                    emit(out, leave, 0, line)
    if emit_them:
        out.cg[CG_DEPTH] = depth  # after the jump: the code that follows runs at the statement's depth
    return count


@nrt_free
def _set_depth(out, d):
    out.cg[CG_DEPTH] = d
    if d > out.cg[CG_MAXD]:
        out.cg[CG_MAXD] = d


@nrt_free
def _nth_clause(tree, n, k):
    c = clause_of(tree, n, N_EXCEPT)
    for _ in range(k):
        c = tree.next[c]
    return c


@nrt_free
def _open_clause(c, d, stk, top, toks, tree, out):
    """Except clause c, its handler's value at depth d + 1: its test (unless it catches every
    exception) and its body, to walk next."""
    _set_depth(out, d + 1)
    stk[top, TRY_HANDLER] = -1
    if tree.op[c] != RAISABLE_MASK:
        line = toks.line[tree.tok[c]]
        emit(out, DUP_TOP, 0, line)
        emit(out, EXC_MATCH, tree.op[c], line)
        stk[top, TRY_HANDLER] = emit(out, JUMP_IF_FALSE, -1, line)
    return tree.first[c]


@nrt_free
def emit_try(n, st, top, toks, tree, types, out, scratch, err):
    """TRY n at visit st (see the module doc); returns the block to walk next or DONE."""
    stk = scratch.walk
    line = toks.line[tree.tok[n]]
    body = tree.first[n]
    m = _clauses(tree, n)
    fin = clause_of(tree, n, N_FINALLY)
    d = statement_depth(tree, types, stk, top)
    if st == 0:
        stk[top, TRY_FINALLY] = emit(out, SETUP_TRY, -1, line) if fin != -1 else -1
        stk[top, TRY_HANDLER] = emit(out, SETUP_TRY, -1, line) if m > 0 else -1
        stk[top, TRY_END] = -1
        return body
    ph, k = _phase(tree, types, n, st + 1)  # what this visit opens
    if st == 1 and m > 0 and falls_through(types, body):
        emit(out, POP_TRY, 0, line)
    if ph == PH_ELSE:
        return tree.first[clause_of(tree, n, N_TRY_ELSE)]
    if ph == PH_CLAUSE and k == 0:  # the normal path's end, then the handler
        els = clause_of(tree, n, N_TRY_ELSE)
        if falls_through(types, body) and (els == -1 or falls_through(types, tree.first[els])):
            stk[top, TRY_END] = emit(out, JUMP, stk[top, TRY_END], line)
        patch(out, stk[top, TRY_HANDLER])
        return _open_clause(_nth_clause(tree, n, 0), d, stk, top, toks, tree, out)
    if m > 0 and _phase(tree, types, n, st)[0] == PH_CLAUSE:  # a clause's end
        block = tree.first[_nth_clause(tree, n, _phase(tree, types, n, st)[1])]
        if falls_through(types, block):
            emit(out, POP_TOP, 0, line)
            stk[top, TRY_END] = emit(out, JUMP, stk[top, TRY_END], line)
        patch(out, stk[top, TRY_HANDLER])  # the failed test goes on to the next clause
        if ph == PH_CLAUSE:
            return _open_clause(_nth_clause(tree, n, k), d, stk, top, toks, tree, out)
        if tree.op[_nth_clause(tree, n, m - 1)] != RAISABLE_MASK:  # no clause caught it
            _set_depth(out, d + 1)
            emit(out, RERAISE, 0, line)
        patch(out, stk[top, TRY_END])
        stk[top, TRY_END] = -1
        _set_depth(out, d)
    if ph == PH_FINALLY:  # the normal path's copy
        emit(out, POP_TRY, 0, line)
        return tree.first[fin]
    if ph == PH_FINALLY_EXC:  # the exceptional path's copy
        if falls_through(types, tree.first[fin]):
            stk[top, TRY_END] = emit(out, JUMP, -1, line)
        patch(out, stk[top, TRY_FINALLY])
        _set_depth(out, d + 1)
        return tree.first[fin]
    if fin != -1:
        if falls_through(types, tree.first[fin]):
            emit(out, RERAISE, 0, line)
        patch(out, stk[top, TRY_END])
        _set_depth(out, d)
    return DONE


@nrt_free
def emit_raise(n, top, toks, tree, types, out, scratch, err):
    """`raise E(args)`: the arguments evaluated and dropped, RAISE; `raise E`: RAISE; `raise` /
    `raise e`: the clause's exception value (on top) raised again."""
    line = toks.line[tree.tok[n]]
    c = tree.first[n]
    if tree.op[n] < 0:
        emit(out, DUP_TOP, 0, line)
        emit(out, RERAISE, 0, line)
        return
    a = tree.first[c] if tree.kind[c] == N_CALL else -1
    while a != -1:
        emit_expr(a, toks, tree, types, out, scratch, top + 1, err)
        emit(out, POP_TOP, 0, line)
        a = tree.next[a]
    emit(out, RAISE, tree.op[n], line)
