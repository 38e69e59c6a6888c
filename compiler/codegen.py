"""Code generator: checked AST -> VM instructions of one unit (phase 4), the statement walk.

`codegen` is a kernel body (numba subset, no recursion: explicit stacks).  It reads the AST
with the type checker's annotations (see compiler/typecheck.py) and emits (opcode, operand)
pairs of contract/isa.py, a source line per instruction, the unit's constant pool and per
function its entry (relative to the unit's first instruction) and max operand-stack depth.

Functions are laid out in function-table order; import stubs have no code.  Jump operands
are relative to the function's entry.  `emit_function` walks a function's statements on an
explicit stack (Scratch.walk): a short dispatcher calls the handler of the statement's kind,
which emits what is due at this visit and answers the child block to walk next or DONE.
Statements after one that cannot continue are not emitted.  The handlers: BLOCK and IF
here (conditions are branches: compiler/codegen_branch.py), loops, break and continue in
compiler/codegen_loops.py, try and raise in compiler/codegen_try.py, the simple statements in compiler/codegen_stmt.py, expressions
in compiler/codegen_expr.py, the emitter and the instruction choices in compiler/emit.py.
Each function's code then goes through the peephole pass (compiler/peephole.py), which
fuses superinstructions without changing results or costs.  A function whose end is
reachable ends with `return None` (`-> None`, and NONE_REF from an Optional one) or FELL_OFF (any
other return type).
"""

from __future__ import annotations

from gpucc.compiler.arrays import ERR_CODE
from gpucc.compiler.codegen_branch import emit_branch
from gpucc.compiler.codegen_expr import DONE
from gpucc.compiler.codegen_loops import (
    emit_for_list,
    emit_for_range,
    emit_loop_branch,
    emit_loop_jump,
    emit_while,
    falls_through,
)
from gpucc.compiler.codegen_stmt import (
    emit_assert,
    emit_assign,
    emit_augassign,
    emit_delete,
    emit_expr_statement,
    emit_return,
    emit_setitem,
    emit_unpack,
)
from gpucc.compiler.codegen_try import emit_raise, emit_try, leave_tries
from gpucc.compiler.emit import CG_DEPTH, CG_ENTRY, CG_MAXD, CG_NCONST, CG_PC, CG_WIDTH, emit, intern_strings, patch
from gpucc.compiler.errors import E_PROGRAM_TOO_LARGE
from gpucc.compiler.nodes import (
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BREAK,
    N_CONTINUE,
    N_DELETE,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_MODULE,
    N_RAISE,
    N_RETURN,
    N_SETITEM,
    N_TRY,
    N_UNPACK,
    N_WHILE,
)
from gpucc.compiler.peephole import optimize
from gpucc.compiler.scope import F_ENTRY, F_IMPORT, F_MAX_STACK, F_NODE, F_RET, MODULE_ROW, function_body, last_child
from gpucc.compiler.typecheck import S_A, S_B, S_NODE, S_STATE, node_fail
from gpucc.compiler.typerules import is_optional
from gpucc.contract.isa import FELL_OFF, JUMP, LOAD_INT, MODULE_END, NONE_REF, RETURN
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE

__all__ = ["CG_NCONST", "CG_PC", "CG_WIDTH", "codegen"]

# statement frame columns besides S_NODE and S_STATE (the visits so far), by kind (the
# loops' are codegen_loops.LOOP_*):
BLOCK_NEXT = S_A  # BLOCK: the statement to emit next (-1: none left)
BLOCK_LAST = S_B  # BLOCK: the statement emitted last (-1: none yet)
IF_ELSE = S_A  # IF: the jumps to the else branch
IF_END = S_B  # IF: the jump past the else branch


@nrt_free
def _block(n, st, top, tree, types, stk):
    """A block: its statements in order, up to the first that cannot continue."""
    if st == 0:
        stk[top, BLOCK_NEXT] = tree.first[n]
        stk[top, BLOCK_LAST] = -1
    nxt, last = stk[top, BLOCK_NEXT], stk[top, BLOCK_LAST]
    if nxt == -1 or (last != -1 and not falls_through(types, last)):
        return DONE
    stk[top, BLOCK_LAST] = nxt
    stk[top, BLOCK_NEXT] = tree.next[nxt]
    return nxt


@nrt_free
def _if(n, st, top, toks, tree, types, out, scratch, err):
    """if cond: then [else: orelse] (children: cond, then, orelse; an elif is an IF there):
    the branch to else; then; JUMP end (if then can continue); else: orelse; end:.
    `if cond: break` / `continue` alone is one conditional jump (codegen_loops)."""
    kind, next_, stk = tree.kind, tree.next, scratch.walk
    cond = tree.first[n]
    then = next_[cond]
    orelse = next_[then]
    if st == 0:
        jump = tree.first[then]
        if (orelse == -1 and jump != -1 and next_[jump] == -1 and (kind[jump] == N_BREAK or kind[jump] == N_CONTINUE)
                and leave_tries(jump, top + 1, toks, tree, types, out, stk, False) == 0):  # fmt: skip
            if emit_loop_branch(cond, jump, top, toks, tree, types, out, scratch, err):
                return DONE
        stk[top, IF_ELSE] = emit_branch(cond, 0, -1, toks, tree, types, out, scratch, top + 1, err)
        return then
    if st == 1:
        stk[top, IF_END] = -1
        if orelse != -1 and falls_through(types, then):
            stk[top, IF_END] = emit(out, JUMP, -1, toks.line[tree.tok[n]])
        patch(out, stk[top, IF_ELSE])
        return orelse
    patch(out, stk[top, IF_END])
    return DONE


