"""Code generator, simple statements: assignments, expression statements, assert and return
(a part of phase 4, see compiler/codegen.py, whose statement walk calls these handlers).

Each handler emits one whole statement; `top` is its row on the statement walk (the
expression walks use the rows above it).  A value stored or returned is converted to the
target's type (the type checker leaves it in the node's val).
"""

from __future__ import annotations

from gpucc.compiler.codegen_expr import emit_expr, unbox_late
from gpucc.compiler.emit import concrete, emit, emit_arith, emit_convert, emit_truth, emit_typed, retarget_last
from gpucc.compiler.loop_code import emit_unpack_value
from gpucc.compiler.emit_dict import is_keyed
from gpucc.compiler.emit_set import emit_set_augassign
from gpucc.compiler.nodes import BIN_MUL, CMP_IN, N_COMPARE, N_METHOD, N_NAME, N_NONE, N_SLICE, N_TUPLE
from gpucc.compiler.typecheck import S_A, S_B, S_NODE
from gpucc.compiler.typecheck_calls import count_from
from gpucc.compiler.typerules import element_type, is_counter, is_dict, is_list, is_set, join, keyed_join
from gpucc.compiler.typeshapes import known
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    ASSERT_CMP,
    ASSERT_TRUE,
    ASSERT_VALUE,
    DUP_TOP,
    LOAD_INT,
    LOAD_VAR,
    POP_TOP,
    RETURN,
    STORE_VAR,
)
from gpucc.contract.jitable import nrt_free, type_runtime_kind, typed_cmp, typed_values
from gpucc.contract.valuetypes import T_NONE


@nrt_free
def _value(n, top, toks, tree, types, out, scratch, err):
    """Push statement n's value (its first child) converted to the target's type."""
    c = tree.first[n]
    emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
    emit_convert(out, tree.val[n], types.type[c], toks.line[tree.tok[n]])


@nrt_free
def emit_assign(n, top, toks, tree, types, out, scratch, err):
    """x = v"""
    _value(n, top, toks, tree, types, out, scratch, err)
    emit(out, STORE_VAR, types.slot[n], toks.line[tree.tok[n]])


@nrt_free
def emit_augassign(n, top, toks, tree, types, out, scratch, err):
    """x op= v: x, v, op (a float op when x is a float), STORE_VAR x; in place, as CPython's: a
    list's xs += ys: xs, ys, LIST_EXTEND; xs *= n: xs, n, LIST_REPEAT, xs, 0, 0, 0, LIST_SET_SLICE
    (xs[:] = xs * n); a dict's d |= e: d, e, DICT_UPDATE."""
    c = tree.first[n]
    line = toks.line[tree.tok[n]]
    emit(out, LOAD_VAR, types.slot[n], line)
    emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
    if is_list(tree.val[n]) and tree.op[n] == BIN_MUL:  # xs[:] = xs * n, in place
        emit(out, O.LIST_REPEAT, 0, line)
        emit(out, LOAD_VAR, types.slot[n], line)
        for _ in range(3):
            emit(out, O.LOAD_INT, 0, line)
        emit(out, O.LIST_SET_SLICE, 0, line)
    elif is_list(tree.val[n]):
        emit(out, O.LIST_EXTEND, 0, line)
    elif is_dict(tree.val[n]):  # d |= e: d.update(e)
        emit_typed(out, O.DICT_UPDATE, known(tree.val[n]), line, err)
    elif is_set(tree.val[n]):  # s |= t, s &= t, s -= t, s ^= t: in place
        emit_set_augassign(out, tree.op[n], tree.val[n], line, err)
    else:
        emit_arith(out, tree.op[n], tree.val[n], types.type[c], line)
        emit(out, STORE_VAR, types.slot[n], line)


@nrt_free
def emit_setitem(n, top, toks, tree, types, out, scratch, err):
    """In Python's order.  xs[i] = v: v, xs, i, LIST_SET; xs[i] op= v: xs, i, LIST_GET, v,
    op, xs, i, LIST_SET (xs and i are pure); xs[a:b:k] = ys: ys, xs, a, b, k, LIST_SET_SLICE.
    val: the element type (a slice's: the list's type)."""
    sub = tree.first[n]
    v = tree.next[sub]
    bop = tree.op[n]  # -1: plain assignment
    line = toks.line[tree.tok[n]]
    sp = top + 1
    if bop >= 0:
        emit_expr(sub, toks, tree, types, out, scratch, sp, err)
    emit_expr(v, toks, tree, types, out, scratch, sp, err)
    if tree.kind[sub] == N_SLICE:  # xs[a:b:k] = ys: ys, then the slice's code with LIST_SET_SLICE last
        emit_expr(sub, toks, tree, types, out, scratch, sp, err)
        retarget_last(out, O.LIST_SLICE, O.LIST_SET_SLICE)
        return
    if bop >= 0:
        emit_arith(out, bop, tree.val[n], types.type[v], line)
    else:
        emit_convert(out, tree.val[n], types.type[v], line)
    obj = tree.first[sub]
    emit_expr(obj, toks, tree, types, out, scratch, sp, err)
    emit_expr(tree.next[obj], toks, tree, types, out, scratch, sp, err)
    dt = types.type[obj]
    if is_dict(dt):  # d[k] = v: k converted to the keys' type
        emit_convert(out, element_type(dt), types.type[tree.next[obj]], line)
        emit_typed(out, O.DICT_SET, known(dt), line, err)
    else:
        emit(out, O.LIST_SET, 0, line)


