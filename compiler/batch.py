"""Compile a batch of sources on a backend: the compiler's public entry point.

`compile_unit` runs the four phases (lex -> parse -> typecheck -> codegen) of one unit on
arrays it is given; it is a kernel body, so a CUDA launcher can call it with per-thread
scratch exactly as the CPU launcher below does.  `compile_batch` encodes the sources into
one byte buffer, runs ONE parallel launch over the units (in a few launches only when the
output buffers would be very large) and compacts the per-unit regions into a CompiledBatch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange
from numba.extending import register_jitable

from gpucc.compiler import errors, limits
from gpucc.compiler.codegen import CG_NCONST, CG_PC, CG_WIDTH, codegen
from gpucc.compiler.lexer import lex
from gpucc.compiler.parser import parse
from gpucc.compiler.parser import scratch_size as parser_scratch_size
from gpucc.compiler.scope import (
    F_ENTRY,
    F_IMPORT,
    F_MAX_STACK,
    F_NAME_E,
    F_NAME_S,
    F_NLOCALS,
    F_NPARAMS,
    F_PTYPE,
    F_RET,
    F_WIDTH,
)
from gpucc.compiler.typecheck import scratch_rows, typecheck
from gpucc.contract.cachekey import source_fingerprint

BACKENDS = ("cpu", "cuda")
MAX_PARAMS, MAX_LOCALS = limits.MAX_PARAMS, limits.MAX_LOCALS
PARSER_SCRATCH = parser_scratch_size(0)
CHUNK_INSTRUCTIONS = 1 << 24  # output capacity per launch (bounds host memory)

# numba's cache only watches the launcher's own file: the launcher closes over a fingerprint
# of every module its body may be compiled from (numba hashes closure variables into the key).
_FINGERPRINT = source_fingerprint("compiler/*.py", "contract/*.py")

# jittable capacity formulas (same functions as the host uses)
token_capacity = register_jitable(limits.token_capacity)
node_capacity = register_jitable(limits.node_capacity)


@dataclass
class CompiledBatch:
    """Every unit (source) of one compile launch, as flat arrays.

    Unit u's instructions are code[code_start[u]:code_start[u+1]], its constants
    consts[const_start[u]:const_start[u+1]], its functions func_*[func_start[u]:func_start[u+1]]
    (in source order).  A unit with error_code[u] != 0 has no code, constants or functions.
    Byte offsets (error_start/end, func_name_start/end) are relative to the unit's source.
    """

    sources: list[str]
    error_code: np.ndarray  # int32[n]
    error_start: np.ndarray  # int32[n]
    error_end: np.ndarray  # int32[n]
    error_arg: np.ndarray  # int32[n]
    code: np.ndarray  # int32[N, 2]: (opcode, operand)
    lines: np.ndarray  # int32[N]: 1-based source line of each instruction
    code_start: np.ndarray  # int64[n + 1]
    consts: np.ndarray  # int64[M]
    const_start: np.ndarray  # int64[n + 1]
    func_entry: np.ndarray  # int32[F]: first instruction, relative to the unit's code start
    func_nparams: np.ndarray  # int32[F]
    func_nlocals: np.ndarray  # int32[F]: parameters + locals + hidden slots
    func_max_stack: np.ndarray  # int32[F]: max operand-stack depth above the locals
    func_ret_type: np.ndarray  # int32[F]: contract.valuetypes code
    func_param_types: np.ndarray  # int32[F, MAX_PARAMS]
    func_is_import: np.ndarray  # int32[F]: 1 if the body is `...` (an interface stub)
    func_name_start: np.ndarray  # int32[F]
    func_name_end: np.ndarray  # int32[F]
    func_start: np.ndarray  # int64[n + 1]

    def __len__(self) -> int:
        return len(self.sources)

    def ok(self, u: int) -> bool:
        return int(self.error_code[u]) == 0

    def function_names(self, u: int) -> list[str]:
        src = self.sources[u].encode()
        lo, hi = int(self.func_start[u]), int(self.func_start[u + 1])
        return [src[self.func_name_start[f] : self.func_name_end[f]].decode() for f in range(lo, hi)]

    def error(self, u: int, filename: str = "<candidate>") -> errors.CompileError | None:
        """Unit u's compile error, rendered with its location, or None if it compiled."""
        if self.ok(u):
            return None
        return errors.render(
            self.sources[u],
            int(self.error_code[u]),
            int(self.error_start[u]),
            int(self.error_end[u]),
            int(self.error_arg[u]),
            filename,
        )


