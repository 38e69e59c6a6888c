"""Desugaring, closures (the last step of compiler/desugar.py's pass; kernel bodies): a nested
def that reads a local of its enclosing function takes it as a hidden parameter, and each
call passes the local's value at the time of the call -- what CPython's cell holds then (a
name the nested def assigns is its own local, as in Python).  The calls must be in the
enclosing function or in the nested def itself (E_CLOSURE elsewhere: a sibling would have to
capture the value too).

The walks are preorder over a subtree (desugar_nodes.preorder_next) with the parser's free
operator stack as their explicit stacks.
"""

from __future__ import annotations

from gpucc.compiler.errors import E_CLOSURE, E_NESTING_TOO_DEEP, E_PROGRAM_TOO_LARGE, E_TOO_MANY_PARAMS
from gpucc.compiler.limits import MAX_NESTING, MAX_PARAMS
from gpucc.compiler.nodes import (
    N_ASSIGN,
    N_AUGASSIGN,
    N_CALL,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_NAME,
    N_PARAM,
    N_TUPLE,
    N_UNPACK,
    NO_TYPE,
)  # fmt: skip
from gpucc.compiler.desugar_nodes import WALK_DEPTH, preorder_next
from gpucc.compiler.parser_util import S_OPS, fail_tok, link_child, new_node
from gpucc.compiler.scope import builtin_code, last_child, same_name, synthetic_builtin
from gpucc.contract.jitable import nrt_free

# the three walks that run inside one another: their stacks in the parser's operator stack
WALK_A, WALK_B, WALK_C = S_OPS, S_OPS + WALK_DEPTH, S_OPS + 2 * WALK_DEPTH


@nrt_free
def _spelled(src, toks, tree, x, s, e):
    return same_name(src, toks.start[tree.tok[x]], toks.end[tree.tok[x]], s, e)


@nrt_free
def _binds(src, toks, tree, st, d, s, e):
    """Whether function d has a local src[s:e]: a parameter, an assignment's or a for loop's
    name, a name of an unpacking target (a statement's, a for loop's).  -1: too deep."""
    x = tree.first[d]
    while x != -1 and tree.kind[x] == N_PARAM:
        if _spelled(src, toks, tree, x, s, e):
            return 1
        x = tree.next[x]
    root = last_child(tree, d)
    x, sp = root, 0  # walk B
    while x != -1:
        k = tree.kind[x]
        named = k == N_ASSIGN or k == N_AUGASSIGN or k == N_FOR_RANGE or (k == N_FOR_LIST and tree.op[x] == 0)
        if named and _spelled(src, toks, tree, x, s, e):
            return 1
        target = tree.first[x] if k == N_UNPACK else -1
        if k == N_FOR_LIST and tree.op[x] == 1:
            target = tree.next[tree.next[tree.first[x]]]
        if target >= 0 and tree.kind[target] == N_TUPLE:  # its NAMEs, on the second stack
            y, sq = target, 0
            while y != -1:
                if tree.kind[y] == N_NAME and _spelled(src, toks, tree, y, s, e):
                    return 1
                y, sq = preorder_next(tree, st, WALK_C, target, y, sq)
                if sq < 0:
                    return -1
        x, sp = preorder_next(tree, st, WALK_B, root, x, sp)
        if sp < 0:
            return -1
    return 0


@nrt_free
def _function_named(src, toks, tree, s, e):
    """The FUNCDEF named src[s:e], or -1."""
    d = tree.first[0]
    while d != -1 and not (tree.kind[d] == N_FUNCDEF and _spelled(src, toks, tree, d, s, e)):
        d = tree.next[d]
    return d


