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

from gpucc.compiler.arrays import ERR_CODE
from gpucc.compiler.codegen_branch import emit_branch
from gpucc.compiler.codegen_expr import emit_expr
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
from gpucc.compiler.scope import F_ENTRY, F_IMPORT, F_MAX_STACK, F_NODE, last_child
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE, is_const_true, node_fail
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
def _tested_at_bottom(tree, n):
    """A loop tested at the bottom: `for` and every `while` but `while True`."""
    k = tree.kind[n]
    return k == N_FOR_RANGE or k == N_FOR_LIST or (k == N_WHILE and not is_const_true(tree, tree.first[n]))


@register_jitable
def _loop_chain(tree, stk, j, is_break):
    """The chain of jumps waiting for loop frame j's exit (break: S_B) or test (continue in
    a loop tested at the bottom: S_C); -1 for a continue that jumps back to the top."""
    if is_break:
        return stk[j, S_B]
    if _tested_at_bottom(tree, stk[j, S_NODE]):
        return stk[j, S_C]
    return -1


@register_jitable
def _join_loop(tree, out, stk, j, is_break, chain):
    """Give a chain that grew from _loop_chain's back to loop frame j."""
    if is_break:
        stk[j, S_B] = chain
    elif _tested_at_bottom(tree, stk[j, S_NODE]):
        stk[j, S_C] = chain
    else:  # the loop top is above: point the jumps at it now
        patch_to(out, chain, stk[j, S_A] - out.cg[CG_ENTRY])


@register_jitable
def _loop_frame(tree, stk, top):
    """The walk-stack row of the loop around the statement at row top (-1: none)."""
    kind = tree.kind
    j = top - 1
    while j >= 0 and kind[stk[j, S_NODE]] != N_WHILE and kind[stk[j, S_NODE]] != N_FOR_RANGE and (
            kind[stk[j, S_NODE]] != N_FOR_LIST):  # fmt: skip
        j -= 1
    return j


