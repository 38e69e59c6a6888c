"""Type checker, a local that changes type: `s = list(t)` ... `s = ''.join(s)` gives `s` a new
slot from the second assignment on, as if it were another name (a part of phase 3; kernel
bodies, no recursion: explicit stacks).

CPython lets a name hold values of several types; gpucc types each local once.  Where an
assignment `x = v` (or an unpacking `a, x = v`) gives x a value of a type its local cannot take
(no widening, no Optional or `[]` preset joins them), the assignment *splits* x when no join
point can see both types: no loop encloses it (the loop's head would join the body's x with
the one before), and x is not written or read after the end of the block holding it (not in a
later elif / else branch, an except clause, finally, or after the if / try: where the old and
the new x meet).  Then x's later reads and writes in that block are a new version: a new slot
after the named ones.  Otherwise the mismatch stays the located compile error it was.

How: the statement walk (compiler/typecheck.py) meets the mismatch; `split_request` decides and
asks for the function to be checked again (SPLIT_REQUEST - n), marking n (the SPLIT column of
Scratch.masks, per node: the splits only grow).  Each check of a function with splits then
numbers the versions before its walk (`bind_versions`, after scope.collect_locals): a preorder
walk in source order that tags each NAME with its version (the VERSION column: slot + 1; 0 for
the base local, scope.find_local's) and points assignments at theirs.  `local_of` is the
lookup every read goes through.  A split statement's value still reads the old version.
"""

from __future__ import annotations

from gpucc.compiler.arrays import ERR_ARG, ERR_ARG2, ERR_CODE, fail
from gpucc.compiler.errors import E_TOO_MANY_LOCALS, E_TYPE_AT_JOIN
from gpucc.compiler.limits import MAX_FUNCTIONS, MAX_LOCALS
from gpucc.compiler.nodes import (
    N_ASSIGN,
    N_AUGASSIGN,
    N_BLOCK,
    N_COMP_FOR,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_NAME,
    N_TUPLE,
    N_UNPACK,
    N_WHILE,
    NO_TYPE,
)
from gpucc.compiler.scope import F_IMPORT, F_NODE, L_CUR, L_END, L_START, L_TYPE, MODULE_ROW, find_local, function_body, same_name
from gpucc.compiler.typecheck_base import PRESET_REQUEST, S_NODE
from gpucc.contract.jitable import nrt_free

# Scratch.masks columns per node, after compiler/narrowing.py's (NARROW_WIDTH = 7): a NAME's
# version (its slot + 1, 0: the base local), a statement's split mark (on a FUNCDEF: it has one)
VERSION = 7
SPLIT = 8
VERSIONS_WIDTH = 9  # typecheck.MASK_WIDTH
# check again with statement n splitting its names: SPLIT_REQUEST - n (below the other requests)
SPLIT_REQUEST = PRESET_REQUEST - MAX_LOCALS - MAX_FUNCTIONS  # typecheck_infer.CALLEE_REQUEST - MAX_FUNCTIONS
# bind_versions' walk entries (column 1): a node; a node whose NAMEs are assigned; the split of
# the statement, once its value was walked
VISIT, TARGET, SWITCH = 0, 1, 2


@nrt_free
def clear_versions(scratch, n_nodes):
    """No versions and no splits yet in the unit."""
    masks = scratch.masks
    for i in range(n_nodes):
        masks[i, VERSION] = 0
        masks[i, SPLIT] = 0


@nrt_free
def local_of(n, src, toks, tree, nloc, locs, masks):
    """The slot of the local NAME n (not a comprehension's variable) reads, or -1."""
    if masks[n, VERSION] != 0:
        return int(masks[n, VERSION]) - 1
    return find_local(src, locs, nloc, toks.start[tree.tok[n]], toks.end[tree.tok[n]])


@nrt_free
def _push_children(tree, stk, sp, n, mode):
    """Node n's children (not a nested def) onto the walk stack from row sp, the first on top;
    returns the new size."""
    lo = sp
    c = tree.first[n]
    while c != -1:
        if tree.kind[c] != N_FUNCDEF:
            stk[sp, 0] = c
            stk[sp, 1] = mode
            sp += 1
        c = tree.next[c]
    hi = sp - 1
    while lo < hi:
        stk[lo, 0], stk[hi, 0] = stk[hi, 0], stk[lo, 0]
        lo += 1
        hi -= 1
    return sp


