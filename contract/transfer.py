"""Host<->device traffic of the CUDA backend: every copy across PCIe goes through here, counted.

`to_device` / `to_host` are the only ways the CUDA launchers (compiler/cuda_batch.py,
vm/cuda.py) move arrays between host and device; each copy adds its bytes to a
TransferCounter (a zero-byte copy is no transfer).  The device-side helpers (`device_full`,
`compact_regions`, `device_concat`) exist so that arrays need not cross at all: filling,
compacting and concatenating happen on the device.  `require_device` guards kernel launches:
numba silently copies a numpy argument to the device and back, which would bypass the count.

Device arrays are numba's (DeviceNDArray; FakeCUDAArray under the simulator); cupy is not
needed.  Importing this module does not import numba.cuda; the functions that touch a
device do.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from gpucc.contract.image import is_device_array  # noqa: F401 - re-exported

THREADS_PER_BLOCK = 32
MAX_BLOCKS = 4096  # the helpers' kernels are grid-stride: any size fits this grid
cuda = None  # numba.cuda, imported on first use; a module global, as the simulator needs in kernels


def _cuda():
    global cuda
    if cuda is None:
        from numba import cuda as module

        cuda = module
    return cuda


@dataclass
class TransferCounter:
    """Bytes and copies across PCIe; `log` keeps (direction "h2d" | "d2h", label, bytes) per copy."""

    host_to_device_bytes: int = 0
    device_to_host_bytes: int = 0
    transfers: int = 0
    log: list[tuple[str, str, int]] = field(default_factory=list)

    def record(self, direction: str, label: str, nbytes: int) -> None:
        if direction not in ("h2d", "d2h"):
            raise ValueError(f"direction must be 'h2d' or 'd2h', got {direction!r}")
        if direction == "h2d":
            self.host_to_device_bytes += nbytes
        else:
            self.device_to_host_bytes += nbytes
        self.transfers += 1
        self.log.append((direction, label, nbytes))

    def add(self, other: "TransferCounter") -> None:
        """Count another counter's copies here too (e.g. a launch's, into the run's)."""
        for entry in other.log:
            self.record(*entry)

    def by_label(self) -> dict[tuple[str, str], int]:
        """Bytes per (direction, label), summed over the copies."""
        totals: Counter = Counter()
        for direction, label, nbytes in self.log:
            totals[(direction, label)] += nbytes
        return dict(totals)

    def totals(self) -> dict:
        return {"host_to_device_bytes": self.host_to_device_bytes,
                "device_to_host_bytes": self.device_to_host_bytes, "transfers": self.transfers}  # fmt: skip


def run_info(backend: str, counter: TransferCounter | None) -> dict:
    """The "transfer" field of a run's JSON: the counter's totals on the cuda backend, zeros
    with a note on the others (nothing crosses PCIe)."""
    if backend != "cuda":
        return {**TransferCounter().totals(), "note": "no device"}
    return (counter or TransferCounter()).totals()


def to_device(host, counter: TransferCounter, label: str):
    """A device copy of host array `host`, counted."""
    host = np.ascontiguousarray(host)
    if host.nbytes == 0:
        return _cuda().device_array(host.shape, host.dtype)
    counter.record("h2d", label, host.nbytes)
    return _cuda().to_device(host)


def to_host(dev, counter: TransferCounter, label: str, out: np.ndarray | None = None) -> np.ndarray:
    """Device array `dev` copied to the host (into `out` when given), counted."""
    if out is None:
        out = np.empty(dev.shape, dev.dtype)
    if dev.size:
        counter.record("d2h", label, int(dev.size) * dev.dtype.itemsize)
        dev.copy_to_host(out)
    return out


def require_device(args, what: str) -> None:
    """Raise if a kernel argument, or an array of a bundle argument (a namedtuple such as
    contract.image.ImageArrays), is a host array (numba would copy it across uncounted)."""
    host = []
    for i, a in enumerate(args):
        if isinstance(a, tuple):
            names = getattr(a, "_fields", range(len(a)))
            host += [f"{i}.{name}" for name, x in zip(names, a) if isinstance(x, np.ndarray)]
        elif isinstance(a, np.ndarray):
            host.append(str(i))
    if host:
        raise TypeError(f"{what}: arguments [{', '.join(host)}] are host arrays; "
                        "move them with contract.transfer.to_device")  # fmt: skip


def _grid(n: int) -> tuple[int, int]:
    return max(1, min(MAX_BLOCKS, (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK)), THREADS_PER_BLOCK


@functools.cache
def _kernels():
    _cuda()

    @cuda.jit
    def fill(flat, value):
        for i in range(cuda.grid(1), flat.shape[0], cuda.gridsize(1)):
            flat[i] = value

    @cuda.jit
    def compact(src, src_start, dst, dst_start, width):
        # block b copies units b, b + gridDim, ...; its threads stride over the unit's elements
        for u in range(cuda.blockIdx.x, dst_start.shape[0] - 1, cuda.gridDim.x):
            s0 = src_start[u] * width
            d0 = dst_start[u] * width
            n = (dst_start[u + 1] - dst_start[u]) * width
            for i in range(cuda.threadIdx.x, n, cuda.blockDim.x):
                dst[d0 + i] = src[s0 + i]

    return fill, compact


def device_full(shape, dtype, value):
    """A new device array of `shape` filled with `value` on the device (nothing crosses)."""
    out = _cuda().device_array(shape, dtype)
    if out.size:
        fill, _ = _kernels()
        fill[_grid(out.size)](out.reshape(-1), out.dtype.type(value))
    return out


def compact_regions(src, src_start, dst_start, n_rows: int):
    """Unit u's rows src[src_start[u] : src_start[u] + len_u] laid end to end on the device,
    len_u = dst_start[u + 1] - dst_start[u] (src_start, dst_start: int64 device arrays)."""
    dst = _cuda().device_array((n_rows, *src.shape[1:]), src.dtype)
    n_units = dst_start.shape[0] - 1
    if n_rows and n_units:
        width = int(np.prod(src.shape[1:], dtype=np.int64))
        _, compact = _kernels()
        args = (src.reshape(-1), src_start, dst.reshape(-1), dst_start, np.int64(width))
        require_device(args, "compact_regions")
        compact[min(MAX_BLOCKS, n_units), THREADS_PER_BLOCK](*args)
    return dst


def device_concat(parts: list, empty_shape: tuple, dtype):
    """The device arrays `parts` joined along axis 0 on the device (device-to-device copies)."""
    if len(parts) == 1:
        return parts[0]
    out = _cuda().device_array((sum(p.shape[0] for p in parts), *empty_shape[1:]), dtype)
    row = 0
    for p in parts:
        if p.shape[0]:
            out[row : row + p.shape[0]].copy_to_device(p)
        row += p.shape[0]
    return out
