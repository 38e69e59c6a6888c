"""Hashes and equality of dict keys and set elements (a part of vm/kernel.py's body):
vm/reference_hash.py is the spec (which hashes, which key types, the cost).

Same one-source rules as run_job (plain Python, numba CPU, CUDA; no allocation, no raising).
CPython's tuple hash computes modulo 2**64; here every value is an int64 holding the bit
pattern of the unsigned one, and the wrapping + and * work on 16- and 32-bit limbs, so no
intermediate leaves int64 (plain Python and the CUDA simulator run this code too).
"""

from __future__ import annotations

import numpy as np

from gpucc.contract.jitable import nrt_free, type_arity, type_field, type_width
from gpucc.contract.typecodes import BOOL, FLOAT, INT, MAX_NIBBLES, STR, TUPLE
from gpucc.vm.kernel_heap import header

MODULUS = (1 << 61) - 1
M32 = 0xFFFFFFFF
INF_HASH = 314159
XXPRIME_1 = 11400714785074694791 - (1 << 64)  # as int64 bit patterns
XXPRIME_2 = 14029467366897019727 - (1 << 64)
XXPRIME_5 = 2870177450012600261
LENGTH_MIX = XXPRIME_5 ^ 3527539
INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


@nrt_free
def from_halves(hi, lo):
    """The int64 whose high and low 32 bits are hi and lo (each 0 .. 2**32 - 1)."""
    if hi >= np.int64(1) << 31:
        hi -= np.int64(1) << 32
    return (hi << 32) | lo


@nrt_free
def add64(a, b):
    """a + b modulo 2**64."""
    lo = (a & M32) + (b & M32)
    hi = ((a >> 32) & M32) + ((b >> 32) & M32) + (lo >> 32)
    return from_halves(hi & M32, lo & M32)


@nrt_free
def mul64(a, b):
    """a * b modulo 2**64 (schoolbook on 16-bit limbs)."""
    a0, a1, a2, a3 = a & 0xFFFF, (a >> 16) & 0xFFFF, (a >> 32) & 0xFFFF, (a >> 48) & 0xFFFF
    b0, b1, b2, b3 = b & 0xFFFF, (b >> 16) & 0xFFFF, (b >> 32) & 0xFFFF, (b >> 48) & 0xFFFF
    t = a0 * b0
    r0 = t & 0xFFFF
    t = (t >> 16) + a0 * b1 + a1 * b0
    r1 = t & 0xFFFF
    t = (t >> 16) + a0 * b2 + a1 * b1 + a2 * b0
    r2 = t & 0xFFFF
    t = (t >> 16) + a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0
    r3 = t & 0xFFFF
    return from_halves((r3 << 16) | r2, (r1 << 16) | r0)


@nrt_free
def rotl31(x):
    """x rotated left by 31 bits (right by 33: swap the halves, then right by 1)."""
    hi, lo = (x >> 32) & M32, x & M32
    return from_halves((lo >> 1) | ((hi & 1) << 31), (hi >> 1) | ((lo & 1) << 31))


@nrt_free
def mix(acc, lane):
    """One field of CPython's tuple hash."""
    return mul64(rotl31(add64(acc, mul64(lane, XXPRIME_2))), XXPRIME_1)


@nrt_free
def finish(acc, n):
    """The tuple hash of n fields after mixing them into acc."""
    acc = add64(acc, n ^ LENGTH_MIX)
    return np.int64(1546275796) if acc == -1 else acc


@nrt_free
def hash_int(i):
    if i == INT64_MIN:
        return np.int64(-4)  # 2**63 mod 2**61 - 1
    h = i % MODULUS if i >= 0 else -((-i) % MODULUS)
    return np.int64(-2) if h == -1 else np.int64(h)


