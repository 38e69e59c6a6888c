"""Type checker, collections.defaultdict (kernel bodies).  A defaultdict is a dict whose type
has the DEFAULTDICT head (contract/typecodes.py): every dict form takes it
(typerules.is_dict), == compares it as the dict it is (typerules.as_dict), and `d[k]` of a
missing key inserts its value type's empty value first (compiler/emit_dict.py).  The factory
is not kept: the value type names it (int 0, float 0.0, bool False, str '', list / set / dict
empty), so a defaultdict's repr names it too (vm/reference_value.py).

`defaultdict(f)` is made an empty DICT display marked with its factory
(compiler/desugar_defaultdict.py), typed here as `{}` is: its key type (and a list's, set's or
dict's parts) UNKNOWN until use types them.  A local bound to one is checked again with the
type its uses want (dd_request: `d[k]` of a str key, `d[k].append(s)` of a str s), as a local
bound to `{}` is (typecheck_dict.default_request): each part once, from the int it was guessed
as, so the checks end.  `Counter()` is such a display too (COUNTER_MARK): a Counter whose
keys use types.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.nodes import N_DICT, N_NAME, N_SUBSCRIPT
from gpucc.compiler.scope import L_PRESET
from gpucc.compiler.tokens import _byte_table
from gpucc.compiler.typerules import element_type, is_counter, is_defaultdict
from gpucc.compiler.typeshapes import known
from gpucc.contract.jitable import nrt_free, type_dict_of, type_value_of
from gpucc.contract.typecodes import COUNTER, DEFAULTDICT, DICT, LIST, SET, UNKNOWN
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR

# the factories defaultdict takes, and the value type each gives (UNKNOWN parts: typed by use)
FACTORIES = ("int", "float", "bool", "str", "list", "set", "dict")
FACTORY_BYTES, FACTORY_LENS = _byte_table(FACTORIES)
FACTORY_VALUES = np.array([T_INT, T_FLOAT, T_BOOL, T_STR, LIST | UNKNOWN << 4, SET | UNKNOWN << 4,
                           DICT | UNKNOWN << 4 | UNKNOWN << 8], dtype=np.int64)  # fmt: skip
DD_MARK = -20  # tree.val of the empty DICT display defaultdict(f) became: DD_MARK - f
COUNTER_MARK = DD_MARK - len(FACTORIES)  # ... Counter() became (an empty Counter)
NOT_DEFAULTDICT = -1  # dd_request: not a defaultdict's request (the dict rules go on)
NO_REQUEST = -2  # dd_request: a defaultdict's value, but no check again


@nrt_free
def display_type(mark):
    """The type of the display marked DD_MARK - f: defaultdict[?, factory f's value];
    COUNTER_MARK: Counter[?]."""
    if mark == COUNTER_MARK:
        return COUNTER | (UNKNOWN << 4) | (T_INT << 8)
    return DEFAULTDICT | (UNKNOWN << 4) | (FACTORY_VALUES[DD_MARK - mark] << 8)


@nrt_free
def made_empty(tree, n, mark):
    """CALL or METHOD n made the empty DICT display marked `mark` (its arguments dropped); 0."""
    tree.kind[n] = N_DICT
    tree.first[n] = -1
    tree.op[n] = 0
    tree.val[n] = mark
    return 0


@nrt_free
def with_value(t, v):
    """defaultdict (or Counter) type t with values of type v (-1 when too large)."""
    d = type_dict_of(element_type(t), v)
    return d ^ DICT ^ (t & 15) if d >= 0 else -1


@nrt_free
def _made(t):
    """A defaultdict or a Counter: a dict a collections call made."""
    return is_defaultdict(t) or is_counter(t)


@nrt_free
def _guessed(v, want):
    """Whether value type v, a list, set or dict whose parts use typed as ints, may become
    want: of the same head, v its factory's value with ints for its UNKNOWNs (a dict's: or with
    int values, the keys known)."""
    h = v & 15
    if h != (want & 15) or (h != LIST and h != SET and h != DICT):
        return False
    if v == known(h | (UNKNOWN << 4) | ((UNKNOWN << 8) if h == DICT else 0)):
        return True
    return h == DICT and type_value_of(v) == T_INT and element_type(v) == element_type(want)


@nrt_free
def refines(t, cur, want):
    """Whether a local defaultdict of type t (its preset type cur, -1: none) may be checked
    again as a want: the key from int, the value as _guessed allows; no other part changes.
    A Counter (of Counter()) the same: its values stay ints."""
    if want < 0 or want == t or (want & 15) != (t & 15) or (cur >= 0 and cur != t):
        return False
    if element_type(t) != element_type(want) and element_type(t) != T_INT:
        return False
    v, vw = type_value_of(t), type_value_of(want)
    return v == vw or _guessed(v, vw)


@nrt_free
def dd_request(tree, types, locs, obj, want):
    """Node obj (a local defaultdict, or the value `d[k]` of one, `d[k][j]` ...) wanted as type
    want (a dict type for d itself): the local's slot, its preset set to the type that wants,
    to check its function again; NO_REQUEST when the type may not change, NOT_DEFAULTDICT when
    obj is no defaultdict's."""
    t = types.type[obj]
    if _made(t) and (want & 15) == DICT:  # the dict rules' want for d itself
        want = want ^ DICT ^ (t & 15)
    mine = _made(t)
    while tree.kind[obj] == N_SUBSCRIPT and is_defaultdict(types.type[tree.first[obj]]) and want >= 0:
        obj = tree.first[obj]
        want = with_value(types.type[obj], known(want))
        mine = True
    if not mine:
        return NOT_DEFAULTDICT
    v = types.slot[obj]
    if tree.kind[obj] != N_NAME or v < 0 or v >= locs.shape[0] or want < 0:
        return NO_REQUEST
    want = known(want)
    if not refines(types.type[obj], locs[v, L_PRESET], want):
        return NO_REQUEST
    locs[v, L_PRESET] = want
    return v
