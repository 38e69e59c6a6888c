"""Type checker, dicts and sets (a part of type_expr's walk, compiler/typecheck_expr.py):
displays, `d[k]`, the dict and set methods, set() / dict(), and the typing of a local bound to
`{}` or set() by what goes into it.  Kernel bodies.

A key type (dict keys, set elements) is int, bool, float, str or a tuple of those (what
vm/kernel_hash.py hashes).  `{}` is EMPTY_DICT until its context types it; a local bound to it
(or to set()) with nothing else said is a dict[int, int] (set[int]), and the first key or value
of another type that goes in asks for a check of the function with the local that type
(`default_request`, as `[]` and list_request).
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.errors import E_OPERAND_TYPES, E_TYPE_MISMATCH, E_UNSUPPORTED
from gpucc.compiler.nodes import N_DICT, N_NAME, N_SLICE
from gpucc.compiler.scope import L_PRESET
from gpucc.compiler.typecheck_base import PRESET_REQUEST, expr_fail_types, node_fail, node_fail_types, unboxed
from gpucc.compiler.typecheck_defaultdict import DD_MARK, NOT_DEFAULTDICT, dd_request
from gpucc.compiler.typecheck_defaultdict import display_type as dd_display_type
from gpucc.compiler.typerules import (
    A_ELEMENT,
    A_SAME,
    A_VALUE,
    METHOD_ARG,
    METHOD_RESULT,
    METHOD_RULES,
    MR_GET,
    MR_ITEMS,
    MR_KEYS,
    MR_VALUE,
    MR_VALUES,
    converts,
    element_join,
    element_type,
    is_dict,
    is_list,
    is_set,
)
from gpucc.compiler.typeshapes import key_ok, known
from gpucc.contract.jitable import (
    nrt_free,
    type_append_field,
    type_dict_of,
    type_field,
    type_is_heap,
    type_list_of,
    type_optional_of,
    type_set_of,
    type_tuple_start,
    type_value_of,
    type_width,
)
from gpucc.contract.typecodes import DICT, SET, UNKNOWN
from gpucc.contract.valuetypes import T_INT

EMPTY_DICT = DICT | (UNKNOWN << 4) | (UNKNOWN << 8)  # `{}` and dict() before their context types them
EMPTY_SET = SET | (UNKNOWN << 4)  # set()
DICT_DEFAULT = type_dict_of(T_INT, T_INT)  # a local bound to `{}` that nothing types
SET_DEFAULT = type_set_of(T_INT)  # ... to set()


@nrt_free
def bad_key(t):
    """A dict or set type whose keys are of no key type."""
    return (is_dict(t) or is_set(t)) and not key_ok(element_type(t))


@nrt_free
def display_type(tree, types, n):
    """The type of display n: `{k: v, ...}` (DICT: keys and values alternate) or `{a, ...}`
    (SET), the keys, values and elements each of one type (typerules.element_join); `{}` is
    EMPTY_DICT.  -1 - construct code (errors.C_*) when they do not mix or are no keys."""
    first, next_, type_ = tree.first, tree.next, types.type
    ke, ve = -1, -1
    c = first[n]
    k = 0
    while c != -1:
        value = tree.kind[n] == N_DICT and k % 2 == 1
        if value:
            ve = element_join(ve, type_[c])
        else:
            ke = element_join(ke, type_[c])
        if (ve if value else ke) < 0:
            return -1 - errors.C_MIXED_LIST
        k += 1
        c = next_[c]
    if k == 0:  # `{}`, or defaultdict(f) (compiler/typecheck_defaultdict.py)
        return dd_display_type(tree.val[n]) if tree.val[n] <= DD_MARK else EMPTY_DICT
    if not key_ok(ke):
        return -1 - errors.C_KEY_TYPE
    t = type_dict_of(ke, ve) if tree.kind[n] == N_DICT else type_set_of(ke)
    return t if t >= 0 else -1 - errors.C_TYPE_TOO_LARGE


@nrt_free
def default_request(tree, types, locs, obj, want):
    """A local dict or set `obj` bound to `{}` / set() and typed by nothing yet (DICT_DEFAULT,
    SET_DEFAULT, or a guessed dict[K, int]) gets a key or value of another type: ask for a
    check of the function with it of type `want` (PRESET_REQUEST - its slot); else 0."""
    v = dd_request(tree, types, locs, obj, want)  # a defaultdict's (compiler/typecheck_defaultdict.py)
    if v != NOT_DEFAULTDICT:
        return PRESET_REQUEST - v if v >= 0 else 0
    if tree.kind[obj] != N_NAME or want < 0 or want == types.type[obj]:
        return 0
    t = types.type[obj]
    v = types.slot[obj]
    cur = locs[v, L_PRESET]
    # a dict[K, int] guessed by an earlier request (its keys known, not its values)
    guessed = cur == t and is_dict(cur) and type_value_of(cur) == T_INT and is_dict(want)
    guessed = guessed and element_type(want) == element_type(cur)
    if not guessed and (cur >= 0 or (t != DICT_DEFAULT and t != SET_DEFAULT)):
        return 0
    locs[v, L_PRESET] = want
    return PRESET_REQUEST - v


@nrt_free
def dict_subscript_type(n, toks, tree, types, locs, err):
    """`d[k]` of a dict: its value type (k converts to the key type); a set or a slice: an error."""
    obj = tree.first[n]
    t = types.type[obj]
    key = tree.next[obj]
    if tree.kind[n] == N_SLICE or is_set(t):
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, t, types.type[key])
    if toks.end[tree.tok[obj]] >= toks.end[tree.tok[n]]:  # ys[k] of compiler/desugar_keyed.py, desugar.py: a
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_DICT_AS_SEQUENCE)  # hidden name's position
    kt = unboxed(tree, types, key)
    if not converts(element_type(t), kt):
        r = default_request(tree, types, locs, obj, type_dict_of(known(kt), type_value_of(t)))
        if r <= -2:
            return r
        return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, key, element_type(t), kt)
    return type_value_of(t)


@nrt_free
def _part(t, want):
    """The type a method argument of kind `want` (A_ELEMENT, A_VALUE, A_SAME) converts to."""
    if want == A_ELEMENT:
        return element_type(t)
    return type_value_of(t) if want == A_VALUE else t


@nrt_free
def _with_part(t, want, got):
    """Dict or set type t with its part `want` of type got (what a default local becomes)."""
    if want == A_SAME:
        return got if (is_dict(got) or is_set(got)) else -1
    if is_set(t):
        return type_set_of(known(got))
    if want == A_ELEMENT:
        return type_dict_of(known(got), type_value_of(t))
    return type_dict_of(element_type(t), known(got))


@nrt_free
def dict_method_type(m, n, toks, tree, types, locs, err):
    """Type of method m (scope.M_*) called on a dict or set (METHOD n: its receiver and arity
    checked, its arguments typed); -1 with err set, or a request to check again (a default
    local's type)."""
    next_, type_ = tree.next, types.type
    obj = tree.first[n]
    t = type_[obj]
    nargs = 0
    c = next_[obj]
    while c != -1:
        want = METHOD_RULES[m, METHOD_ARG + nargs]
        ct = unboxed(tree, types, c) if want == A_ELEMENT else type_[c]
        if not converts(_part(t, want), ct):
            r = default_request(tree, types, locs, obj, _with_part(t, want, ct))
            if r <= -2:
                return r
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, _part(t, want), ct)
        nargs += 1
        c = next_[c]
    return method_result(METHOD_RULES[m, METHOD_RESULT], t, nargs, toks, tree, n, err)


