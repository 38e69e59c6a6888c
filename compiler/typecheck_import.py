"""Type checker, the names imports bind (compiler/modules.py): a module's function called
(`math.sqrt(x)`, `sqrt(x)` after `from math import sqrt`) becomes a CALL resolved to it (a
prelude function's: to the unit's function, compiler/preludes.py), a constant (`math.pi`,
`sys.maxsize`) its INT or FLOAT node.  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_MODULE_MEMBER, E_UNSUPPORTED
from gpucc.compiler.modules import (
    CONSTANT_BITS,
    CONSTANT_TYPES,
    DEFAULTDICT_MEMBER,
    FIRST_DESUGARED,
    FIRST_MODULE_CODE,
    FIRST_PRELUDE,
    MATH_FEWEST,
    MATH_MOST,
    MATH_RULES,
    MEMBER_BYTES,
    MEMBER_LENS,
    N_MATH_FUNCTIONS,
    PERMUTATIONS,
    empty_deque,
    find_import,
    import_module,
    math_arity_ok,
    member_code,
)
from gpucc.compiler.nodes import N_ATTR, N_CALL, N_FLOAT, N_INT, N_KWARG, N_NAME
from gpucc.compiler.scope import F_NAME_E, F_NAME_S, F_NODE, find_local, table_index
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_INT


@nrt_free
def prelude_function(src, fn, nf, k):
    """The unit's function that prelude member k names (compiler/preludes.py appended it), or -1."""
    return named_function(src, fn, nf, k, MEMBER_BYTES, MEMBER_LENS)


@nrt_free
def named_function(src, fn, nf, k, names, lens):
    """The unit's function named by row k of the byte table names, lens, or -1."""
    for g in range(nf):
        if table_index(src, fn[g, F_NAME_S], fn[g, F_NAME_E], names, lens) == k:
            return g
    return -1


@nrt_free
def desugared_left(k):
    """The construct a call of desugared member k that compiler/desugar.py left is: a fold
    outside a statement that runs it once (compiler/desugar_folds.py), an itertools form, or
    defaultdict() without a factory."""
    if k == DEFAULTDICT_MEMBER:  # defaultdict() (compiler/desugar_defaultdict.py made the rest)
        return errors.C_DEFAULTDICT_FORM
    return errors.C_FOLD_PLACE if k < PERMUTATIONS else errors.C_ITERTOOLS_FORM


@nrt_free
def module_call(tree, n, k, args, s, e, err):
    """CALL n (its callee src[s:e]) calls math member k with the arguments args, next[args],
    ...: op[n] set (a module or a constant, a keyword argument: E_UNSUPPORTED).  Returns 0, or
    -1 with err set."""
    if k < 0 or k >= N_MATH_FUNCTIONS:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_MODULE_VALUE)
    nargs = 0
    c = args
    while c != -1:
        if tree.kind[c] == N_KWARG:
            return fail(err, E_UNSUPPORTED, s, e, errors.C_KWARGS)
        nargs += 1
        c = tree.next[c]
    if not math_arity_ok(k, nargs):
        most = MATH_RULES[k, MATH_MOST]
        return fail(err, E_BUILTIN_ARGS, s, e, (most if nargs > most else MATH_RULES[k, MATH_FEWEST]) * 256 + nargs)
    tree.op[n] = 1 + FIRST_MODULE_CODE + k
    return 0


@nrt_free
def _imported(src, toks, tree, types, scope, scratch, n):
    """The IMPORT node binding NAME n, when no local of that name hides it; else -1."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    if find_local(src, scratch.locs, scope.nloc, s, e) >= 0:
        return -1
    return find_import(src, toks, tree, s, e, types.fn[scope.f, F_NODE])


@nrt_free
def resolve_attribute(src, toks, tree, types, scope, scratch, n, err):
    """METHOD or ATTR n on a module (`math.sqrt(x)`, `math.pi`), before its children are typed:
    made a CALL of the module's function (op set: resolved) or the constant's node.  Any other
    ATTR is E_UNSUPPORTED (attribute access); a METHOD of a value stays.  0, or -1 (err set)."""
    obj = tree.first[n]
    imp = _imported(src, toks, tree, types, scope, scratch, obj) if tree.kind[obj] == N_NAME else -1
    s, e = toks.start[tree.tok[obj]], toks.end[tree.tok[n]]
    if imp < 0 or tree.val[imp] >= 0:
        if tree.kind[n] == N_ATTR:
            return fail(err, E_UNSUPPORTED, toks.start[tree.tok[n] - 1], e, errors.C_ATTRIBUTES)  # from the dot
        return 0
    k = member_code(src, import_module(tree, imp), toks.start[tree.tok[n]], e)
    if k < 0:
        return fail(err, E_MODULE_MEMBER, s, e, 0)
    if tree.kind[n] == N_ATTR:
        return constant_node(tree, n, k, s, e, err)
    args = tree.next[obj]
    if k >= FIRST_DESUGARED:  # what compiler/desugar.py left
        return fail(err, E_UNSUPPORTED, s, e, desugared_left(k))
    if k >= FIRST_PRELUDE:  # a CALL of the unit's function of its name (typecheck_calls.resolve_call)
        tree.kind[n] = N_CALL
        tree.first[n] = args
        empty_deque(tree, n, k)  # collections.deque(): compiler/typecheck_deque.py
        return 0
    if module_call(tree, n, k, args, s, e, err) < 0:
        return -1
    tree.kind[n] = N_CALL
    tree.first[n] = args
    return 0


@nrt_free
def constant_node(tree, n, k, s, e, err):
    """Node n (src[s:e]) names member k: made its constant's INT or FLOAT node (a function or
    the module as a value: E_UNSUPPORTED).  0, or -1 with err set."""
    if k >= FIRST_DESUGARED:
        return fail(err, E_UNSUPPORTED, s, e, desugared_left(k))
    if k < N_MATH_FUNCTIONS or k >= FIRST_PRELUDE:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_MODULE_VALUE)
    tree.kind[n] = N_INT if CONSTANT_TYPES[k - N_MATH_FUNCTIONS] == T_INT else N_FLOAT
    tree.val[n] = CONSTANT_BITS[k - N_MATH_FUNCTIONS]
    tree.first[n] = -1
    return 0


@nrt_free
def imported_constant(tree, n, imp, s, e, err):
    """NAME n bound by IMPORT imp (`from math import pi`): its constant's type, or -1 (err set)."""
    if constant_node(tree, n, tree.val[imp], s, e, err) < 0:
        return -1
    return CONSTANT_TYPES[tree.val[imp] - N_MATH_FUNCTIONS]
