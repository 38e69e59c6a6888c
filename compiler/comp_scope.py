"""Comprehension scopes, before a function is type-checked (kernel bodies, no recursion).

`bind_comprehensions` walks one function's body twice:

1. What consumes each comprehension, from the names of the calls (compiler/nodes.py COMP_*):
   `sum any all min max list (genexp)` become the COMP node in the call's place (the call's
   node is reused: a fold, or the new list); `sorted(genexp)` and `sep.join(genexp)` take the
   materialised list; `list()` is the literal `[]`.  `any(xs) all(xs) list(xs) sum(xs, start)` become a *bare* COMP whose
   children are the iterable (and start): one loop over it, the element its value.  A
   clause's `range(args)` / `reversed(range(args))` becomes a range clause (COMP_FOR's op:
   the argument count, + REVERSED_RANGE).  `reversed(x)` elsewhere than as the iterable of
   a loop or a clause is a located error.  It also finds the deepest
   for-statement nesting, whose hidden slots come first.
2. Slots and names, outermost comprehension first: a COMP's block of slots starts above the
   named locals, the loops' hidden slots and its enclosing comprehensions' blocks (siblings
   share), at val[comp]:

       val + ACC    the accumulator (the new list, the sum, the min / max so far)
       val + FLAG   min / max: an element was seen
       val + VARS + CLAUSE_WIDTH * k    the k-th for clause's variable (slot[clause]), then
                    its hidden loop slots (a list and its index, or a range's three)
       then         a slot per NAME of the clauses' unpacking targets (`for a, (b, c) in`:
                    slot[NAME]; the clause's variable holds the element they unpack)

   A clause's target (each name of an unpacking one) is a variable of the comprehension alone
   (Python 3): every NAME of that text after the clause (later clauses, the element) gets op
   NAME_COMP and slot = the variable's; one read before the clause that first binds it (in a later clause's
   expression) gets NAME_UNBOUND.  The first iterable is the enclosing scope's.  Inner
   comprehensions, bound later, shadow outer ones.  The local table (Scratch.locs) gets each
   variable's name, its type -1 until the type checker types its clause.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_TOO_MANY_LOCALS, E_UNSUPPORTED
from gpucc.compiler.limits import MAX_LOCALS
from gpucc.compiler.nodes import (
    COMP_ALL,
    COMP_ANY,
    COMP_GEN,
    COMP_LIST,
    COMP_MAX,
    COMP_MIN,
    COMP_SUM,
    N_CALL,
    N_COMP,
    N_COMP_FOR,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_LIST,
    N_METHOD,
    N_NAME,
)  # fmt: skip
from gpucc.compiler.scope import (
    B_MAX,
    B_MIN,
    B_REVERSED,
    B_SORTED,
    B_SUM,
    BUILTINS,
    L_END,
    L_START,
    L_TYPE,
    M_JOIN,
    builtin_code,
    find_function,
    find_local,
    function_body,
    method_code,
    same_name,
    synthetic_builtin,
)  # fmt: skip
from gpucc.compiler.typecheck_base import node_fail
from gpucc.compiler.typecheck_calls import count_from
from gpucc.contract.jitable import nrt_free

# a comprehension's slot block (val[comp] + ...)
ACC, FLAG, VARS = 0, 1, 2
CLAUSE_WIDTH = 4  # a for clause's variable and its 3 hidden loop slots
TARGET_COLUMN = 3  # the walk stack's column target_names fills
# NAME op: a comprehension's variable (slot[n]); one read before its clause binds it
NAME_COMP, NAME_UNBOUND = 1, 2
# COMP_FOR op: + the range() argument count when the clause iterates a range; + this when reversed
REVERSED_RANGE = 4

# the builtins that are comprehensions or loops here (their BUILTINS index; not callable builtins)
B_ANY, B_ALL, B_LIST, B_RANGE = (BUILTINS.index(b) for b in ("any", "all", "list", "range"))


@nrt_free
def is_bare(tree, comp):
    """A COMP made of a builtin's plain iterable argument (no clauses)."""
    return tree.kind[tree.first[comp]] != N_COMP_FOR