@nrt_free
def _subtree_end(root, toks, tree, stk, base):
    """The last source byte of root's subtree (walk rows from base)."""
    end = 0
    sp = base
    stk[sp, 0] = root
    sp += 1
    while sp > base:
        sp -= 1
        n = stk[sp, 0]
        end = max(end, toks.end[tree.tok[n]])
        sp = _push_children(tree, stk, sp, n, VISIT)
    return end


@nrt_free
def _names_it(n, k):
    """Whether node n (of kind k) names a local at its token: a read, an assignment, a loop's
    or a clause's variable."""
    return (k == N_NAME or k == N_ASSIGN or k == N_AUGASSIGN or k == N_FOR_RANGE or k == N_FOR_LIST
            or k == N_COMP_FOR)  # fmt: skip


@nrt_free
def _used_after(root, s, e, end, src, toks, tree, stk, base):
    """Whether the name src[s:e] is read or written in root's subtree after source byte end."""
    sp = base
    stk[sp, 0] = root
    sp += 1
    while sp > base:
        sp -= 1
        n = stk[sp, 0]
        t = tree.tok[n]
        if _names_it(n, tree.kind[n]) and toks.start[t] > end and same_name(src, toks.start[t], toks.end[t], s, e):
            return True
        sp = _push_children(tree, stk, sp, n, VISIT)
    return False


@nrt_free
def split_request(n, top, f, src, toks, tree, types, scratch, err):
    """Assignment or unpacking n (walk row top; the rows below: its enclosing blocks and
    statements) just failed with a type mismatch (err): SPLIT_REQUEST - n when it may split
    its names (module docstring), else -1 (an assignment's own mismatch made E_TYPE_AT_JOIN)."""
    stk, masks, kind = scratch.walk, scratch.masks, tree.kind
    if masks[n, SPLIT] != 0 or top < 1 or (kind[n] == N_ASSIGN and tree.op[n] != NO_TYPE):
        return -1
    r = _may_split(n, top, f, src, toks, tree, types, scratch)
    if r == 0 and kind[n] == N_ASSIGN and err[ERR_ARG] == scratch.locs[types.slot[n], L_TYPE]:
        if err[ERR_ARG2] == types.type[tree.first[n]]:  # the value's type, not an error inside it
            err[ERR_CODE] = E_TYPE_AT_JOIN
    return r if r <= -2 else -1


@nrt_free
def _may_split(n, top, f, src, toks, tree, types, scratch):
    """split_request's decision: SPLIT_REQUEST - n, or 0."""
    stk, kind = scratch.walk, tree.kind
    if types.fn[f, F_IMPORT] == MODULE_ROW or kind[stk[top - 1, S_NODE]] != N_BLOCK:
        return 0
    for j in range(top):
        k = kind[stk[j, S_NODE]]
        if k == N_WHILE or k == N_FOR_RANGE or k == N_FOR_LIST:
            return 0
    body = function_body(tree, types.fn, f)
    base = top + 1
    end = _subtree_end(stk[top - 1, S_NODE], toks, tree, stk, base)
    if kind[n] == N_ASSIGN:
        t = tree.tok[n]
        if _used_after(body, toks.start[t], toks.end[t], end, src, toks, tree, stk, base):
            return 0
    else:  # every name of the target (its NAMEs, walked in column 2 of rows above base)
        sp = base
        stk[sp, 2] = tree.first[n]
        sp += 1
        while sp > base:
            sp -= 1
            m = stk[sp, 2]
            if kind[m] == N_TUPLE:
                c = tree.first[m]
                while c != -1:
                    stk[sp, 2] = c
                    sp += 1
                    c = tree.next[c]
            elif kind[m] == N_NAME:
                t = tree.tok[m]
                if _used_after(body, toks.start[t], toks.end[t], end, src, toks, tree, stk, sp):
                    return 0
    return SPLIT_REQUEST - n


@nrt_free
def mark_split(n, f, types, scratch):
    """Statement n of function f splits its names from the next check on."""
    scratch.masks[n, SPLIT] = 1
    scratch.masks[types.fn[f, F_NODE], SPLIT] = 1


