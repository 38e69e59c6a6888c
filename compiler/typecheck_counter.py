"""Type checker, collections.Counter (kernel bodies).  A Counter is a dict whose type has the
COUNTER head (contract/typecodes.py): every dict form takes it (compiler/typerules.is_dict),
`c[k]` reads a missing key as 0 without inserting it (compiler/emit_dict.py) and == is
CPython 3.10's (vm/kernel_dict.typed_dict_equal).

`Counter(xs)` calls the prelude function `Counter` (compiler/preludes.py), which builds a
dict[K, int]; the call's type is that dict's as a Counter[K].  A Counter's methods that a dict
has not are calls of prelude functions, the receiver their first argument: `c.most_common(2)`
is `_gpucc_most_common_n(c, 2)` (modules.COUNTER_METHOD_CALLS).  Each such CALL is marked
resolved (tree.val), so that the checker's later walks over it keep it.  The forms not built
(c.update, c.subtract, Counter of a mapping) are located errors, never dict semantics.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_BUILTIN_ARGS, E_UNKNOWN_FUNCTION, E_UNSUPPORTED
from gpucc.compiler.modules import (
    COUNTER_MEMBER,
    COUNTER_METHOD_BYTES,
    COUNTER_METHOD_CALLS,
    COUNTER_METHOD_LENS,
    COUNTER_PRELUDE_BYTES,
    COUNTER_PRELUDE_LENS,
    COUNTER_PRELUDES,
    MEMBER_BYTES,
    MEMBER_LENS,
)
from gpucc.compiler.nodes import N_CALL
from gpucc.compiler.scope import F_NAME_E, F_NAME_S, F_NODE, F_NPARAMS, table_index
from gpucc.compiler.typerules import is_dict
from gpucc.contract.jitable import nrt_free
from gpucc.contract.typecodes import COUNTER, DICT

COUNTER_CALL = -8  # tree.val of a CALL of Counter's prelude (its type becomes a Counter's)
RESOLVED_CALL = -9  # tree.val of a Counter method made a CALL of its prelude function (slot set)
NOT_COUNTER_METHOD = -1000  # counter_method: a dict method (the dict rules type it)
PARAM_MARK = len(COUNTER_PRELUDES)  # COUNTER_PRELUDE_BYTES' last row: Counter's parameter name


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
    if COUNTER_METHOD_CALLS[m, 0] < 0:
        return fail(err, E_UNSUPPORTED, s, e, errors.C_COUNTER_FORM)
    if p < 0 or nargs > 1:
        most = 0 if COUNTER_METHOD_CALLS[m, 1] < 0 else 1
        return fail(err, E_BUILTIN_ARGS, s, e, most * 256 + nargs)
    fn = types.fn
    for g in range(nf):
        if table_index(src, fn[g, F_NAME_S], fn[g, F_NAME_E], COUNTER_PRELUDE_BYTES, COUNTER_PRELUDE_LENS) == p:
            if fn[g, F_NPARAMS] != nargs + 1:
                break
            tree.kind[n] = N_CALL  # its first child, the receiver, is the first argument
            tree.op[n] = 0
            tree.val[n] = RESOLVED_CALL
            types.slot[n] = g
            return g
    return fail(err, E_UNKNOWN_FUNCTION, s, e, 0)  # the prelude is missing: preludes.py's pattern did not see it
