"""CUDA launcher of the compiler: one thread per unit running the same `compile_unit` body.

Importing this module imports numba.cuda (compiler.batch imports it lazily, only for the
"cuda" backend).  Each thread's scratch (tokens, AST, traversal stacks, ...) is a slice of a
preallocated device array; the slices are laid end to end with per-unit offsets computed
on the host from the same capacity formulas the CPU launcher uses.  `compile_units_cuda`
takes the CPU launcher's arguments, so compiler.batch's output allocation and compaction
serve both backends.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from compiler import limits
from compiler.batch import _FINGERPRINT, MAX_LOCALS, PARSER_SCRATCH, _offsets, compile_unit
from compiler.codegen import CG_NCONST, CG_PC, CG_WIDTH
from compiler.typecheck import scratch_rows

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


def compile_units_cuda(buf, src_off, code_off, const_off, fn_off, code, lines, consts, fn, counts, errs):
    """compiler.batch's launcher contract on the device: fills code/lines/consts/fn/counts/errs
    (host arrays, in place) for the units src_off describes."""
    n = len(src_off) - 1
    if n == 0:
        return
    tok_off, node_off, row_off = scratch_offsets(src_off)
    nt, nn, nr = int(tok_off[-1]), int(node_off[-1]), int(row_off[-1])
    d = cuda.to_device
    e = cuda.device_array
    ins = [d(a) for a in (buf, src_off, code_off, const_off, fn_off, tok_off, node_off, row_off)]
    outs = [e(a.shape, a.dtype) for a in (code, lines, consts, fn, counts, errs)]
    scratch = [
        e((5, nt), np.int32),
        e(nt, np.int64),
        e((7, nn), np.int32),
        d(np.zeros(nn, np.int64)),  # the parser expects zeroed literal values (as on the CPU)
        e((nr, 5), np.int32),
        e((nr, 2), np.uint64),
        e((n, PARSER_SCRATCH), np.int32),
        e((n, MAX_LOCALS, 3), np.int32),
        d(np.zeros((n, CG_WIDTH), np.int64)),
    ]
    blocks = (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
    _kernel[blocks, THREADS_PER_BLOCK](*ins, *outs, *scratch)
    for host, dev in zip((code, lines, consts, fn, counts, errs), outs):
        if host.size:
            dev.copy_to_host(host)
