"""Type checker, comprehensions: the types of COMP, COMP_FOR and COMP_IF nodes and of the
names their clauses bind (a part of type_expr's postorder walk, compiler/typecheck_expr.py;
slots, names and consumers were settled before the walk by compiler/comp_scope.py).

A clause is typed before the clauses after it and the element, so its variable's type is
known when they read it: a list's element type, a str's chars (strs), a range's ints.  The
element's type gives the comprehension's: a list of it (COMP_LIST), the sum's (an int, a
float when floats are summed or start is one: the numeric tower), a bool (any, all), the
element's (min, max of numbers or strs).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.comp_scope import NAME_UNBOUND, REVERSED_RANGE, is_bare
from gpucc.compiler.errors import E_OPERAND_TYPES, E_TYPE_MISMATCH, E_UNBOUND, E_UNPACK, E_UNSUPPORTED
from gpucc.compiler.narrowing import narrowed_type
from gpucc.compiler.nodes import (
    COMP_ALL,
    COMP_ANY,
    COMP_DICT,
    COMP_GEN,
    COMP_LIST,
    COMP_SET,
    COMP_SUM,
    N_COMP_FOR,
    N_COMP_IF,
    N_NAME,
)
from gpucc.compiler.scope import L_TYPE, last_child
from gpucc.compiler.typecheck_base import S_NODE, expr_fail_types, node_fail, node_fail_types
from gpucc.compiler.typecheck_calls import count_from
from gpucc.compiler.typecheck_dict import keyed_comprehension
from gpucc.compiler.typerules import (
    EMPTY_LIST,
    LIST_INT,
    element_type,
    is_integral,
    is_list,
    is_number,
    is_sized,
    is_tuple,
)
from gpucc.compiler.typeshapes import known
from gpucc.contract.jitable import nrt_free, type_arity, type_field, type_list_of
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR


@nrt_free
def comprehension_element(tree, types, comp):
    """The type of comp's elements: its element's, or (bare) its iterable's element type."""
    if is_bare(tree, comp):
        return element_type(types.type[tree.first[comp]])
    return types.type[last_child(tree, comp)]


@nrt_free
def comprehension_list(e):
    """list[e], or -1 - errors.C_TYPE_TOO_LARGE when the type codes cannot hold it."""
    t = type_list_of(e)
    return t if t >= 0 else -1 - errors.C_TYPE_TOO_LARGE


@nrt_free
def truth_only(tree, n, c):
    """1 if only the truth of child c of COMP or COMP_IF node n is used: the condition of an
    `if` clause, the element of any / all (mixed `and` / `or` operands are fine there)."""
    if tree.kind[n] == N_COMP_IF:
        return 1
    op = tree.op[n]
    return 1 if (op == COMP_ANY or op == COMP_ALL) and tree.next[c] == -1 and not is_bare(tree, n) else 0


@nrt_free
def type_comp_name(n, toks, tree, types, scratch, err):
    """A NAME a comprehension's clause binds (comp_scope.NAME_COMP): its variable's type."""
    t = scratch.locs[types.slot[n], L_TYPE]
    if tree.op[n] == NAME_UNBOUND or t < 0:
        return node_fail(err, E_UNBOUND, toks, tree, n, 0)
    return narrowed_type(n, types.slot[n], t, tree, scratch)


@nrt_free
def _type_for(n, toks, tree, types, scratch, sp, err):
    """`for x in xs` (a list or a str: its elements) or over range(args) (integral: ints); x
    gets the type (the names of `for a, (b, c) in xs` its items')."""
    c = tree.first[n]
    if tree.op[n] == 0:
        t = types.type[c]
        if not is_sized(t):
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, LIST_INT, t)
        et = element_type(t)
    else:
        for _ in range(tree.op[n] & (REVERSED_RANGE - 1)):
            if not is_integral(types.type[c]):
                return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, T_INT, types.type[c])
            c = tree.next[c]
        et = T_INT
    scratch.locs[types.slot[n], L_TYPE] = et
    if tree.val[n] > 0 and _bind_names(tree.val[n], et, toks, tree, types, scratch, sp, err) < 0:
        return -1
    return et


@nrt_free
def _bind_names(target, t, toks, tree, types, scratch, sp, err):
    """A clause's unpacking target takes an element of type t (walk stack rows from sp): a
    tuple's fields one to one, a list's elements (their count checked when it runs); each
    NAME's variable (slot[NAME], compiler/comp_scope.py) gets its item's type (val[NAME]:
    codegen stores it as it is).  type[m] = the value each target node m takes.  0, or -1."""
    kind, first, next_, stk = tree.kind, tree.first, tree.next, scratch.walk
    types.type[target] = t
    stk[sp, S_NODE] = target
    top = sp + 1
    while top > sp:
        top -= 1
        m = stk[top, S_NODE]
        tt = types.type[m]
        if kind[m] == N_NAME:
            tt = known(tt)
            scratch.locs[types.slot[m], L_TYPE] = tt
            tree.val[m] = tt
            continue
        items = count_from(next_, first[m])
        if not (is_list(tt) and tt != EMPTY_LIST or is_tuple(tt) and type_arity(tt) == items):
            return node_fail_types(err, E_UNPACK, toks, tree, m, items, tt)
        c, i = first[m], 0
        while c != -1 and top < stk.shape[0]:
            types.type[c] = type_field(tt, i) if is_tuple(tt) else element_type(tt)
            stk[top, S_NODE] = c
            top += 1
            c, i = next_[c], i + 1
    return 0


@nrt_free
def _type_comp(n, toks, tree, types, err):
    """The comprehension's type from its element's and its consumer (module docstring)."""
    op = tree.op[n]
    if op == COMP_GEN:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_GENERATOR)
    it = tree.first[n]
    if is_bare(tree, n) and not is_sized(types.type[it]):
        return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, it, LIST_INT, types.type[it])
    e = comprehension_element(tree, types, n)
    if op == COMP_LIST:
        t = comprehension_list(e)
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, -1 - t) if t < 0 else t
    if op == COMP_SET or op == COMP_DICT:  # e: the element, or the TUPLE (key, value)
        t = keyed_comprehension(op == COMP_DICT, e)
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, -1 - t) if t < 0 else t
    if op == COMP_ANY or op == COMP_ALL:
        return T_BOOL
    if op == COMP_SUM:
        start = tree.next[it] if is_bare(tree, n) else -1
        st = types.type[start] if start != -1 else T_INT
        if not (is_number(e) and is_number(st)):
            return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, st, e)
        return T_FLOAT if e == T_FLOAT or st == T_FLOAT else T_INT
    if not (is_number(e) or e == T_STR):  # min, max
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, e, e)
    return e


@nrt_free
def type_comprehension(n, toks, tree, types, scratch, sp, err):
    """The type of a COMP, COMP_FOR or COMP_IF node, its children typed (walk stack rows from
    sp free); -1 with err set."""
    k = tree.kind[n]
    if k == N_COMP_FOR:
        return _type_for(n, toks, tree, types, scratch, sp, err)
    if k == N_COMP_IF:
        return T_BOOL
    return _type_comp(n, toks, tree, types, err)