@register_jitable
def compile_unit(buf, lo, hi, tok_kind, tok_sub, tok_start, tok_end, tok_line, tok_val,
                 kind, op, tok, first, next_, val, type_, slot, pstack, stk, masks, locs,
                 fn, code, lines, consts, cg, err):  # fmt: skip
    """All phases for the source buf[lo:hi] on caller-provided arrays (sizes: limits.py
    capacities, parser.scratch_size, typecheck.scratch_rows).  Returns the number of
    functions (instructions: cg[CG_PC], constants: cg[CG_NCONST]), or -1 with err set."""
    for j in range(4):
        err[j] = 0
    n_tok = lex(buf, lo, hi, tok_kind, tok_sub, tok_start, tok_end, tok_line, tok_val, err)
    if n_tok < 0:
        return -1
    src = buf[lo:hi]
    n_nodes = parse(src, tok_kind, tok_sub, tok_start, tok_end, tok_line, tok_val, n_tok,
                    kind, op, tok, first, next_, val, pstack, err)  # fmt: skip
    if n_nodes < 0:
        return -1
    nf = typecheck(src, tok_start, tok_end, kind, op, tok, first, next_, val, n_nodes,
                   type_, slot, fn, locs, stk, masks, err)  # fmt: skip
    if nf < 0:
        return -1
    if codegen(tok_start, tok_end, tok_line, kind, op, tok, first, next_, val, type_, slot, fn, nf,
               code, lines, consts, cg, stk, err) < 0:  # fmt: skip
        return -1
    return nf


def _make_launcher(fingerprint):
    @njit(parallel=True, cache=True)
    def compile_units(buf, src_off, code_off, const_off, fn_off, code, lines, consts, fn, counts, errs):
        """One unit per prange iteration; scratch allocated per iteration."""
        for u in prange(src_off.shape[0] - 1):
            lo, hi = src_off[u], src_off[u + 1]
            nt = token_capacity(hi - lo)
            nn = node_capacity(hi - lo)
            i32 = np.int32
            toks = np.empty((5, nt), dtype=i32)
            tok_val = np.empty(nt, dtype=np.int64)
            ast = np.empty((7, nn), dtype=i32)
            val = np.zeros(nn, dtype=np.int64)
            rows = scratch_rows(nn)
            stk = np.empty((rows, 5), dtype=i32)
            masks = np.empty((rows, 2), dtype=np.uint64)
            cg = np.zeros(CG_WIDTH, dtype=np.int64)
            err = np.zeros(4, dtype=i32)
            nf = compile_unit(
                buf, lo, hi, toks[0], toks[1], toks[2], toks[3], toks[4], tok_val,
                ast[0], ast[1], ast[2], ast[3], ast[4], val, ast[5], ast[6],
                np.empty(PARSER_SCRATCH, dtype=i32), stk, masks, np.empty((MAX_LOCALS, 3), dtype=i32),
                fn[fn_off[u] : fn_off[u + 1]], code[code_off[u] : code_off[u + 1]], lines[code_off[u] : code_off[u + 1]],
                consts[const_off[u] : const_off[u + 1]], cg, err,
            )  # fmt: skip
            for j in range(4):
                errs[u, j] = err[j]
            counts[u, 0] = cg[CG_PC] if nf >= 0 else 0
            counts[u, 1] = cg[CG_NCONST] if nf >= 0 else 0
            counts[u, 2] = nf if nf >= 0 else 0
        return len(fingerprint)

    return compile_units


_compile_cpu = _make_launcher(_FINGERPRINT)


def _offsets(sizes: np.ndarray) -> np.ndarray:
    out = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    return out


