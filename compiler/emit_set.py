"""The code of the set methods of compiler/typecheck_set.py and of `s |= t`, `s &= t`, `s -= t`,
`s ^= t`: CPython's algorithms (Objects/setobject.c) as the instructions SET_IOR .. SET_POP run
them (vm/reference_set.py), each argument taken by CPython's path for its type; and set(e) of a
set or a dict, which CPython builds by those paths too.  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler.emit import DONE, emit, emit_typed
from gpucc.compiler.nodes import BIN_AND, BIN_OR, BIN_SUB, COMP_SET, N_NAME
from gpucc.compiler.tokens import TK_KEYWORD
from gpucc.compiler.typecheck_set import (
    FIRST_SET_METHOD,
    FORM_DICT,
    FORM_ITER,
    FORM_SET,
    SM_CLEAR,
    SM_COPY,
    SM_DIFFERENCE,
    SM_INTERSECTION,
    SM_ISDISJOINT,
    SM_ISSUPERSET,
    SM_POP,
    SM_SYMMETRIC_DIFFERENCE,
    SM_SYMMETRIC_DIFFERENCE_UPDATE,
    SM_UNION,
    operand_form,
)
from gpucc.compiler.typerules import element_type, is_counter, is_dict, is_set
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.jitable import nrt_free, type_list_of


@nrt_free
def in_place_opcode(k):
    """The instruction of SM_UPDATE .. SM_SYMMETRIC_DIFFERENCE_UPDATE (k 0 .. 3)."""
    return O.SET_IOR if k == 0 else O.SET_IAND if k == 1 else O.SET_ISUB if k == 2 else O.SET_IXOR


@nrt_free
def emit_set_augassign(out, bop, t, line, err):
    """s |= t, s &= t, s -= t, s ^= t of sets of type t, s and t pushed: in place."""
    k = 0 if bop == BIN_OR else 1 if bop == BIN_AND else 2 if bop == BIN_SUB else 3
    emit_typed(out, in_place_opcode(k), known(t), line, err)


@nrt_free
def emit_operand(out, t, ct, op, line, err):
    """Instruction op of set type t on the argument on top (of type ct) as its operand: a set, a
    list (tuple) of elements, or a dict's keys listed (a Counter's taken as any iterable's)."""
    form = operand_form(t, ct)
    if is_dict(ct):
        emit(out, O.DICT_LIST, 0, line)
    c = known(t) if form == FORM_SET else known(ct) if form == FORM_DICT else known(type_list_of(element_type(t)))
    emit_typed(out, op, c, line, err)


@nrt_free
def emit_as_set(out, t, ct, line, err):
    """The argument on top (not a set) made a new set of type t as CPython's make_new_set: a
    list's elements added in order, a dict's keys after one resize (E K -> E E K -> E)."""
    if operand_form(t, ct) == FORM_DICT:
        emit(out, O.DICT_LIST, 0, line)
        emit(out, O.NEW_SET, 0, line)
        emit(out, O.DUP_TOP, 0, line)
        emit(out, O.ROT_THREE, 0, line)
        emit(out, O.ROT_TWO, 0, line)
        emit_typed(out, O.SET_IOR, known(ct), line, err)
        return
    if is_dict(ct):
        emit(out, O.DICT_LIST, 0, line)
    emit_typed(out, O.SET_FROM, known(t), line, err)


@nrt_free
def set_call_of(toks, tree, types, n):
    """The argument of set(e) when COMP n is set(e) rewritten (compiler/desugar_builtins.py: its
    token the call's, not a `for`) and e a set or a dict, which CPython copies (set_merge) or
    takes by its dict path, not one element at a time; else -1."""
    if tree.op[n] != COMP_SET or toks.kind[tree.tok[n]] == TK_KEYWORD:
        return -1
    e = tree.first[tree.first[n]]
    et = types.type[e]
    return e if is_set(et) or (is_dict(et) and not is_counter(et)) else -1


@nrt_free
def emit_set_call(n, st, toks, tree, types, out, line, err):
    """set(e) of a set or a dict (set_call_of): e, then its copy or the set of its keys."""
    e = set_call_of(toks, tree, types, n)
    if st == 0:
        return e
    if is_set(types.type[e]):
        emit_copy(out, types.type[n], line, err)
    else:
        emit_as_set(out, types.type[n], types.type[e], line, err)
    return DONE


@nrt_free
def emit_copy(out, t, line, err):
    """s.copy() of the set on top (CPython's set_copy: SET_OR of s with itself)."""
    emit(out, O.DUP_TOP, 0, line)
    emit_typed(out, O.SET_OR, known(t), line, err)


