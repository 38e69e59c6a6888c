"""The compiler's output format: `CompiledBatch`, every unit of a compile as flat arrays,
and `assemble`, which builds it from the launches' compacted outputs (both launchers)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpucc.compiler import errors
from gpucc.compiler.arrays import (
    COUNT_CODE,
    COUNT_CONSTS,
    COUNT_FUNCTIONS,
    ERR_ARG,
    ERR_ARG2,
    ERR_CODE,
    ERR_END,
    ERR_START,
    ERR_WIDTH,
    BatchOutput,
)
from gpucc.compiler.batch_layout import offsets
from gpucc.compiler.limits import MAX_PARAMS
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
    MODULE_ROW,
)


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
    error_arg2: np.ndarray  # int32[n]: a type mismatch's type got (error_arg: the one expected)
    code: np.ndarray  # int32[N, 2]: (opcode, operand)
    lines: np.ndarray  # int32[N]: 1-based source line of each instruction
    code_start: np.ndarray  # int64[n + 1]
    consts: np.ndarray  # int64[M]
    const_start: np.ndarray  # int64[n + 1]
    func_entry: np.ndarray  # int32[F]: first instruction, relative to the unit's code start
    func_nparams: np.ndarray  # int32[F]
    func_nlocals: np.ndarray  # int32[F]: parameters + locals + hidden slots
    func_max_stack: np.ndarray  # int32[F]: max operand-stack depth above the locals
    func_ret_type: np.ndarray  # int32[F]: contract.typecodes code
    func_param_types: np.ndarray  # int32[F, MAX_PARAMS]: contract.typecodes codes
    func_is_import: np.ndarray  # int32[F]: 1 if the body is `...` (an interface stub)
    func_name_start: np.ndarray  # int32[F]
    func_name_end: np.ndarray  # int32[F]
    func_start: np.ndarray  # int64[n + 1]
    func_is_module: np.ndarray | None = None  # int32[F]: 1 for a unit's module code (its last function); None: none

    def __len__(self) -> int:
        return len(self.sources)

    def ok(self, u: int) -> bool:
        return int(self.error_code[u]) == 0

    def function_names(self, u: int) -> list[str]:
        src = self.sources[u].encode()
        lo, hi = int(self.func_start[u]), int(self.func_start[u + 1])
        module = self.func_is_module if self.func_is_module is not None else np.zeros(hi, np.int32)
        return ["<module>" if module[f] else src[self.func_name_start[f] : self.func_name_end[f]].decode()
                for f in range(lo, hi)]  # fmt: skip

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
            int(self.error_arg2[u]),
        )


def assemble(sources: list[str], parts: list[BatchOutput]) -> CompiledBatch:
    """The CompiledBatch of the chunks' compacted outputs (each unit's regions end to end)."""
    cat = lambda name, empty: np.concatenate([getattr(p, name) for p in parts]) if parts else empty  # noqa: E731
    errs = cat("errs", np.zeros((0, ERR_WIDTH), np.int32))
    counts = cat("counts", np.zeros((0, 3), np.int64))
    fn = cat("fn", np.zeros((0, F_WIDTH), np.int32))
    col = lambda c: np.ascontiguousarray(fn[:, c], dtype=np.int32)  # noqa: E731
    return CompiledBatch(
        sources=sources,
        error_code=errs[:, ERR_CODE].copy(),
        error_start=errs[:, ERR_START].copy(),
        error_end=errs[:, ERR_END].copy(),
        error_arg=errs[:, ERR_ARG].copy(),
        error_arg2=errs[:, ERR_ARG2].copy(),
        code=cat("code", np.zeros((0, 2), np.int32)),
        lines=cat("lines", np.zeros(0, np.int32)),
        code_start=offsets(counts[:, COUNT_CODE]),
        consts=cat("consts", np.zeros(0, np.int64)),
        const_start=offsets(counts[:, COUNT_CONSTS]),
        func_entry=col(F_ENTRY),
        func_nparams=col(F_NPARAMS),
        func_nlocals=col(F_NLOCALS),
        func_max_stack=col(F_MAX_STACK),
        func_ret_type=col(F_RET),
        func_param_types=np.ascontiguousarray(fn[:, F_PTYPE : F_PTYPE + MAX_PARAMS], dtype=np.int32),
        func_is_import=(col(F_IMPORT) == 1).astype(np.int32),
        func_is_module=(col(F_IMPORT) == MODULE_ROW).astype(np.int32),
        func_name_start=col(F_NAME_S),
        func_name_end=col(F_NAME_E),
        func_start=offsets(counts[:, COUNT_FUNCTIONS]),
    )