def _gather(start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Indices of the regions [start[u], start[u] + length[u]) laid end to end."""
    total = int(length.sum())
    shift = np.repeat(start - _offsets(length)[:-1], length)
    return shift + np.arange(total, dtype=np.int64)


def layout(raw: list[bytes]):
    """A chunk's launch inputs: (buf, src_off, code_off, const_off, fn_off): the sources'
    bytes end to end and each unit's regions of them and of the output buffers."""
    sizes = np.array([len(r) for r in raw], dtype=np.int64)
    buf = np.frombuffer(b"".join(raw) or b"\n", dtype=np.uint8).copy()  # one (writable) array type
    code_off = _offsets(np.array([limits.code_capacity(int(s)) for s in sizes], dtype=np.int64))
    const_off = _offsets(np.minimum(limits.MAX_CONSTS, sizes // 10 + 1))
    fn_off = _offsets(np.minimum(limits.MAX_FUNCTIONS, sizes // 8 + 1))
    return buf, _offsets(sizes), code_off, const_off, fn_off


def _launch(raw: list[bytes], run):
    """Compile one chunk with the launcher `run` (same arguments as the CPU launcher);
    returns (errs, counts, code, lines, consts, fn) compacted."""
    buf, src_off, code_off, const_off, fn_off = layout(raw)
    # outputs: each unit writes the start of its region; only what it wrote is gathered
    code = np.empty((int(code_off[-1]), 2), dtype=np.int32)
    lines = np.empty(int(code_off[-1]), dtype=np.int32)
    consts = np.empty(int(const_off[-1]), dtype=np.int64)
    fn = np.empty((int(fn_off[-1]), F_WIDTH), dtype=np.int32)
    counts = np.zeros((len(raw), 3), dtype=np.int64)
    errs = np.zeros((len(raw), 4), dtype=np.int32)
    run(buf, src_off, code_off, const_off, fn_off, code, lines, consts, fn, counts, errs)
    ic = _gather(code_off[:-1], counts[:, 0])
    fc = _gather(fn_off[:-1], counts[:, 2])
    return errs, counts, code[ic], lines[ic], consts[_gather(const_off[:-1], counts[:, 1])], fn[fc]


def _chunks(raw: list[bytes]):
    lo, total = 0, 0
    for i, r in enumerate(raw):
        cap = limits.code_capacity(len(r))
        if i > lo and total + cap > CHUNK_INSTRUCTIONS:
            yield raw[lo:i]
            lo, total = i, 0
        total += cap
    yield raw[lo:]


def compile_batch(sources: list[str], backend: str = "cpu") -> CompiledBatch:
    """Compile every source (one unit each) in one batch launch on `backend`."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown compiler backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
    run = _compile_cpu
    if backend == "cuda":
        from gpucc.compiler.cuda_batch import compile_units_cuda as run  # lazy: imports numba.cuda
    sources = list(sources)
    raw = [s.encode() for s in sources]
    return assemble(sources, [_launch(chunk, run) for chunk in _chunks(raw)] if raw else [])


def assemble(sources: list[str], parts: list[tuple]) -> CompiledBatch:
    """The CompiledBatch of the chunks' compacted (errs, counts, code, lines, consts, fn)."""
    cat = lambda i, empty: np.concatenate([p[i] for p in parts]) if parts else empty  # noqa: E731
    errs = cat(0, np.zeros((0, 4), np.int32))
    counts = cat(1, np.zeros((0, 3), np.int64))
    fn = cat(5, np.zeros((0, F_WIDTH), np.int32))
    col = lambda c: np.ascontiguousarray(fn[:, c], dtype=np.int32)  # noqa: E731
    return CompiledBatch(
        sources=sources,
        error_code=errs[:, 0].copy(),
        error_start=errs[:, 1].copy(),
        error_end=errs[:, 2].copy(),
        error_arg=errs[:, 3].copy(),
        code=cat(2, np.zeros((0, 2), np.int32)),
        lines=cat(3, np.zeros(0, np.int32)),
        code_start=_offsets(counts[:, 0]),
        consts=cat(4, np.zeros(0, np.int64)),
        const_start=_offsets(counts[:, 1]),
        func_entry=col(F_ENTRY),
        func_nparams=col(F_NPARAMS),
        func_nlocals=col(F_NLOCALS),
        func_max_stack=col(F_MAX_STACK),
        func_ret_type=col(F_RET),
        func_param_types=np.ascontiguousarray(fn[:, F_PTYPE : F_PTYPE + MAX_PARAMS], dtype=np.int32),
        func_is_import=col(F_IMPORT),
        func_name_start=col(F_NAME_S),
        func_name_end=col(F_NAME_E),
        func_start=_offsets(counts[:, 2]),
    )


def compile_source(source: str, backend: str = "cpu") -> CompiledBatch:
    """Compile one source (a batch of one)."""
    return compile_batch([source], backend)