@nrt_free
def emit_argument(out, types, k, i, t, arg, line, err):
    """Set method k's work on its argument i (node arg), just pushed."""
    ct = types.type[arg]
    c = known(t)
    if k <= SM_SYMMETRIC_DIFFERENCE_UPDATE or (k == SM_DIFFERENCE and i > 0):
        emit_operand(out, t, ct, in_place_opcode(k) if k <= SM_SYMMETRIC_DIFFERENCE_UPDATE else O.SET_ISUB, line, err)
    elif k == SM_UNION:
        emit_operand(out, t, ct, O.SET_IOR, line, err)
    elif k == SM_INTERSECTION or k == SM_ISDISJOINT:
        emit_operand(out, t, ct, O.SET_INTERSECT, line, err)
        if k == SM_ISDISJOINT:
            emit(out, O.COLL_LEN, 0, line)
            emit(out, O.UNARY_NOT, 0, line)
    elif k == SM_DIFFERENCE:  # the first: set_difference (an iterable's: the copy's difference_update)
        if operand_form(t, ct) == FORM_ITER:
            emit_operand(out, t, ct, O.SET_ISUB, line, err)
        else:
            if is_dict(ct):  # only its keys' membership counts
                emit(out, O.DICT_LIST, 0, line)
                emit_typed(out, O.SET_FROM, c, line, err)
            emit_typed(out, O.SET_SUB, c, line, err)
    elif k == SM_SYMMETRIC_DIFFERENCE:
        if is_set(ct):
            emit_typed(out, O.SET_XOR, c, line, err)
        else:
            emit_as_set(out, t, ct, line, err)  # s X -> X X s: s's elements toggled in X
            emit(out, O.DUP_TOP, 0, line)
            emit(out, O.ROT_THREE, 0, line)
            emit(out, O.ROT_TWO, 0, line)
            emit_typed(out, O.SET_IXOR, c, line, err)
    else:  # issubset, issuperset: of a set made of an iterable
        if not is_set(ct):
            if is_dict(ct):
                emit(out, O.DICT_LIST, 0, line)
            emit_typed(out, O.SET_FROM, c, line, err)
        if k == SM_ISSUPERSET:
            emit(out, O.ROT_TWO, 0, line)
        emit_typed(out, O.SET_LE, c, line, err)


@nrt_free
def same_name(tree, types, a, b):
    """Whether nodes a and b read the same variable."""
    return tree.kind[a] == N_NAME and tree.kind[b] == N_NAME and types.slot[a] == types.slot[b]


@nrt_free
def emit_set_method_step(out, tree, types, n, st, child, done, line, err):
    """Set method METHOD n at its visit st (child: the node just pushed; done: no argument
    follows).  The receiver's copy or the dropped receiver of the methods that change it is
    around the arguments' work: s.union(a, b) is s, DUP, SET_OR (a copy r), DUP, a, SET_IOR,
    DUP, b, SET_IOR; s.update(a) s, DUP, a, SET_IOR, POP_TOP."""
    k = tree.op[n] - 1 - FIRST_SET_METHOD
    obj = tree.first[n]
    t = types.type[obj]
    c = known(t)
    if st == 0:
        return
    changes = k <= SM_SYMMETRIC_DIFFERENCE_UPDATE
    dup = changes or k == SM_UNION or (k == SM_DIFFERENCE and st >= 2)
    if st >= 2 and k == SM_UNION and same_name(tree, types, obj, child):  # CPython skips s itself
        emit(out, O.POP_TOP, 0, line)
        emit(out, O.POP_TOP, 0, line)
    elif st >= 2:
        emit_argument(out, types, k, st - 2, t, child, line, err)
    elif k == SM_UNION or k == SM_COPY or (done and (k == SM_INTERSECTION or k == SM_DIFFERENCE)):
        emit_copy(out, t, line, err)
    elif k == SM_DIFFERENCE and operand_form(t, types.type[tree.next[obj]]) == FORM_ITER:
        emit_copy(out, t, line, err)
        dup = True
    elif k == SM_CLEAR:  # s -= s
        emit(out, O.DUP_TOP, 0, line)
        emit_typed(out, O.SET_ISUB, c, line, err)
    elif k == SM_POP:
        emit_typed(out, O.SET_POP, c, line, err)
    if not done and dup:
        emit(out, O.DUP_TOP, 0, line)
    if done and changes:
        emit(out, O.POP_TOP, 0, line)
