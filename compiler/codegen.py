"""Code generator: checked AST -> VM instructions of one unit (phase 4), statements.

`codegen` is a kernel body (numba subset, no recursion: explicit stacks).  It reads the AST
with the type checker's annotations (see compiler/typecheck.py) and emits (opcode, operand)
pairs from vm/opcodes.py, a source line per instruction, the unit's constant pool and per
function its entry (relative to the unit's first instruction) and max operand-stack depth.
Expressions and conditions are in compiler/codegen_expr.py, the emitter and its jump
chains in compiler/emit.py.

Functions are laid out in function-table order; import stubs have no code.  Jump operands
are relative to the function's entry.  Statements after one that cannot continue are not
emitted.  `if` / `while` conditions are branches (emit_branch); loops test at the bottom,
one jump per iteration (`JUMP test; top: body; test: cond; JUMP_IF_TRUE top`; a `for`
loop's test is FOR_LOOP, which pushes the next value and jumps to the top, where STORE_VAR
takes it); `if c: break` / `continue` (no else) is one conditional jump.  Each function's
code then goes through the peephole pass (compiler/peephole.py), which fuses
superinstructions without changing results or costs.
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler.codegen_expr import emit_branch, emit_expr
from gpucc.compiler.emit import (
    BIN_OPCODES,
    CG_DEPTH,
    CG_ENTRY,
    CG_MAXD,
    CG_NCONST,
    CG_PC,
    CG_WIDTH,
    FLOAT_OPCODES,
    emit,
    emit_convert,
    emit_truth,
    float_op,
    patch,
    patch_to,
)  # fmt: skip
from gpucc.compiler.errors import E_PROGRAM_TOO_LARGE
from gpucc.compiler.nodes import (
    CMP_IN,
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BOOL,
    N_BREAK,
    N_COMPARE,
    N_CONTINUE,
    N_EXPR_STMT,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_INT,
    N_METHOD,
    N_RETURN,
    N_SETITEM,
    N_UNARY,
    N_WHILE,
    UN_NOT,
)
from gpucc.compiler.peephole import optimize
from gpucc.compiler.scope import F_ENTRY, F_IMPORT, F_MAX_STACK, F_NODE, fail, last_child
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE, is_const_true
from gpucc.compiler.typerules import T_EMPTY_LIST
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    ASSERT_CMP,
    ASSERT_TRUE,
    FOR_LOOP,
    FOR_RANGE,
    JUMP,
    LOAD_INT,
    LOAD_VAR,
    POP_TOP,
    RANGE_CHECK,
    RETURN,
    STORE_VAR,
)
from gpucc.contract.jitable import pack_fields, typed_cmp
from gpucc.contract.valuetypes import T_FLOAT, T_LIST_INT

__all__ = ["CG_NCONST", "CG_PC", "CG_WIDTH", "codegen"]






@register_jitable
def concrete_list(t, other):
    """t, or for `[]` the other operand's list type (list[int] if both are `[]`)."""
    if t != T_EMPTY_LIST:
        return t
    return other if other != T_EMPTY_LIST else T_LIST_INT


@register_jitable
def _tested_at_bottom(kind, val, first, n):
    """A loop tested at the bottom: `for` and every `while` but `while True`."""
    k = kind[n]
    return k == N_FOR_RANGE or k == N_FOR_LIST or (k == N_WHILE and not is_const_true(kind, val, first[n]))


@register_jitable
def _loop_chain(kind, val, first, stk, j, is_break):
    """The chain of jumps waiting for loop frame j's exit (break: S_B) or test (continue in
    a loop tested at the bottom: S_C); -1 for a continue that jumps back to the top."""
    if is_break:
        return stk[j, S_B]
    if _tested_at_bottom(kind, val, first, stk[j, S_NODE]):
        return stk[j, S_C]
    return -1


@register_jitable
def _join_loop(kind, val, first, code, cg, stk, j, is_break, chain):
    """Give a chain that grew from _loop_chain's back to loop frame j."""
    if is_break:
        stk[j, S_B] = chain
    elif _tested_at_bottom(kind, val, first, stk[j, S_NODE]):
        stk[j, S_C] = chain
    else:  # the loop top is above: point the jumps at it now
        patch_to(code, chain, stk[j, S_A] - cg[CG_ENTRY])


