"""Structured static types for the type checker's rules (kernel bodies): joins, comparability
and conversions of contract.typecodes' packed codes, and the few named ones the flat
instructions serve.

Two types are walked side by side nibble by nibble (no recursion): a node of one is matched
with the node at the same place in the other, a subtree skipped whole by its width.  UNKNOWN
is the element of `[]` before its context types it: it matches any subtree, and a join takes
that subtree.
"""

from __future__ import annotations

from gpucc.contract.jitable import nrt_free, type_optional_of, type_width
from gpucc.contract.typecodes import COUNTER, DEFAULTDICT, DEQUE, DICT, LIST, MAX_NIBBLES, NONE, OPTIONAL, SET, TUPLE, UNKNOWN, list_of
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR  # a scalar's type code is its flat code

# the static list types the flat instructions serve, and `[]`'s before its context types it
LIST_INT, LIST_FLOAT, LIST_STR, EMPTY_LIST = list_of(T_INT), list_of(T_FLOAT), list_of(T_STR), list_of(UNKNOWN)
LIST_BOOL = list_of(T_BOOL)


@nrt_free
def nibble(t, p):
    return (t >> (4 * p)) & 15


@nrt_free
def subtree(t, p):
    """The type at nibble p of t, the rest of t above it masked off."""
    s = t >> (4 * p)
    return s & ((1 << (4 * type_width(s))) - 1)


@nrt_free
def _children(k):
    """How many types follow constructor nibble k (a tuple's: its arity nibble says)."""
    if k == LIST or k == OPTIONAL or k == SET or k == DEQUE:
        return 1
    return 2 if k == DICT or k == COUNTER or k == DEFAULTDICT else 0


@nrt_free
def is_number(t):
    return t == T_INT or t == T_BOOL or t == T_FLOAT


@nrt_free
def is_optional(t):
    return (t & 15) == OPTIONAL


@nrt_free
def is_tuple(t):
    return (t & 15) == TUPLE


@nrt_free
def join(a, b):
    """The type of a value that is of type a or of type b: the same type, UNKNOWN taking the
    other's subtree (`[]` and `[1]`), None with T an Optional[T]; -1 if there is none."""
    if a == b:
        return a
    if a == NONE or b == NONE:
        return type_optional_of(b if a == NONE else a)
    if is_optional(a) != is_optional(b):  # Optional[T] and T
        a, b = type_optional_of(a), type_optional_of(b)
    out, used, pa, pb, need = 0, 0, 0, 0, 1
    while need > 0:
        ka, kb = nibble(a, pa), nibble(b, pb)
        need -= 1
        if ka == UNKNOWN or kb == UNKNOWN:  # the other side's subtree
            s = subtree(b, pb) if ka == UNKNOWN else subtree(a, pa)
            w = type_width(s)
            out |= s << (4 * used)
            used += w
            pa += 1 if ka == UNKNOWN else w
            pb += 1 if kb == UNKNOWN else w
            continue
        if ka != kb:
            return -1
        out |= ka << (4 * used)
        used, pa, pb = used + 1, pa + 1, pb + 1
        need += _children(ka)
        if ka == TUPLE:
            if nibble(a, pa) != nibble(b, pb):
                return -1
            need += nibble(a, pa)
            out |= nibble(a, pa) << (4 * used)
            used, pa, pb = used + 1, pa + 1, pb + 1
    return out if used <= MAX_NIBBLES else -1


@nrt_free
def comparable(a, b):
    """Whether `a == b` of values of types a and b is one gpucc compares by value: the same
    shape, numbers with numbers at any place, an Optional[T] with T or None, `[]` with any list."""
    pa, pb, need = 0, 0, 1
    while need > 0:
        ka, kb = nibble(a, pa), nibble(b, pb)
        if (ka == OPTIONAL) != (kb == OPTIONAL) and ka != NONE and kb != NONE:
            pa += 1 if ka == OPTIONAL else 0  # Optional[T] against T: its T
            pb += 1 if kb == OPTIONAL else 0
            continue
        need -= 1
        if ka == UNKNOWN or kb == UNKNOWN or (ka == NONE and kb == OPTIONAL) or (kb == NONE and ka == OPTIONAL):
            pa += type_width(a >> (4 * pa))
            pb += type_width(b >> (4 * pb))
            continue
        if is_number(ka) and is_number(kb):
            pa, pb = pa + 1, pb + 1
            continue
        if ka != kb:
            return False
        pa, pb = pa + 1, pb + 1
        need += _children(ka)
        if ka == TUPLE:
            if nibble(a, pa) != nibble(b, pb):
                return False
            need += nibble(a, pa)
            pa, pb = pa + 1, pb + 1
    return True


