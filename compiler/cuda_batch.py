"""CUDA launcher of the compiler: one thread per unit running the same `compile_unit` body.

Importing this module imports numba.cuda (compiler.batch imports it lazily, only for the
"cuda" backend).  Each thread's scratch (tokens, AST, traversal stacks, ...) is a slice of a
preallocated device array; the slices are laid end to end with per-unit offsets computed
on the host from the same capacity formulas the CPU launcher uses.  Two entry points:

* `compile_units_cuda` takes the CPU launcher's arguments (host arrays, filled in place), so
  compiler.batch's compaction serves both backends: compile_batch(backend="cuda").
* `compile_batch_resident` keeps the code, lines and constants on the device, compacted
  there, for vm/cuda.py's launch (the session's cuda path); only each unit's counts, the
  function tables (linking needs them) and the error records of the units that failed come
  back.  vm/cuda.py's docstring lists every copy of a run.

Every host<->device copy goes through contract.transfer and is counted.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import cuda

from gpucc.compiler import limits
from gpucc.compiler.arrays import (
    COUNT_CODE,
    COUNT_CONSTS,
    COUNT_FUNCTIONS,
    ERR_WIDTH,
    NODE_ROWS,
    TOKEN_ROWS,
    BatchOutput,
    DeviceScratch,
    Output,
    Regions,
    Scratch,
    ScratchRegions,
    unit_tokens,
    unit_tree,
    unit_types,
)
from gpucc.compiler.batch_layout import chunks, layout, offsets
from gpucc.compiler.compiled import CompiledBatch, assemble
from gpucc.compiler.emit import CG_NCONST, CG_PC, CG_WIDTH
from gpucc.compiler.preludes import with_preludes
from gpucc.compiler.scope import F_WIDTH, L_WIDTH, LOCS_ROWS
from gpucc.compiler.typecheck import MASK_WIDTH, WALK_WIDTH, scratch_rows
from gpucc.compiler.unit import FINGERPRINT, PARSER_SCRATCH, compile_unit
from gpucc.contract.transfer import (
    TransferCounter,
    compact_regions,
    device_concat,
    device_full,
    require_device,
    to_device,
    to_host,
)

THREADS_PER_BLOCK = 32  # the compile body is long and branchy: small blocks


def _make_kernel(fingerprint):
    @cuda.jit(cache=True)
    def compile_kernel(buf, regions, scratch_regions, outputs, scratch):
        u = cuda.grid(1)
        if u >= regions.src.shape[0] - 1:
            return
        t0, t1 = scratch_regions.tok[u], scratch_regions.tok[u + 1]
        n0, n1 = scratch_regions.node[u], scratch_regions.node[u + 1]
        r0, r1 = scratch_regions.row[u], scratch_regions.row[u + 1]
        c0, c1 = regions.code[u], regions.code[u + 1]
        out = Output(outputs.code[c0:c1], outputs.lines[c0:c1],
                     outputs.consts[regions.consts[u] : regions.consts[u + 1]], scratch.cg[u])  # fmt: skip
        nf = compile_unit(
            buf, regions.src[u], regions.src[u + 1],
            unit_tokens(scratch.tok_rows, scratch.tok_val, t0, t1),
            unit_tree(scratch.node_rows, scratch.node_val, n0, n1),
            unit_types(scratch.node_rows, n0, n1, outputs.fn[regions.fn[u] : regions.fn[u + 1]]),
            out, Scratch(scratch.parse[u], scratch.walk[r0:r1], scratch.masks[r0:r1], scratch.locs[u]), outputs.errs[u],
        )  # fmt: skip
        counts = outputs.counts
        counts[u, COUNT_CODE] = out.cg[CG_PC] if nf >= 0 else 0
        counts[u, COUNT_CONSTS] = out.cg[CG_NCONST] if nf >= 0 else 0
        counts[u, COUNT_FUNCTIONS] = nf if nf >= 0 else 0
        if fingerprint == 0:  # never: keeps the sources' fingerprint in numba's cache key
            counts[u, COUNT_FUNCTIONS] = -1

    return compile_kernel


_kernel = _make_kernel(int(FINGERPRINT[:15], 16) | 1)


def scratch_regions(src: np.ndarray) -> ScratchRegions:
    """Per-unit offsets of the token, node and walk-row scratch (src: the units' Regions.src)."""
    sizes = np.diff(src)
    tok = np.array([limits.token_capacity(int(s)) for s in sizes], dtype=np.int64)
    node = np.array([limits.node_capacity(int(s)) for s in sizes], dtype=np.int64)
    rows = np.array([scratch_rows(int(n)) for n in node], dtype=np.int64)
    return ScratchRegions(offsets(tok), offsets(node), offsets(rows))


def _failed_kernel():
    @cuda.jit
    def failed_units(errs, n_failed, failed):
        """Rows (unit, its error record) of the units whose error code is not 0, in any order."""
        u = cuda.grid(1)
        if u < errs.shape[0] and errs[u, 0] != 0:
            k = cuda.atomic.add(n_failed, 0, 1)
            failed[k, 0] = u
            for j in range(ERR_WIDTH):
                failed[k, j + 1] = errs[u, j]

    return failed_units


_failed_units = _failed_kernel()
OUTPUTS = ("code", "lines", "consts", "function tables", "unit counts", "error records")


def _run(buf, regions: Regions, counter: TransferCounter) -> tuple[Regions, BatchOutput]:
    """Upload one chunk's sources and Regions and launch the compiler on them: returns the
    device Regions and outputs (at capacity)."""
    n = len(regions.src) - 1
    sr = scratch_regions(regions.src)
    nt, nn, nr = int(sr.tok[-1]), int(sr.node[-1]), int(sr.row[-1])
    d_buf = to_device(buf, counter, "sources")
    d_regions = Regions(*(to_device(a, counter, "unit offsets") for a in regions))
    d_scratch_regions = ScratchRegions(*(to_device(a, counter, "unit offsets") for a in sr))
    e = cuda.device_array
    n_code = int(regions.code[-1])
    outs = BatchOutput(e((n_code, 2), np.int32), e(n_code, np.int32), e(int(regions.consts[-1]), np.int64),
                       e((int(regions.fn[-1]), F_WIDTH), np.int32), e((n, 3), np.int64),
                       e((n, ERR_WIDTH), np.int32))  # fmt: skip
    scratch = DeviceScratch(
        e((TOKEN_ROWS, nt), np.int32),
        e(nt, np.int64),
        e((NODE_ROWS, nn), np.int32),
        device_full(nn, np.int64, 0),  # the parser expects zeroed literal values (as on the CPU)
        e((nr, WALK_WIDTH), np.int32),
        e((nr, MASK_WIDTH), np.uint64),
        e((n, PARSER_SCRATCH), np.int32),
        e((n, LOCS_ROWS, L_WIDTH), np.int32),
        device_full((n, CG_WIDTH), np.int64, 0),
    )
    args = (d_buf, d_regions, d_scratch_regions, outs, scratch)
    require_device(args, "the compile kernel")
    _kernel[(n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, THREADS_PER_BLOCK](*args)
    return d_regions, outs


def compile_units_cuda(buf, regions: Regions, outputs: BatchOutput) -> None:
    """compiler.batch's launcher contract on the device: fills outputs (host arrays, in place)
    for the units the Regions describe."""
    if len(regions.src) == 1:
        return
    counter = TransferCounter()
    _, outs = _run(buf, regions, counter)
    for host, dev, name in zip(outputs, outs, OUTPUTS):
        to_host(dev, counter, name, out=host)


def failed_errors(errs, counter: TransferCounter) -> np.ndarray:
    """int32[n, ERR_WIDTH] on the host: the error records of the units that failed (zeros for
    the others), read back alone: the number that failed, then their rows."""
    n = errs.shape[0]
    n_failed = device_full(1, np.int64, 0)
    failed = cuda.device_array((n, 1 + ERR_WIDTH), np.int32)
    _failed_units[(n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, THREADS_PER_BLOCK](errs, n_failed, failed)
    k = int(to_host(n_failed, counter, "failed units")[0])
    rows = to_host(failed[:k], counter, "error records")
    out = np.zeros((n, ERR_WIDTH), np.int32)
    out[rows[:, 0]] = rows[:, 1:]
    return out


def _launch_resident(raw: list[bytes], counter: TransferCounter) -> BatchOutput:
    """One chunk compiled and compacted on the device: code, lines and consts on the device,
    the rest on the host."""
    d_regions, outs = _run(*layout(raw), counter)
    counts = to_host(outs.counts, counter, "unit counts")
    starts = [offsets(counts[:, k]) for k in (COUNT_CODE, COUNT_CONSTS, COUNT_FUNCTIONS)]
    d_code_start, d_const_start, d_fn_start = (to_device(s, counter, "compacted offsets") for s in starts)
    n_code, n_const, n_fn = (int(s[-1]) for s in starts)
    return BatchOutput(
        compact_regions(outs.code, d_regions.code, d_code_start, n_code),
        compact_regions(outs.lines, d_regions.code, d_code_start, n_code),
        compact_regions(outs.consts, d_regions.consts, d_const_start, n_const),
        to_host(compact_regions(outs.fn, d_regions.fn, d_fn_start, n_fn), counter, "function tables"),
        counts,
        failed_errors(outs.errs, counter),
    )


def compile_batch_resident(sources: list[str], counter: TransferCounter) -> CompiledBatch:
    """compile_batch(sources, "cuda") with code, lines and consts left on the device (numba
    device arrays, compacted); every other field is a host array, as compile_batch's."""
    sources = [with_preludes(s) for s in sources]  # compiler/preludes.py
    raw = [s.encode() for s in sources]
    parts = [_launch_resident(chunk, counter) for chunk in chunks(raw)] if raw else []
    none = {"code": np.zeros((0, 2), np.int32), "lines": np.zeros(0, np.int32), "consts": np.zeros(0, np.int64)}
    host = assemble(sources, [p._replace(**none) for p in parts])
    on_device = {name: device_concat([getattr(p, name) for p in parts], empty.shape, empty.dtype)
                 for name, empty in none.items()}  # fmt: skip
    return dataclasses.replace(host, **on_device)