@nrt_free
def emit_delete(n, top, toks, tree, types, out, scratch, err):
    """del d[k]: d, k (converted to the keys' type), DICT_DEL; of a Counter, whose del of a
    missing key does nothing (CPython's Counter.__delitem__), d.pop(k, 0) dropped."""
    obj = tree.first[tree.first[n]]
    line = toks.line[tree.tok[n]]
    emit_expr(obj, toks, tree, types, out, scratch, top + 1, err)
    emit_expr(tree.next[obj], toks, tree, types, out, scratch, top + 1, err)
    emit_convert(out, element_type(types.type[obj]), types.type[tree.next[obj]], line)
    if is_counter(types.type[obj]):
        emit(out, O.LOAD_INT, 0, line)
        emit_typed(out, O.DICT_POP_DEFAULT, known(types.type[obj]), line, err)
        emit(out, O.POP_TOP, 0, line)
    else:
        emit_typed(out, O.DICT_DEL, known(types.type[obj]), line, err)


@nrt_free
def emit_unpack(n, top, toks, tree, types, out, scratch, err):
    """a, (b, c) = v: v, then its items into the target's names (emit_unpack_value); `a, b =
    x, y` of distinct names: x, y, then STORE_VAR b, STORE_VAR a (no tuple is built)."""
    kind, first, next_, slot = tree.kind, tree.first, tree.next, types.slot
    target = first[n]
    value = next_[target]
    line = toks.line[tree.tok[n]]
    if kind[value] != N_TUPLE or count_from(next_, first[value]) != count_from(next_, first[target]):
        emit_expr(value, toks, tree, types, out, scratch, top + 1, err)
        emit_unpack_value(target, tree, types, out, scratch.walk, top + 1, line)
        return
    a = first[target]
    while a != -1:  # the fast form: a target of distinct names
        b = next_[a]
        while b != -1 and kind[a] == N_NAME and kind[b] == N_NAME and slot[a] != slot[b]:
            b = next_[b]
        if kind[a] != N_NAME or b != -1:
            emit_expr(value, toks, tree, types, out, scratch, top + 1, err)
            emit_unpack_value(target, tree, types, out, scratch.walk, top + 1, line)
            return
        a = next_[a]
    a, c = first[target], first[value]
    while c != -1:
        emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
        emit_convert(out, tree.val[a], types.type[c], line)
        a, c = next_[a], next_[c]
    for k in range(count_from(next_, first[target]) - 1, -1, -1):
        a = first[target]
        for _ in range(k):
            a = next_[a]
        emit(out, STORE_VAR, slot[a], line)


@nrt_free
def emit_expr_statement(n, top, toks, tree, types, out, scratch, err):
    """An expression statement: its value dropped (the methods that give None push none)."""
    c = tree.first[n]
    emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
    if tree.kind[c] != N_METHOD or types.type[c] != T_NONE:
        emit(out, POP_TOP, 0, toks.line[tree.tok[n]])


@nrt_free
def emit_assert(n, top, toks, tree, types, out, scratch, err):
    """assert a <cmp> b (one comparison, not `in`): a, b, ASSERT_CMP (which can report both
    operands; ASSERT_VALUE for values the flat instructions do not serve, ASSERT_KEYED for ==
    of dicts or sets); any other: the truth value, ASSERT_TRUE."""
    type_, first, next_ = types.type, tree.first, tree.next
    c = first[n]
    line = toks.line[tree.tok[n]]
    keyed = tree.kind[c] == N_COMPARE and (is_keyed(type_[first[c]]) or is_keyed(type_[next_[first[c]]]))
    single = tree.kind[c] == N_COMPARE and next_[next_[first[c]]] == -1
    if single and keyed and tree.op[next_[first[c]]] == O.CMP_EQ:  # dicts or sets: ASSERT_KEYED
        link = next_[first[c]]
        emit_expr(first[c], toks, tree, types, out, scratch, top + 1, err)
        emit_expr(first[link], toks, tree, types, out, scratch, top + 1, err)
        emit_typed(out, O.ASSERT_KEYED, known(keyed_join(type_[first[c]], type_[link])), line, err)
    elif single and tree.op[next_[first[c]]] < CMP_IN and not keyed:
        a = first[c]
        link = next_[a]
        emit_expr(a, toks, tree, types, out, scratch, top + 1, err)
        emit_expr(first[link], toks, tree, types, out, scratch, top + 1, err)
        unbox_late(out, tree, a, type_[a], line)
        cmp, lt, rt = tree.op[link], concrete(type_[a], type_[link]), concrete(type_[link], type_[a])
        kl, kr = type_runtime_kind(lt), type_runtime_kind(rt)
        if kl < 0 or kr < 0 or (is_list(lt) and cmp != O.CMP_EQ and cmp != O.CMP_NE):
            emit_typed(out, ASSERT_VALUE, typed_values(cmp, lt, rt), line, err)
        else:
            emit(out, ASSERT_CMP, typed_cmp(cmp, kl, kr), line)
    else:
        emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
        emit_truth(out, type_[c], line)
        emit(out, ASSERT_TRUE, 0, line)


@nrt_free
def emit_return(n, top, toks, tree, types, out, scratch, err):
    """return v (converted to the return type); a bare `return`: None (0 from a `-> None`
    function, as `return None` there; NONE_REF as an Optional value)."""
    c = tree.first[n]
    line = toks.line[tree.tok[n]]
    if c != -1 and not (tree.kind[c] == N_NONE and tree.val[n] == T_NONE):
        _value(n, top, toks, tree, types, out, scratch, err)
    else:
        emit(out, LOAD_INT, 0 if tree.val[n] == T_NONE else O.NONE_REF, line)
    emit(out, RETURN, 0, line)
