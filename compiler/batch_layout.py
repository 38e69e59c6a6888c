"""Host side of a compile launch, shared by both launchers (compiler/batch.py,
compiler/cuda_batch.py): the sources split into chunks (launches) of bounded output, and a
chunk's layout (its bytes end to end and each unit's regions of them and of the outputs).
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import limits
from gpucc.compiler.arrays import Regions

CHUNK_INSTRUCTIONS = 1 << 24  # output capacity per launch (bounds host memory)


def offsets(sizes: np.ndarray) -> np.ndarray:
    """int64[n + 1]: where each of n regions of these sizes starts, laid end to end."""
    out = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    return out


def gather(start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Indices of the regions [start[u], start[u] + length[u]) laid end to end."""
    total = int(length.sum())
    shift = np.repeat(start - offsets(length)[:-1], length)
    return shift + np.arange(total, dtype=np.int64)


def layout(raw: list[bytes]) -> tuple[np.ndarray, Regions]:
    """A chunk's launch inputs: the sources' bytes end to end and the Regions of each unit."""
    sizes = np.array([len(r) for r in raw], dtype=np.int64)
    buf = np.frombuffer(b"".join(raw) or b"\n", dtype=np.uint8).copy()  # one (writable) array type
    code = offsets(np.array([limits.code_capacity(int(s)) for s in sizes], dtype=np.int64))
    consts = offsets(np.array([limits.const_capacity(r) for r in raw], dtype=np.int64))
    fn = offsets(np.minimum(limits.MAX_FUNCTIONS, sizes // 8 + 1))
    return buf, Regions(offsets(sizes), code, consts, fn)


def chunks(raw: list[bytes]):
    """The sources in launches whose output capacity stays within CHUNK_INSTRUCTIONS (a
    larger single source gets a launch of its own)."""
    lo, total = 0, 0
    for i, r in enumerate(raw):
        cap = limits.code_capacity(len(r))
        if i > lo and total + cap > CHUNK_INSTRUCTIONS:
            yield raw[lo:i]
            lo, total = i, 0
        total += cap
    yield raw[lo:]
