"""Compile the CUDA kernels to PTX without a GPU (needs numba-cuda's NVVM, e.g. the
`numba-cuda[cu12]` or `[cu13]` wheels): catches what the simulator cannot, i.e. constructs
in the shared kernel bodies that numba-cuda cannot type or lower for a real device.

    python tests/gpu/ptxcheck.py [compiler|vm|verify|fill|compact|failed_units|text|numbers ...]  # one line per kernel

Device functions (the register_jitable bodies) are compiled for the current device's
compute capability; without a device this script pretends to be an sm_90 (H100)."""

from __future__ import annotations

import sys
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
CC = (9, 0)


def _signature(kernel_args) -> tuple:
    from numba import typeof

    return tuple(typeof(a) for a in kernel_args)


def compiler_args() -> list:
    from gpucc.compiler.arrays import NODE_ROWS, TOKEN_ROWS, BatchOutput, DeviceScratch, Regions, ScratchRegions
    from gpucc.compiler.emit import CG_WIDTH
    from gpucc.compiler.limits import MAX_LOCALS
    from gpucc.compiler.scope import F_WIDTH, L_WIDTH
    from gpucc.compiler.typecheck import MASK_WIDTH, WALK_WIDTH
    from gpucc.compiler.unit import PARSER_SCRATCH

    i32, i64, z = np.int32, np.int64, np.zeros
    return [z(2, np.uint8), Regions(*[z(2, i64)] * 4), ScratchRegions(*[z(2, i64)] * 3),
            BatchOutput(z((2, 2), i32), z(2, i32), z(2, i64), z((2, F_WIDTH), i32), z((2, 3), i64), z((2, 4), i32)),
            DeviceScratch(z((TOKEN_ROWS, 2), i32), z(2, i64), z((NODE_ROWS, 2), i32), z(2, i64),
                          z((2, WALK_WIDTH), i32), z((2, MASK_WIDTH), np.uint64), z((2, PARSER_SCRATCH), i32),
                          z((2, MAX_LOCALS, L_WIDTH), i32), z((2, CG_WIDTH), i64))]  # fmt: skip


def _image():
    """An ImageArrays of two instructions and two functions (the kernels' argument types)."""
    from gpucc.contract.image import ImageArrays

    z = np.zeros
    tables = {name: z(2, np.int32) for name in ImageArrays._fields}  # lines, func_*, unit_*: int32[2]
    return ImageArrays(**{**tables, "code": z(4, np.int32), "consts": z(2, np.int64), "func_ok": z(2, np.int8)})


def vm_args() -> list:
    from gpucc.contract.image import JobArrays, Results, result_arrays
    from gpucc.vm.kernel import Scratch

    i32, i64, z = np.int32, np.int64, np.zeros
    jobs = JobArrays(func=z(2, i32), link=z(2, i32), args=z((2, 8), i64), links=z((2, 8), i32), pool=z(4, i64),
                     arg_lists=z(2, i32))  # fmt: skip
    scratch = Scratch(z((4, 2), i64), z((4, 3, 2), i64), z((4, 2), i64), z((4, 2), i64))  # every thread's: (slots, threads)
    # image, jobs, scratch, out, step_limit
    return [_image(), jobs, scratch, result_arrays(Results.allocate(2)), i64(1)]


def verify_args() -> list:
    # image, depth_at, work, has_lists
    return [_image(), np.zeros(2, np.int32), np.zeros(2, np.int32), np.zeros(1, np.int8)]


def helper_args() -> dict:
    """The residency helpers' kernels (contract/transfer.py, compiler/cuda_batch.py) and their arguments."""
    from gpucc.compiler.cuda_batch import _failed_units
    from gpucc.contract.transfer import _kernels

    fill, compact = _kernels()
    i32, i64, z = np.int32, np.int64, np.zeros
    return {"fill": (fill, [z(2, i64), i64(0)]),
            "compact": (compact, [z(4, i32), z(3, i64), z(4, i32), z(3, i64), i64(2)]),
            "failed_units": (_failed_units, [z((2, 4), i32), z(1, i64), z((2, 5), i32)])}


def _kernel(name: str):
    if name in ("fill", "compact", "failed_units"):
        return helper_args()[name]
    if name in ("text", "numbers"):  # vm/unicode.py's and vm/strconv.py's functions (tests/gpu/textkernel.py)
        import textkernel as t

        return (t.text_kernel, t.text_args()) if name == "text" else (t.number_kernel, t.number_args())
    module, attr, args = {"compiler": ("gpucc.compiler.cuda_batch", "_kernel", compiler_args),
                          "vm": ("gpucc.vm.cuda", "_kernel", vm_args), "verify": ("gpucc.vm.cuda", "_verify", verify_args)}[name]
    return getattr(__import__(module, fromlist=[attr]), attr), args()


def main(which) -> int:
    import numba.cuda.dispatcher as dispatcher
    from numba import cuda

    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=CC)
    failed = 0
    for name in which or ("compiler", "vm", "verify", "fill", "compact", "failed_units", "text", "numbers"):
        kernel, args = _kernel(name)
        t = time.perf_counter()
        try:
            ptx, _ = cuda.compile_ptx(kernel.py_func, _signature(args), cc=CC)
            print(f"{name}: PTX OK, {len(ptx)} chars, {time.perf_counter() - t:.1f} s")
        except Exception as e:  # report and go on with the next kernel
            failed += 1
            print(f"{name}: FAILED after {time.perf_counter() - t:.1f} s: {type(e).__name__}: {e}")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