@nrt_free
def emit_function(f, toks, tree, types, out, scratch, err):
    """Emit one function's body: a walk of its statements, from its block."""
    kind, stk = tree.kind, scratch.walk
    node = types.fn[f, F_NODE]
    body = function_body(tree, types.fn, f)
    sp = 1
    stk[0, S_NODE] = body
    stk[0, S_STATE] = 0
    while sp > 0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        k = kind[n]
        nxt = DONE
        if k == N_BLOCK or k == N_MODULE:  # the MODULE: module code's statements (its defs emit nothing)
            nxt = _block(n, st, top, tree, types, stk)
        elif k == N_IF:
            nxt = _if(n, st, top, toks, tree, types, out, scratch, err)
        elif k == N_WHILE:
            nxt = emit_while(n, st, top, toks, tree, types, out, scratch, err)
        elif k == N_FOR_RANGE:
            nxt = emit_for_range(n, st, top, toks, tree, types, out, scratch, err)
        elif k == N_FOR_LIST:
            nxt = emit_for_list(n, st, top, toks, tree, types, out, scratch, err)
        elif k == N_BREAK or k == N_CONTINUE:
            leave_tries(n, top, toks, tree, types, out, stk, True)
            emit_loop_jump(n, top, toks, tree, out, scratch)
        elif k == N_TRY:
            nxt = emit_try(n, st, top, toks, tree, types, out, scratch, err)
        elif k == N_RAISE:
            emit_raise(n, top, toks, tree, types, out, scratch, err)
        elif k == N_ASSIGN:
            emit_assign(n, top, toks, tree, types, out, scratch, err)
        elif k == N_AUGASSIGN:
            emit_augassign(n, top, toks, tree, types, out, scratch, err)
        elif k == N_SETITEM:
            emit_setitem(n, top, toks, tree, types, out, scratch, err)
        elif k == N_EXPR_STMT:
            emit_expr_statement(n, top, toks, tree, types, out, scratch, err)
        elif k == N_ASSERT:
            emit_assert(n, top, toks, tree, types, out, scratch, err)
        elif k == N_RETURN:
            emit_return(n, top, toks, tree, types, out, scratch, err)
        elif k == N_UNPACK:
            emit_unpack(n, top, toks, tree, types, out, scratch, err)
        elif k == N_DELETE:
            emit_delete(n, top, toks, tree, types, out, scratch, err)
        # PASS, DOCSTRING, ELLIPSIS: nothing
        if nxt == DONE:
            sp -= 1
        else:
            stk[sp, S_NODE] = nxt
            stk[sp, S_STATE] = 0
            sp += 1
    if falls_through(types, body):  # control reaches the end of the body
        line = toks.line[tree.tok[node]]
        if types.fn[f, F_IMPORT] == MODULE_ROW:  # the job's next module code or function starts
            emit(out, MODULE_END, 0, toks.line[tree.tok[last_child(tree, 0)]])
        elif types.fn[f, F_RET] == T_NONE or is_optional(types.fn[f, F_RET]):  # returns None, as CPython
            emit(out, LOAD_INT, 0 if types.fn[f, F_RET] == T_NONE else NONE_REF, line)
            emit(out, RETURN, 0, line)
        else:  # CPython would return None: the job ends with NONE_RETURNED at the def line
            emit(out, FELL_OFF, 0, line)


@nrt_free
def codegen(src, toks, tree, types, nf, out, scratch, err):
    """Emit every function of a checked unit (src: its bytes) into out (Output: code
    int32[cap, 2], lines int32[cap], consts int64[<= MAX_CONSTS], cg int64[CG_WIDTH]); the
    str literals go to the constant pool first.  scratch.walk has the type checker's rows.
    Returns the number of instructions (constants: cg[CG_NCONST]), or -1 with err set."""
    code, cg, fn, stk = out.code, out.cg, types.fn, scratch.walk
    for i in range(CG_WIDTH):
        cg[i] = 0
    if intern_strings(src, toks, tree, out, stk[:, 0], err) < 0:
        return -1
    for f in range(nf):
        cg[CG_ENTRY] = cg[CG_PC]
        cg[CG_DEPTH] = 0
        cg[CG_MAXD] = 0
        fn[f, F_ENTRY] = cg[CG_PC]
        if fn[f, F_IMPORT] != 1:  # not an interface stub
            emit_function(f, toks, tree, types, out, scratch, err)
        if fn[f, F_IMPORT] != 1 and err[ERR_CODE] == 0 and cg[CG_PC] <= code.shape[0]:
            n, deepest = optimize(code, out.lines, cg[CG_ENTRY], cg[CG_PC], fn, stk[:, 0], stk[:, 1], stk[:, 2])
            if deepest >= 0:
                cg[CG_PC] = cg[CG_ENTRY] + n
                cg[CG_MAXD] = deepest
        fn[f, F_MAX_STACK] = cg[CG_MAXD]
        if cg[CG_PC] > code.shape[0]:
            node_fail(err, E_PROGRAM_TOO_LARGE, toks, tree, fn[f, F_NODE], code.shape[0])
        if err[ERR_CODE] != 0:
            return -1
    return cg[CG_PC]
