"""Compile a batch of sources on a backend: the compiler's public entry point, and its CPU
launcher.

`compile_batch` encodes the sources into one byte buffer (compiler/batch_layout.py), runs
ONE parallel launch over the units (in a few launches only when the output buffers would be
very large) and compacts the per-unit regions into a CompiledBatch (compiler/compiled.py).
The launch runs compiler/unit.py's `compile_unit` once per unit: on the CPU below, one unit
per prange iteration; on CUDA (compiler/cuda_batch.py, imported only for that backend) one
per thread, with the same launcher contract.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gpucc.compiler.arrays import (
    COUNT_CODE,
    COUNT_CONSTS,
    COUNT_FUNCTIONS,
    ERR_WIDTH,
    NODE_ROWS,
    TOKEN_ROWS,
    BatchOutput,
    Output,
    Regions,
    Scratch,
    unit_tokens,
    unit_tree,
    unit_types,
)
from gpucc.compiler.batch_layout import chunks, gather, layout
from gpucc.compiler.compiled import CompiledBatch, assemble
from gpucc.compiler.emit import CG_NCONST, CG_PC, CG_WIDTH
from gpucc.compiler.preludes import with_preludes
from gpucc.compiler.scope import F_WIDTH, L_WIDTH, LOCS_ROWS
from gpucc.compiler.typecheck import MASK_WIDTH, WALK_WIDTH, scratch_rows
from gpucc.compiler.unit import FINGERPRINT, PARSER_SCRATCH, compile_unit, node_capacity, token_capacity

BACKENDS = ("cpu", "cuda")


def _make_launcher(fingerprint):
    @njit(parallel=True, cache=True)
    def compile_units(buf, regions, outputs):
        """One unit per prange iteration; its scratch allocated per iteration.  The body only
        passes bundles on: numba's parfors drop writes made in a prange body through a
        namedtuple's field (numba issues 5872, 7135), so the fields are read before the loop."""
        src, code_off, const_off, fn_off = regions
        code, lines, consts, fn, counts, errs = outputs
        for u in prange(src.shape[0] - 1):
            lo, hi = src[u], src[u + 1]
            nt = token_capacity(hi - lo)
            nn = node_capacity(hi - lo)
            rows = scratch_rows(nn)
            node_rows = np.empty((NODE_ROWS, nn), dtype=np.int32)
            cg = np.zeros(CG_WIDTH, dtype=np.int64)
            nf = compile_unit(
                buf, lo, hi,
                unit_tokens(np.empty((TOKEN_ROWS, nt), dtype=np.int32), np.empty(nt, dtype=np.int64), 0, nt),
                unit_tree(node_rows, np.zeros(nn, dtype=np.int64), 0, nn),
                unit_types(node_rows, 0, nn, fn[fn_off[u] : fn_off[u + 1]]),
                Output(code[code_off[u] : code_off[u + 1]], lines[code_off[u] : code_off[u + 1]],
                       consts[const_off[u] : const_off[u + 1]], cg),
                Scratch(np.empty(PARSER_SCRATCH, dtype=np.int32), np.empty((rows, WALK_WIDTH), dtype=np.int32),
                        np.empty((rows, MASK_WIDTH), dtype=np.uint64), np.empty((LOCS_ROWS, L_WIDTH), dtype=np.int32)),
                errs[u],
            )  # fmt: skip
            counts[u, COUNT_CODE] = cg[CG_PC] if nf >= 0 else 0
            counts[u, COUNT_CONSTS] = cg[CG_NCONST] if nf >= 0 else 0
            counts[u, COUNT_FUNCTIONS] = nf if nf >= 0 else 0
        return len(fingerprint)

    return compile_units


_compile_cpu = _make_launcher(FINGERPRINT)


def outputs_at_capacity(regions: Regions) -> BatchOutput:
    """Uninitialized host outputs for a chunk's units (each writes the start of its regions)."""
    n, n_code = len(regions.src) - 1, int(regions.code[-1])
    return BatchOutput(np.empty((n_code, 2), dtype=np.int32), np.empty(n_code, dtype=np.int32),
                       np.empty(int(regions.consts[-1]), dtype=np.int64),
                       np.empty((int(regions.fn[-1]), F_WIDTH), dtype=np.int32),
                       np.zeros((n, 3), dtype=np.int64), np.zeros((n, ERR_WIDTH), dtype=np.int32))  # fmt: skip


def _launch(raw: list[bytes], run) -> BatchOutput:
    """Compile one chunk with the launcher `run` (buf, Regions, BatchOutput: fills the
    outputs in place); returns the outputs compacted (only what each unit wrote)."""
    buf, regions = layout(raw)
    out = outputs_at_capacity(regions)
    run(buf, regions, out)
    counts = out.counts
    ic = gather(regions.code[:-1], counts[:, COUNT_CODE])
    kept = gather(regions.consts[:-1], counts[:, COUNT_CONSTS])
    fc = gather(regions.fn[:-1], counts[:, COUNT_FUNCTIONS])
    return BatchOutput(out.code[ic], out.lines[ic], out.consts[kept], out.fn[fc], counts, out.errs)


def compile_batch(sources: list[str], backend: str = "cpu") -> CompiledBatch:
    """Compile every source (one unit each) in one batch launch on `backend`."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown compiler backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    run = _compile_cpu
    if backend == "cuda":
        from gpucc.compiler.cuda_batch import compile_units_cuda as run  # lazy: imports numba.cuda
    sources = [with_preludes(s) for s in sources]  # compiler/preludes.py
    raw = [s.encode() for s in sources]
    return assemble(sources, [_launch(chunk, run) for chunk in chunks(raw)] if raw else [])


def compile_source(source: str, backend: str = "cpu") -> CompiledBatch:
    """Compile one source (a batch of one)."""
    return compile_batch([source], backend)
