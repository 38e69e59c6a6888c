"""Code generator: checked AST -> VM instructions of one unit (phase 4).

`codegen` is a kernel body (numba subset, no recursion: explicit stacks).  It reads the AST
with the type checker's annotations (see compiler/typecheck.py) and emits (opcode, operand)
pairs from vm/opcodes.py, a source line per instruction, the unit's constant pool and per
function its entry (relative to the unit's first instruction) and max operand-stack depth.

Functions are laid out in function-table order; import stubs have no code.  Jump operands
are relative to the function's entry.  Forward jumps are emitted with a placeholder operand
that chains the jumps waiting for the same label (-1 ends a chain) and patched when the
label is reached.  Statements after one that cannot continue are not emitted.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from compiler import nodes
from compiler.errors import E_PROGRAM_TOO_LARGE, E_TOO_MANY_CONSTANTS
from compiler.limits import MAX_CONSTS
from compiler.scope import F_ENTRY, F_IMPORT, F_MAX_STACK, F_NODE, F_NPARAMS, fail, last_child
from compiler.typecheck import S_A, S_B, S_NODE, S_STATE, is_const_true
from vm import opcodes as O
from vm.valuetypes import T_BOOL, T_INT

N_BLOCK, N_ASSIGN, N_AUGASSIGN, N_EXPR_STMT = nodes.N_BLOCK, nodes.N_ASSIGN, nodes.N_AUGASSIGN, nodes.N_EXPR_STMT
N_IF, N_WHILE, N_FOR_RANGE, N_RETURN, N_ASSERT = nodes.N_IF, nodes.N_WHILE, nodes.N_FOR_RANGE, nodes.N_RETURN, nodes.N_ASSERT
N_BREAK, N_CONTINUE = nodes.N_BREAK, nodes.N_CONTINUE
N_INT, N_BOOL, N_NONE, N_NAME, N_UNARY = nodes.N_INT, nodes.N_BOOL, nodes.N_NONE, nodes.N_NAME, nodes.N_UNARY
N_BINARY, N_BOOLOP, N_COMPARE, N_CALL = nodes.N_BINARY, nodes.N_BOOLOP, nodes.N_COMPARE, nodes.N_CALL
UN_NEG, UN_NOT, BOOL_AND = nodes.UN_NEG, nodes.UN_NOT, nodes.BOOL_AND

LOAD_CONST, LOAD_INT, LOAD_VAR, STORE_VAR = O.LOAD_CONST, O.LOAD_INT, O.LOAD_VAR, O.STORE_VAR
POP_TOP, DUP_TOP, ROT_TWO, ROT_THREE = O.POP_TOP, O.DUP_TOP, O.ROT_TWO, O.ROT_THREE
BINARY_ADD, UNARY_NEG, UNARY_NOT = O.BINARY_ADD, O.UNARY_NEG, O.UNARY_NOT
JUMP, JUMP_IF_FALSE = O.JUMP, O.JUMP_IF_FALSE
JUMP_IF_FALSE_OR_POP, JUMP_IF_TRUE_OR_POP = O.JUMP_IF_FALSE_OR_POP, O.JUMP_IF_TRUE_OR_POP
FOR_RANGE, RANGE_CHECK, CALL, RETURN = O.FOR_RANGE, O.RANGE_CHECK, O.CALL, O.RETURN
ASSERT_TRUE, ASSERT_CMP = O.ASSERT_TRUE, O.ASSERT_CMP

# stack effects from the opcode table (CALL's variable pops are applied by the caller)
POPS = np.array([max(op.pops, 0) for op in O.TABLE], dtype=np.int64)
PUSHES = np.array([op.pushes for op in O.TABLE], dtype=np.int64)
BIN_OPCODES = np.array([O.BINARY_ADD, O.BINARY_SUB, O.BINARY_MUL, O.BINARY_FLOORDIV, O.BINARY_MOD], dtype=np.int32)
CMP_OPCODES = np.array(O.CMP_OPCODES, dtype=np.int32)
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# codegen state (int64[CG_WIDTH])
CG_PC, CG_ENTRY, CG_DEPTH, CG_MAXD, CG_NCONST = range(5)
CG_WIDTH = 5


@register_jitable
def emit(code, lines, cg, opc, arg, line):
    """Append one instruction (past capacity only counts: codegen then fails) and track
    the operand-stack depth.  Returns its pc."""
    pc = cg[CG_PC]
    if pc < code.shape[0]:
        code[pc, 0] = opc
        code[pc, 1] = arg
        lines[pc] = line
    cg[CG_PC] = pc + 1
    d = cg[CG_DEPTH] - POPS[opc] + PUSHES[opc]
    cg[CG_DEPTH] = d
    if d > cg[CG_MAXD]:
        cg[CG_MAXD] = d
    return pc


@register_jitable
def patch(code, cg, chain):
    """Point every jump of a placeholder chain at the current pc."""
    target = cg[CG_PC] - cg[CG_ENTRY]
    p = chain
    while 0 <= p < code.shape[0]:
        nxt = code[p, 1]
        code[p, 1] = target
        p = nxt


@register_jitable
def emit_int(code, lines, cg, consts, v, line, err, s, e):
    if INT32_MIN <= v <= INT32_MAX:
        emit(code, lines, cg, LOAD_INT, v, line)
        return
    k = 0
    while k < cg[CG_NCONST] and consts[k] != v:
        k += 1
    if k == cg[CG_NCONST]:
        if k >= consts.shape[0] or k >= MAX_CONSTS:
            fail(err, E_TOO_MANY_CONSTANTS, s, e, MAX_CONSTS)
            return
        consts[k] = v
        cg[CG_NCONST] = k + 1
    emit(code, lines, cg, LOAD_CONST, k, line)


@register_jitable
def emit_expr(root, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
              fn, code, lines, consts, cg, stk, sp0, err):  # fmt: skip
    """Emit an expression (postorder walk on stk above sp0)."""
    sp = sp0
    stk[sp, S_NODE] = root
    stk[sp, S_STATE] = 0
    sp += 1
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        k = kind[n]
        line = tok_line[tok[n]]
        c = first[n]
        push = -1  # child to evaluate next
        if k == N_INT or k == N_BOOL:
            emit_int(code, lines, cg, consts, val[n], line, err, tok_start[tok[n]], tok_end[tok[n]])
        elif k == N_NONE:
            emit(code, lines, cg, LOAD_INT, 0, line)
        elif k == N_NAME:
            emit(code, lines, cg, LOAD_VAR, slot[n], line)
        elif k == N_UNARY:
            if st == 0 and op[n] == UN_NEG and kind[c] == N_INT:  # fold a negative literal
                emit_int(code, lines, cg, consts, -val[c], line, err, tok_start[tok[n]], tok_end[tok[c]])
            elif st == 0:
                push = c
            elif op[n] == UN_NEG:
                emit(code, lines, cg, UNARY_NEG, 0, line)
            elif op[n] == UN_NOT:
                emit(code, lines, cg, UNARY_NOT, 0, line)
            elif type_[c] == T_BOOL:  # +True is 1
                emit(code, lines, cg, LOAD_INT, 0, line)
                emit(code, lines, cg, BINARY_ADD, 0, line)
        elif k == N_BINARY:
            if st < 2:
                push = c if st == 0 else next_[c]
            else:
                emit(code, lines, cg, BIN_OPCODES[op[n]], 0, line)
        elif k == N_BOOLOP:
            if st == 0:
                push = c
            elif st == 1:
                jop = JUMP_IF_FALSE_OR_POP if op[n] == BOOL_AND else JUMP_IF_TRUE_OR_POP
                stk[top, S_A] = emit(code, lines, cg, jop, -1, line)
                cg[CG_DEPTH] -= 1  # popped when falling through (kept when jumping)
                push = next_[c]
            else:
                patch(code, cg, stk[top, S_A])
        elif k == N_COMPARE:
            # a < b < c like CPython: a; b; DUP_TOP; ROT_THREE; COMPARE; JUMP_IF_FALSE_OR_POP
            # cleanup; c; COMPARE; JUMP end; cleanup: ROT_TWO; POP_TOP; end:
            if st == 0:
                stk[top, S_A] = next_[c]  # current link
                stk[top, S_B] = -1  # cleanup chain
                push = c
            elif st == 1:
                push = first[stk[top, S_A]]
            else:
                link = stk[top, S_A]
                if next_[link] != -1:
                    emit(code, lines, cg, DUP_TOP, 0, line)
                    emit(code, lines, cg, ROT_THREE, 0, line)
                    emit(code, lines, cg, CMP_OPCODES[op[link]], 0, line)
                    stk[top, S_B] = emit(code, lines, cg, JUMP_IF_FALSE_OR_POP, stk[top, S_B], line)
                    cg[CG_DEPTH] -= 1
                    stk[top, S_A] = next_[link]
                    push = first[next_[link]]
                    stk[top, S_STATE] = 2
                else:
                    emit(code, lines, cg, CMP_OPCODES[op[link]], 0, line)
                    if stk[top, S_B] != -1:
                        end = emit(code, lines, cg, JUMP, -1, line)
                        patch(code, cg, stk[top, S_B])
                        cg[CG_DEPTH] += 1  # the cleanup path holds (b, result)
                        emit(code, lines, cg, ROT_TWO, 0, line)
                        emit(code, lines, cg, POP_TOP, 0, line)
                        patch(code, cg, end)
        elif k == N_CALL:
            push = c if st == 0 else stk[top, S_A]
            if push == -1:
                f = slot[n]
                emit(code, lines, cg, CALL, f, line)
                cg[CG_DEPTH] -= fn[f, F_NPARAMS]
            else:
                stk[top, S_A] = next_[push]
        if push == -1:
            sp -= 1
        else:
            stk[sp, S_NODE] = push
            stk[sp, S_STATE] = 0
            sp += 1


@register_jitable
def _loop_frame(kind, stk, top):
    j = top - 1
    while j >= 0 and kind[stk[j, S_NODE]] != N_WHILE and kind[stk[j, S_NODE]] != N_FOR_RANGE:
        j -= 1
    return j


@register_jitable
def emit_function(f, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                  fn, code, lines, consts, cg, stk, err):  # fmt: skip
    """Emit one function's body.  Loop frames keep the loop top (S_A, a pc) and the chain
    of jumps to its exit (S_B); if frames keep their pending jumps in S_A / S_B."""
    body = last_child(first, next_, fn[f, F_NODE])
    sp = 1
    stk[0, S_NODE] = body
    stk[0, S_STATE] = 0
    while sp > 0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        k = kind[n]
        line = tok_line[tok[n]]
        c = first[n]
        push = -1
        if k == N_BLOCK:  # S_A: next statement, S_B: previous one
            if st == 0:
                stk[top, S_A] = c
                stk[top, S_B] = -1
            prev = stk[top, S_B]
            if stk[top, S_A] != -1 and (prev == -1 or type_[prev] != 0):
                push = stk[top, S_A]
                stk[top, S_B] = push
                stk[top, S_A] = next_[push]
        elif k == N_IF:
            if st == 0:
                emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                stk[top, S_A] = emit(code, lines, cg, JUMP_IF_FALSE, -1, line)
                push = next_[c]
            elif st == 1:
                els = next_[next_[c]]
                stk[top, S_B] = -1
                if els != -1 and type_[next_[c]] != 0:
                    stk[top, S_B] = emit(code, lines, cg, JUMP, -1, line)
                patch(code, cg, stk[top, S_A])
                push = els
            else:
                patch(code, cg, stk[top, S_B])
        elif k == N_WHILE or k == N_FOR_RANGE:
            if st == 0:
                if k == N_FOR_RANGE:  # hidden slots h, h+1, h+2 = start, stop, step
                    h = val[n]
                    nargs = op[n]
                    step = -1
                    for a in range(3):  # start, stop, step (range(n): 0, n, 1)
                        if (a == 0 and nargs == 1) or (a == 2 and nargs < 3):
                            emit(code, lines, cg, LOAD_INT, a // 2, line)
                        else:
                            emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_,
                                      slot, fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                            step = c
                            c = next_[c]
                        emit(code, lines, cg, STORE_VAR, h + a, line)
                    if nargs == 3 and not _nonzero_literal(kind, op, first, val, step):
                        emit(code, lines, cg, RANGE_CHECK, h, line)
                    stk[top, S_A] = emit(code, lines, cg, FOR_RANGE, h, line)
                    cg[CG_DEPTH] -= 1  # falls through to the exit jump with nothing pushed
                    stk[top, S_B] = emit(code, lines, cg, JUMP, -1, line)
                    cg[CG_DEPTH] += 1
                    emit(code, lines, cg, STORE_VAR, slot[n], line)
                else:
                    stk[top, S_A] = cg[CG_PC]
                    stk[top, S_B] = -1
                    if not is_const_true(kind, val, c):
                        emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                                  fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                        stk[top, S_B] = emit(code, lines, cg, JUMP_IF_FALSE, -1, line)
                    c = next_[c]
                push = c
            else:
                if type_[last_child(first, next_, n)] != 0:
                    emit(code, lines, cg, JUMP, stk[top, S_A] - cg[CG_ENTRY], line)
                patch(code, cg, stk[top, S_B])
        elif k == N_BREAK or k == N_CONTINUE:
            j = _loop_frame(kind, stk, top)
            if k == N_BREAK:
                stk[j, S_B] = emit(code, lines, cg, JUMP, stk[j, S_B], line)
            else:
                emit(code, lines, cg, JUMP, stk[j, S_A] - cg[CG_ENTRY], line)
        elif k == N_ASSERT and kind[c] == N_COMPARE and next_[next_[first[c]]] == -1:
            link = next_[first[c]]
            both_bool = type_[first[c]] == T_BOOL and type_[link] == T_BOOL
            for x in (first[c], first[link]):
                emit_expr(x, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            emit(code, lines, cg, ASSERT_CMP, op[link] + 8 * (T_BOOL if both_bool else T_INT), line)
        elif k == N_ASSIGN or k == N_AUGASSIGN or k == N_EXPR_STMT or k == N_ASSERT or k == N_RETURN:
            if k == N_AUGASSIGN:
                emit(code, lines, cg, LOAD_VAR, slot[n], line)
            if c != -1:
                emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            elif k == N_RETURN:
                emit(code, lines, cg, LOAD_INT, 0, line)
            if k == N_AUGASSIGN:
                emit(code, lines, cg, BIN_OPCODES[op[n]], 0, line)
            if k == N_ASSIGN or k == N_AUGASSIGN:
                emit(code, lines, cg, STORE_VAR, slot[n], line)
            elif k == N_EXPR_STMT:
                emit(code, lines, cg, POP_TOP, 0, line)
            elif k == N_ASSERT:
                emit(code, lines, cg, ASSERT_TRUE, 0, line)
            else:
                emit(code, lines, cg, RETURN, 0, line)
        # PASS, DOCSTRING, ELLIPSIS: nothing
        if push == -1:
            sp -= 1
        else:
            stk[sp, S_NODE] = push
            stk[sp, S_STATE] = 0
            sp += 1
    if type_[body] != 0:  # a `-> None` function falling off its end
        emit(code, lines, cg, LOAD_INT, 0, tok_line[tok[fn[f, F_NODE]]])
        emit(code, lines, cg, RETURN, 0, tok_line[tok[fn[f, F_NODE]]])


@register_jitable
def _nonzero_literal(kind, op, first, val, n):
    """A range() step known not to be zero (no RANGE_CHECK needed)."""
    if kind[n] == N_UNARY and op[n] != UN_NOT:
        n = first[n]
    return (kind[n] == N_INT or kind[n] == N_BOOL) and val[n] != 0


@register_jitable
def codegen(tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot, fn, nf,
            code, lines, consts, cg, stk, err):  # fmt: skip
    """Emit every function of a checked unit.  code: int32[cap, 2]; lines: int32[cap];
    consts: int64[<= MAX_CONSTS]; cg: int64[CG_WIDTH]; stk: the type checker's stack size.
    Returns the number of instructions (constants: cg[CG_NCONST]), or -1 with err set."""
    for i in range(CG_WIDTH):
        cg[i] = 0
    for f in range(nf):
        cg[CG_ENTRY] = cg[CG_PC]
        cg[CG_DEPTH] = 0
        cg[CG_MAXD] = 0
        fn[f, F_ENTRY] = cg[CG_PC]
        if fn[f, F_IMPORT] == 0:
            emit_function(f, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, err)  # fmt: skip
        fn[f, F_MAX_STACK] = cg[CG_MAXD]
        if cg[CG_PC] > code.shape[0]:
            d = fn[f, F_NODE]
            fail(err, E_PROGRAM_TOO_LARGE, tok_start[tok[d]], tok_end[tok[d]], code.shape[0])
        if err[0] != 0:
            return -1
    return cg[CG_PC]