@nrt_free
def _builtin_of(src, toks, tree, types, scope, scratch, n):
    """The BUILTINS index of the builtin CALL n calls (-1: a function of the unit, a local
    (the type checker's error: Python would call its value) or no builtin)."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    if synthetic_builtin(toks, tree.tok[n]) >= 0:  # desugar.py's
        return synthetic_builtin(toks, tree.tok[n])
    if find_function(src, types.fn, scope.nf, s, e) >= 0 or find_local(src, scratch.locs, scope.nloc, s, e) >= 0:
        return -1
    return builtin_code(src, s, e)


@nrt_free
def _generator_arg(tree, n, nargs):
    """The generator expression that is call n's one argument, or -1."""
    a = tree.first[n]
    return a if nargs == 1 and tree.kind[a] == N_COMP and tree.op[a] == COMP_GEN else -1


@nrt_free
def _consume(src, toks, tree, types, scope, scratch, n, err):
    """Call or method n: the comprehension it consumes (module docstring, walk 1).  0, or -1."""
    kind, op, first, next_ = tree.kind, tree.op, tree.first, tree.next
    if kind[n] == N_METHOD:
        s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
        a = next_[first[n]]
        if method_code(src, s, e) == M_JOIN and a != -1 and next_[a] == -1 and kind[a] == N_COMP:
            op[a] = COMP_LIST
        return 0
    b = _builtin_of(src, toks, tree, types, scope, scratch, n)
    nargs = count_from(next_, first[n])
    gen = _generator_arg(tree, n, nargs)
    fold = -1
    if b == B_LIST and nargs == 0:  # list(): the literal []
        kind[n] = N_LIST
        return 0
    if b == B_ANY or b == B_ALL or b == B_LIST:
        if nargs != 1:
            return node_fail(err, E_BUILTIN_ARGS, toks, tree, n, 256 + nargs)
        fold = COMP_ANY if b == B_ANY else (COMP_ALL if b == B_ALL else COMP_LIST)
    elif b == B_SUM and (gen >= 0 or nargs == 2):
        fold = COMP_SUM
    elif (b == B_MIN or b == B_MAX) and gen >= 0:
        fold = COMP_MIN if b == B_MIN else COMP_MAX
    elif b == B_SORTED and gen >= 0:
        op[gen] = COMP_LIST
    if fold >= 0:
        kind[n] = N_COMP
        op[n] = fold
        if gen >= 0:
            first[n] = first[gen]
    return 0


@nrt_free
def _range_clause(src, toks, tree, types, scope, scratch, clause, err):
    """A for clause over `range(args)` or `reversed(range(args))`: its children become the
    arguments (op: their count, + REVERSED_RANGE).  0, or -1."""
    kind, first = tree.kind, tree.first
    it = first[clause]
    flags = 0
    if kind[it] == N_CALL and _builtin_of(src, toks, tree, types, scope, scratch, it) == B_REVERSED and first[it] != -1:
        inner = first[it]
        if kind[inner] != N_CALL or tree.next[inner] != -1 or _builtin_of(src, toks, tree, types, scope, scratch, inner) != B_RANGE:
            return 0
        flags = REVERSED_RANGE
        it = inner
    if kind[it] != N_CALL or _builtin_of(src, toks, tree, types, scope, scratch, it) != B_RANGE:
        return 0
    nargs = count_from(tree.next, first[it])
    if nargs < 1 or nargs > 3 or (flags != 0 and nargs > 2):
        return node_fail(err, E_UNSUPPORTED, toks, tree, it, errors.C_FOR_NOT_RANGE)
    tree.op[clause] = nargs + flags
    first[clause] = first[it]
    return 0


