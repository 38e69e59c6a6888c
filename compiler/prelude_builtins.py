"""Builtins written in the gpucc language: `pow(a, b, m)` (compiler/preludes.py appends these to
a unit that names `pow(`; they are annotated, so a unit that only calls the 2-argument pow
compiles them unused).  The type checker resolves a 3-argument pow to POW_MOD
(compiler/typecheck_calls.py).  CPython 3.8+'s semantics: m == 0 and a base not invertible for a
negative exponent are ValueError, a negative exponent takes the modular inverse, the result has
m's sign; products of two residues of a modulus past 2**31.5 are added up by doubling, so no
operand of int64 overflows (pow(a, b, -2**63) does: |m| is not an int64).
"""

from gpucc.compiler.tokens import _byte_table

POW_MOD = "__gpucc_pow_mod"
POW_MOD_BYTES, POW_MOD_LENS = _byte_table((POW_MOD,))

BUILTIN_PRELUDE = f"""
def __gpucc_mul_mod(x: int, y: int, n: int) -> int:
    if y == 0 or x <= 9223372036854775807 // y:
        return x * y % n
    r = 0
    while y > 0:
        if y & 1:
            r = r - (n - x) if r >= n - x else r + x
        y >>= 1
        x = x - (n - x) if x >= n - x else x + x
    return r


def __gpucc_inverse(x: int, n: int) -> int:
    r0 = n
    r1 = x
    s0 = 0
    s1 = 1
    while r1 != 0:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        s0, s1 = s1, s0 - q * s1
    if r0 != 1:
        raise ValueError("base is not invertible for the given modulus")
    return s0 % n


def {POW_MOD}(a: int, b: int, m: int) -> int:
    if m == 0:
        raise ValueError("pow() 3rd argument cannot be 0")
    n = -m if m < 0 else m
    if n == 1:
        return 0
    x = a % n
    e = b
    r = 1
    if b < 0:
        x = __gpucc_inverse(x, n)
        e = -(b + 1)
        r = x
    while e > 0:
        if e & 1:
            r = __gpucc_mul_mod(r, x, n)
        e >>= 1
        if e > 0:
            x = __gpucc_mul_mod(x, x, n)
    if m < 0 and r != 0:
        r -= n
    return r
"""
