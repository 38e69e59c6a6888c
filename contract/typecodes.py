"""Static types with structure, as packed prefix codes: one int32 per type, equal iff the
types are equal, so a type compares and hashes like the flat codes did, in every unit.

A type is its constructors in prefix order, one 4-bit nibble each, the first in the lowest
nibble: ``list[tuple[int, str]]`` is LIST, TUPLE, 2, INT, STR = ``0x61298``.  The code is
self-delimiting (a list has one element type, a tuple its arity then that many fields, an
Optional one type), so no terminator is needed and None may be nibble 0.

The leaves are contract.valuetypes' scalar codes (None 0, int 1, bool 2, float 3, str 6): a
scalar's type code is its flat code.  Flat list codes (T_LIST_INT ...) are NOT type codes:
they stay the runtime kinds the list and str instructions take as immediates
(:func:`runtime_kind` converts).  UNKNOWN is the element of `[]` before its context types it.

A type takes at most MAX_NIBBLES nibbles (bits 0..27; the code stays positive, below 2**28):
``list[tuple[int, int, int, int]]`` is 7.  A deeper type is a compile error.
"""

from __future__ import annotations

from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_LIST_FLOAT, T_LIST_INT, T_LIST_STR, T_NONE, T_STR

# leaves (= the flat scalar codes) and constructors (nibbles 7..; 4 and 5 are no type)
NONE, INT, BOOL, FLOAT, STR = T_NONE, T_INT, T_BOOL, T_FLOAT, T_STR
LIST, TUPLE, OPTIONAL, DICT, SET = 8, 9, 10, 11, 12
COUNTER = 13  # collections.Counter: a dict (laid out as DICT: key, value int) whose missing keys count 0
DEQUE = 14  # collections.deque: a list (laid out as LIST) of its own type (repr, ==, its methods)
DEFAULTDICT = 7  # collections.defaultdict: a dict (laid out as DICT) whose read of a missing key inserts
# its value type's empty value (the factory's: int 0, float 0.0, bool False, str '', list / set / dict empty)
UNKNOWN = 15
LEAVES = (NONE, INT, BOOL, FLOAT, STR)
MAX_NIBBLES = 7
TOO_DEEP = -1  # what the builders return when a type does not fit
_LEAF_NAMES = {NONE: "None", INT: "int", BOOL: "bool", FLOAT: "float", STR: "str", UNKNOWN: "?"}


def head(t):
    """The outermost constructor (or leaf) of type t."""
    return t & 15


def width(t):
    """The number of nibbles of type t (0 for a malformed code: an unused nibble, or too long)."""
    need = 1
    n = 0
    while need > 0:
        if n >= MAX_NIBBLES:
            return 0
        k = (t >> (4 * n)) & 15
        n += 1
        need -= 1
        if k == 4 or k == 5:
            return 0
        if k == LIST or k == OPTIONAL or k == SET or k == DEQUE:
            need += 1
        elif k == DICT or k == COUNTER or k == DEFAULTDICT:
            need += 2
        elif k == TUPLE:
            if n >= MAX_NIBBLES:
                return 0
            need += (t >> (4 * n)) & 15
            n += 1
    return n


def _wrap(ctor, inner):
    """ctor applied to one type (LIST, OPTIONAL, SET); TOO_DEEP when it does not fit."""
    if inner < 0 or width(inner) + 1 > MAX_NIBBLES:
        return TOO_DEEP
    return ctor | (inner << 4)


def list_of(e):
    return _wrap(LIST, e)


def optional_of(e):
    """Optional[e]; Optional[None] is None and Optional[Optional[e]] is Optional[e]."""
    if e == NONE or head(e) == OPTIONAL:
        return e
    return _wrap(OPTIONAL, e)


def set_of(e):
    return _wrap(SET, e)


def element(t):
    """The element type of a list, deque, set or Optional t (a dict's key type)."""
    return t >> 4


def tuple_start(n):
    """The first two nibbles of an n-field tuple (n <= 15); fields follow by
    :func:`append_field` from nibble 2 on."""
    return TUPLE | (n << 4)


def append_field(t, used, f):
    """Tuple code t, of which `used` nibbles are written, with field f after them (the
    caller adds width(f) to used); TOO_DEEP when it does not fit."""
    if t < 0 or f < 0 or used + width(f) > MAX_NIBBLES:
        return TOO_DEEP
    return t | (f << (4 * used))


def tuple_of(fields):
    """tuple[fields...]; TOO_DEEP when it does not fit."""
    if len(fields) > 15:
        return TOO_DEEP
    t, used = tuple_start(len(fields)), 2
    for f in fields:
        t = append_field(t, used, f)
        used += width(f) if f >= 0 else 0
    return t


def dict_of(k, v):
    if k < 0 or v < 0 or 1 + width(k) + width(v) > MAX_NIBBLES:
        return TOO_DEEP
    return DICT | (k << 4) | (v << (4 + 4 * width(k)))


def counter_of(k):
    """Counter[k]: dict[k, int] with the COUNTER head."""
    d = dict_of(k, INT)
    return d if d < 0 else d ^ DICT ^ COUNTER


def deque_of(e):
    """deque[e]: list[e] with the DEQUE head."""
    return _wrap(DEQUE, e)


def defaultdict_of(k, v):
    """defaultdict[k, v]: dict[k, v] with the DEFAULTDICT head."""
    d = dict_of(k, v)
    return d if d < 0 else d ^ DICT ^ DEFAULTDICT


def arity(t):
    """The number of fields of tuple t."""
    return (t >> 4) & 15


def field(t, i):
    """Field i of tuple t (the rest of the code above it is masked off)."""
    shift = 8
    for _ in range(i):
        shift += 4 * width(t >> shift)
    f = t >> shift
    return f & ((1 << (4 * width(f))) - 1)


def value_of(t):
    """The value type of dict (or Counter, defaultdict) t."""
    return t >> (4 + 4 * width(t >> 4))


def is_heap(t):
    """Does a value of type t live in the job's heap (its slot a handle, or NONE_REF)?"""
    h = head(t)
    return h == STR or h >= LIST or h == DEFAULTDICT


def runtime_kind(t):
    """The contract.valuetypes code the flat instructions take for type t (typed_cmp,
    STR_FROM, ...): a scalar's own code, T_LIST_INT / T_LIST_FLOAT / T_LIST_STR for those
    lists; -1 for a type only the value instructions serve."""
    if t in LEAVES:
        return t
    if t == list_of(INT):
        return T_LIST_INT
    if t == list_of(FLOAT):
        return T_LIST_FLOAT
    if t == list_of(STR):
        return T_LIST_STR
    return -1


def name(t) -> str:
    """The type as an annotation reads: ``list[tuple[int, str]]``, ``Optional[int]``."""
    h = head(t)
    if h in _LEAF_NAMES:
        return _LEAF_NAMES[h]
    if h == LIST or h == SET:
        return f"{'list' if h == LIST else 'set'}[{name(element(t))}]"
    if h == OPTIONAL:
        return f"Optional[{name(element(t))}]"
    if h == DEQUE:
        return f"deque[{name(element(t))}]"
    if h == DICT or h == COUNTER or h == DEFAULTDICT:
        k = name(element(t) & ((1 << 4 * width(element(t))) - 1))
        if h == COUNTER:
            return f"Counter[{k}]"
        return f"{'dict' if h == DICT else 'defaultdict'}[{k}, {name(value_of(t))}]"
    if h == TUPLE:
        return f"tuple[{', '.join(name(field(t, i)) for i in range(arity(t)))}]" if arity(t) else "tuple[()]"
    return f"<bad type {t:#x}>"
