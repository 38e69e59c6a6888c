"""Code generator, expressions: expression values and conditions compiled as branches (a
part of phase 4, see compiler/codegen.py).  The emitter, its jump chains and the instruction
choices shared with the statements are in compiler/emit.py.

Kernel bodies (numba subset, no recursion: explicit stacks on Scratch.walk).
`emit_expr` pushes an expression's value with a postorder walk.  `emit_branch` compiles a
condition as jumps: `and`, `or` and `not` become control flow, no values.  `k + x` and
`k * x` with a literal k are emitted as `x + k`, `x * k`, and `k < x` (no chain) as `x > k`:
same result, same cost, and the peephole pass can fuse the literal.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.compiler.emit import (
    BIN_OPCODES,
    CG_DEPTH,
    FLOAT_OPCODES,
    emit,
    emit_builtin_arg,
    emit_compare,
    emit_convert,
    emit_int,
    emit_truth,
    float_flag,
    float_op,
    needs_truth,
    patch,
)  # fmt: skip
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_MUL,
    BOOL_AND,
    CMP_IN,
    N_BINARY,
    N_BOOL,
    N_BOOLOP,
    N_CALL,
    N_COMPARE,
    N_FLOAT,
    N_IFEXP,
    N_INT,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_SLICE,
    N_SUBSCRIPT,
    N_UNARY,
    UN_INVERT,
    UN_NEG,
    UN_NOT,
)
from gpucc.compiler.scope import F_NPARAMS, F_PTYPE, M_APPEND
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE
from gpucc.compiler.typerules import element_type, is_list
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    BINARY_ADD,
    CALL,
    DUP_TOP,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_FALSE_OR_POP,
    JUMP_IF_TRUE,
    JUMP_IF_TRUE_OR_POP,
    LOAD_INT,
    LOAD_VAR,
    POP_TOP,
    ROT_THREE,
    ROT_TWO,
    UNARY_NEG,
    UNARY_NOT,
)
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT

SIGN_BIT = np.int64(-(2**63))  # a float literal's bits XOR this: its negation


# a c b == b MIRRORED[c] a
MIRRORED = np.array([O.CMP_NAMES.index(m) for m in (">", ">=", "==", "!=", "<", "<=")], dtype=np.int32)


@register_jitable
def emit_expr(root, toks, tree, types, out, scratch, sp0, err):
    """Emit an expression (postorder walk on the walk stack above sp0)."""
    tok_start, tok_end, tok_line = toks.start, toks.end, toks.line
    kind, op, tok, first, next_, val = tree.kind, tree.op, tree.tok, tree.first, tree.next, tree.val
    type_, slot, fn, cg, stk = types.type, types.slot, types.fn, out.cg, scratch.walk
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
            emit_int(out, val[n], line, err, tok_start[tok[n]], tok_end[tok[n]])
        elif k == N_NONE:
            emit(out, LOAD_INT, 0, line)
        elif k == N_NAME:
            emit(out, LOAD_VAR, slot[n], line)
        elif k == N_UNARY:
            ct = type_[c]
            if st == 0 and op[n] == UN_NEG and kind[c] == N_INT:  # fold a negative literal
                emit_int(out, -val[c], line, err, tok_start[tok[n]], tok_end[tok[c]])
            elif st == 0 and op[n] == UN_NEG and kind[c] == N_FLOAT:
                emit_int(out, val[c] ^ SIGN_BIT, line, err, tok_start[tok[n]], tok_end[tok[c]])
            elif st == 0:
                push = c
            elif op[n] == UN_NEG:
                emit(out, O.FLOAT_NEG if ct == T_FLOAT else UNARY_NEG, 0, line)
            elif op[n] == UN_NOT:
                emit_truth(out, ct, line)
                emit(out, UNARY_NOT, 0, line)
            elif op[n] == UN_INVERT:
                emit(out, O.UNARY_INVERT, 0, line)
            elif ct == T_BOOL:  # +True is 1
                emit(out, LOAD_INT, 0, line)
                emit(out, BINARY_ADD, 0, line)
        elif k == N_BINARY:
            lt, rt = type_[c], type_[next_[c]]
            fl = float_op(op[n], lt, rt) and not is_list(type_[n])
            if st < 2:
                push = c if st == 0 else next_[c]
                if fl:  # both operands in source order, each converted to float after it
                    if st == 1:
                        emit_convert(out, T_FLOAT, type_[c], line)
                elif (op[n] == BIN_ADD or op[n] == BIN_MUL) and _literal(tree, c):
                    push = next_[c] if st == 0 else c  # k + x as x + k (k * xs as xs * k)
            elif is_list(type_[n]):
                if op[n] == BIN_ADD:
                    emit(out, O.LIST_CONCAT, 0, line)
                else:
                    if is_list(rt) and not _literal(tree, c):  # n * xs: pushed n, xs
                        emit(out, ROT_TWO, 0, line)
                    emit(out, O.LIST_REPEAT, 0, line)
            elif fl:
                emit_convert(out, T_FLOAT, type_[next_[c]], line)
                emit(out, FLOAT_OPCODES[op[n]], 0, line)
            else:
                emit(out, BIN_OPCODES[op[n]], 0, line)
        elif k == N_LIST:  # elements, then NEW_LIST n (list[float]: ints converted)
            if st > 0:
                emit_convert(out, element_type(type_[n]), type_[stk[top, S_A]], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push == -1:
                emit(out, O.NEW_LIST, st, line)
                cg[CG_DEPTH] -= st
            else:
                stk[top, S_A] = push
        elif k == N_SUBSCRIPT:
            if st < 2:
                push = c if st == 0 else next_[c]
            else:
                emit(out, O.LIST_GET, 0, line)
        elif k == N_SLICE:  # obj, then start, stop, step (LOAD_INT 0 for absent ones)
            if st == 0:
                stk[top, S_A] = c
                push = c
            elif st <= 3:
                if (op[n] >> (st - 1)) & 1:
                    push = next_[stk[top, S_A]]
                    stk[top, S_A] = push
                else:
                    emit(out, LOAD_INT, 0, line)
                    push = -2  # stay on this node
            else:
                emit(out, O.LIST_SLICE, op[n], line)
        elif k == N_METHOD:  # obj, args; append / sort push nothing (statements only)
            if st > 1:  # append's argument goes into the list: converted to its element type
                emit_convert(out, element_type(type_[c]), type_[stk[top, S_A]], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push != -1:
                stk[top, S_A] = push
            elif op[n] - 1 == M_APPEND:
                emit(out, O.LIST_APPEND, 0, line)
            else:
                emit(out, O.LIST_SORT, float_flag(type_[c]), line)
        elif k == N_IFEXP:  # children: body, cond, orelse
            if st == 0:
                push = next_[c]
            elif st == 1:
                emit_truth(out, type_[next_[c]], line)
                stk[top, S_A] = emit(out, JUMP_IF_FALSE, -1, line)
                push = c
            elif st == 2:
                emit_convert(out, type_[n], type_[c], line)
                stk[top, S_B] = emit(out, JUMP, -1, line)
                patch(out, stk[top, S_A])
                cg[CG_DEPTH] -= 1  # the else-branch starts without the body's value
                push = next_[next_[c]]
            else:
                emit_convert(out, type_[n], type_[next_[next_[c]]], line)
                patch(out, stk[top, S_B])
        elif k == N_BOOLOP:
            # operands of different types (a truth-only use): each as its truth value; two
            # floats: a DUP_TOP'd truth test, as the _OR_POP jumps test ints
            lt, rt = type_[c], type_[next_[c]]
            if st == 0:
                push = c
            elif st == 1:
                if lt == rt and needs_truth(lt):
                    emit(out, DUP_TOP, 0, line)
                    emit_truth(out, lt, line)
                    jop = JUMP_IF_FALSE if op[n] == BOOL_AND else JUMP_IF_TRUE
                    stk[top, S_A] = emit(out, jop, -1, line)
                    emit(out, POP_TOP, 0, line)
                else:
                    if lt != rt:
                        emit_truth(out, lt, line)
                    jop = JUMP_IF_FALSE_OR_POP if op[n] == BOOL_AND else JUMP_IF_TRUE_OR_POP
                    stk[top, S_A] = emit(out, jop, -1, line)
                    cg[CG_DEPTH] -= 1  # popped when falling through (kept when jumping)
                push = next_[c]
            else:
                if lt != rt:
                    emit_truth(out, rt, line)
                patch(out, stk[top, S_A])
        elif k == N_COMPARE:
            # a < b < c like CPython: a; b; DUP_TOP; ROT_THREE; COMPARE; JUMP_IF_FALSE_OR_POP
            # cleanup; c; COMPARE; JUMP end; cleanup: ROT_TWO; POP_TOP; end:
            # `k < x` with a literal k (no chain) is emitted as `x > k`
            swap = next_[next_[c]] == -1 and _literal(tree, c) and op[next_[c]] < CMP_IN
            swap = swap and not _literal(tree, first[next_[c]])
            if st == 0:
                stk[top, S_A] = next_[c]  # current link
                stk[top, S_B] = -1  # cleanup chain
                stk[top, S_C] = c  # the current link's left operand
                push = first[next_[c]] if swap else c
            elif st == 1:
                push = c if swap else first[stk[top, S_A]]
            elif swap:
                emit_compare(out, MIRRORED[op[next_[c]]], type_[next_[c]], type_[c], line)
            else:
                link = stk[top, S_A]
                lt = type_[stk[top, S_C]]
                if next_[link] != -1:
                    emit(out, DUP_TOP, 0, line)
                    emit(out, ROT_THREE, 0, line)
                    emit_compare(out, op[link], lt, type_[link], line)
                    stk[top, S_B] = emit(out, JUMP_IF_FALSE_OR_POP, stk[top, S_B], line)
                    cg[CG_DEPTH] -= 1
                    stk[top, S_A] = next_[link]
                    stk[top, S_C] = first[link]
                    push = first[next_[link]]
                    stk[top, S_STATE] = 2
                else:
                    emit_compare(out, op[link], lt, type_[link], line)
                    if stk[top, S_B] != -1:
                        end = emit(out, JUMP, -1, line)
                        patch(out, stk[top, S_B])
                        cg[CG_DEPTH] += 1  # the cleanup path holds (b, result)
                        emit(out, ROT_TWO, 0, line)
                        emit(out, POP_TOP, 0, line)
                        patch(out, end)
        elif k == N_CALL:  # after argument i = st - 1 (node S_A): convert it / apply the builtin
            if st > 0:
                a = stk[top, S_A]
                if op[n] == 0:
                    emit_convert(out, fn[slot[n], F_PTYPE + st - 1], type_[a], line)
                else:
                    emit_builtin_arg(out, op[n] - 1, st - 1, type_[a], type_[n], line)
            push = c if st == 0 else next_[stk[top, S_A]]
            if push == -1 and op[n] == 0:
                f = slot[n]
                emit(out, CALL, f, line)
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
def emit_branch(root, when, chain, toks, tree, types, out, scratch, sp0, err):
    """Emit code that jumps when the truth of `root` is `when` (0 / 1) and falls through
    otherwise; `and` / `or` / `not` become jumps.  The jumps go to a label not placed yet:
    they are added to the placeholder chain `chain`; returns its new head.

    Frames on the walk stack above sp0: S_A = when, S_B = the frame whose local chain (S_C)
    a jump joins (-1: `chain`), S_C = this node's local chain (jumps to just after it)."""
    kind, op, tok, first, next_ = tree.kind, tree.op, tree.tok, tree.first, tree.next
    stk = scratch.walk
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
                patch(out, stk[top, S_C])
        else:
            emit_expr(n, toks, tree, types, out, scratch, sp, err)
            jop = JUMP_IF_TRUE if w == 1 else JUMP_IF_FALSE
            line = toks.line[tok[n]]
            emit_truth(out, types.type[n], line)
            if owner < 0:
                chain = emit(out, jop, chain, line)
            else:
                stk[owner, S_C] = emit(out, jop, stk[owner, S_C], line)
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
def _literal(tree, n):
    """An int or bool literal, or a negated int literal (codegen folds it)."""
    kind = tree.kind
    if kind[n] == N_UNARY and tree.op[n] == UN_NEG:
        n = tree.first[n]
        return kind[n] == N_INT
    return kind[n] == N_INT or kind[n] == N_BOOL