@register_jitable
def _loop_frame(kind, stk, top):
    j = top - 1
    while j >= 0 and kind[stk[j, S_NODE]] != N_WHILE and kind[stk[j, S_NODE]] != N_FOR_RANGE and (
            kind[stk[j, S_NODE]] != N_FOR_LIST):  # fmt: skip
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
                jump = first[next_[c]]  # `if c: break` / `if c: continue`: one conditional jump
                j = -1
                if next_[next_[c]] == -1 and jump != -1 and next_[jump] == -1:
                    if kind[jump] == N_BREAK or kind[jump] == N_CONTINUE:
                        j = _loop_frame(kind, stk, top)
                if j >= 0:
                    chain = _loop_chain(kind, val, first, stk, j, kind[jump] == N_BREAK)
                    chain = emit_branch(c, 1, chain, tok_start, tok_end, tok_line, kind, op, tok, first, next_,
                                        val, type_, slot, fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                    _join_loop(kind, val, first, code, cg, stk, j, kind[jump] == N_BREAK, chain)
                else:  # S_A: jumps to the else branch
                    stk[top, S_A] = emit_branch(c, 0, -1, tok_start, tok_end, tok_line, kind, op, tok, first,
                                                next_, val, type_, slot, fn, code, lines, consts, cg, stk, sp,
                                                err)  # fmt: skip
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
        elif k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST:
            if st == 0:
                if k == N_FOR_LIST:  # hidden slots h, h+1 = the list, the index
                    h = val[n]
                    emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_,
                              slot, fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                    emit(code, lines, cg, STORE_VAR, h, line)
                    emit(code, lines, cg, LOAD_INT, 0, line)
                    emit(code, lines, cg, STORE_VAR, h + 1, line)
                    c = next_[c]
                    stk[top, S_B] = -1
                    stk[top, S_C] = emit(code, lines, cg, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    cg[CG_DEPTH] += 1  # the test jumps to the top with the element pushed
                    emit(code, lines, cg, STORE_VAR, slot[n], line)
                elif k == N_FOR_RANGE:  # hidden slots h, h+1, h+2 = start, stop, step
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
                    stk[top, S_B] = -1
                    stk[top, S_C] = emit(code, lines, cg, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    cg[CG_DEPTH] += 1  # the test jumps to the top with the value pushed
                    emit(code, lines, cg, STORE_VAR, slot[n], line)
                else:  # S_A: the loop top, S_B: break chain, S_C: jumps to the test
                    stk[top, S_B] = -1
                    stk[top, S_C] = -1
                    if _tested_at_bottom(kind, val, first, n):
                        stk[top, S_C] = emit(code, lines, cg, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    c = next_[c]
                push = c
            else:
                loop_top = stk[top, S_A] - cg[CG_ENTRY]
                if k == N_FOR_LIST:  # FOR_LIST; JUMP exit; JUMP top
                    patch(code, cg, stk[top, S_C])
                    emit(code, lines, cg, O.FOR_LIST, val[n], line)
                    cg[CG_DEPTH] -= 1
                    stk[top, S_B] = emit(code, lines, cg, JUMP, stk[top, S_B], line)
                    cg[CG_DEPTH] += 1
                    emit(code, lines, cg, JUMP, loop_top, line)
                    cg[CG_DEPTH] -= 1
                elif k == N_FOR_RANGE:
                    patch(code, cg, stk[top, S_C])
                    if loop_top <= 0xFFFF:
                        emit(code, lines, cg, FOR_LOOP, pack_fields(loop_top, val[n]), line)
                    else:  # too far for FOR_LOOP's operand: FOR_RANGE; JUMP exit; JUMP top
                        emit(code, lines, cg, FOR_RANGE, val[n], line)
                        cg[CG_DEPTH] -= 1
                        stk[top, S_B] = emit(code, lines, cg, JUMP, stk[top, S_B], line)
                        cg[CG_DEPTH] += 1
                        emit(code, lines, cg, JUMP, loop_top, line)
                    cg[CG_DEPTH] -= 1  # falls through with nothing pushed
                elif _tested_at_bottom(kind, val, first, n):
                    patch(code, cg, stk[top, S_C])
                    chain = emit_branch(c, 1, -1, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val,
                                        type_, slot, fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                    patch_to(code, chain, loop_top)
                elif type_[last_child(first, next_, n)] != 0:
                    emit(code, lines, cg, JUMP, loop_top, line)
                patch(code, cg, stk[top, S_B])
        elif k == N_BREAK or k == N_CONTINUE:
            j = _loop_frame(kind, stk, top)
            chain = _loop_chain(kind, val, first, stk, j, k == N_BREAK)
            chain = emit(code, lines, cg, JUMP, chain, line)
            _join_loop(kind, val, first, code, cg, stk, j, k == N_BREAK, chain)
        elif k == N_ASSERT and kind[c] == N_COMPARE and next_[next_[first[c]]] == -1 and op[next_[first[c]]] < CMP_IN:
            link = next_[first[c]]
            for x in (first[c], first[link]):
                emit_expr(x, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            lt, rt = concrete_list(type_[first[c]], type_[link]), concrete_list(type_[link], type_[first[c]])
            emit(code, lines, cg, ASSERT_CMP, typed_cmp(op[link], lt, rt), line)
        elif k == N_SETITEM:  # Python's order.  xs[i] = v: v, xs, i, LIST_SET;
            sub = c  # xs[i] op= v: xs, i, LIST_GET, v, op, xs, i, LIST_SET (xs and i are pure)
            v = next_[sub]
            if op[n] >= 0:
                emit_expr(sub, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            emit_expr(v, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                      fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            if op[n] >= 0:
                fl = float_op(op[n], val[n], type_[v])
                if fl:
                    emit_convert(code, lines, cg, T_FLOAT, type_[v], line)
                emit(code, lines, cg, FLOAT_OPCODES[op[n]] if fl else BIN_OPCODES[op[n]], 0, line)
            else:
                emit_convert(code, lines, cg, val[n], type_[v], line)
            for x in (first[sub], next_[first[sub]]):
                emit_expr(x, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
            emit(code, lines, cg, O.LIST_SET, 0, line)
        elif k == N_ASSIGN or k == N_AUGASSIGN or k == N_EXPR_STMT or k == N_ASSERT or k == N_RETURN:
            if k == N_AUGASSIGN:
                emit(code, lines, cg, LOAD_VAR, slot[n], line)
            if c != -1:
                emit_expr(c, tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot,
                          fn, code, lines, consts, cg, stk, sp, err)  # fmt: skip
                if k == N_ASSIGN or k == N_RETURN or k == N_AUGASSIGN:  # val: the target's type
                    emit_convert(code, lines, cg, val[n], type_[c], line)
                elif k == N_ASSERT:
                    emit_truth(code, lines, cg, type_[c], line)
            elif k == N_RETURN:
                emit(code, lines, cg, LOAD_INT, 0, line)
            if k == N_AUGASSIGN:
                fl = float_op(op[n], val[n], type_[c])
                emit(code, lines, cg, FLOAT_OPCODES[op[n]] if fl else BIN_OPCODES[op[n]], 0, line)
            if k == N_ASSIGN or k == N_AUGASSIGN:
                emit(code, lines, cg, STORE_VAR, slot[n], line)
            elif k == N_EXPR_STMT:
                if kind[c] != N_METHOD:  # list methods push nothing
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
        if fn[f, F_IMPORT] == 0 and err[0] == 0 and cg[CG_PC] <= code.shape[0]:
            n, deepest = optimize(code, lines, cg[CG_ENTRY], cg[CG_PC], fn, stk[:, 0], stk[:, 1], stk[:, 2])
            if deepest >= 0:
                cg[CG_PC] = cg[CG_ENTRY] + n
                cg[CG_MAXD] = deepest
        fn[f, F_MAX_STACK] = cg[CG_MAXD]
        if cg[CG_PC] > code.shape[0]:
            d = fn[f, F_NODE]
            fail(err, E_PROGRAM_TOO_LARGE, tok_start[tok[d]], tok_end[tok[d]], code.shape[0])
        if err[0] != 0:
            return -1
    return cg[CG_PC]
