"""Emission primitives of the code generator (phase 4), shared by compiler.codegen
(statements) and compiler.codegen_expr (expressions): the emitter and its jump chains, and
the instruction choices for conversions, truth tests, comparisons, builtin calls and
integer constants.

Kernel bodies (numba subset).  Instructions go to the Output bundle's `code` / `lines` at
cg[CG_PC] (cg: the codegen state below); emit tracks the operand-stack depth.  Forward jumps
are emitted with a placeholder operand that chains the jumps waiting for the same label (-1
ends a chain) and are patched when the label is reached (patch, patch_to).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_TOO_MANY_CONSTANTS
from gpucc.compiler.limits import MAX_CONSTS
from gpucc.compiler.nodes import BIN_DIV, CMP_IN, CMP_NOT_IN
from gpucc.compiler.scope import B_ABS, B_BOOL, B_FLOAT, B_INT, B_LEN, B_MIN, B_SORTED, B_SUM
from gpucc.compiler.typerules import T_EMPTY_LIST, element_type, is_list
from gpucc.contract import isa as O
from gpucc.contract.isa import LOAD_CONST, LOAD_INT, POPS, PUSHES, UNARY_NOT
from gpucc.contract.jitable import typed_cmp
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_LIST_FLOAT

# stack effects from the opcode table (CALL's variable pops are applied by the caller)
# by nodes.BIN_* code: the int instruction and the float one (-1: none; `/` is always float)
BIN_OPCODES = np.array([O.BINARY_ADD, O.BINARY_SUB, O.BINARY_MUL, O.BINARY_FLOORDIV, O.BINARY_MOD, -1, O.BINARY_POW,
                        O.BINARY_AND, O.BINARY_OR, O.BINARY_XOR, O.BINARY_LSHIFT, O.BINARY_RSHIFT], dtype=np.int32)
FLOAT_OPCODES = np.array([O.FLOAT_ADD, O.FLOAT_SUB, O.FLOAT_MUL, O.FLOAT_FLOORDIV, O.FLOAT_MOD, O.FLOAT_DIV,
                          O.FLOAT_POW, -1, -1, -1, -1, -1], dtype=np.int32)  # fmt: skip
CMP_OPCODES = np.array(O.CMP_OPCODES, dtype=np.int32)
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# codegen state (int64[CG_WIDTH])
CG_PC, CG_ENTRY, CG_DEPTH, CG_MAXD, CG_NCONST = range(5)
CG_WIDTH = 5


@register_jitable
def emit(out, opc, arg, line):
    """Append one instruction (past capacity only counts: codegen then fails) and track
    the operand-stack depth.  Returns its pc."""
    code, cg = out.code, out.cg
    pc = cg[CG_PC]
    if pc < code.shape[0]:
        code[pc, 0] = opc
        code[pc, 1] = arg
        out.lines[pc] = line
    cg[CG_PC] = pc + 1
    d = cg[CG_DEPTH] - POPS[opc] + PUSHES[opc]
    cg[CG_DEPTH] = d
    if d > cg[CG_MAXD]:
        cg[CG_MAXD] = d
    return pc


@register_jitable
def patch_to(out, chain, target):
    """Point every jump of a placeholder chain at `target` (relative to the entry)."""
    code = out.code
    p = chain
    while 0 <= p < code.shape[0]:
        nxt = code[p, 1]
        code[p, 1] = target
        p = nxt


@register_jitable
def patch(out, chain):
    """Point every jump of a placeholder chain at the current pc."""
    patch_to(out, chain, out.cg[CG_PC] - out.cg[CG_ENTRY])


@register_jitable
def emit_convert(out, want, got, line):
    """Convert the value on top (of type got) for a place that wants type want: an int or
    bool where a float is wanted becomes a float."""
    if want == T_FLOAT and got != T_FLOAT:
        emit(out, O.INT_TO_FLOAT, 0, line)


@register_jitable
def emit_truth(out, t, line):
    """Make the value on top (of type t) testable by the truth jumps (nonzero = true):
    a float becomes bool(x) (-0.0 is false), a list its length."""
    if t == T_FLOAT:
        emit(out, O.FLOAT_TRUTH, 0, line)
    elif is_list(t):
        emit(out, O.LIST_LEN, 0, line)


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
def emit_compare(out, cmp, lt, rt, line):
    """Push `a <cmp> b` for a, b of types lt, rt (floats: COMPARE_NUM, exact for int vs float;
    `x in xs`: LIST_CONTAINS; lists: LIST_EQ)."""
    if cmp == CMP_IN or cmp == CMP_NOT_IN:
        emit(out, O.LIST_CONTAINS, typed_cmp(O.CMP_EQ, lt, element_type(rt)), line)
        if cmp == CMP_NOT_IN:
            emit(out, UNARY_NOT, 0, line)
    elif is_list(lt):
        emit(out, O.LIST_EQ, float_flag(lt if lt != T_EMPTY_LIST else rt), line)
        if cmp == O.CMP_NE:
            emit(out, UNARY_NOT, 0, line)
    elif lt == T_FLOAT or rt == T_FLOAT:
        emit(out, O.COMPARE_NUM, typed_cmp(cmp, lt, rt), line)
    else:
        emit(out, CMP_OPCODES[cmp], 0, line)


@register_jitable
def emit_builtin_arg(out, b, i, t, result, line):
    """What a call of builtin b (scope.B_*) does once its argument i (of type t) is pushed."""
    if b == B_LEN:
        emit(out, O.LIST_LEN, 0, line)
    elif b == B_SUM:
        emit(out, O.LIST_SUM, float_flag(t), line)
    elif b == B_SORTED:
        emit(out, O.LIST_SORTED, float_flag(t), line)
    elif b == B_BOOL:
        if is_list(t):
            emit(out, O.LIST_LEN, 0, line)
        if t != T_BOOL:
            emit(out, O.FLOAT_TRUTH if t == T_FLOAT else O.INT_TRUTH, 0, line)
    elif is_list(t):  # min(xs) / max(xs)
        emit(out, O.LIST_MIN if b == B_MIN else O.LIST_MAX, float_flag(t), line)
    elif b == B_ABS:
        emit(out, O.FLOAT_ABS if t == T_FLOAT else O.INT_ABS, 0, line)
    elif b == B_INT:
        if t == T_FLOAT:
            emit(out, O.FLOAT_TO_INT, 0, line)
    elif b == B_FLOAT:
        emit_convert(out, T_FLOAT, t, line)
    elif i > 0:  # min / max fold left to right, as Python compares
        if b == B_MIN:
            emit(out, O.FLOAT_MIN2 if result == T_FLOAT else O.INT_MIN2, 0, line)
        else:
            emit(out, O.FLOAT_MAX2 if result == T_FLOAT else O.INT_MAX2, 0, line)


@register_jitable
def emit_int(out, v, line, err, s, e):
    """Push the int v (an int32 operand, else a constant-pool entry); s, e: its source span."""
    consts, cg = out.consts, out.cg
    if INT32_MIN <= v <= INT32_MAX:
        emit(out, LOAD_INT, v, line)
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
    emit(out, LOAD_CONST, k, line)
