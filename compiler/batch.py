"""Compile a batch of sources on a backend: the compiler's public entry point.

(Skeleton: the dataclass is the contract; compile_batch is filled in by the compiler work.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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
    func_ret_type: np.ndarray  # int32[F]: vm.valuetypes code
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


def compile_batch(sources: list[str], backend: str = "cpu") -> CompiledBatch:
    raise NotImplementedError("compiler pipeline not written yet")