@register_jitable
def emit_function(f, toks, tree, types, out, scratch, err):
    """Emit one function's body.  Loop frames keep the loop top (S_A, a pc) and the chain
    of jumps to its exit (S_B); if frames keep their pending jumps in S_A / S_B."""
    tok, tok_line = tree.tok, toks.line
    kind, op, first, next_, val = tree.kind, tree.op, tree.first, tree.next, tree.val
    type_, slot, fn, cg, stk = types.type, types.slot, types.fn, out.cg, scratch.walk
    body = last_child(tree, fn[f, F_NODE])
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
                        j = _loop_frame(tree, stk, top)
                if j >= 0:
                    chain = _loop_chain(tree, stk, j, kind[jump] == N_BREAK)
                    chain = emit_branch(c, 1, chain, toks, tree, types, out, scratch, sp, err)
                    _join_loop(tree, out, stk, j, kind[jump] == N_BREAK, chain)
                else:  # S_A: jumps to the else branch
                    stk[top, S_A] = emit_branch(c, 0, -1, toks, tree, types, out, scratch, sp, err)
                    push = next_[c]
            elif st == 1:
                els = next_[next_[c]]
                stk[top, S_B] = -1
                if els != -1 and type_[next_[c]] != 0:
                    stk[top, S_B] = emit(out, JUMP, -1, line)
                patch(out, stk[top, S_A])
                push = els
            else:
                patch(out, stk[top, S_B])
        elif k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST:
            if st == 0:
                if k == N_FOR_LIST:  # hidden slots h, h+1 = the list, the index
                    h = val[n]
                    emit_expr(c, toks, tree, types, out, scratch, sp, err)
                    emit(out, STORE_VAR, h, line)
                    emit(out, LOAD_INT, 0, line)
                    emit(out, STORE_VAR, h + 1, line)
                    c = next_[c]
                    stk[top, S_B] = -1
                    stk[top, S_C] = emit(out, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    cg[CG_DEPTH] += 1  # the test jumps to the top with the element pushed
                    emit(out, STORE_VAR, slot[n], line)
                elif k == N_FOR_RANGE:  # hidden slots h, h+1, h+2 = start, stop, step
                    h = val[n]
                    nargs = op[n]
                    step = -1
                    for a in range(3):  # start, stop, step (range(n): 0, n, 1)
                        if (a == 0 and nargs == 1) or (a == 2 and nargs < 3):
                            emit(out, LOAD_INT, a // 2, line)
                        else:
                            emit_expr(c, toks, tree, types, out, scratch, sp, err)
                            step = c
                            c = next_[c]
                        emit(out, STORE_VAR, h + a, line)
                    if nargs == 3 and not _nonzero_literal(tree, step):
                        emit(out, RANGE_CHECK, h, line)
                    stk[top, S_B] = -1
                    stk[top, S_C] = emit(out, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    cg[CG_DEPTH] += 1  # the test jumps to the top with the value pushed
                    emit(out, STORE_VAR, slot[n], line)
                else:  # S_A: the loop top, S_B: break chain, S_C: jumps to the test
                    stk[top, S_B] = -1
                    stk[top, S_C] = -1
                    if _tested_at_bottom(tree, n):
                        stk[top, S_C] = emit(out, JUMP, -1, line)
                    stk[top, S_A] = cg[CG_PC]
                    c = next_[c]
                push = c
            else:
                loop_top = stk[top, S_A] - cg[CG_ENTRY]
                if k == N_FOR_LIST:  # FOR_LIST; JUMP exit; JUMP top
                    patch(out, stk[top, S_C])
                    emit(out, O.FOR_LIST, val[n], line)
                    cg[CG_DEPTH] -= 1
                    stk[top, S_B] = emit(out, JUMP, stk[top, S_B], line)
                    cg[CG_DEPTH] += 1
                    emit(out, JUMP, loop_top, line)
                    cg[CG_DEPTH] -= 1
                elif k == N_FOR_RANGE:
                    patch(out, stk[top, S_C])
                    if loop_top <= 0xFFFF:
                        emit(out, FOR_LOOP, pack_fields(loop_top, val[n]), line)
                    else:  # too far for FOR_LOOP's operand: FOR_RANGE; JUMP exit; JUMP top
                        emit(out, FOR_RANGE, val[n], line)
                        cg[CG_DEPTH] -= 1
                        stk[top, S_B] = emit(out, JUMP, stk[top, S_B], line)
                        cg[CG_DEPTH] += 1
                        emit(out, JUMP, loop_top, line)
                    cg[CG_DEPTH] -= 1  # falls through with nothing pushed
                elif _tested_at_bottom(tree, n):
                    patch(out, stk[top, S_C])
                    chain = emit_branch(c, 1, -1, toks, tree, types, out, scratch, sp, err)
                    patch_to(out, chain, loop_top)
                elif type_[last_child(tree, n)] != 0:
                    emit(out, JUMP, loop_top, line)
                patch(out, stk[top, S_B])
        elif k == N_BREAK or k == N_CONTINUE:
            j = _loop_frame(tree, stk, top)
            chain = _loop_chain(tree, stk, j, k == N_BREAK)
            chain = emit(out, JUMP, chain, line)
            _join_loop(tree, out, stk, j, k == N_BREAK, chain)
        elif k == N_ASSERT and kind[c] == N_COMPARE and next_[next_[first[c]]] == -1 and op[next_[first[c]]] < CMP_IN:
            link = next_[first[c]]
            for x in (first[c], first[link]):
                emit_expr(x, toks, tree, types, out, scratch, sp, err)
            lt, rt = concrete_list(type_[first[c]], type_[link]), concrete_list(type_[link], type_[first[c]])
            emit(out, ASSERT_CMP, typed_cmp(op[link], lt, rt), line)
        elif k == N_SETITEM:  # Python's order.  xs[i] = v: v, xs, i, LIST_SET;
            sub = c  # xs[i] op= v: xs, i, LIST_GET, v, op, xs, i, LIST_SET (xs and i are pure)
            v = next_[sub]
            if op[n] >= 0:
                emit_expr(sub, toks, tree, types, out, scratch, sp, err)
            emit_expr(v, toks, tree, types, out, scratch, sp, err)
            if op[n] >= 0:
                fl = float_op(op[n], val[n], type_[v])
                if fl:
                    emit_convert(out, T_FLOAT, type_[v], line)
                emit(out, FLOAT_OPCODES[op[n]] if fl else BIN_OPCODES[op[n]], 0, line)
            else:
                emit_convert(out, val[n], type_[v], line)
            for x in (first[sub], next_[first[sub]]):
                emit_expr(x, toks, tree, types, out, scratch, sp, err)
            emit(out, O.LIST_SET, 0, line)
        elif k == N_ASSIGN or k == N_AUGASSIGN or k == N_EXPR_STMT or k == N_ASSERT or k == N_RETURN:
            if k == N_AUGASSIGN:
                emit(out, LOAD_VAR, slot[n], line)
            if c != -1:
                emit_expr(c, toks, tree, types, out, scratch, sp, err)
                if k == N_ASSIGN or k == N_RETURN or k == N_AUGASSIGN:  # val: the target's type
                    emit_convert(out, val[n], type_[c], line)
                elif k == N_ASSERT:
                    emit_truth(out, type_[c], line)
            elif k == N_RETURN:
                emit(out, LOAD_INT, 0, line)
            if k == N_AUGASSIGN:
                fl = float_op(op[n], val[n], type_[c])
                emit(out, FLOAT_OPCODES[op[n]] if fl else BIN_OPCODES[op[n]], 0, line)
            if k == N_ASSIGN or k == N_AUGASSIGN:
                emit(out, STORE_VAR, slot[n], line)
            elif k == N_EXPR_STMT:
                if kind[c] != N_METHOD:  # list methods push nothing
                    emit(out, POP_TOP, 0, line)
            elif k == N_ASSERT:
                emit(out, ASSERT_TRUE, 0, line)
            else:
                emit(out, RETURN, 0, line)
        # PASS, DOCSTRING, ELLIPSIS: nothing
        if push == -1:
            sp -= 1
        else:
            stk[sp, S_NODE] = push
            stk[sp, S_STATE] = 0
            sp += 1
    if type_[body] != 0:  # a `-> None` function falling off its end
        emit(out, LOAD_INT, 0, tok_line[tok[fn[f, F_NODE]]])
        emit(out, RETURN, 0, tok_line[tok[fn[f, F_NODE]]])


@register_jitable
def _nonzero_literal(tree, n):
    """A range() step known not to be zero (no RANGE_CHECK needed)."""
    kind = tree.kind
    if kind[n] == N_UNARY and tree.op[n] != UN_NOT:
        n = tree.first[n]
    return (kind[n] == N_INT or kind[n] == N_BOOL) and tree.val[n] != 0


@register_jitable
def codegen(toks, tree, types, nf, out, scratch, err):
    """Emit every function of a checked unit into out (Output: code int32[cap, 2], lines
    int32[cap], consts int64[<= MAX_CONSTS], cg int64[CG_WIDTH]); scratch.walk has the type
    checker's rows.  Returns the number of instructions (constants: cg[CG_NCONST]), or -1
    with err set."""
    code, cg, fn, stk = out.code, out.cg, types.fn, scratch.walk
    for i in range(CG_WIDTH):
        cg[i] = 0
    for f in range(nf):
        cg[CG_ENTRY] = cg[CG_PC]
        cg[CG_DEPTH] = 0
        cg[CG_MAXD] = 0
        fn[f, F_ENTRY] = cg[CG_PC]
        if fn[f, F_IMPORT] == 0:
            emit_function(f, toks, tree, types, out, scratch, err)
        if fn[f, F_IMPORT] == 0 and err[ERR_CODE] == 0 and cg[CG_PC] <= code.shape[0]:
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
