"""Emission primitives of the code generator (phase 4), shared by compiler.codegen
(statements) and compiler.codegen_expr (expressions): the emitter and its jump chains, and
the instruction choices for operators, conversions, truth tests, comparisons, builtin calls,
methods and integer constants, and the str literals' place in the constant pool
(intern_strings: a str constant is its length, then its code points).

Kernel bodies (numba subset).  Instructions go to the Output bundle's `code` / `lines` at
cg[CG_PC] (cg: the codegen state below); emit tracks the operand-stack depth.  Forward jumps
are emitted with a placeholder operand that chains the jumps waiting for the same label (-1
ends a chain) and are patched when the label is reached (patch, patch_to).

The operator -> instruction maps are compiler/emit_tables.py's; a builtin call's code is
compiler/emit_builtins.py's.
"""

from __future__ import annotations

from gpucc.compiler.arrays import fail
from gpucc.compiler.emit_tables import (
    BIN_OPCODES,
    CMP_OPCODES,
    FLOAT_OPCODES,
    FLOAT_UNARY_OPCODES,
    METHOD_MODES,
    METHOD_OPCODES,
    UNARY_OPCODES,
    VALUE_OF_LIST_OP,
)
from gpucc.compiler.errors import E_TOO_MANY_CONSTANTS
from gpucc.compiler.lexer_literals import string_code_points
from gpucc.compiler.limits import MAX_CONSTS
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_DIV,
    BIN_MUL,
    CMP_IN,
    CMP_IS,
    CMP_IS_NOT,
    CMP_NOT_IN,
    N_STR,
    UN_NOT,  # fmt: skip
    UN_POS,
)
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
    list_view,
)
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    BINARY_ADD,
    DUP_TOP,
    JUMP,
    JUMP_IF_TRUE,
    LOAD_CONST,
    LOAD_INT,
    POP_TOP,
    POPS,
    PUSHES,
    ROT_TWO,
    UNARY_NOT,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free, type_is_heap, type_list_of, typed_cmp, typed_values
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_NONE, T_STR

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
def set_last_operand(out, arg):
    """The instruction emitted last takes operand arg instead (same stack effect)."""
    pc = out.cg[CG_PC] - 1
    if pc < out.code.shape[0]:
        out.code[pc, 1] = arg


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