@nrt_free
def converts(want, got):
    """Whether a value of type got may stand where want is expected: the same type, an int
    or bool where a float is expected (converted, as PEP 484's numeric tower allows), a list
    with UNKNOWN elements (`[]`) where such a list is expected, None or a T where an
    Optional[T] is (a scalar T boxed)."""
    if want == got or (want == T_FLOAT and (got == T_INT or got == T_BOOL)):
        return True
    if is_optional(want) and got == NONE:
        return True
    inner = want >> 4
    widens = inner == T_FLOAT and (got == T_INT or got == T_BOOL)
    if is_optional(want) and not is_optional(got) and (inner == got or widens):
        return True
    return join(want, got) == want


@nrt_free
def known(t):
    """t with every UNKNOWN an int (`xs = [[]]` holds lists of ints unless more is known)."""
    out, p, need = t, 0, 1
    while need > 0 and p < MAX_NIBBLES:
        k = nibble(t, p)
        need -= 1
        if k == UNKNOWN:
            out = out ^ ((UNKNOWN ^ T_INT) << (4 * p))
        p += 1
        need += _children(k)
        if k == TUPLE:
            need += nibble(t, p)
            p += 1
    return out


@nrt_free
def tuple_fields_type(t):
    """The one type of every field of tuple t, or -1 when they differ (or there are none)."""
    n = (t >> 4) & 15
    if n == 0:
        return -1
    f = subtree(t, 2)
    w = type_width(f)
    for i in range(1, n):
        if subtree(t, 2 + i * w) != f:
            return -1
    return f


@nrt_free
def tuple_concat(a, b):
    """The type of tuple a + tuple b, or -1 when it does not fit."""
    n = ((a >> 4) & 15) + ((b >> 4) & 15)
    wa, wb = type_width(a), type_width(b)
    if n > 15 or wa + wb - 2 > MAX_NIBBLES:
        return -1
    return TUPLE | (n << 4) | ((a >> 8) << 8) | ((b >> 8) << (4 * wa))


@nrt_free
def has_keyed(t):
    """Whether type t has a dict or a set in it (the value instructions compare neither)."""
    return keyed_parts(t)[0]


@nrt_free
def orderable(t):
    """Whether values of type t have an order (<): numbers, strs, lists and tuples of them."""
    return t != NONE and not is_optional(t) and not has_keyed(t)


@nrt_free
def is_key(t):
    """A scalar of a key type (no None)."""
    return t == T_INT or t == T_BOOL or t == T_FLOAT or t == T_STR


@nrt_free
def key_ok(t):
    """Whether values of type t can be dict keys and set elements (what vm/kernel_hash.py
    hashes): int, bool, float, str, a tuple of those; UNKNOWN (`{}`'s) until it is known."""
    if is_key(t) or t == UNKNOWN:
        return True
    if (t & 15) != TUPLE:
        return False
    n = nibble(t, 1)
    for i in range(n):
        if not is_key(nibble(t, 2 + i)):
            return False
    return True


@nrt_free
def keys_ok(t):
    """Whether every dict and set inside type t has keys of a key type."""
    return keyed_parts(t)[1]


@nrt_free
def keyed_parts(t):
    """(whether type t has a dict or a set in it, whether all of theirs have keys of a key type)."""
    p, need = 0, 1
    found, ok = False, True
    while need > 0 and p < MAX_NIBBLES:
        k = nibble(t, p)
        need -= 1
        if k == DICT or k == COUNTER or k == DEFAULTDICT or k == SET:
            found = True
            ok = ok and key_ok(subtree(t, p + 1))
        p += 1
        need += _children(k)
        if k == TUPLE:
            need += nibble(t, p)
            p += 1
    return found, ok
