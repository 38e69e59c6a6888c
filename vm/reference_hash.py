"""Hashes and equality of dict keys and set elements in plain Python: the spec vm/kernel_hash.py
must match bit for bit.

A key is of a key type (`key_type_ok`): int, bool, float, str, or a tuple of those.  Hashes are
CPython's 64-bit ones: an int's is its value mod 2**61 - 1 (the sign kept, -1 made -2), a
float's the value of the exact rational it is mod 2**61 - 1 (inf 314159, -inf -314159), a
tuple's the xxHash-based combination of its fields' hashes CPython uses since 3.8.  Two
deliberate choices where CPython's hash is not deterministic: nan hashes to 0 (CPython 3.10+
hashes a nan by its address), and a str hashes as the tuple of its code points would (CPython
randomizes str hashes per process).  Keys compare by value (a float nan equals nothing, as no
nan is the same object as another here); equal keys have equal hashes.

Cost: a str key's code points and a tuple key's fields (and their strs' code points), each 1.
"""

from __future__ import annotations

import math

from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.valuetypes import bits_to_float
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop

MODULUS = (1 << 61) - 1
MASK64 = (1 << 64) - 1
INF_HASH = 314159
XXPRIME_1, XXPRIME_2, XXPRIME_5 = 11400714785074694791, 14029467366897019727, 2870177450012600261
SCALARS = (T.INT, T.BOOL, T.FLOAT, T.STR)


def key_type_ok(t: int) -> bool:
    """A key type: a scalar other than None, or a tuple (of at most 5 fields) of those."""
    if t in SCALARS:
        return True
    if T.head(t) != T.TUPLE or not 0 <= t < 1 << 4 * T.MAX_NIBBLES or not T.width(t) or t >> 4 * T.width(t):
        return False
    return all(T.field(t, i) in SCALARS for i in range(T.arity(t)))


def signed(x: int) -> int:
    x &= MASK64
    return x - (1 << 64) if x >> 63 else x


def hash_int(i: int) -> int:
    h = abs(i) % MODULUS
    h = -h if i < 0 else h
    return -2 if h == -1 else h


def hash_float(bits: int) -> int:
    x = bits_to_float(bits)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return INF_HASH if x > 0 else -INF_HASH
    num, den = abs(x).as_integer_ratio()
    h = num * pow(den, MODULUS - 2, MODULUS) % MODULUS
    h = -h if x < 0 else h
    return -2 if h == -1 else h


def combine(lanes: list[int]) -> int:
    """CPython's tuple hash of fields with hashes `lanes`."""
    acc = XXPRIME_5
    for lane in lanes:
        acc = (acc + (lane & MASK64) * XXPRIME_2) & MASK64
        acc = ((acc << 31) | (acc >> 33)) & MASK64
        acc = (acc * XXPRIME_1) & MASK64
    acc = (acc + (len(lanes) ^ (XXPRIME_5 ^ 3527539))) & MASK64
    return 1546275796 if acc == MASK64 else signed(acc)


def scalar_hash(heap: Heap, x: int, t: int) -> tuple[int, int]:
    """(hash, cost) of scalar key x of type t."""
    if t == T.FLOAT:
        return hash_float(x), 0
    if t == T.STR:
        points = heap.slots(x)
        return combine(points), len(points)
    return hash_int(x), 0


def key_hash(heap: Heap, x: int, t: int) -> tuple[int, int]:
    """(hash, cost) of key x of key type t."""
    if T.head(t) != T.TUPLE:
        return scalar_hash(heap, x, t)
    fields = heap.slots(x)
    if len(fields) != T.arity(t):
        raise Stop(S.INVALID_BYTECODE)
    lanes, cost = [], len(fields)
    for i, f in enumerate(fields):
        h, c = scalar_hash(heap, f, T.field(t, i))
        lanes.append(h)
        cost += c
    return combine(lanes), cost


def scalar_equal(heap: Heap, a: int, b: int, t: int) -> bool:
    if t == T.FLOAT:
        return bits_to_float(a) == bits_to_float(b)
    if t == T.STR:
        return heap.slots(a) == heap.slots(b)
    return a == b


def key_equal(heap: Heap, a: int, b: int, t: int) -> bool:
    """Whether keys a and b of key type t are equal (no cost: their hashes were equal)."""
    if T.head(t) != T.TUPLE:
        return scalar_equal(heap, a, b, t)
    xs, ys = heap.slots(a), heap.slots(b)
    if len(xs) != T.arity(t) or len(ys) != T.arity(t):
        raise Stop(S.INVALID_BYTECODE)
    return all(scalar_equal(heap, x, y, T.field(t, i)) for i, (x, y) in enumerate(zip(xs, ys)))
