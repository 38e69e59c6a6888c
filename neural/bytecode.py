"""One compiled unit's bytecode as plain Python lists (what the tokenizer writes and reads),
taken from a CompiledBatch, and units put back together as one Program for a VM launch.

A `UnitCode` is self-contained: each function's code with jumps relative to its entry (as in
the VM), its header (parameters, slots, operand stack, return type) and the unit's constant
pool.  Source line numbers are not part of it (a decoded unit has none: its lines are 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpucc.contract.flow import pops_of, stack_depths
from gpucc.contract.image import Program
from gpucc.contract.isa import PUSHES


@dataclass(frozen=True)
class Function:
    nparams: int
    nlocals: int
    max_stack: int
    ret_type: int  # contract.typecodes code
    code: tuple[tuple[int, int], ...]  # (opcode, operand); jump targets relative to the entry


@dataclass(frozen=True)
class UnitCode:
    functions: tuple[Function, ...]
    consts: tuple[int, ...]  # the constant pool (slot values: floats as their bits)


def unit_code(batch, u: int) -> UnitCode:
    """Unit u of a compiler.CompiledBatch that compiled (batch.ok(u))."""
    code = batch.code[int(batch.code_start[u]) : int(batch.code_start[u + 1])]
    lo, hi = int(batch.func_start[u]), int(batch.func_start[u + 1])
    ends = [int(batch.func_entry[f]) for f in range(lo + 1, hi)] + [len(code)]
    functions = tuple(
        Function(int(batch.func_nparams[f]), int(batch.func_nlocals[f]), int(batch.func_max_stack[f]),
                 int(batch.func_ret_type[f]), tuple((int(op), int(arg)) for op, arg in code[batch.func_entry[f] : end]))
        for f, end in zip(range(lo, hi), ends)
    )  # fmt: skip
    consts = tuple(int(k) for k in batch.consts[int(batch.const_start[u]) : int(batch.const_start[u + 1])])
    return UnitCode(functions, consts)


def max_stack(code: tuple[tuple[int, int], ...], arities: list[int]) -> int:
    """The deepest operand stack one function's code reaches (contract.flow's walk, as the
    compiler measures it); of code that does not walk cleanly, the deepest seen (the verifier
    reports its problem).  arities: the unit's parameter counts, for CALL."""
    n = len(code)
    ops, args = np.array([c[0] for c in code], np.int64), np.array([c[1] for c in code], np.int64)
    depth, work, callee = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64), np.array(arities, np.int64)
    if n == 0 or not ((0 <= ops) & (ops < len(PUSHES))).all():
        return 0
    stack_depths(ops, args, callee, 2**31, depth, work)
    return max([int(depth[i] - pops_of(ops[i], args[i], callee) + PUSHES[ops[i]]) for i in range(n) if depth[i] >= 0] + [0])


def program_of(units: list[UnitCode]) -> Program:
    """One Program holding `units` in order (unit k is Program unit k; function f of unit k
    is global id unit_func_start[k] + f)."""
    code, consts, funcs, starts = [], [], [], {"code": [0], "const": [0], "func": [0]}
    for u, unit in enumerate(units):
        for fn in unit.functions:
            funcs.append((len(code), fn.nparams, fn.nlocals, fn.max_stack, fn.ret_type, u))
            code += fn.code
        consts += unit.consts
        starts["code"].append(len(code))
        starts["const"].append(len(consts))
        starts["func"].append(len(funcs))
    cols = np.array(funcs, np.int32).reshape(-1, 6).T
    i32 = lambda a: np.asarray(a, np.int32)  # noqa: E731
    return Program(
        code=np.array(code, np.int32).reshape(-1, 2), lines=np.zeros(len(code), np.int32),
        consts=np.array(consts, np.int64), func_entry=cols[0].copy(), func_nparams=cols[1].copy(),
        func_nlocals=cols[2].copy(), func_max_stack=cols[3].copy(), func_ret_type=cols[4].copy(),
        func_unit=cols[5].copy(), func_import=np.full(len(funcs), -1, np.int32),
        unit_code_start=i32(starts["code"]), unit_const_start=i32(starts["const"]), unit_func_start=i32(starts["func"]),
    )  # fmt: skip


def with_units(batch, units: list[tuple[UnitCode, int]]):
    """A compiler.CompiledBatch: `batch` and, as its next units, each (unit, like) of `units`:
    bytecode from elsewhere (a model) for the source of batch unit `like`, which compiled to the
    same functions (their names, parameter types and source come from it; its lines are 0)."""
    from gpucc.compiler.compiled import CompiledBatch

    code, consts, fn_rows, counts = [batch.code], [batch.consts], [], []
    for unit, like in units:
        lo, entry = int(batch.func_start[like]), 0
        for f, fn in enumerate(unit.functions):
            fn_rows.append((entry, fn.nparams, fn.nlocals, fn.max_stack, fn.ret_type, lo + f))
            entry += len(fn.code)
        code.append(np.array([c for fn in unit.functions for c in fn.code], np.int32).reshape(-1, 2))
        consts.append(np.array(unit.consts, np.int64))
        counts.append((entry, len(unit.consts), len(unit.functions)))
    rows = np.array(fn_rows, np.int64).reshape(-1, 6)
    like_f = rows[:, 5]
    grow = lambda a, n: np.concatenate([a, np.zeros(n, a.dtype)])  # noqa: E731
    ends = lambda starts, k: np.concatenate([starts, starts[-1] + np.cumsum([c[k] for c in counts], dtype=np.int64)])  # noqa: E731
    col = lambda a, k: np.concatenate([a, rows[:, k].astype(a.dtype)])  # noqa: E731
    n = len(units)
    return CompiledBatch(
        sources=batch.sources + [batch.sources[like] for _, like in units],
        error_code=grow(batch.error_code, n), error_start=grow(batch.error_start, n),
        error_end=grow(batch.error_end, n), error_arg=grow(batch.error_arg, n),
        error_arg2=grow(batch.error_arg2, n), code=np.concatenate(code), lines=grow(batch.lines, sum(c[0] for c in counts)),
        code_start=ends(batch.code_start, 0), consts=np.concatenate(consts), const_start=ends(batch.const_start, 1),
        func_entry=col(batch.func_entry, 0), func_nparams=col(batch.func_nparams, 1),
        func_nlocals=col(batch.func_nlocals, 2), func_max_stack=col(batch.func_max_stack, 3),
        func_ret_type=col(batch.func_ret_type, 4),
        func_param_types=np.concatenate([batch.func_param_types, batch.func_param_types[like_f]]),
        func_is_import=grow(batch.func_is_import, len(rows)),
        func_name_start=np.concatenate([batch.func_name_start, batch.func_name_start[like_f]]),
        func_name_end=np.concatenate([batch.func_name_end, batch.func_name_end[like_f]]),
        func_start=ends(batch.func_start, 2),
        func_is_module=None if batch.func_is_module is None else grow(batch.func_is_module, len(rows)),
    )  # fmt: skip
