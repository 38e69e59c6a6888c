"""Type checker, Optional narrowing: where a local of type Optional[T] provably holds a T, a
read of it is typed T (a part of phase 3; kernel bodies, no recursion).

The fact is a uint64 mask per point, bit v = local slot v is not None here, carried beside
definite assignment (compiler/typecheck.py) and joined the same way (AND; an unreachable
point has every bit).  It is made by conditions (`x is not None`, `x != None`, the truth of
x, through `and` / `or` / `not`: `if`, `while`, `assert`, the right operand of `and` / `or`,
the branches of `a if c else b`, the element and later clauses of a comprehension after its
`if` clauses) and by assigning a value that is never None; an assignment of anything else
unbinds it, and a loop starts without the facts of every local its body assigns.

A narrowed read is typed T and marked UNBOXED (typecheck_base): codegen's UNBOX after the load
never raises there.  `x is None` / `x == None` of a narrowed read compare the Optional again.

Scratch.masks columns (besides typecheck.MASK_BEFORE, MASK_JOIN): per walk row of an IF or
loop frame NN_BEFORE (the facts its else-branch or exit starts from) and NN_JOIN (the AND at
its join); per node NODE_NN (the facts where the node is evaluated) and FACT_TRUE /
FACT_FALSE (what a condition's truth / falsity proves); the last row's NODE_NN is the
statement walk's current facts (no node has that row: typecheck_base.scratch_rows).
"""

from __future__ import annotations

from gpucc.compiler.nodes import (
    BOOL_AND,
    CMP_IS,
    CMP_IS_NOT,
    N_ASSERT,
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_BOOLOP,
    N_BREAK,
    N_COMP,
    N_COMP_FOR,
    N_COMP_IF,
    N_COMPARE,
    N_CONTINUE,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_IF,
    N_IFEXP,
    N_NAME,
    N_NONE,
    N_RAISE,
    N_RETURN,
    N_TUPLE,
    N_UNARY,
    N_UNPACK,
    N_WHILE,
    UN_NOT,
)
from gpucc.compiler.scope import L_TYPE, loop_else
from gpucc.compiler.typecheck_versions import local_of
from gpucc.compiler.typecheck_base import ALL, S_NODE, S_STATE, UNBOXED, ZERO, bit, is_const_true, target_bits
from gpucc.compiler.typerules import is_optional
from gpucc.contract.isa import CMP_EQ, CMP_NE
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE

NN_BEFORE, NN_JOIN, NODE_NN, FACT_TRUE, FACT_FALSE = 2, 3, 4, 5, 6
NARROW_WIDTH = 7  # typecheck.MASK_WIDTH


@nrt_free
def current(scratch):
    """The statement walk's facts at the statement being checked."""
    masks = scratch.masks
    return masks[masks.shape[0] - 1, NODE_NN]


@nrt_free
def set_current(scratch, nn):
    masks = scratch.masks
    masks[masks.shape[0] - 1, NODE_NN] = nn


@nrt_free
def start_function(scratch):
    """No facts at a function's start (its Optional parameters may be None), none recorded
    at any node yet."""
    masks = scratch.masks
    for i in range(masks.shape[0]):
        masks[i, NODE_NN] = ZERO


@nrt_free
def _local(n, src, toks, tree, types, scope, scratch):
    """The slot of the local (or comprehension variable) NAME n reads, or -1."""
    if tree.kind[n] != N_NAME:
        return -1
    if tree.op[n] != 0:  # a comprehension's variable (compiler/comp_scope.py bound its slot)
        return types.slot[n]
    return local_of(n, src, toks, tree, scope.nloc, scratch.locs, scratch.masks)


