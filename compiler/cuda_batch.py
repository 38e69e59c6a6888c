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
from gpucc.compiler.batch import (
    _FINGERPRINT,
    MAX_LOCALS,
    PARSER_SCRATCH,
    CompiledBatch,
    _chunks,
    _offsets,
    assemble,
    compile_unit,
    layout,
)
from gpucc.compiler.codegen import CG_NCONST, CG_PC, CG_WIDTH
from gpucc.compiler.scope import F_WIDTH
from gpucc.compiler.typecheck import scratch_rows
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
    def compile_kernel(buf, src_off, code_off, const_off, fn_off, tok_off, node_off, row_off,
                       code, lines, consts, fn, counts, errs, toks, tok_val, ast, val, stk,
                       masks, pstack, locs, cg):  # fmt: skip
        u = cuda.grid(1)
        if u >= src_off.shape[0] - 1:
            return
        t0, t1 = tok_off[u], tok_off[u + 1]
        n0, n1 = node_off[u], node_off[u + 1]
        r0, r1 = row_off[u], row_off[u + 1]
        err = errs[u]
        ucg = cg[u]
        nf = compile_unit(
            buf, src_off[u], src_off[u + 1], toks[0, t0:t1], toks[1, t0:t1], toks[2, t0:t1],
            toks[3, t0:t1], toks[4, t0:t1], tok_val[t0:t1],
            ast[0, n0:n1], ast[1, n0:n1], ast[2, n0:n1], ast[3, n0:n1], ast[4, n0:n1],
            val[n0:n1], ast[5, n0:n1], ast[6, n0:n1],
            pstack[u], stk[r0:r1], masks[r0:r1], locs[u],
            fn[fn_off[u] : fn_off[u + 1]], code[code_off[u] : code_off[u + 1]],
            lines[code_off[u] : code_off[u + 1]], consts[const_off[u] : const_off[u + 1]], ucg, err,
        )  # fmt: skip
        counts[u, 0] = ucg[CG_PC] if nf >= 0 else 0
        counts[u, 1] = ucg[CG_NCONST] if nf >= 0 else 0
        counts[u, 2] = nf if nf >= 0 else 0
        if fingerprint == 0:  # never: keeps the sources' fingerprint in numba's cache key
            counts[u, 2] = -1

    return compile_kernel


_kernel = _make_kernel(int(_FINGERPRINT[:15], 16) | 1)


def scratch_offsets(src_off: np.ndarray):
    """Per-unit offsets of the token, AST-node and traversal-row scratch regions."""
    sizes = np.diff(src_off)
    tok = np.array([limits.token_capacity(int(s)) for s in sizes], dtype=np.int64)
    node = np.array([limits.node_capacity(int(s)) for s in sizes], dtype=np.int64)
    rows = np.array([scratch_rows(int(n)) for n in node], dtype=np.int64)
    return _offsets(tok), _offsets(node), _offsets(rows)


def _failed_kernel():
    @cuda.jit
    def failed_units(errs, n_failed, failed):
        """Rows (unit, code, start, end, arg) of the units whose error code is not 0, in any order."""
        u = cuda.grid(1)
        if u < errs.shape[0] and errs[u, 0] != 0:
            k = cuda.atomic.add(n_failed, 0, 1)
            failed[k, 0] = u
            for j in range(4):
                failed[k, j + 1] = errs[u, j]

    return failed_units


_failed_units = _failed_kernel()
OUTPUTS = ("code", "lines", "consts", "function tables", "unit counts", "error records")