@nrt_free
def method_result(result, t, nargs, toks, tree, n, err):
    """The type a dict or set method's result rule gives on receiver type t."""
    k, v = element_type(t), type_value_of(t)
    if result == MR_VALUE or (result == MR_GET and nargs == 2):
        return v
    if result == MR_GET:  # d.get(k): None when absent, an Optional value
        if not type_is_heap(v):
            return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_GET_SCALAR)
        return type_optional_of(v)
    if result == MR_KEYS or result == MR_VALUES:
        r = type_list_of(k if result == MR_KEYS else v)
    elif result == MR_ITEMS:
        pair = type_append_field(type_append_field(type_tuple_start(2), 2, k), 2 + type_width(k), v)
        r = type_list_of(pair) if pair >= 0 else -1
    else:
        return result
    if r < 0:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_TYPE_TOO_LARGE)
    return r


@nrt_free
def constructor_type(is_set_call, n, toks, tree, types, err):
    """set() and dict() (empty: typed by their context, as `[]`), set(xs) of a list or a set."""
    c = tree.first[n]
    if c == -1:
        return EMPTY_SET if is_set_call else EMPTY_DICT
    t = types.type[c]
    if not is_set_call or tree.next[c] != -1 or not (is_list(t) or is_set(t)):
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_DICT_ARGUMENTS)
    e = known(element_type(t))
    if not key_ok(e):
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_KEY_TYPE)
    return type_set_of(e)


@nrt_free
def keyed_comprehension(is_dict_comp, e):
    """The type of `{x for ...}` (e: x's type) or `{k: v for ...}` (e: tuple[K, V]); -1 -
    construct code when the keys are of no key type or the type is too large."""
    k = type_field(e, 0) if is_dict_comp else e
    if not key_ok(k):
        return -1 - errors.C_KEY_TYPE
    t = type_dict_of(k, type_field(e, 1)) if is_dict_comp else type_set_of(k)
    return t if t >= 0 else -1 - errors.C_TYPE_TOO_LARGE