@nrt_free
def _leaf_facts(n, src, toks, tree, types, scope, scratch):
    """(when true, when false) of a condition that is no and / or / not: a NAME's truth, or
    `x is not None`, `x != None` (and `is`, `==`, the other way round) with either side None."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    v = _local(n, src, toks, tree, types, scope, scratch)
    if v >= 0:
        return bit(v), ZERO
    if kind[n] != N_COMPARE or next_[next_[first[n]]] != -1:
        return ZERO, ZERO
    left = first[n]
    link = next_[left]
    right = first[link]
    name = left if kind[right] == N_NONE else (right if kind[left] == N_NONE else -1)
    v = -1 if name < 0 else _local(name, src, toks, tree, types, scope, scratch)
    if v < 0:
        return ZERO, ZERO
    op = tree.op[link]
    if op == CMP_IS_NOT or op == CMP_NE:
        return bit(v), ZERO
    if op == CMP_IS or op == CMP_EQ:
        return ZERO, bit(v)
    return ZERO, ZERO


@nrt_free
def cond_facts(root, src, toks, tree, types, scope, scratch, sp):
    """(when true, when false): the locals condition `root` proves not None by its truth and
    by its falsity (a postorder walk over its and / or / not on walk rows from sp; FACT_TRUE
    and FACT_FALSE hold each node's)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    stk, masks = scratch.walk, scratch.masks
    if sp >= stk.shape[0]:
        return ZERO, ZERO
    stk[sp, S_NODE] = root
    stk[sp, S_STATE] = 0
    top = sp + 1
    while top > sp:
        n = stk[top - 1, S_NODE]
        k = kind[n]
        inner = k == N_BOOLOP or (k == N_UNARY and tree.op[n] == UN_NOT)
        if inner and stk[top - 1, S_STATE] == 0:
            stk[top - 1, S_STATE] = 1
            c = first[n]
            while c != -1:
                if top >= stk.shape[0]:
                    return ZERO, ZERO
                stk[top, S_NODE] = c
                stk[top, S_STATE] = 0
                top += 1
                c = next_[c]
            continue
        top -= 1
        c = first[n]
        if k == N_BOOLOP:
            r = next_[c]
            if tree.op[n] == BOOL_AND:
                t, f = masks[c, FACT_TRUE] | masks[r, FACT_TRUE], masks[c, FACT_FALSE] & masks[r, FACT_FALSE]
            else:
                t, f = masks[c, FACT_TRUE] & masks[r, FACT_TRUE], masks[c, FACT_FALSE] | masks[r, FACT_FALSE]
        elif inner:
            t, f = masks[c, FACT_FALSE], masks[c, FACT_TRUE]
        else:
            t, f = _leaf_facts(n, src, toks, tree, types, scope, scratch)
        masks[n, FACT_TRUE] = t
        masks[n, FACT_FALSE] = f
    return masks[root, FACT_TRUE], masks[root, FACT_FALSE]


@nrt_free
def start_expr(root, scratch):
    """An expression the statement walk types: it is evaluated with the current facts."""
    scratch.masks[root, NODE_NN] = current(scratch)


@nrt_free
def enter_child(n, c, src, toks, tree, types, scope, scratch, sp):
    """Child c of expression n is evaluated with n's facts and what its place proves: the
    right operand of `and` (`or`) after the left one was true (false), the body (else value)
    of `a if cond else b` when cond is true (false), a comprehension's element and later
    clauses after its `if` clauses were true."""
    kind, first, next_, masks = tree.kind, tree.first, tree.next, scratch.masks
    k = kind[n]
    nn = masks[n, NODE_NN]
    if k == N_BOOLOP and c != first[n]:
        t, f = cond_facts(first[n], src, toks, tree, types, scope, scratch, sp)
        nn |= t if tree.op[n] == BOOL_AND else f
    elif k == N_IFEXP and c != next_[first[n]]:
        t, f = cond_facts(next_[first[n]], src, toks, tree, types, scope, scratch, sp)
        nn |= t if c == first[n] else f
    elif k == N_COMP:
        d = first[n]
        while d != c:
            if kind[d] == N_COMP_IF:
                t, f = cond_facts(first[d], src, toks, tree, types, scope, scratch, sp)
                nn |= t
            elif kind[d] == N_COMP_FOR:
                nn &= ~_for_bits(d, tree, types, scratch, sp)
            d = next_[d]
    masks[c, NODE_NN] = nn


@nrt_free
def _for_bits(d, tree, types, scratch, sp):
    """The bits of the variables a comprehension's `for` clause d binds (its variable and the
    NAMEs of its unpacking target: their slots, compiler/comp_scope.py), walk rows from sp."""
    bits = _target_bits(d, tree, types, scratch, sp)
    return bits | _target_bits(tree.val[d], tree, types, scratch, sp) if tree.val[d] > 0 else bits


@nrt_free
def _target_bits(target, tree, types, scratch, sp):
    """The bits of what target binds: a TUPLE's NAMEs (typecheck_base.target_bits), or the
    node's own slot (a comprehension's `for` clause), walk rows from sp."""
    if tree.kind[target] == N_TUPLE:
        return target_bits(tree, types, target, scratch.walk, sp)
    return bit(types.slot[target]) if types.slot[target] >= 0 else ZERO


@nrt_free
def narrowed_type(n, v, t, tree, scratch):
    """The type of a read (NAME n) of local v of type t: T where an Optional[T] is not None
    (marked UNBOXED), else t."""
    if is_optional(t) and (scratch.masks[n, NODE_NN] & bit(v)) != ZERO:
        tree.val[n] = UNBOXED
        return t >> 4
    tree.val[n] = 0
    return t


@nrt_free
def as_optional(c, tree, types, scratch):
    """Operand c of `is None` / `== None`: a narrowed read compares as its Optional again
    (its type returned)."""
    if tree.kind[c] == N_NAME and tree.val[c] == UNBOXED and types.slot[c] >= 0:
        t = scratch.locs[types.slot[c], L_TYPE]
        if is_optional(t):
            tree.val[c] = 0
            types.type[c] = t
    return types.type[c]


@nrt_free
def _loop_kills(n, tree, types, scratch, sp):
    """The bits of every local loop n's body assigns (and its own variables): walk rows from sp
    (statements only; a target's NAMEs)."""
    kind, first, next_, stk = tree.kind, tree.first, tree.next, scratch.walk
    bits = ZERO
    top = sp
    stk[top, S_NODE] = n
    top += 1
    while top > sp:
        top -= 1
        m = stk[top, S_NODE]
        k = kind[m]
        if k == N_ASSIGN or k == N_AUGASSIGN or k == N_FOR_RANGE or (k == N_FOR_LIST and tree.op[m] == 0):
            bits |= bit(types.slot[m]) if types.slot[m] >= 0 else ZERO
        elif k == N_UNPACK:
            bits |= _target_bits(first[m], tree, types, scratch, top)
        elif k == N_FOR_LIST:
            bits |= _target_bits(next_[next_[first[m]]], tree, types, scratch, top)
        c = first[m]
        while c != -1 and top < stk.shape[0]:
            if k == N_BLOCK or kind[c] == N_BLOCK or kind[c] == N_IF:  # statements, not expressions
                stk[top, S_NODE] = c
                top += 1
            c = next_[c]
    return bits


@nrt_free
def enter_loop(n, tree, types, scratch, sp):
    """Loop n starts (before a while's condition, after a for's iterable): without the facts
    of the locals its body assigns, as its body may run again after any of its points."""
    set_current(scratch, current(scratch) & ~_loop_kills(n, tree, types, scratch, sp))


@nrt_free
def open_body(n, top, src, toks, tree, types, scope, scratch, sp):
    """IF / loop frame top, its header checked: the facts its else-branch or exit starts from
    (NN_BEFORE: the condition false), its join's (NN_JOIN: none yet); its body's (the
    condition true) become current."""
    masks = scratch.masks
    nn = current(scratch)
    t, f = ZERO, ZERO
    if tree.kind[n] == N_IF or tree.kind[n] == N_WHILE:
        t, f = cond_facts(tree.first[n], src, toks, tree, types, scope, scratch, sp)
    masks[top, NN_BEFORE] = nn | f
    masks[top, NN_JOIN] = ALL
    set_current(scratch, nn | t)


@nrt_free
def open_else(top, scratch):
    """IF frame top, its then-branch walked: that branch's end joins, the else-branch starts."""
    masks = scratch.masks
    masks[top, NN_JOIN] = current(scratch)
    set_current(scratch, masks[top, NN_BEFORE])


@nrt_free
def open_loop_else(top, forever, scratch):
    """Loop frame top, its body walked: its else-branch starts from the loop's exit (none
    after `while True`: forever)."""
    set_current(scratch, ALL if forever else scratch.masks[top, NN_BEFORE])


@nrt_free
def join_branches(n, top, tree, scratch):
    """IF / loop frame top, its branches walked: the facts after it (an if: both branches'
    ends; a loop's else: its end and the loop's breaks; `while True`: its breaks; another
    loop: its exit and its breaks)."""
    masks = scratch.masks
    if tree.kind[n] == N_IF or loop_else(tree, n) >= 0:
        nn = current(scratch) & masks[top, NN_JOIN]
    elif tree.kind[n] == N_WHILE and is_const_true(tree, tree.first[n]):
        nn = masks[top, NN_JOIN]
    else:
        nn = masks[top, NN_BEFORE] & masks[top, NN_JOIN]
    set_current(scratch, nn)


@nrt_free
def leave_loop(j, scratch):
    """A break out of the loop of frame j: its facts join the loop's exit."""
    scratch.masks[j, NN_JOIN] &= current(scratch)


@nrt_free
def after_statement(n, ok, src, toks, tree, types, scope, scratch, sp):
    """The facts after simple statement n (ok: it checked): an assignment of a value that is
    never None narrows its local, of another (or one that failed) unbinds it, an unpacking
    unbinds its targets; `assert c` leaves c true; no path goes on after return, break or
    continue
    or raise."""
    k = tree.kind[n]
    nn = current(scratch)
    if k == N_ASSIGN:
        t = types.type[tree.first[n]]
        b = bit(types.slot[n])
        nn = nn | b if ok and t >= 0 and t != T_NONE and not is_optional(t) else nn & ~b
    elif k == N_AUGASSIGN:
        nn |= bit(types.slot[n])
    elif k == N_UNPACK:
        nn &= ~_target_bits(tree.first[n], tree, types, scratch, sp)
    elif k == N_ASSERT and ok:
        t, f = cond_facts(tree.first[n], src, toks, tree, types, scope, scratch, sp)
        nn |= t
    elif k == N_RETURN or k == N_BREAK or k == N_CONTINUE or k == N_RAISE:
        nn = ALL
    set_current(scratch, nn)