@nrt_free
def hash_float(bits):
    """The hash of the float with IEEE bits `bits` (nan: 0)."""
    e = (bits >> 52) & 0x7FF
    m = bits & ((np.int64(1) << 52) - 1)
    if e == 0x7FF:
        if m != 0:
            return np.int64(0)
        return np.int64(-INF_HASH) if bits < 0 else np.int64(INF_HASH)
    if e == 0 and m == 0:
        return np.int64(0)
    if e == 0:
        e = np.int64(-1074)
    else:
        m |= np.int64(1) << 52
        e -= 1075
    k = e % 61  # m * 2**e mod 2**61 - 1 is m rotated left by e mod 61 within 61 bits
    r = ((m & ((np.int64(1) << (61 - k)) - 1)) << k) | (m >> (61 - k))
    h = -r if bits < 0 else r
    return np.int64(-2) if h == -1 else h


@nrt_free
def scalar_hash(heap, hp, x, t):
    """(ok, hash, cost) of scalar key x of type t (a str's code points cost 1 each)."""
    if t == FLOAT:
        return True, hash_float(x), np.int64(0)
    if t == STR:
        d, n, _ = header(heap, hp, x)
        if d < 0:
            return False, np.int64(0), np.int64(0)
        acc = np.int64(XXPRIME_5)
        for k in range(n):
            acc = mix(acc, heap[d + k])
        return True, finish(acc, n), n
    return True, hash_int(x), np.int64(0)


@nrt_free
def key_type_ok(t):
    """A key type: int, bool, float, str, or a tuple of those (vm/reference_hash.py)."""
    if t == INT or t == BOOL or t == FLOAT or t == STR:
        return True
    if t < 0 or t >= np.int64(1) << (4 * MAX_NIBBLES) or (t & 15) != TUPLE:
        return False
    n = type_width(t)
    if n == 0 or (t >> (4 * n)) != 0:
        return False
    for i in range(type_arity(t)):
        f = type_field(t, i)
        if not (f == INT or f == BOOL or f == FLOAT or f == STR):
            return False
    return True


@nrt_free
def key_hash(heap, hp, x, t):
    """(ok, hash, cost) of key x of key type t; ok False for a handle that is no key of t."""
    if (t & 15) != TUPLE:
        return scalar_hash(heap, hp, x, t)
    d, n, _ = header(heap, hp, x)
    if d < 0 or n != type_arity(t):
        return False, np.int64(0), np.int64(0)
    acc = np.int64(XXPRIME_5)
    cost = n
    for i in range(n):
        ok, h, c = scalar_hash(heap, hp, heap[d + i], type_field(t, i))
        if not ok:
            return False, np.int64(0), np.int64(0)
        acc = mix(acc, h)
        cost += c
    return True, finish(acc, n), cost


@nrt_free
def scalar_equal(heap, hp, a, b, t):
    """(ok, equal) of scalar keys a, b of type t."""
    if t == FLOAT:
        return True, _float_equal(a, b)
    if t == STR:
        da, na, _ = header(heap, hp, a)
        db, nb, _ = header(heap, hp, b)
        if da < 0 or db < 0:
            return False, False
        if na != nb:
            return True, False
        for k in range(na):
            if heap[da + k] != heap[db + k]:
                return True, False
        return True, True
    return True, a == b


@nrt_free
def _float_equal(a, b):
    """== of the floats with IEEE bits a and b (nan equals nothing, -0.0 equals 0.0)."""
    if ((a >> 52) & 0x7FF) == 0x7FF and (a & ((np.int64(1) << 52) - 1)) != 0:
        return False
    if ((b >> 52) & 0x7FF) == 0x7FF and (b & ((np.int64(1) << 52) - 1)) != 0:
        return False
    return a == b or ((a & INT64_MAX) == 0 and (b & INT64_MAX) == 0)


@nrt_free
def key_equal(heap, hp, a, b, t):
    """(ok, equal) of keys a, b of key type t."""
    if (t & 15) != TUPLE:
        return scalar_equal(heap, hp, a, b, t)
    da, na, _ = header(heap, hp, a)
    db, nb, _ = header(heap, hp, b)
    if da < 0 or db < 0 or na != type_arity(t) or nb != na:
        return False, False
    for i in range(na):
        ok, eq = scalar_equal(heap, hp, heap[da + i], heap[db + i], type_field(t, i))
        if not ok or not eq:
            return ok, False
    return True, True