@nrt_free
def _capture(src, toks, tree, st, d, err):
    """Nested def d: a hidden parameter (val 1) for each local of its enclosing function it
    reads and does not bind.  Returns how many, or -1 with err set."""
    parent = tree.val[d]
    last = -1  # d's last parameter
    count = 0
    x = tree.first[d]
    while x != -1 and tree.kind[x] == N_PARAM:
        last = x
        count += 1
        x = tree.next[x]
    block = x
    added = 0
    x, sp = block, 0
    while x != -1:
        if tree.kind[x] == N_NAME:
            s, e = toks.start[tree.tok[x]], toks.end[tree.tok[x]]
            own = _binds(src, toks, tree, st, d, s, e)
            theirs = 0 if own != 0 else _binds(src, toks, tree, st, parent, s, e)
            if own < 0 or theirs < 0:
                return fail_tok(err, toks, tree.tok[x], tree.tok[x], E_NESTING_TOO_DEEP, MAX_NESTING)
            if theirs == 1 and _function_named(src, toks, tree, s, e) < 0 and builtin_code(src, s, e) < 0:
                if count >= MAX_PARAMS:
                    return fail_tok(err, toks, tree.tok[x], tree.tok[x], E_TOO_MANY_PARAMS, MAX_PARAMS)
                p = new_node(tree, st, N_PARAM, NO_TYPE, tree.tok[x], 1)
                if p < 0:
                    return fail_tok(err, toks, tree.tok[x], tree.tok[x], E_PROGRAM_TOO_LARGE, 0)
                tree.next[p] = block
                link_child(tree, d, last, p)
                last = p
                count += 1
                added += 1
        x, sp = preorder_next(tree, st, WALK_A, block, x, sp)
        if sp < 0:
            return fail_tok(err, toks, tree.tok[d], tree.tok[d], E_NESTING_TOO_DEEP, MAX_NESTING)
    return added


@nrt_free
def _pass_captured(src, toks, tree, st, f, err):
    """The calls in function f of nested defs with hidden parameters pass them (f is the
    enclosing function or the nested def itself).  0, or -1 with err set."""
    block = last_child(tree, f)
    x, sp = block, 0
    while x != -1:
        if tree.kind[x] == N_CALL and synthetic_builtin(toks, tree.tok[x]) < 0:
            d = _function_named(src, toks, tree, toks.start[tree.tok[x]], toks.end[tree.tok[x]])
            p = tree.first[d] if d >= 0 else -1
            while p != -1 and tree.kind[p] == N_PARAM and tree.val[p] == 0:
                p = tree.next[p]
            if p != -1 and tree.kind[p] == N_PARAM and f != d and f != tree.val[d]:
                return fail_tok(err, toks, tree.tok[x], tree.tok[x], E_CLOSURE, 0)
            last = tree.first[x]
            while last != -1 and tree.next[last] != -1:
                last = tree.next[last]
            while p != -1 and tree.kind[p] == N_PARAM:  # the captured values, after the arguments
                a = new_node(tree, st, N_NAME, 0, tree.tok[p], 0)
                if a < 0:
                    return fail_tok(err, toks, tree.tok[x], tree.tok[x], E_PROGRAM_TOO_LARGE, 0)
                link_child(tree, x, last, a)
                last = a
                p = tree.next[p]
        x, sp = preorder_next(tree, st, WALK_A, block, x, sp)
        if sp < 0:
            return fail_tok(err, toks, tree.tok[f], tree.tok[f], E_NESTING_TOO_DEEP, MAX_NESTING)
    return 0


@nrt_free
def closures(src, toks, tree, st, err):
    """Hidden parameters for what nested defs read of their enclosing functions, passed by
    every call.  0, or -1 with err set."""
    any_ = False
    d = tree.first[0]
    while d != -1:
        if tree.kind[d] == N_FUNCDEF and tree.val[d] >= 0:
            n = _capture(src, toks, tree, st, d, err)
            if n < 0:
                return -1
            any_ = any_ or n > 0
        d = tree.next[d]
    d = tree.first[0]
    while any_ and d != -1:
        if tree.kind[d] == N_FUNCDEF and _pass_captured(src, toks, tree, st, d, err) < 0:
            return -1
        d = tree.next[d]
    return 0
