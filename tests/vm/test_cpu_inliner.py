"""vm/cpu.py's LLVM inliner options hold while the kernel compiles and not after: they are LLVM's
process-wide command line, and under them the compiler's own numba code compiled far slower."""

from __future__ import annotations

import re

import numba
import numpy as np

from gpucc.vm.cpu import kernel_inliner


def _caller():
    """A fresh caller of a callee too big for LLVM's default threshold, small enough for 3000."""

    @numba.njit
    def callee(a, n):
        s = 0
        for i in range(n):
            s += a[i] * (i + 3) // (a[(i + 1) % n] | 1) + (a[i] ^ i) % 7 + (a[i] << 2) - (a[i] >> 1) + a[i] * a[i] % 11
        for i in range(n):
            s -= a[i] * 5 // (i | 1) + a[(i * 3) % n] % 13 + (a[i] & 255) * 3
        return s

    @numba.njit
    def caller(a, n):
        return callee(a, n) + callee(a, n - 1)  # two call sites: not inlined as a callee's only one

    return caller


def _calls_left(caller) -> int:
    a = np.arange(10, dtype=np.int64)
    caller(a, 10)
    return len(re.findall(r"call [^@\n]*@\S*callee", caller.inspect_llvm(caller.signatures[0])))


def test_the_inliner_options_hold_only_inside_the_kernel_compile():
    with kernel_inliner():
        assert _calls_left(_caller()) == 0
    assert _calls_left(_caller()) == 2


def test_the_options_are_reset_when_the_compile_fails():
    try:
        with kernel_inliner():
            raise RuntimeError("a failed compile")
    except RuntimeError:
        pass
    assert _calls_left(_caller()) == 2
