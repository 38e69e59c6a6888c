"""Code generator, simple statements: assignments, expression statements, assert and return
(a part of phase 4, see compiler/codegen.py, whose statement walk calls these handlers).

Each handler emits one whole statement; `top` is its row on the statement walk (the
expression walks use the rows above it).  A value stored or returned is converted to the
target's type (the type checker leaves it in the node's val).
"""

from __future__ import annotations

from gpucc.compiler.codegen_expr import emit_expr
from gpucc.compiler.emit import emit, emit_arith, emit_convert, emit_truth
from gpucc.compiler.nodes import CMP_IN, N_COMPARE, N_METHOD
from gpucc.compiler.typerules import EMPTY_LIST, LIST_INT
from gpucc.contract import isa as O
from gpucc.contract.isa import ASSERT_CMP, ASSERT_TRUE, LOAD_INT, LOAD_VAR, POP_TOP, RETURN, STORE_VAR
from gpucc.contract.jitable import nrt_free, type_runtime_kind, typed_cmp
from gpucc.contract.valuetypes import T_NONE


@nrt_free
def _concrete_list(t, other):
    """t, or for `[]` the other operand's list type (list[int] if both are `[]`)."""
    if t != EMPTY_LIST:
        return t
    return other if other != EMPTY_LIST else LIST_INT


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
    """x op= v: x, v, op (a float op when x is a float), STORE_VAR x."""
    c = tree.first[n]
    line = toks.line[tree.tok[n]]
    emit(out, LOAD_VAR, types.slot[n], line)
    emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
    emit_arith(out, tree.op[n], tree.val[n], types.type[c], line)
    emit(out, STORE_VAR, types.slot[n], line)


@nrt_free
def emit_setitem(n, top, toks, tree, types, out, scratch, err):
    """In Python's order.  xs[i] = v: v, xs, i, LIST_SET; xs[i] op= v: xs, i, LIST_GET, v,
    op, xs, i, LIST_SET (xs and i are pure).  val: the element type."""
    sub = tree.first[n]
    v = tree.next[sub]
    bop = tree.op[n]  # -1: plain assignment
    line = toks.line[tree.tok[n]]
    sp = top + 1
    if bop >= 0:
        emit_expr(sub, toks, tree, types, out, scratch, sp, err)
    emit_expr(v, toks, tree, types, out, scratch, sp, err)
    if bop >= 0:
        emit_arith(out, bop, tree.val[n], types.type[v], line)
    else:
        emit_convert(out, tree.val[n], types.type[v], line)
    obj = tree.first[sub]
    emit_expr(obj, toks, tree, types, out, scratch, sp, err)
    emit_expr(tree.next[obj], toks, tree, types, out, scratch, sp, err)
    emit(out, O.LIST_SET, 0, line)


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
    operands); any other: the truth value, ASSERT_TRUE."""
    type_, first, next_ = types.type, tree.first, tree.next
    c = first[n]
    line = toks.line[tree.tok[n]]
    if tree.kind[c] == N_COMPARE and next_[next_[first[c]]] == -1 and tree.op[next_[first[c]]] < CMP_IN:
        a = first[c]
        link = next_[a]
        emit_expr(a, toks, tree, types, out, scratch, top + 1, err)
        emit_expr(first[link], toks, tree, types, out, scratch, top + 1, err)
        lt, rt = _concrete_list(type_[a], type_[link]), _concrete_list(type_[link], type_[a])
        emit(out, ASSERT_CMP, typed_cmp(tree.op[link], type_runtime_kind(lt), type_runtime_kind(rt)), line)
    else:
        emit_expr(c, toks, tree, types, out, scratch, top + 1, err)
        emit_truth(out, type_[c], line)
        emit(out, ASSERT_TRUE, 0, line)


@nrt_free
def emit_return(n, top, toks, tree, types, out, scratch, err):
    """return v (converted to the return type); a bare `return`: None."""
    if tree.first[n] != -1:
        _value(n, top, toks, tree, types, out, scratch, err)
    else:
        emit(out, LOAD_INT, 0, toks.line[tree.tok[n]])
    emit(out, RETURN, 0, toks.line[tree.tok[n]])
