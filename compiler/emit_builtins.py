"""The code of builtin calls (compiler/codegen_expr.py's CALL of a builtin): what each argument
needs once pushed (its instruction by its class, conversions, truth, folds of min / max), the
end of the call, and the builtins written as instruction sequences (reversed, round)."""

from __future__ import annotations

from gpucc.compiler.emit import (
    CG_DEPTH,
    element_kind,
    emit,
    emit_arith,
    emit_convert,
    emit_truth,
    emit_typed,
    is_flat_list,
    patch,
)
from gpucc.compiler.emit_tables import (
    BUILTIN_OPCODES,
    FOLD_OPCODES,
    ON_FLOAT,
    ON_LIST,
    ON_NUMBER,
    ON_STR,
    VALUE_OF_LIST_OP,
)
from gpucc.compiler.nodes import BIN_POW
from gpucc.compiler.scope import B_BIN, B_BOOL, B_LEN, B_MAX, B_MIN, B_OCT, B_POW, B_PRINT, B_REVERSED, B_ROUND
from gpucc.compiler.typerules import LIST_STR, element_type, is_dict, is_list, is_number, is_set, is_tuple
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    ARG_IMM,
    BINARY_ADD,
    DUP_TOP,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_TRUE,
    LOAD_INT,
    OPERAND_KIND,
    POP_TOP,
    ROT_THREE,
    ROT_TWO,
)
from gpucc.contract.jitable import nrt_free, type_list_of, typed_cmp
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR


@nrt_free
def value_class(t):
    """The column (ON_*) of BUILTIN_OPCODES for an argument of type t (a tuple's: a list's)."""
    if is_list(t) or is_tuple(t):
        return ON_LIST
    if t == T_STR:
        return ON_STR
    return ON_FLOAT if t == T_FLOAT else ON_NUMBER


@nrt_free
def builtin_operand(opc, t, result, radix):
    """The operand of builtin instruction opc on an argument of type t: str(x) takes x's
    type, int(s) / float(s) the result's, bin / oct / hex the radix, a list instruction's IMM the element kind."""
    if opc == O.STR_FROM:
        return t
    if opc == O.STR_TO_NUM:
        return result
    if opc == O.STR_RADIX:
        return radix
    return element_kind(t) if OPERAND_KIND[opc] == ARG_IMM else 0


@nrt_free
def emit_builtin_arg(out, b, i, several, t, result, line, err):
    """What a call of builtin b (scope.B_*) does once its argument i (of type t) is pushed;
    several: it has more than one (min / max of them); result: the call's type."""
    if (is_dict(t) or is_set(t)) and b != B_BOOL:  # len; the builtins of a list: of the keys / elements
        emit(out, O.COLL_LEN if b == B_LEN else O.DICT_LIST, 0 if b == B_LEN or is_dict(t) else 3, line)
        if b == B_LEN:
            return
        t = type_list_of(element_type(t))
    if b == B_REVERSED:
        emit_reversed(out, line)
        return
    if b == B_PRINT:  # evaluated, the output dropped
        emit(out, POP_TOP, 0, line)
        return
    if b == B_ROUND:  # round(x): to an int; round(x, n): FLOAT_ROUND after n
        if t == T_FLOAT and not several:
            emit_round(out, line)
        elif i == 1:
            emit(out, O.FLOAT_ROUND, 0, line)
        return
    if b == B_POW:  # a ** b, the first operand converted as it is pushed
        if i == 0:
            emit_convert(out, result, t, line)
        else:
            emit_arith(out, BIN_POW, result, t, line)
        return
    if b == B_BOOL:  # the truth value (a float's is a bool already, a list's or str's is its length)
        emit_truth(out, t, line)
        if t != T_BOOL and t != T_FLOAT:
            emit(out, O.INT_TRUTH, 0, line)
        return
    opc = -1 if several else BUILTIN_OPCODES[b, value_class(t)]
    fold = FOLD_OPCODES[b, 1 if result == T_FLOAT else 0]
    if opc >= 0 and VALUE_OF_LIST_OP[opc] >= 0 and not is_flat_list(t):
        emit_typed(out, VALUE_OF_LIST_OP[opc], known(t >> 4), line, err)
    elif opc >= 0:
        emit(out, opc, builtin_operand(opc, t, result, 2 if b == B_BIN else (8 if b == B_OCT else 16)), line)
    elif i > 0 and fold >= 0 and is_number(result):  # min / max fold left to right, as Python compares
        emit(out, fold, 0, line)