@nrt_free
def _new_version(m, nloc, nbase, src, toks, tree, types, locs, err):
    """NAME or ASSIGN m starts a new version of its local (module docstring): slot[m] = it.
    Returns the slot count, or -1 with err set."""
    s, e = toks.start[tree.tok[m]], toks.end[tree.tok[m]]
    v = find_local(src, locs, nbase, s, e)
    if v < 0:
        return nloc
    if nloc >= MAX_LOCALS:
        return fail(err, E_TOO_MANY_LOCALS, s, e, MAX_LOCALS)
    locs[nloc, L_START] = locs[v, L_START]
    locs[nloc, L_END] = locs[v, L_END]
    locs[nloc, L_TYPE] = -1
    locs[v, L_CUR] = nloc
    types.slot[m] = nloc
    return nloc + 1


@nrt_free
def _new_target_versions(target, nloc, nbase, src, toks, tree, types, locs, stk, base, err):
    """A new version of each name of unpacking target TUPLE target (walk rows from base,
    column 2).  Returns the slot count, or -1 with err set."""
    sp = base
    stk[sp, 2] = target
    sp += 1
    while sp > base and nloc >= 0:
        sp -= 1
        m = stk[sp, 2]
        if tree.kind[m] == N_NAME:
            nloc = _new_version(m, nloc, nbase, src, toks, tree, types, locs, err)
        c = tree.first[m] if tree.kind[m] == N_TUPLE else -1
        while c != -1:
            stk[sp, 2] = c
            sp += 1
            c = tree.next[c]
    return nloc


@nrt_free
def bind_versions(src, toks, tree, types, f, nloc, scratch, err):
    """Number the versions of function f's split locals (module docstring) after its nloc
    named ones.  Returns the slot count, or -1 with err set."""
    masks, locs, stk, kind = scratch.masks, scratch.locs, scratch.walk, tree.kind
    if masks[types.fn[f, F_NODE], SPLIT] == 0:
        return nloc
    nbase = nloc
    for v in range(nbase):
        locs[v, L_CUR] = v
    sp = 0
    stk[sp, 0] = function_body(tree, types.fn, f)
    stk[sp, 1] = VISIT
    sp += 1
    while sp > 0:
        sp -= 1
        n, mode = stk[sp, 0], stk[sp, 1]
        k = kind[n]
        split = masks[n, SPLIT] != 0 and (k == N_ASSIGN or k == N_UNPACK)
        if mode == SWITCH and k == N_ASSIGN:
            nloc = _new_version(n, nloc, nbase, src, toks, tree, types, locs, err)
            if nloc < 0:
                return -1
            continue
        if mode == SWITCH:  # an unpacking: a new version of each name of its target
            nloc = _new_target_versions(tree.first[n], nloc, nbase, src, toks, tree, types, locs, stk, sp, err)
            if nloc < 0:
                return -1
            continue
        v = -1
        if _names_it(n, k) and k != N_COMP_FOR and (k != N_NAME or tree.op[n] == 0):
            v = find_local(src, locs, nbase, toks.start[tree.tok[n]], toks.end[tree.tok[n]])
        if v >= 0:
            w = locs[v, L_CUR]
            if k == N_NAME:
                masks[n, VERSION] = w + 1
                if mode == TARGET:
                    types.slot[n] = w
            elif not split:
                types.slot[n] = w
        if split:  # the value first (it reads the old version), then the switch, then the target
            if k == N_UNPACK:
                stk[sp, 0] = tree.first[n]
                stk[sp, 1] = TARGET
                sp += 1
            stk[sp, 0] = n
            stk[sp, 1] = SWITCH
            sp += 1
            stk[sp, 0] = tree.next[tree.first[n]] if k == N_UNPACK else tree.first[n]
            stk[sp, 1] = VISIT
            sp += 1
            continue
        if k == N_UNPACK or (k == N_FOR_LIST and tree.op[n] == 1):
            target = tree.first[n] if k == N_UNPACK else tree.next[tree.next[tree.first[n]]]
            c = tree.first[n]
            lo = sp
            while c != -1:
                stk[sp, 0] = c
                stk[sp, 1] = TARGET if (c == target or mode == TARGET) else VISIT
                sp += 1
                c = tree.next[c]
            _reverse(stk, lo, sp - 1)
        else:
            sp = _push_children(tree, stk, sp, n, mode)
    return nloc


@nrt_free
def _reverse(stk, lo, hi):
    while lo < hi:
        stk[lo, 0], stk[hi, 0] = stk[hi, 0], stk[lo, 0]
        stk[lo, 1], stk[hi, 1] = stk[hi, 1], stk[lo, 1]
        lo += 1
        hi -= 1
