"""Job arguments of any type in JobTable.pool: the self-describing layout, its writer
(`argument_slots`, the host) and its checker (`check_objects`, run by contract.image.job_arrays
so that the VM kernels read the pool unchecked).

An argument is a slot value (an int, a bool as 0 / 1, a float's bits, None as NONE_REF) or,
when its arg_lists bit is set, the pool offset o of an object the job starts with copied into
its heap (vm enter_arguments, depth first, each object before its elements):

* pool[o] = n >= 0: a list (or str, or tuple of scalars) of n slot values pool[o + 1 .. o + n];
* pool[o] < 0: h = -1 - pool[o], n = h & 0xFFFFFFFF, mask = h >> 32: n elements follow, and
  element i is the offset of a nested object where mask is 0 (a list of strs, lists, tuples,
  Optionals) or has bit i set (a tuple's heap fields); any other element is a slot value.
  An element that is an offset may be NONE_REF instead: None, an Optional element.

A str is the object of its code points, a tuple the object of its fields, a scalar Optional
value (not None) the box [1, v].  Objects nest at most MAX_DEPTH deep (a type has at most that
many nibbles); offsets may be shared, each use becoming its own heap object.
"""

from __future__ import annotations

import numpy as np

from gpucc.contract import typecodes as T
from gpucc.contract.isa import NONE_REF
from gpucc.contract.valuetypes import float_to_bits

MAX_DEPTH = T.MAX_NIBBLES  # objects inside objects, the outermost at depth 1
_PYTHON = {T.INT: int, T.BOOL: bool, T.FLOAT: float, T.STR: str}


def argument_slots(values, pool: list[int], types=None) -> tuple[list[int], int]:
    """(args row, arg_lists bits) of one job's argument values, their objects appended to
    `pool`.  types: each argument's packed type (contract.typecodes); None reads them off the
    values (`value_type`).  ValueError for a value that is not of its type."""
    row, bits = [], 0
    for k, v in enumerate(values):
        slot, is_object = _encode(v, value_type(v) if types is None else int(types[k]), pool)
        row.append(slot)
        bits |= int(is_object) << k
    return row, bits


def value_type(v) -> int:
    """The packed type of Python value v: a list's elements joined (ints with floats are floats,
    None with a T an Optional[T], an empty list takes the others' type; [] alone is list[?])."""
    if v is None:
        return T.NONE
    for t, kind in _PYTHON.items():
        if type(v) is kind:
            return t
    if isinstance(v, tuple):
        return T.tuple_of([value_type(x) for x in v])
    if isinstance(v, list):
        return T.list_of(_join([value_type(x) for x in v]))
    raise ValueError(f"{v!r} is a {type(v).__name__}, which no job argument can be")


def _join(types: list[int]) -> int:
    """The one type values of `types` (a list's elements) have, as value_type says."""
    empty = T.list_of(T.UNKNOWN)
    known = [t for t in dict.fromkeys(types) if t != T.NONE and t != empty]
    if known and set(known) <= {T.INT, T.FLOAT, T.BOOL}:
        element = T.FLOAT if T.FLOAT in known else (T.INT if T.INT in known else T.BOOL)
    elif len(known) > 1 and all(T.head(t) == T.LIST for t in known):
        element = T.list_of(_join([T.element(t) for t in known]))
    else:
        element = known[0] if known else (empty if empty in types else T.NONE if T.NONE in types else T.UNKNOWN)
    return T.optional_of(element) if T.NONE in types and element != T.NONE else element


def _encode(v, t: int, pool: list[int]) -> tuple[int, bool]:
    """(slot, whether it is an object's offset) of value v of packed type t; its objects (its
    elements' first) appended to `pool`."""
    h = T.head(t)
    if h == T.OPTIONAL:
        if v is None:
            return NONE_REF, False
        inner = T.element(t)
        if T.is_heap(inner):
            return _encode(v, inner, pool)
        return _append([1, _encode(v, inner, pool)[0]], pool), True  # a scalar's box
    if h == T.NONE:
        if v is not None:
            raise ValueError(f"{v!r} is not None")
        return NONE_REF, False
    if h in (T.INT, T.BOOL, T.FLOAT):
        if not (isinstance(v, (int, float)) and (h == T.FLOAT or not isinstance(v, float))):
            raise ValueError(f"{v!r} is not {T.name(t)}")
        return (float_to_bits(float(v)) if h == T.FLOAT else int(v)), False
    if h == T.STR:
        if not isinstance(v, str):
            raise ValueError(f"{v!r} is not str")
        return _append([len(v)] + [ord(c) for c in v], pool), True
    if h == T.LIST and isinstance(v, (list, tuple)):  # a tuple: a list argument of untyped callers
        e = T.element(t)
        slots = [_encode(x, e, pool)[0] for x in v]
        return _append([-1 - len(v) if T.is_heap(e) else len(v)] + slots, pool), True
    if h == T.TUPLE and isinstance(v, tuple) and len(v) == T.arity(t):
        fields = [T.field(t, i) for i in range(len(v))]
        slots = [_encode(x, f, pool)[0] for x, f in zip(v, fields)]
        mask = sum(1 << i for i, f in enumerate(fields) if T.is_heap(f))
        return _append([-1 - (len(v) | mask << 32) if mask else len(v)] + slots, pool), True
    raise ValueError(f"{v!r} is not {T.name(t)}")


def _append(words: list[int], pool: list[int]) -> int:
    """Append an object's words to `pool`; its offset."""
    pool += words
    return len(pool) - len(words)


def check_objects(pool: np.ndarray, offsets) -> None:
    """ValueError unless every offset (and every object inside one, MAX_DEPTH deep at most) is
    an object of the layout above lying inside the pool."""
    size = len(pool)
    seen: dict[int, int] = {}  # offset -> the deepest it was checked at (which covers shallower uses)
    todo = [(int(o), 1) for o in np.unique(np.asarray(offsets, np.int64))]
    while todo:
        o, depth = todo.pop()
        if seen.get(o, 0) >= depth:
            continue
        seen[o] = depth
        if depth > MAX_DEPTH:
            raise ValueError(f"a job argument's objects nest deeper than {MAX_DEPTH} in jobs.pool")
        if not 0 <= o < size:
            raise ValueError(f"a job argument's pool offset {o} points outside jobs.pool ({size} words)")
        head = int(pool[o])
        n, mask = (head, 0) if head >= 0 else ((-1 - head) & 0xFFFFFFFF, (-1 - head) >> 32)
        if n >= size - o or mask >> n:
            raise ValueError(f"the object at jobs.pool[{o}] (its length or its elements) points outside jobs.pool")
        if head < 0:
            todo += [(int(x), depth + 1) for i, x in enumerate(pool[o + 1 : o + 1 + n])
                     if (mask == 0 or mask >> i & 1) and x != NONE_REF]  # fmt: skip