@nrt_free
def emit_reversed(out, line):
    """reversed(xs) of a list or str on top, as what its loop iterates: the copy xs[::-1]."""
    emit(out, LOAD_INT, 0, line)
    emit(out, LOAD_INT, 0, line)
    emit(out, LOAD_INT, -1, line)
    emit(out, O.LIST_SLICE, 4, line)


@nrt_free
def emit_round(out, line):
    """round(x) of the float x on top, as CPython: the nearest int, a tie to the even one
    (ValueError for nan, OverflowError for inf and past int64).  With f = floor(x) and
    d = x - f (exact), 2d against 1 decides: f + 1 above, f + (f & 1) at a tie, else f."""
    emit(out, DUP_TOP, 0, line)  # x x: int(x) raises what round(x) raises
    emit(out, O.FLOAT_TO_INT, 0, line)
    emit(out, POP_TOP, 0, line)
    emit(out, DUP_TOP, 0, line)  # x x
    emit(out, LOAD_INT, 1, line)
    emit(out, O.INT_TO_FLOAT, 0, line)
    emit(out, O.FLOAT_FLOORDIV, 0, line)  # x f
    emit(out, DUP_TOP, 0, line)
    emit(out, ROT_THREE, 0, line)  # f x f
    emit(out, O.FLOAT_SUB, 0, line)  # f d
    emit(out, DUP_TOP, 0, line)
    emit(out, O.FLOAT_ADD, 0, line)  # f 2d
    emit(out, ROT_TWO, 0, line)
    emit(out, O.FLOAT_TO_INT, 0, line)
    emit(out, ROT_TWO, 0, line)  # r 2d, r = int(f)
    emit(out, DUP_TOP, 0, line)
    emit(out, LOAD_INT, 1, line)
    emit(out, O.COMPARE_NUM, typed_cmp(O.CMP_GT, T_FLOAT, T_INT), line)
    up = emit(out, JUMP_IF_TRUE, -1, line)  # r 2d
    emit(out, LOAD_INT, 1, line)
    emit(out, O.COMPARE_NUM, typed_cmp(O.CMP_EQ, T_FLOAT, T_INT), line)
    done = emit(out, JUMP_IF_FALSE, -1, line)  # r: below the tie
    emit(out, DUP_TOP, 0, line)
    emit(out, LOAD_INT, 1, line)
    emit(out, O.BINARY_AND, 0, line)
    emit(out, BINARY_ADD, 0, line)  # the tie: r + (r & 1)
    done = emit(out, JUMP, done, line)
    patch(out, up)
    out.cg[CG_DEPTH] += 1  # r 2d, as JUMP_IF_TRUE left it
    emit(out, POP_TOP, 0, line)
    emit(out, LOAD_INT, 1, line)
    emit(out, BINARY_ADD, 0, line)  # above the tie: r + 1
    patch(out, done)


@nrt_free
def emit_builtin_end(out, b, nargs, result, line, err):
    """What a call of builtin b with nargs arguments does after the last: min / max of
    values other than numbers is the min / max of the list of them; print's value is None."""
    if b == B_PRINT:
        emit(out, LOAD_INT, 0, line)
    if (b == B_MIN or b == B_MAX) and not is_number(result) and nargs > 1:
        emit(out, O.NEW_LIST, nargs, line)
        out.cg[CG_DEPTH] -= nargs
        opc = O.LIST_MIN if b == B_MIN else O.LIST_MAX
        if result == T_STR:
            emit(out, opc, element_kind(LIST_STR), line)
        else:
            emit_typed(out, VALUE_OF_LIST_OP[opc], known(result), line, err)
