"""Code generator, expressions: the emitter and its jump chains, expression values and
conditions compiled as branches (a part of phase 4, see compiler/codegen.py).

Kernel bodies (numba subset, no recursion: explicit stacks on the type checker's `stk`).
Instructions go to `code` / `lines` at cg[CG_PC]; emit tracks the operand-stack depth.
Forward jumps are emitted with a placeholder operand that chains the jumps waiting for the
same label (-1 ends a chain) and are patched when the label is reached (patch, patch_to).

`emit_branch` compiles a condition as jumps: `and`, `or` and `not` become control flow, no
values.  `k + x` and `k * x` with a literal k are emitted as `x + k`, `x * k`, and `k < x`
(no chain) as `x > k`: same result, same cost, and the peephole pass can fuse the literal.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from compiler import nodes
from compiler.errors import E_TOO_MANY_CONSTANTS
from compiler.limits import MAX_CONSTS
from compiler.scope import B_ABS, B_BOOL, B_FLOAT, B_INT, B_LEN, B_MIN, B_SORTED, B_SUM, F_NPARAMS, F_PTYPE, M_APPEND, fail
from compiler.typerules import T_EMPTY_LIST, element_type, is_list
from compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE
from vm import opcodes as O
from vm.valuetypes import T_BOOL, T_FLOAT, T_LIST_FLOAT

N_INT, N_BOOL, N_NONE, N_NAME, N_UNARY = nodes.N_INT, nodes.N_BOOL, nodes.N_NONE, nodes.N_NAME, nodes.N_UNARY
N_BINARY, N_BOOLOP, N_COMPARE, N_CALL = nodes.N_BINARY, nodes.N_BOOLOP, nodes.N_COMPARE, nodes.N_CALL
N_FLOAT, N_IFEXP, N_LIST, N_SUBSCRIPT, N_SLICE = nodes.N_FLOAT, nodes.N_IFEXP, nodes.N_LIST, nodes.N_SUBSCRIPT, nodes.N_SLICE
N_METHOD = nodes.N_METHOD
CMP_IN, CMP_NOT_IN = nodes.CMP_IN, nodes.CMP_NOT_IN
UN_NEG, UN_NOT, UN_INVERT, BOOL_AND = nodes.UN_NEG, nodes.UN_NOT, nodes.UN_INVERT, nodes.BOOL_AND
BIN_ADD, BIN_MUL, BIN_DIV = nodes.BIN_ADD, nodes.BIN_MUL, nodes.BIN_DIV
SIGN_BIT = np.int64(-(2**63))  # a float literal's bits XOR this: its negation

LOAD_CONST, LOAD_INT, LOAD_VAR = O.LOAD_CONST, O.LOAD_INT, O.LOAD_VAR
POP_TOP, DUP_TOP, ROT_TWO, ROT_THREE = O.POP_TOP, O.DUP_TOP, O.ROT_TWO, O.ROT_THREE
BINARY_ADD, UNARY_NEG, UNARY_NOT = O.BINARY_ADD, O.UNARY_NEG, O.UNARY_NOT
JUMP, JUMP_IF_FALSE, JUMP_IF_TRUE = O.JUMP, O.JUMP_IF_FALSE, O.JUMP_IF_TRUE
JUMP_IF_FALSE_OR_POP, JUMP_IF_TRUE_OR_POP, CALL = O.JUMP_IF_FALSE_OR_POP, O.JUMP_IF_TRUE_OR_POP, O.CALL

# stack effects from the opcode table (CALL's variable pops are applied by the caller)
POPS, PUSHES = O.stack_effects()
# by nodes.BIN_* code: the int instruction and the float one (-1: none; `/` is always float)
BIN_OPCODES = np.array([O.BINARY_ADD, O.BINARY_SUB, O.BINARY_MUL, O.BINARY_FLOORDIV, O.BINARY_MOD, -1, O.BINARY_POW,
                        O.BINARY_AND, O.BINARY_OR, O.BINARY_XOR, O.BINARY_LSHIFT, O.BINARY_RSHIFT], dtype=np.int32)
FLOAT_OPCODES = np.array([O.FLOAT_ADD, O.FLOAT_SUB, O.FLOAT_MUL, O.FLOAT_FLOORDIV, O.FLOAT_MOD, O.FLOAT_DIV,
                          O.FLOAT_POW, -1, -1, -1, -1, -1], dtype=np.int32)  # fmt: skip
CMP_OPCODES = np.array(O.CMP_OPCODES, dtype=np.int32)
# a c b == b MIRRORED[c] a
MIRRORED = np.array([O.CMP_NAMES.index(m) for m in (">", ">=", "==", "!=", "<", "<=")], dtype=np.int32)
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
def patch_to(code, chain, target):
    """Point every jump of a placeholder chain at `target` (relative to the entry)."""
    p = chain
    while 0 <= p < code.shape[0]:
        nxt = code[p, 1]
        code[p, 1] = target
        p = nxt


@register_jitable
def patch(code, cg, chain):
    """Point every jump of a placeholder chain at the current pc."""
    patch_to(code, chain, cg[CG_PC] - cg[CG_ENTRY])


@register_jitable
def emit_convert(code, lines, cg, want, got, line):
    """Convert the value on top (of type got) for a place that wants type want: an int or
    bool where a float is wanted becomes a float."""
    if want == T_FLOAT and got != T_FLOAT:
        emit(code, lines, cg, O.INT_TO_FLOAT, 0, line)


@register_jitable
def emit_truth(code, lines, cg, t, line):
    """Make the value on top (of type t) testable by the truth jumps (nonzero = true):
    a float becomes bool(x) (-0.0 is false), a list its length."""
    if t == T_FLOAT:
        emit(code, lines, cg, O.FLOAT_TRUTH, 0, line)
    elif is_list(t):
        emit(code, lines, cg, O.LIST_LEN, 0, line)


@register_jitable
def needs_truth(t):
    """Whether a value of type t is not its own truth value (see emit_truth)."""
    return t == T_FLOAT or is_list(t)


@register_jitable
def float_flag(t):
    """The float-elements operand (1 / 0) of a list instruction on list type t."""
    return 1 if t == T_LIST_FLOAT else 0


@register_jitable
def float_op(bop, lt, rt):
    """Whether binary op bop on these operand types runs as a float instruction."""
    return bop == BIN_DIV or lt == T_FLOAT or rt == T_FLOAT


@register_jitable
def emit_compare(code, lines, cg, cmp, lt, rt, line):
    """Push `a <cmp> b` for a, b of types lt, rt (floats: COMPARE_NUM, exact for int vs float;
    `x in xs`: LIST_CONTAINS; lists: LIST_EQ)."""
    if cmp == CMP_IN or cmp == CMP_NOT_IN:
        emit(code, lines, cg, O.LIST_CONTAINS, O.CMP_EQ + 8 * lt + 128 * element_type(rt), line)
        if cmp == CMP_NOT_IN:
            emit(code, lines, cg, UNARY_NOT, 0, line)
    elif is_list(lt):
        emit(code, lines, cg, O.LIST_EQ, float_flag(lt if lt != T_EMPTY_LIST else rt), line)
        if cmp == O.CMP_NE:
            emit(code, lines, cg, UNARY_NOT, 0, line)
    elif lt == T_FLOAT or rt == T_FLOAT:
        emit(code, lines, cg, O.COMPARE_NUM, cmp + 8 * lt + 128 * rt, line)
    else:
        emit(code, lines, cg, CMP_OPCODES[cmp], 0, line)


@register_jitable
def _emit_builtin_arg(code, lines, cg, b, i, t, result, line):
    """What a call of builtin b (scope.B_*) does once its argument i (of type t) is pushed."""
    if b == B_LEN:
        emit(code, lines, cg, O.LIST_LEN, 0, line)
    elif b == B_SUM:
        emit(code, lines, cg, O.LIST_SUM, float_flag(t), line)
    elif b == B_SORTED:
        emit(code, lines, cg, O.LIST_SORTED, float_flag(t), line)
    elif b == B_BOOL:
        if is_list(t):
            emit(code, lines, cg, O.LIST_LEN, 0, line)
        if t != T_BOOL:
            emit(code, lines, cg, O.FLOAT_TRUTH if t == T_FLOAT else O.INT_TRUTH, 0, line)
    elif is_list(t):  # min(xs) / max(xs)
        emit(code, lines, cg, O.LIST_MIN if b == B_MIN else O.LIST_MAX, float_flag(t), line)
    elif b == B_ABS:
        emit(code, lines, cg, O.FLOAT_ABS if t == T_FLOAT else O.INT_ABS, 0, line)
    elif b == B_INT:
        if t == T_FLOAT:
            emit(code, lines, cg, O.FLOAT_TO_INT, 0, line)
    elif b == B_FLOAT:
        emit_convert(code, lines, cg, T_FLOAT, t, line)
    elif i > 0:  # min / max fold left to right, as Python compares
        if b == B_MIN:
            emit(code, lines, cg, O.FLOAT_MIN2 if result == T_FLOAT else O.INT_MIN2, 0, line)
        else:
            emit(code, lines, cg, O.FLOAT_MAX2 if result == T_FLOAT else O.INT_MAX2, 0, line)


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
        if k == N_INT or k == N_BOOL or k == N_FLOAT:
            emit_int(code, lines, cg, consts, val[n], line, err, tok_start[tok[n]], tok_end[tok[n]])
        elif k == N_NONE:
            emit(code, lines, cg, LOAD_INT, 0, line)
        elif k == N_NAME:
            emit(code, lines, cg, LOAD_VAR, slot[n], line)
        elif k == N_UNARY:
            ct = type_[c]
            if st == 0 and op[n] == UN_NEG and kind[c] == N_INT:  # fold a negative literal
                emit_int(code, lines, cg, consts, -val[c], line, err, tok_start[tok[n]], tok_end[tok[c]])
            elif st == 0 and op[n] == UN_NEG and kind[c] == N_FLOAT:
                emit_int(code, lines, cg, consts, val[c] ^ SIGN_BIT, line, err, tok_start[tok[n]], tok_end[tok[c]])
            elif st == 0:
                push = c
            elif op[n] == UN_NEG:
                emit(code, lines, cg, O.FLOAT_NEG if ct == T_FLOAT else UNARY_NEG, 0, line)
            elif op[n] == UN_NOT:
                emit_truth(code, lines, cg, ct, line)
                emit(code, lines, cg, UNARY_NOT, 0, line)
            elif op[n] == UN_INVERT:
                emit(code, lines, cg, O.UNARY_INVERT, 0, line)
            elif ct == T_BOOL:  # +True is 1
                emit(code, lines, cg, LOAD_INT, 0, line)
                emit(code, lines, cg, BINARY_ADD, 0, line)
        elif k == N_BINARY:
            lt, rt = type_[c], type_[next_[c]]
            fl = float_op(op[n], lt, rt) and not is_list(type_[n])
            if st < 2:
                push = c if st == 0 else next_[c]
                if fl:  # both operands in source order, each converted to float after it
                    if st == 1:
                        emit_convert(code, lines, cg, T_FLOAT, type_[c], line)
                elif (op[n] == BIN_ADD or op[n] == BIN_MUL) and _literal(kind, op, first, c):
                    push = next_[c] if st == 0 else c  # k + x as x + k (k * xs as xs * k)
            elif is_list(type_[n]):
                if op[n] == BIN_ADD:
                    emit(code, lines, cg, O.LIST_CONCAT, 0, line)
                else:
                    if is_list(rt) and not _literal(kind, op, first, c):  # n * xs: pushed n, xs
                        emit(code, lines, cg, ROT_TWO, 0, line)
                    emit(code, lines, cg, O.LIST_REPEAT, 0, line)
            elif fl:
                emit_convert(code, lines, cg, T_FLOAT, type_[next_[c]], line)
                emit(code, lines, cg, FLOAT_OPCODES[op[n]], 0, line)
            else:
                emit(code, lines, cg, BIN_OPCODES[op[n]], 0, line)
        elif k == N_LIST:  # elements, then NEW_LIST n (list[float]: ints converted)
            if st > 0:
                emit_convert(code, lines, cg, element_type(type_[n]), type_[stk[top, S_A]], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push == -1:
                emit(code, lines, cg, O.NEW_LIST, st, line)
                cg[CG_DEPTH] -= st
            else:
                stk[top, S_A] = push
        elif k == N_SUBSCRIPT:
            if st < 2:
                push = c if st == 0 else next_[c]
            else:
                emit(code, lines, cg, O.LIST_GET, 0, line)
        elif k == N_SLICE:  # obj, then start, stop, step (LOAD_INT 0 for absent ones)
            if st == 0:
                stk[top, S_A] = c
                push = c
            elif st <= 3:
                if (op[n] >> (st - 1)) & 1:
                    push = next_[stk[top, S_A]]
                    stk[top, S_A] = push
                else:
                    emit(code, lines, cg, LOAD_INT, 0, line)
                    push = -2  # stay on this node
            else:
                emit(code, lines, cg, O.LIST_SLICE, op[n], line)
        elif k == N_METHOD:  # obj, args; append / sort push nothing (statements only)
            if st > 1:  # append's argument goes into the list: converted to its element type
                emit_convert(code, lines, cg, element_type(type_[c]), type_[stk[top, S_A]], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push != -1:
                stk[top, S_A] = push
            elif op[n] - 1 == M_APPEND:
                emit(code, lines, cg, O.LIST_APPEND, 0, line)
            else:
                emit(code, lines, cg, O.LIST_SORT, float_flag(type_[c]), line)
        elif k == N_IFEXP:  # children: body, cond, orelse
            if st == 0:
                push = next_[c]
            elif st == 1:
                emit_truth(code, lines, cg, type_[next_[c]], line)
                stk[top, S_A] = emit(code, lines, cg, JUMP_IF_FALSE, -1, line)
                push = c
            elif st == 2:
                emit_convert(code, lines, cg, type_[n], type_[c], line)
                stk[top, S_B] = emit(code, lines, cg, JUMP, -1, line)
                patch(code, cg, stk[top, S_A])
                cg[CG_DEPTH] -= 1  # the else-branch starts without the body's value
                push = next_[next_[c]]
            else:
                emit_convert(code, lines, cg, type_[n], type_[next_[next_[c]]], line)
                patch(code, cg, stk[top, S_B])
        elif k == N_BOOLOP:
            # operands of different types (a truth-only use): each as its truth value; two
            # floats: a DUP_TOP'd truth test, as the _OR_POP jumps test ints
            lt, rt = type_[c], type_[next_[c]]
            if st == 0:
                push = c
            elif st == 1:
                if lt == rt and needs_truth(lt):
                    emit(code, lines, cg, DUP_TOP, 0, line)
                    emit_truth(code, lines, cg, lt, line)
                    jop = JUMP_IF_FALSE if op[n] == BOOL_AND else JUMP_IF_TRUE
                    stk[top, S_A] = emit(code, lines, cg, jop, -1, line)
                    emit(code, lines, cg, POP_TOP, 0, line)
                else:
                    if lt != rt:
                        emit_truth(code, lines, cg, lt, line)
                    jop = JUMP_IF_FALSE_OR_POP if op[n] == BOOL_AND else JUMP_IF_TRUE_OR_POP
                    stk[top, S_A] = emit(code, lines, cg, jop, -1, line)
                    cg[CG_DEPTH] -= 1  # popped when falling through (kept when jumping)
                push = next_[c]
            else:
                if lt != rt:
                    emit_truth(code, lines, cg, rt, line)
                patch(code, cg, stk[top, S_A])
        elif k == N_COMPARE:
            # a < b < c like CPython: a; b; DUP_TOP; ROT_THREE; COMPARE; JUMP_IF_FALSE_OR_POP
            # cleanup; c; COMPARE; JUMP end; cleanup: ROT_TWO; POP_TOP; end:
            # `k < x` with a literal k (no chain) is emitted as `x > k`
            swap = next_[next_[c]] == -1 and _literal(kind, op, first, c) and op[next_[c]] < CMP_IN
            swap = swap and not _literal(kind, op, first, first[next_[c]])
            if st == 0:
                stk[top, S_A] = next_[c]  # current link
                stk[top, S_B] = -1  # cleanup chain
                stk[top, S_C] = c  # the current link's left operand
                push = first[next_[c]] if swap else c
            elif st == 1:
                push = c if swap else first[stk[top, S_A]]
            elif swap:
                emit_compare(code, lines, cg, MIRRORED[op[next_[c]]], type_[next_[c]], type_[c], line)
            else:
                link = stk[top, S_A]
                lt = type_[stk[top, S_C]]
                if next_[link] != -1:
                    emit(code, lines, cg, DUP_TOP, 0, line)
                    emit(code, lines, cg, ROT_THREE, 0, line)
                    emit_compare(code, lines, cg, op[link], lt, type_[link], line)
                    stk[top, S_B] = emit(code, lines, cg, JUMP_IF_FALSE_OR_POP, stk[top, S_B], line)
                    cg[CG_DEPTH] -= 1
                    stk[top, S_A] = next_[link]
                    stk[top, S_C] = first[link]
                    push = first[next_[link]]
                    stk[top, S_STATE] = 2
                else:
                    emit_compare(code, lines, cg, op[link], lt, type_[link], line)
                    if stk[top, S_B] != -1:
                        end = emit(code, lines, cg, JUMP, -1, line)
                        patch(code, cg, stk[top, S_B])
                        cg[CG_DEPTH] += 1  # the cleanup path holds (b, result)
                        emit(code, lines, cg, ROT_TWO, 0, line)
                        emit(code, lines, cg, POP_TOP, 0, line)
                        patch(code, cg, end)
        elif k == N_CALL:  # after argument i = st - 1 (node S_A): convert it / apply the builtin
            if st > 0:
                a = stk[top, S_A]
                if op[n] == 0:
                    emit_convert(code, lines, cg, fn[slot[n], F_PTYPE + st - 1], type_[a], line)
                else:
                    _emit_builtin_arg(code, lines, cg, op[n] - 1, st - 1, type_[a], type_[n], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push == -1 and op[n] == 0:
                f = slot[n]
                emit(code, lines, cg, CALL, f, line)
                cg[CG_DEPTH] -= fn[f, F_NPARAMS]
            elif push != -1:
                stk[top, S_A] = push
        if push == -1:
            sp -= 1
        elif push >= 0:
            stk[sp, S_NODE] = push
            stk[sp, S_STATE] = 0
            sp += 1


@register_jitable
def emit_branch(root, when, chain, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_,
                slot, fn, code, lines, consts, cg, stk, sp0, err):  # fmt: skip
    """Emit code that jumps when the truth of `root` is `when` (0 / 1) and falls through
    otherwise; `and` / `or` / `not` become jumps.  The jumps go to a label not placed yet:
    they are added to the placeholder chain `chain`; returns its new head.

    Frames on stk above sp0: S_A = when, S_B = the frame whose local chain (S_C) a jump
    joins (-1: `chain`), S_C = this node's local chain (jumps to just after it)."""
    sp = sp0
    stk[sp, S_NODE] = root
    stk[sp, S_STATE] = 0
    stk[sp, S_A] = when
    stk[sp, S_B] = -1
    sp += 1
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        w = stk[top, S_A]
        owner = stk[top, S_B]
        c = first[n]
        push = -1
        push_when = w
        push_owner = owner
        if kind[n] == N_UNARY and op[n] == UN_NOT:
            if st == 0:
                push = c
                push_when = 1 - w
        elif kind[n] == N_BOOLOP:
            decides = 0 if op[n] == BOOL_AND else 1  # a left value that decides the result
            if st == 0:  # left: jump out when it decides as wanted, else past the right side
                stk[top, S_C] = -1
                push = c
                push_when = decides
                if w != decides:
                    push_owner = top
            elif st == 1:
                push = next_[c]
            else:
                patch(code, cg, stk[top, S_C])
        else:
            emit_expr(n, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                      fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            jop = JUMP_IF_TRUE if w == 1 else JUMP_IF_FALSE
            line = tok_line[tok[n]]
            emit_truth(code, lines, cg, type_[n], line)
            if owner < 0:
                chain = emit(code, lines, cg, jop, chain, line)
            else:
                stk[owner, S_C] = emit(code, lines, cg, jop, stk[owner, S_C], line)
        if push == -1:
            sp -= 1
        else:
            stk[sp, S_NODE] = push
            stk[sp, S_STATE] = 0
            stk[sp, S_A] = push_when
            stk[sp, S_B] = push_owner
            sp += 1
    return chain


@register_jitable
def _literal(kind, op, first, n):
    """An int or bool literal, or a negated int literal (codegen folds it)."""
    if kind[n] == N_UNARY and op[n] == UN_NEG:
        n = first[n]
        return kind[n] == N_INT
    return kind[n] == N_INT or kind[n] == N_BOOL
