"""vm/cpu.py's LLVM inliner options hold while the kernel compiles and not after: they are LLVM's
process-wide command line, and under them the compiler's own numba code compiled far slower."""

from __future__ import annotations

import re

import numba
import numpy as np
from vmcheck import run_asm

from gpucc import vm
from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program
from gpucc.vm import cpu
from gpucc.vm.asm import make_jobs
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


def test_every_launch_has_the_launchers_one_signature():
    """Only the process's first launch compiles under the options (vm/cpu.py), so no launch may
    bring argument types of another signature: assembled and compiled programs, any limits."""
    run_asm(".func f a\n    LOAD_VAR a\n    RETURN\n", [("f", (3,))])
    batch = compile_batch(["def g(n: int) -> int:\n    return len(str(n) * 3) + sum([n, 2])\n"])
    program, g = Program.from_batch(batch), int(batch.func_start[0]) + batch.function_names(0).index("g")
    for limits, want in ((LaunchLimits(), (S.OK, 20)), (LaunchLimits(step_limit=2, heap_size=1 << 12), (S.STEP_LIMIT, 0))):
        results = vm.launch(program, make_jobs({}, [(g, (12,))]), "cpu", limits)
        assert (results.status[0], results.value[0] if results.status[0] == S.OK else 0) == want
    assert len(cpu._launch_chunks.signatures) == 1


def test_the_cached_kernel_is_keyed_by_the_options_it_was_compiled_under():
    # numba's cache key holds a closure's cell contents: the runner and launcher take the
    # fingerprint, so other options (like other sources) never load a kernel compiled under old ones
    for jitted in (cpu._run_jobs, cpu._launch_chunks):
        cells = [c.cell_contents for c in jitted.py_func.__closure__]
        assert cells == [(cpu.source_fingerprint(*cpu.KERNEL_SOURCES), cpu._INLINER)]