@nrt_free
def _iterated_by(tree, n, parent):
    """Whether node n is what its parent iterates: a for loop's, a clause's, a bare COMP's."""
    k = tree.kind[parent]
    if tree.first[parent] != n:
        return False
    return k == N_FOR_LIST or k == N_COMP_FOR or (k == N_COMP and is_bare(tree, parent))


@nrt_free
def _resolve_calls(src, toks, tree, types, scope, body, scratch, err):
    """Walk 1 (module docstring).  Returns the deepest for-statement nesting, or -1."""
    kind, first, next_, stk = tree.kind, tree.first, tree.next, scratch.walk
    deepest = 0
    sp = 1
    stk[0, 0], stk[0, 1], stk[0, 2] = body, 0, -1
    while sp > 0:
        sp -= 1
        n, depth, parent = stk[sp, 0], stk[sp, 1], stk[sp, 2]
        k = kind[n]
        if k == N_CALL or k == N_METHOD:
            if _consume(src, toks, tree, types, scope, scratch, n, err) < 0:
                return -1
        if kind[n] == N_CALL and _builtin_of(src, toks, tree, types, scope, scratch, n) == B_REVERSED and (
                parent < 0 or not _iterated_by(tree, n, parent)):  # fmt: skip
            return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_REVERSED)
        if k == N_COMP_FOR and tree.op[n] == 0 and _range_clause(src, toks, tree, types, scope, scratch, n, err) < 0:
            return -1
        if k == N_FOR_RANGE or k == N_FOR_LIST:
            depth += 1
            deepest = max(deepest, depth)
        c = first[n]
        while c != -1:
            if kind[c] != N_FUNCDEF:  # module code: not its functions'
                stk[sp, 0], stk[sp, 1], stk[sp, 2] = c, depth, n
                sp += 1
            c = next_[c]
    return deepest


@nrt_free
def _mark_names(src, toks, tree, types, root, s, e, mark, slot, stk):
    """Every NAME src[s:e] in the subtree at root: op = mark, slot[] = slot (column 2 of stk)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    sp = 1
    stk[0, 2] = root
    while sp > 0:
        sp -= 1
        n = stk[sp, 2]
        if kind[n] == N_NAME and same_name(src, toks.start[tree.tok[n]], toks.end[tree.tok[n]], s, e):
            tree.op[n] = mark
            types.slot[n] = slot
        c = first[n]
        while c != -1:
            stk[sp, 2] = c
            sp += 1
            c = next_[c]


@nrt_free
def _bound_before(src, toks, tree, comp, clause, s, e):
    """Whether a for clause of comp before `clause` has the target name src[s:e]."""
    c = tree.first[comp]
    while c != clause:
        if tree.kind[c] == N_COMP_FOR and same_name(src, toks.start[tree.tok[c]], toks.end[tree.tok[c]], s, e):
            return True
        c = tree.next[c]
    return False


@nrt_free
def _bind_name(src, toks, tree, types, comp, c, s, e, var, scratch):
    """Clause c binds the name src[s:e] to slot var: its reads after c (later clauses, the
    element) are the variable's; a read before c that no earlier clause binds is unbound."""
    first, next_, locs, stk = tree.first, tree.next, scratch.locs, scratch.walk
    locs[var, L_START], locs[var, L_END], locs[var, L_TYPE] = s, e, -1
    if not _bound_before(src, toks, tree, comp, c, s, e):  # read before it is bound: unbound
        d = next_[first[comp]] if c != first[comp] else -1
        while d != -1 and d != next_[c]:
            _mark_names(src, toks, tree, types, d, s, e, NAME_UNBOUND, -1, stk)
            d = next_[d]
    d = next_[c]
    while d != -1:
        _mark_names(src, toks, tree, types, d, s, e, NAME_COMP, var, stk)
        d = next_[d]


