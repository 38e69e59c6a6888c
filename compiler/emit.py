"""Emission primitives of the code generator (phase 4), shared by compiler.codegen
(statements) and compiler.codegen_expr (expressions): the emitter and its jump chains, and
the instruction choices for operators, conversions, truth tests, comparisons, builtin calls,
methods and integer constants, and the str literals' place in the constant pool
(intern_strings: a str constant is its length, then its code points).

Kernel bodies (numba subset).  Instructions go to the Output bundle's `code` / `lines` at
cg[CG_PC] (cg: the codegen state below); emit tracks the operand-stack depth.  Forward jumps
are emitted with a placeholder operand that chains the jumps waiting for the same label (-1
ends a chain) and are patched when the label is reached (patch, patch_to).

The operator -> instruction maps are module-level tables (numba reads global arrays as
constants), built from the instruction names of contract/isa.py; -1 where there is none.
tests/compiler/test_codegen_tables.py checks each against the operators' meanings in the table.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_TOO_MANY_CONSTANTS
from gpucc.compiler.lexer_literals import string_code_points
from gpucc.compiler.limits import MAX_CONSTS
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_DIV,
    BIN_MUL,
    BIN_NAMES,
    BIN_POW,
    BOOL_NAMES,
    CMP_IN,
    CMP_IS,
    CMP_IS_NOT,
    CMP_NOT_IN,
    N_STR,
    UN_NAMES,
    UN_NOT,  # fmt: skip
    UN_POS,
)
from gpucc.compiler.scope import (
    B_BIN,
    B_BOOL,
    B_LEN,
    B_MAX,
    B_MIN,
    B_OCT,
    B_POW,
    B_PRINT,
    B_REVERSED,
    B_ROUND,
    BUILTINS,
    DICT_METHODS,
    LIST_METHODS,
    METHODS,
    N_SUPPORTED_BUILTINS,
    SET_METHODS,
    STR_METHODS,
)  # fmt: skip
from gpucc.compiler.typerules import (
    A_ELEMENT,
    EMPTY_LIST,
    LIST_FLOAT,
    LIST_INT,
    LIST_STR,
    METHOD_ARG,
    METHOD_RULES,
    element_type,
    is_dict,
    is_list,
    is_number,
    is_optional,
    is_set,
    is_sized,
    is_tuple,
    list_view,
)
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    ARG_IMM,
    BINARY_ADD,
    DUP_TOP,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_TRUE,
    LOAD_CONST,
    LOAD_INT,
    OPERAND_KIND,
    POP_TOP,
    POPS,
    PUSHES,
    ROT_THREE,
    ROT_TWO,
    UNARY_NOT,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free, type_is_heap, type_list_of, typed_cmp, typed_values
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_NONE, T_STR


def _opcodes(rows) -> np.ndarray:
    """int32 table of the named instructions' opcodes (None: -1)."""
    return np.array([[-1 if name is None else O.BY_NAME[name].number for name in row] for row in rows], dtype=np.int32)


# binary operators (nodes.BIN_*): their instructions are BINARY_<word> (ints) and FLOAT_<word>
# where the set has them (`/` has no int one, the bit operations no float ones)
_BIN_WORDS = {"+": "ADD", "-": "SUB", "*": "MUL", "//": "FLOORDIV", "%": "MOD", "/": "DIV", "**": "POW",
              "&": "AND", "|": "OR", "^": "XOR", "<<": "LSHIFT", ">>": "RSHIFT"}  # fmt: skip
BIN_OPCODES, FLOAT_OPCODES = _opcodes(
    [[name if name in O.BY_NAME else None for name in (f"{t}_{_BIN_WORDS[b]}" for b in BIN_NAMES)]
     for t in ("BINARY", "FLOAT")])  # fmt: skip
# unary operators (nodes.UN_*) on an int or bool, on a float (`not`: after the truth test)
_UNARY_ROWS = {"-": ("UNARY_NEG", "FLOAT_NEG"), "+": (None, None), "not": ("UNARY_NOT", "UNARY_NOT"),
               "~": ("UNARY_INVERT", None)}  # fmt: skip
