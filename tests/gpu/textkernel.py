"""Small CUDA kernels calling vm/unicode.py's functions (one code point per thread) and
vm/strconv.py's (one number text per thread): compiled to PTX by ptxcheck.py ("text",
"numbers") and run under the simulator by test_cuda_text.py.

    NUMBA_ENABLE_CUDASIM=1 python textkernel.py OUT.npz   # the results on SAMPLE and NUMBERS
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import cuda

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from gpucc.vm import strconv  # noqa: E402
from gpucc.vm.unicode import case_mapping, char_flags, decimal_value  # noqa: E402

# the ASCII and Latin-1 rows plus code points with multi-code-point mappings, digits, spaces
SAMPLE = np.array(list(range(0x180)) + [0x130, 0x149, 0x390, 0x1C5, 0x1E9E, 0x3A3, 0x663, 0x2028, 0xFB03, 0x10400,
                                        0x1D7CE, 0xE0020, 0x10FFFF, -1, 0x110000], np.int64)  # fmt: skip
NUMBERS = ["0", "-9223372036854775808", " ١٢_3\u3000", "1__2", "0.1", "-5e-324", "1.7976931348623157e308", "1e23",
           "-inf", "nan", "9007199254740993", "2.4703282292062328e-324", "1e400", "x"]  # fmt: skip


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


def number_args() -> list:
    """The kernel's arguments: NUMBERS' code points and where each starts; int(s), float(s) out
    (status, value); str() of the int and repr() of the float out (code points, lengths); scratch."""
    n = len(NUMBERS)
    starts = np.cumsum([0] + [len(t) for t in NUMBERS]).astype(np.int64)
    texts = np.array([ord(c) for t in NUMBERS for c in t], np.int64)
    return [texts, starts, np.zeros((n, 4), np.int64), np.zeros((n, 48), np.int64), np.zeros((n, 2), np.int64),
            np.zeros((n, strconv.FLOAT_REPR_SCRATCH), np.int64)]  # fmt: skip


@cuda.jit
def number_kernel(texts, starts, parsed, out, lengths, scratch):
    i = cuda.grid(1)
    if i >= parsed.shape[0]:
        return
    parsed[i, 0], parsed[i, 1] = strconv.parse_int(texts, starts[i], starts[i + 1])
    parsed[i, 2], parsed[i, 3] = strconv.parse_float(texts, starts[i], starts[i + 1], scratch[i])
    lengths[i, 0] = strconv.int_repr(parsed[i, 1], out[i], 0)
    lengths[i, 1] = strconv.float_repr(parsed[i, 3], out[i], 24, scratch[i])


def main(out: str) -> None:
    args = text_args()
    text_kernel[(len(SAMPLE) + 127) // 128, 128](*args)
    numbers = number_args()
    number_kernel[1, 32](*numbers)
    np.savez(out, facts=args[1], maps=args[2], parsed=numbers[2], out=numbers[3], lengths=numbers[4])


if __name__ == "__main__":
    main(sys.argv[1])