@nrt_free
def target_names(tree, target, stk):
    """The NAMEs of an unpacking target (a TUPLE of NAMEs and TUPLEs) into column TARGET_COLUMN
    of the walk stack's rows 0 .. count - 1 (in no particular order); returns the count."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    names = 0
    sp = stk.shape[0] - 1  # the open TUPLEs, from the last row down
    stk[sp, TARGET_COLUMN] = target
    while sp < stk.shape[0] and names < sp:
        m = stk[sp, TARGET_COLUMN]
        sp += 1
        c = first[m]
        while c != -1 and names < sp:
            if kind[c] == N_NAME:
                stk[names, TARGET_COLUMN] = c
                names += 1
            else:
                sp -= 1
                stk[sp, TARGET_COLUMN] = c
            c = next_[c]
    return names


@nrt_free
def _bind_clauses(src, toks, tree, types, comp, scratch):
    """Give comp's for clauses their variables and bind their names (module docstring)."""
    first, next_, stk = tree.first, tree.next, scratch.walk
    var = tree.val[comp] + VARS
    names = tree.val[comp] + _block_width(tree, comp, False, stk)  # the slots of targets' names
    c = first[comp]
    while c != -1:
        if tree.kind[c] == N_COMP_FOR:
            types.slot[c] = var
            if tree.val[c] > 0:  # an unpacking target: the variable holds the element, each name its item
                scratch.locs[var, L_START], scratch.locs[var, L_END], scratch.locs[var, L_TYPE] = 0, 0, -1
                for k in range(target_names(tree, tree.val[c], stk)):
                    m = stk[k, TARGET_COLUMN]
                    types.slot[m] = names
                    _bind_name(src, toks, tree, types, comp, c, toks.start[tree.tok[m]], toks.end[tree.tok[m]],
                               names, scratch)  # fmt: skip
                    names += 1
            else:
                _bind_name(src, toks, tree, types, comp, c, toks.start[tree.tok[c]], toks.end[tree.tok[c]], var,
                           scratch)  # fmt: skip
            var += CLAUSE_WIDTH
        c = next_[c]


@nrt_free
def _block_width(tree, comp, targets, stk):
    """Slots of comp's block: ACC, FLAG and a variable with 3 hidden slots per for clause (and
    targets: then a slot per name of its clauses' unpacking targets)."""
    if is_bare(tree, comp):
        return VARS + CLAUSE_WIDTH
    width = VARS
    c = tree.first[comp]
    while c != -1:
        if tree.kind[c] == N_COMP_FOR:
            width += CLAUSE_WIDTH
            if targets and tree.val[c] > 0:
                width += target_names(tree, tree.val[c], stk)
        c = tree.next[c]
    return width


@nrt_free
def bind_comprehensions(src, toks, tree, types, scope, f, scratch, err):
    """Walks 1 and 2 (module docstring) over function f (scope: the type checker's, its named
    locals in scratch.locs).
    Returns the slots the function needs below its comprehensions' (the named locals and the
    hidden loop slots) plus the most its comprehensions take at once, or -1 with err set."""
    first, next_, stk = tree.first, tree.next, scratch.walk
    body = function_body(tree, types.fn, f)
    deepest = _resolve_calls(src, toks, tree, types, scope, body, scratch, err)
    if deepest < 0:
        return -1
    base = scope.nloc + 3 * deepest
    end = base
    sp = 1
    stk[0, 0], stk[0, 1] = body, base
    while sp > 0:
        sp -= 1
        n, at = stk[sp, 0], stk[sp, 1]
        if tree.kind[n] == N_COMP:
            tree.val[n] = at
            at += _block_width(tree, n, True, stk)
            if at > MAX_LOCALS:
                return node_fail(err, E_TOO_MANY_LOCALS, toks, tree, n, MAX_LOCALS)
            end = max(end, at)
            if not is_bare(tree, n):
                _bind_clauses(src, toks, tree, types, n, scratch)
        c = first[n]
        while c != -1:
            if tree.kind[c] != N_FUNCDEF:
                stk[sp, 0], stk[sp, 1] = c, at
                sp += 1
            c = next_[c]
    return end