UNARY_OPCODES, FLOAT_UNARY_OPCODES = _opcodes(zip(*(_UNARY_ROWS[u] for u in UN_NAMES)))
# comparisons (contract.isa CMP_*) of ints, and the comparison that swaps the operands:
# a c b == b MIRRORED[c] a
CMP_OPCODES = np.array(O.CMP_OPCODES, dtype=np.int32)
MIRRORED = np.array([O.CMP_NAMES.index(m) for m in (">", ">=", "==", "!=", "<", "<=")], dtype=np.int32)
# `and` / `or` (nodes.BOOL_*): the truth of a left operand that decides the result
DECIDING_TRUTH = np.array([{"and": 0, "or": 1}[b] for b in BOOL_NAMES], dtype=np.int32)
# by a truth value (0 / 1): the jump taken on it, and the one that keeps the value when it jumps
(JUMP_IF, JUMP_IF_OR_POP) = _opcodes([("JUMP_IF_FALSE", "JUMP_IF_TRUE"),
                                      ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP")])  # fmt: skip
# builtins (scope.B_*): the instruction applied to the argument, by its class (ON_*); bool()
# is a truth test (emit_builtin_arg); min / max of numbers fold the arguments pairwise, of
# strs take the min / max of the list of them (emit_builtin_end)
ON_NUMBER, ON_FLOAT, ON_LIST, ON_STR = range(4)  # an int or bool, a float, a list, a str
_BUILTIN_ROWS = {
    "abs": ("INT_ABS", "FLOAT_ABS", None, None),
    "min": (None, None, "LIST_MIN", None),
    "max": (None, None, "LIST_MAX", None),
    "int": (None, "FLOAT_TO_INT", None, "STR_TO_NUM"),
    "float": ("INT_TO_FLOAT", None, None, "STR_TO_NUM"),
    "bool": (None, None, None, None),
    "len": (None, None, "LIST_LEN", "LIST_LEN"),
    "sum": (None, None, "LIST_SUM", None),
    "sorted": (None, None, "LIST_SORTED", None),
    "str": ("STR_FROM", "STR_FROM", None, None),
    "ord": (None, None, None, "STR_ORD"),
    "chr": ("STR_CHR", None, None, None),
    "reversed": (None, None, None, None),  # emit_reversed
    "round": (None, None, None, None),  # emit_round
    "pow": (None, None, None, None),  # emit_arith's `**`
    "print": (None, None, None, None),  # emit_builtin_arg drops each argument
    **{b: ("STR_RADIX", None, None, None) for b in ("bin", "oct", "hex")},  # builtin_operand: the base
}
BUILTIN_OPCODES = _opcodes(_BUILTIN_ROWS[b] for b in BUILTINS[:N_SUPPORTED_BUILTINS])
# the pairwise fold of min / max of numbers, by the result's type: int, float
_FOLD_ROWS = {"min": ("INT_MIN2", "FLOAT_MIN2"), "max": ("INT_MAX2", "FLOAT_MAX2")}
FOLD_OPCODES = _opcodes(_FOLD_ROWS.get(b, (None, None)) for b in BUILTINS[:N_SUPPORTED_BUILTINS])
# methods (scope.M_*): the instruction and its IMM operand (a str method's mode: its place in
# scope.STR_METHODS; -1: the receiver's element kind)
_METHOD_ROWS = {"append": ("LIST_APPEND", 0), "sort": ("LIST_SORT", -1),
                **{m: (name, mode) for name, group in STR_METHODS.items() for mode, m in enumerate(group)},
                **{m: (None, 0) for m in DICT_METHODS + SET_METHODS}}  # fmt: skip  # compiler/emit_dict.py
# the other list methods (-2: a value instruction of constant typed_values(==, element, list));
# xs.copy() is xs[:] (LIST_SLICE, no part given)
_LIST_METHOD_ROWS = {"clear": ("LIST_CLEAR", 0), "extend": ("LIST_EXTEND", 0), "pop": ("LIST_POP", 0),
                     "insert": ("LIST_INSERT", 0), "reverse": ("LIST_REVERSE", 0), "index": ("VALUE_INDEX", -2),
                     "count": ("VALUE_COUNT", -2), "remove": ("VALUE_REMOVE", -2), "copy": ("LIST_SLICE", 0)}
_METHOD_ROWS = [_METHOD_ROWS[m] for m in METHODS[: -len(LIST_METHODS)]] + [_LIST_METHOD_ROWS[m] for m in LIST_METHODS]
METHOD_OPCODES = _opcodes([[row[0] for row in _METHOD_ROWS]])[0]
# a list instruction taking an element kind -> the value instruction doing it for any element type
_VALUE_OPS = {op: op.replace("LIST_", "VALUE_") for op in ("LIST_MIN", "LIST_MAX", "LIST_SORTED", "LIST_SORT")}
VALUE_OF_LIST_OP = np.array([O.BY_NAME[_VALUE_OPS[op.name]].number if op.name in _VALUE_OPS else -1
                             for op in O.TABLE], dtype=np.int32)  # fmt: skip
METHOD_MODES = np.array([row[1] for row in _METHOD_ROWS], dtype=np.int32)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# A walk handler's answer besides a node to evaluate next (compiler/codegen_expr.py): pop the
# node's frame, or visit it again.
DONE, STAY = -1, -2

# codegen state (int64[CG_WIDTH])
CG_PC, CG_ENTRY, CG_DEPTH, CG_MAXD, CG_NCONST = range(5)
CG_WIDTH = 5


@nrt_free
def emit(out, opc, arg, line):
    """Append one instruction (past capacity only counts: codegen then fails) and track
    the operand-stack depth (the table's stack effects; the caller applies CALL's and
    NEW_LIST's variable pops).  Returns its pc."""
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


@nrt_free
def retarget_last(out, old, opc):
    """The instruction emitted last, an `old`, becomes opc, its operand kept; the depth follows."""
    pc = out.cg[CG_PC] - 1
    if pc < out.code.shape[0]:
        out.code[pc, 0] = opc
    out.cg[CG_DEPTH] += POPS[old] - PUSHES[old] - POPS[opc] + PUSHES[opc]


@nrt_free
def patch_to(out, chain, target):
    """Point every jump of a placeholder chain at `target` (relative to the entry)."""
    code = out.code
    p = chain
    while 0 <= p < code.shape[0]:
        nxt = code[p, 1]
        code[p, 1] = target
        p = nxt


@nrt_free
def patch(out, chain):
    """Point every jump of a placeholder chain at the current pc."""
    patch_to(out, chain, out.cg[CG_PC] - out.cg[CG_ENTRY])


@nrt_free
def emit_convert(out, want, got, line):
    """Convert the value on top (of type got) for a place that wants type want: an int or
    bool where a float is wanted becomes a float; a scalar where an Optional is wanted is
    boxed (converted first: Optional[float])."""
    inner = want >> 4 if is_optional(want) and not is_optional(got) and got != T_NONE else want
    if inner == T_FLOAT and got != T_FLOAT:
        emit(out, O.INT_TO_FLOAT, 0, line)
    if inner != want and not type_is_heap(inner):
        emit(out, O.BOX, 0, line)


@nrt_free
def emit_truth(out, t, line):
    """Make the value on top (of type t) testable by the truth jumps (nonzero = true):
    a float becomes bool(x) (-0.0 is false), a list, str, dict or set its length; None is false, an
    Optional[T] false when None, else its T's truth (DUP_TOP; LOAD_INT NONE_REF; COMPARE_EQ;
    JUMP_IF_TRUE none; UNBOX; T's truth; JUMP end; none: POP_TOP; LOAD_INT 0; end:)."""
    optional = is_optional(t)
    none = -1
    if optional:
        emit(out, DUP_TOP, 0, line)
        emit(out, LOAD_INT, O.NONE_REF, line)
        emit(out, CMP_OPCODES[O.CMP_EQ], 0, line)
        none = emit(out, JUMP_IF_TRUE, -1, line)
        t = t >> 4
        emit(out, O.UNBOX, 0 if type_is_heap(t) else 1, line)
    if t == T_FLOAT:
        emit(out, O.FLOAT_TRUTH, 0, line)
    elif is_dict(t) or is_set(t):
        emit(out, O.COLL_LEN, 0, line)
    elif is_sized(t):
        emit(out, O.LIST_LEN, 0, line)
    elif t == T_NONE:
        emit(out, POP_TOP, 0, line)
        emit(out, LOAD_INT, 0, line)
    if optional:
        end = emit(out, JUMP, -1, line)
        patch(out, none)
        emit(out, POP_TOP, 0, line)
        emit(out, LOAD_INT, 0, line)
        patch(out, end)


@nrt_free
def needs_truth(t):
    """Whether a value of type t is not its own truth value (see emit_truth)."""
    return t == T_FLOAT or is_sized(t) or is_optional(t) or t == T_NONE


@nrt_free
def element_kind(t):
    """The element-kind operand of a list instruction on list type t: 0 ints (and bools), 1
    floats, 2 strs (a deque's: its list's)."""
    t = list_view(t)
    if t == LIST_FLOAT:
        return 1
    return 2 if t == LIST_STR else 0


@nrt_free
def is_flat_list(t):
    """A list the list instructions serve by element kind: of ints, bools, floats or strs (or `[]`)."""
    e = t >> 4
    return is_list(t) and (is_number(e) or e == T_STR or t == EMPTY_LIST)


@nrt_free
def emit_typed(out, opc, value, line, err):
    """A value instruction: its CONST operand the constant `value` (a packed type, or
    typed_values of a comparison and two)."""
    emit_const(out, opc, value, line, err, 0, 0)


@nrt_free
def float_op(bop, lt, rt):
    """Whether binary op bop on these operand types runs as a float instruction."""
    return bop == BIN_DIV or lt == T_FLOAT or rt == T_FLOAT


@nrt_free
def concrete(t, other):
    """Type t, or for `[]` the other operand's type (a list of it for `x in []`), with no
    UNKNOWN left (typeshapes.known): the types a value instruction's constant names."""
    if t != EMPTY_LIST:
        return known(t)
    return known(other) if is_list(other) and other != EMPTY_LIST else LIST_INT


@nrt_free
def emit_compare(out, cmp, lt, rt, line, err):
    """Push `a <cmp> b` for a, b of types lt, rt (floats and strs: COMPARE_NUM, exact for int
    vs float; `x in xs`: LIST_CONTAINS, of a str in a str STR_CONTAINS; lists: LIST_EQ; values
    the flat instructions do not serve: VALUE_CMP, VALUE_CONTAINS)."""
    if cmp == CMP_IS or cmp == CMP_IS_NOT or lt == T_NONE or rt == T_NONE:  # x is None: None is NONE_REF
        emit(out, CMP_OPCODES[O.CMP_EQ if cmp == CMP_IS or cmp == O.CMP_EQ else O.CMP_NE], 0, line)
    elif cmp == CMP_IN or cmp == CMP_NOT_IN:
        e = lt if rt == EMPTY_LIST else element_type(rt)
        if rt == T_STR:
            emit(out, O.STR_CONTAINS, 0, line)
        elif is_flat_list(rt) and (is_number(lt) and is_number(e) or lt == T_STR and e == T_STR):
            emit(out, O.LIST_CONTAINS, typed_cmp(O.CMP_EQ, lt, e), line)
        else:
            types = typed_values(O.CMP_EQ, known(lt), concrete(rt, type_list_of(lt)))
            emit_typed(out, O.VALUE_CONTAINS, types, line, err)
        if cmp == CMP_NOT_IN:
            emit(out, UNARY_NOT, 0, line)
    elif is_flat_list(lt) and is_flat_list(rt) and (cmp == O.CMP_EQ or cmp == O.CMP_NE) and (
            element_kind(lt) == element_kind(rt) or lt == EMPTY_LIST or rt == EMPTY_LIST):
        emit(out, O.LIST_EQ, element_kind(lt if lt != EMPTY_LIST else rt), line)
        if cmp == O.CMP_NE:
            emit(out, UNARY_NOT, 0, line)
    elif not is_number(lt) and lt != T_STR or not is_number(rt) and rt != T_STR:
        emit_typed(out, O.VALUE_CMP, typed_values(cmp, concrete(lt, rt), concrete(rt, lt)), line, err)
    elif lt == T_FLOAT or rt == T_FLOAT or lt == T_STR:
        emit(out, O.COMPARE_NUM, typed_cmp(cmp, lt, rt), line)
    else:
        emit(out, CMP_OPCODES[cmp], 0, line)


@nrt_free
def method_argument(m, p, t):
    """The type argument p of list or str method m converts to, on a receiver of type t."""
    want = METHOD_RULES[m, METHOD_ARG + p]
    return element_type(t) if want == A_ELEMENT else (want if want >= 0 else t)


@nrt_free
def emit_method(out, m, t, line, err):
    """The instruction of method m (scope.M_*) on a receiver of type t, its arguments pushed
    (xs.sort() of a list the list instructions do not serve: VALUE_SORT)."""
    mode = METHOD_MODES[m]
    if mode == -2:  # xs.index(x), count, remove: x converted to the element type
        emit_typed(out, METHOD_OPCODES[m], typed_values(O.CMP_EQ, known(element_type(t)), known(t)), line, err)
    elif mode < 0 and not is_flat_list(t):
        emit_typed(out, VALUE_OF_LIST_OP[METHOD_OPCODES[m]], known(t >> 4), line, err)
    else:
        emit(out, METHOD_OPCODES[m], element_kind(t) if mode < 0 else mode, line)


@nrt_free
def emit_arith(out, bop, lt, rt, line):
    """Apply binary operator bop (nodes.BIN_*) to a (of type lt) and b (of type rt, on top):
    lists and strs concatenate (+) or repeat (*: the count moved on top); numbers: a float
    instruction, b converted to float first, if float_op says so, else an int one."""
    if is_sized(lt) or is_sized(rt):
        if bop == BIN_MUL and is_sized(rt):
            emit(out, ROT_TWO, 0, line)
        emit(out, O.LIST_CONCAT if bop == BIN_ADD else O.LIST_REPEAT, 0, line)
    elif float_op(bop, lt, rt):
        emit_convert(out, T_FLOAT, rt, line)
        emit(out, FLOAT_OPCODES[bop], 0, line)
    else:
        emit(out, BIN_OPCODES[bop], 0, line)


@nrt_free
def emit_unary(out, uop, t, line):
    """Apply unary operator uop (nodes.UN_*) to the value on top (of type t)."""
    if uop == UN_NOT:  # `not` of the truth value
        emit_truth(out, t, line)
    elif uop == UN_POS and t == T_BOOL:  # +True is 1
        emit(out, LOAD_INT, 0, line)
        emit(out, BINARY_ADD, 0, line)
    opc = FLOAT_UNARY_OPCODES[uop] if t == T_FLOAT else UNARY_OPCODES[uop]
    if opc >= 0:
        emit(out, opc, 0, line)


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


@nrt_free
def emit_int(out, v, line, err, s, e):
    """Push the int v (an int32 operand, else a constant-pool entry); s, e: its source span."""
    if INT32_MIN <= v <= INT32_MAX:
        emit(out, LOAD_INT, v, line)
    else:
        emit_const(out, LOAD_CONST, v, line, err, s, e)


@nrt_free
def emit_const(out, opc, v, line, err, s, e):
    """Instruction opc whose CONST operand is the constant v (an entry of the pool, shared
    with an equal one already there); s, e: the source span blamed when the pool is full."""
    consts, cg = out.consts, out.cg
    k = 0
    while k < cg[CG_NCONST] and consts[k] != v:
        k += 1
    if k == cg[CG_NCONST]:
        if k >= consts.shape[0] or k >= MAX_CONSTS:
            fail(err, E_TOO_MANY_CONSTANTS, s, e, MAX_CONSTS)
            return
        consts[k] = v
        cg[CG_NCONST] = k + 1
    emit(out, opc, k, line)


@nrt_free
def _same_str(consts, a, b):
    """Whether pool entries a and b start the same str (its length, then its code points)."""
    for j in range(consts[b] + 1):
        if consts[a + j] != consts[b + j]:
            return False
    return True


@nrt_free
def intern_strings(src, toks, tree, out, stack, err):
    """Put every str literal of the tree into the constant pool (its length, then its code
    points; an identical one already there is shared) and set the STR node's val to its entry,
    for LOAD_STR.  stack: int32 scratch, a row per node.  Returns 0, or -1 with err set."""
    consts, cg = out.consts, out.cg
    kind, first, next_ = tree.kind, tree.first, tree.next
    cap = min(consts.shape[0], MAX_CONSTS)
    sp = 1
    stack[0] = 0  # the MODULE
    while sp > 0:
        sp -= 1
        n = stack[sp]
        c = first[n]
        while c != -1:
            stack[sp] = c
            sp += 1
            c = next_[c]
        if kind[n] != N_STR:
            continue
        k = cg[CG_NCONST]
        t0 = tree.tok[n]
        t1 = t0 + tree.op[n] - 1
        length = 0
        for t in range(t0, t1 + 1):
            length += string_code_points(src, toks.start[t], toks.end[t], consts, k + 1 + length)
        if k + 1 + length > cap:
            return fail(err, E_TOO_MANY_CONSTANTS, toks.start[t0], toks.end[t1], MAX_CONSTS)
        consts[k] = length
        at = 0
        while at + length < k and not (consts[at] == length and _same_str(consts, at, k)):
            at += 1
        if at + length >= k:
            at = k
            cg[CG_NCONST] = k + 1 + length
        tree.val[n] = at
    return 0