def _run(buf, src_off, code_off, const_off, fn_off, counter: TransferCounter):
    """Upload one chunk's sources and offsets and launch the compiler on them: returns the
    kernel's device inputs and outputs (code, lines, consts, fn, counts, errs) at capacity."""
    n = len(src_off) - 1
    tok_off, node_off, row_off = scratch_offsets(src_off)
    nt, nn, nr = int(tok_off[-1]), int(node_off[-1]), int(row_off[-1])
    ins = [to_device(buf, counter, "sources")]
    ins += [to_device(a, counter, "unit offsets") for a in (src_off, code_off, const_off, fn_off, tok_off, node_off, row_off)]
    e = cuda.device_array
    n_code = int(code_off[-1])
    outs = [e((n_code, 2), np.int32), e(n_code, np.int32), e(int(const_off[-1]), np.int64),
            e((int(fn_off[-1]), F_WIDTH), np.int32), e((n, 3), np.int64), e((n, 4), np.int32)]  # fmt: skip
    scratch = [
        e((5, nt), np.int32),
        e(nt, np.int64),
        e((7, nn), np.int32),
        device_full(nn, np.int64, 0),  # the parser expects zeroed literal values (as on the CPU)
        e((nr, 5), np.int32),
        e((nr, 2), np.uint64),
        e((n, PARSER_SCRATCH), np.int32),
        e((n, MAX_LOCALS, 3), np.int32),
        device_full((n, CG_WIDTH), np.int64, 0),
    ]
    args = (*ins, *outs, *scratch)
    require_device(args, "the compile kernel")
    _kernel[(n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, THREADS_PER_BLOCK](*args)
    return ins, outs


def compile_units_cuda(buf, src_off, code_off, const_off, fn_off, code, lines, consts, fn, counts, errs):
    """compiler.batch's launcher contract on the device: fills code/lines/consts/fn/counts/errs
    (host arrays, in place) for the units src_off describes."""
    if len(src_off) == 1:
        return
    counter = TransferCounter()
    _, outs = _run(buf, src_off, code_off, const_off, fn_off, counter)
    for host, dev, name in zip((code, lines, consts, fn, counts, errs), outs, OUTPUTS):
        to_host(dev, counter, name, out=host)


def failed_errors(errs, counter: TransferCounter) -> np.ndarray:
    """int32[n, 4] on the host: the error records of the units that failed (zeros for the
    others), read back alone: the number that failed, then their rows."""
    n = errs.shape[0]
    n_failed = device_full(1, np.int64, 0)
    failed = cuda.device_array((n, 5), np.int32)
    _failed_units[(n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, THREADS_PER_BLOCK](errs, n_failed, failed)
    k = int(to_host(n_failed, counter, "failed units")[0])
    rows = to_host(failed[:k], counter, "error records")
    out = np.zeros((n, 4), np.int32)
    out[rows[:, 0]] = rows[:, 1:]
    return out


def _launch_resident(raw: list[bytes], counter: TransferCounter) -> tuple:
    """One chunk compiled and compacted on the device: (errs, counts, fn) on the host,
    (code, lines, consts) on the device."""
    ins, (code, lines, consts, fn, counts, errs) = _run(*layout(raw), counter)
    d_code_off, d_const_off, d_fn_off = ins[2:5]
    counts = to_host(counts, counter, "unit counts")
    starts = [_offsets(counts[:, k]) for k in range(3)]  # instructions, constants, functions
    d_code_start, d_const_start, d_fn_start = (to_device(s, counter, "compacted offsets") for s in starts)
    n_code, n_const, n_fn = (int(s[-1]) for s in starts)
    return (
        failed_errors(errs, counter),
        counts,
        compact_regions(code, d_code_off, d_code_start, n_code),
        compact_regions(lines, d_code_off, d_code_start, n_code),
        compact_regions(consts, d_const_off, d_const_start, n_const),
        to_host(compact_regions(fn, d_fn_off, d_fn_start, n_fn), counter, "function tables"),
    )


def compile_batch_resident(sources: list[str], counter: TransferCounter) -> CompiledBatch:
    """compile_batch(sources, "cuda") with code, lines and consts left on the device (numba
    device arrays, compacted); every other field is a host array, as compile_batch's."""
    sources = list(sources)
    raw = [s.encode() for s in sources]
    parts = [_launch_resident(chunk, counter) for chunk in _chunks(raw)] if raw else []
    none = (np.zeros((0, 2), np.int32), np.zeros(0, np.int32), np.zeros(0, np.int64))
    host = assemble(sources, [(e, c, *none, f) for e, c, _, _, _, f in parts])
    on_device = {name: device_concat([p[i] for p in parts], empty.shape, empty.dtype)
                 for i, name, empty in zip((2, 3, 4), ("code", "lines", "consts"), none)}  # fmt: skip
    return dataclasses.replace(host, **on_device)
