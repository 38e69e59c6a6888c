"""A small CUDA kernel calling vm/unicode.py's functions, one code point per thread: compiled
to PTX by ptxcheck.py ("text") and run under the simulator by test_cuda_text.py.

    NUMBA_ENABLE_CUDASIM=1 python textkernel.py OUT.npz   # the facts of SAMPLE, as arrays
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import cuda

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gpucc.vm.unicode import case_mapping, char_flags, decimal_value  # noqa: E402

# the ASCII and Latin-1 rows plus code points with multi-code-point mappings, digits, spaces
SAMPLE = np.array(list(range(0x180)) + [0x130, 0x149, 0x390, 0x1C5, 0x1E9E, 0x3A3, 0x663, 0x2028, 0xFB03, 0x10400,
                                        0x1D7CE, 0xE0020, 0x10FFFF, -1, 0x110000], np.int64)  # fmt: skip


def text_args() -> list:
    """The kernel's arguments: code points, flags and decimal values out, mappings out."""
    n = len(SAMPLE)
    return [SAMPLE, np.zeros((n, 2), np.int64), np.zeros((n, 4, 4), np.int64)]


@cuda.jit
def text_kernel(cps, facts, maps):
    i = cuda.grid(1)
    if i >= cps.shape[0]:
        return
    cp = cps[i]
    facts[i, 0] = char_flags(cp)
    facts[i, 1] = decimal_value(cp)
    for k in range(4):
        n, c0, c1, c2 = case_mapping(cp, k + 1)
        maps[i, k, 0] = n
        maps[i, k, 1] = c0
        maps[i, k, 2] = c1
        maps[i, k, 3] = c2


def main(out: str) -> None:
    args = text_args()
    text_kernel[(len(SAMPLE) + 127) // 128, 128](*args)
    np.savez(out, facts=args[1], maps=args[2])


if __name__ == "__main__":
    main(sys.argv[1])
