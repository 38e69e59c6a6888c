"""Type checker, collections.Counter (kernel bodies).  A Counter is a dict whose type has the
COUNTER head (contract/typecodes.py): every dict form takes it (compiler/typerules.is_dict),
`c[k]` reads a missing key as 0 without inserting it (compiler/emit_dict.py) and == is
CPython 3.10's (vm/kernel_dict.typed_dict_equal).

`Counter(xs)` calls the prelude function `Counter` (compiler/preludes.py), which builds a
dict[K, int]; the call's type is that dict's as a Counter[K].  A Counter's methods that a dict
has not are calls of prelude functions, the receiver their first argument: `c.most_common(2)`
is `_gpucc_most_common_n(c, 2)` (modules.COUNTER_METHOD_CALLS; `c.update(m)` of a mapping m
`_gpucc_update_counts(c, m)`), and so are + - & | of two Counters and unary + and -
(`a + b`: `_gpucc_counter_add(a, b)`, a Counter).  Each such CALL is marked resolved
(tree.val), so that the checker's later walks over it keep it.  `Counter()` is an empty
display typed by use (compiler/typecheck_defaultdict.py).  The forms not built (Counter of a
mapping) are located errors, never dict semantics.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_UNKNOWN_FUNCTION, E_UNSUPPORTED
from gpucc.compiler.modules import (
    COUNTER_BINARY,
    COUNTER_MEMBER,
    COUNTER_METHOD_BYTES,
    COUNTER_METHOD_CALLS,
    COUNTER_METHOD_LENS,
    COUNTER_PRELUDE_BYTES,
    COUNTER_PRELUDE_LENS,
    COUNTER_PRELUDES,
    COUNTER_UNARY,
    MEMBER_BYTES,
    MEMBER_LENS,
)
from gpucc.compiler.nodes import N_CALL, N_UNARY
from gpucc.compiler.scope import F_NAME_E, F_NAME_S, F_NODE, F_NPARAMS, F_PTYPE, table_index
from gpucc.compiler.typerules import is_counter, is_dict
from gpucc.contract.jitable import nrt_free, type_list_of
from gpucc.contract.typecodes import COUNTER, DICT
from gpucc.contract.valuetypes import T_INT

COUNTER_CALL = -8  # tree.val of a CALL of Counter's prelude (its type becomes a Counter's)
RESOLVED_CALL = -9  # tree.val of a Counter method made a CALL of its prelude function (slot set)
RESOLVED_COUNTER = -10  # ... of a Counter operator (its dict result a Counter; -11, -12: deque's, -20 ..: defaultdict's)
NOT_COUNTER_METHOD = -1000  # counter_method: a dict method (the dict rules type it)
PARAM_MARK = len(COUNTER_PRELUDES)  # COUNTER_PRELUDE_BYTES' last row: Counter's parameter name
FIRST_SPARE = COUNTER_PRELUDES.index("_gpucc_update")  # the preludes from here on take Counters (spare_prelude)
SPARE_TYPE = COUNTER | (T_INT << 4) | (T_INT << 8)  # Counter[int]


@nrt_free
def is_counter_prelude(src, toks, tree, fn, f):
    """Whether the unit's function f is Counter's prelude: named Counter, its parameter
    modules.COUNTER_PARAM (a candidate's own `Counter` is an ordinary function)."""
    if table_index(src, fn[f, F_NAME_S], fn[f, F_NAME_E], MEMBER_BYTES, MEMBER_LENS) != COUNTER_MEMBER:
        return False
    p = tree.first[fn[f, F_NODE]]
    t = tree.tok[p]
    return table_index(src, toks.start[t], toks.end[t], COUNTER_PRELUDE_BYTES, COUNTER_PRELUDE_LENS) == PARAM_MARK


@nrt_free
def counter_call_type(toks, tree, types, n, t, err):
    """The type of CALL n of Counter's prelude, which returns t (a dict[K, int]): Counter[K];
    Counter(mapping) (CPython takes its values as the counts) is a located error."""
    if t < 0:
        return t
    if is_dict(types.type[tree.first[n]]):
        s = toks.start[tree.tok[n]]
        return fail(err, E_UNSUPPORTED, s, toks.end[tree.tok[n]], errors.C_COUNTER_FORM)
    return t ^ DICT ^ COUNTER


@nrt_free
def counter_method(src, toks, tree, types, nf, n, nargs, err):
    """METHOD n of a Counter, its children typed: a Counter method made a CALL of its prelude
    function (>= 0: the function, to type as a call), NOT_COUNTER_METHOD for a dict method,
    or -1 with err set (a form not built, or a wrong number of arguments)."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    m = table_index(src, s, e, COUNTER_METHOD_BYTES, COUNTER_METHOD_LENS)
    if m < 0:
        return NOT_COUNTER_METHOD
    p = COUNTER_METHOD_CALLS[m, min(nargs, 1)]
    if p < 0 or nargs > 1:
        most = 0 if COUNTER_METHOD_CALLS[m, 1] < 0 else 1
        return fail(err, E_BUILTIN_ARGS, s, e, most * 256 + nargs)
    if COUNTER_METHOD_CALLS[m, 2] == 1 and is_dict(types.type[tree.next[tree.first[n]]]):
        p += 1  # c.update(mapping): its counts added
    return _resolved(src, toks, tree, types, nf, n, p, nargs + 1, RESOLVED_CALL, err)


@nrt_free
def _resolved(src, toks, tree, types, nf, n, p, nargs, mark, err):
    """Node n (its children the nargs arguments) made a CALL of prelude function p (marked:
    RESOLVED_CALL, or RESOLVED_COUNTER for a Counter made): the function, or -1 (err set)."""
    fn = types.fn
    for g in range(nf):
        if table_index(src, fn[g, F_NAME_S], fn[g, F_NAME_E], COUNTER_PRELUDE_BYTES, COUNTER_PRELUDE_LENS) == p:
            if fn[g, F_NPARAMS] != nargs:
                break
            tree.kind[n] = N_CALL  # its first child, the receiver (an operand), is the first argument
            tree.op[n] = 0
            tree.val[n] = mark
            types.slot[n] = g
            return g
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    return fail(err, E_UNKNOWN_FUNCTION, s, e, 0)  # the prelude is missing: preludes.py's pattern did not see it


@nrt_free
def counter_operator(src, toks, tree, types, nf, n, err):
    """BINARY or UNARY n, its operands typed: + - & | of two Counters of one type, unary + and
    - of one, made a CALL of its prelude function (>= 0: the function, to type as a call whose
    dict is a Counter), NOT_COUNTER_METHOD for any other (the operator rules type it), or -1."""
    a = tree.first[n]
    t = types.type[a]
    if tree.kind[n] == N_UNARY:
        p = COUNTER_UNARY[tree.op[n]] if is_counter(t) else -1
        nargs = 1
    else:
        same = is_counter(t) and types.type[tree.next[a]] == t
        p = COUNTER_BINARY[tree.op[n]] if same else -1
        nargs = 2
    if p < 0:
        return NOT_COUNTER_METHOD
    return _resolved(src, toks, tree, types, nf, n, p, nargs, RESOLVED_COUNTER, err)


@nrt_free
def resolved_type(tree, n, t):
    """The type of resolved CALL n of a prelude returning t: a Counter's of a Counter made."""
    return t ^ DICT ^ COUNTER if tree.val[n] == RESOLVED_COUNTER and t >= 0 else t


@nrt_free
def spare_prelude(src, toks, tree, fn, f):
    """Whether the unit's function f is a Counter prelude no call typed, to check all the same:
    Counter's (a unit calling Counter() only: a list[int] parameter), or one that takes
    Counters (update, subtract, the operators: Counter[int]s; compiler/preludes.py appends it
    where its pattern is seen, `+` of ints too)."""
    if is_counter_prelude(src, toks, tree, fn, f):
        fn[f, F_PTYPE] = type_list_of(T_INT)
        return True
    p = table_index(src, fn[f, F_NAME_S], fn[f, F_NAME_E], COUNTER_PRELUDE_BYTES, COUNTER_PRELUDE_LENS)
    if p < FIRST_SPARE or p >= PARAM_MARK:
        return False
    for i in range(fn[f, F_NPARAMS]):
        fn[f, F_PTYPE + i] = SPARE_TYPE
    return True
