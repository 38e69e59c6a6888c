"""The Program image, the job table and the result arrays: flat arrays only.

A Program is every compiled unit (suites and candidates) of a session laid end to end,
so that one VM launch can run any (candidate, test, case) job.  Function ids are global
(an index into func_*); a CALL operand is unit-local and resolves as

    g = unit_func_start[unit] + operand
    if func_import[g] >= 0:        # an interface stub in a suite
        g = link[job_link[job], func_import[g]]

Jump operands are relative to the current function's entry.

On the cuda backend code, lines and consts may be CUDA device arrays (the session's
device-resident path, vm/cuda.py); every other array is always a host array.

The VM kernels take these as flat bundles: namedtuples of arrays, one level deep (numba CPU
`prange` bodies and CUDA kernels take those, as arguments and as device-function parameters).
`image_arrays` checks a Program and gives its ImageArrays, `job_arrays` a JobTable's JobArrays,
`result_arrays` a Results' ResultArrays; JobArrays and ResultArrays take their field names
from JobTable and Results, so a kernel's bundle and its host dataclass cannot drift apart.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field, fields
from typing import NamedTuple

import numpy as np

from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from gpucc.contract.pool import check_objects

_BIG = 1 << 24  # sanity bound on per-function slot counts
MODULE_CODE = -2  # func_import of a unit's module code (its last function: contract/isa.py's module group)


@dataclass
class Program:
    code: np.ndarray  # int32[N, 2]
    lines: np.ndarray  # int32[N]
    consts: np.ndarray  # int64[M]
    func_entry: np.ndarray  # int32[F]: absolute pc
    func_nparams: np.ndarray  # int32[F]
    func_nlocals: np.ndarray  # int32[F]
    func_max_stack: np.ndarray  # int32[F]
    func_ret_type: np.ndarray  # int32[F]
    func_unit: np.ndarray  # int32[F]
    func_import: np.ndarray  # int32[F]: -1, the import's ordinal within its suite, or MODULE_CODE
    unit_code_start: np.ndarray  # int32[U + 1]
    unit_const_start: np.ndarray  # int32[U + 1]
    unit_func_start: np.ndarray  # int32[U + 1]

    @property
    def n_units(self) -> int:
        return len(self.unit_func_start) - 1

    @classmethod
    def from_batch(cls, batch) -> "Program":
        """Make unit-relative compiler output global (a compiler.batch.CompiledBatch)."""
        n_funcs = len(batch.func_entry)
        func_unit = np.zeros(n_funcs, dtype=np.int32)
        func_entry = batch.func_entry.astype(np.int32).copy()
        func_import = np.full(n_funcs, -1, dtype=np.int32)
        module = getattr(batch, "func_is_module", None)
        for u in range(len(batch.sources)):
            lo, hi = int(batch.func_start[u]), int(batch.func_start[u + 1])
            func_unit[lo:hi] = u
            func_entry[lo:hi] += int(batch.code_start[u])
            ordinal = 0
            for f in range(lo, hi):
                if batch.func_is_import[f]:
                    func_import[f] = ordinal
                    ordinal += 1
                elif module is not None and module[f]:
                    func_import[f] = MODULE_CODE
        return cls(
            code=_contiguous(batch.code, np.int32).reshape(-1, 2),
            lines=_contiguous(batch.lines, np.int32),
            consts=_contiguous(batch.consts, np.int64),
            func_entry=func_entry,
            func_nparams=batch.func_nparams.astype(np.int32),
            func_nlocals=batch.func_nlocals.astype(np.int32),
            func_max_stack=batch.func_max_stack.astype(np.int32),
            func_ret_type=batch.func_ret_type.astype(np.int32),
            func_unit=func_unit,
            func_import=func_import,
            unit_code_start=batch.code_start.astype(np.int32),
            unit_const_start=batch.const_start.astype(np.int32),
            unit_func_start=batch.func_start.astype(np.int32),
        )


def is_device_array(a) -> bool:
    """True for a CUDA device array (numba's, the simulator's, or any with the CUDA array interface)."""
    return not isinstance(a, np.ndarray) and (hasattr(a, "__cuda_array_interface__") or hasattr(a, "copy_to_host"))


def _contiguous(a, dtype):
    """`a` as a contiguous host array of `dtype`; a device array stays where it is, as it is."""
    return a if is_device_array(a) else np.ascontiguousarray(a, dtype=dtype)


def function_ends(program: Program) -> np.ndarray:
    """int32[F]: end of each function's code: the next function's entry in its unit, or the
    unit's end.  Imports, functions whose entry lies outside their unit, and all but the
    last of functions sharing an entry (empty bodies before it) span nothing, so function
    code ranges never overlap."""
    entry = np.asarray(program.func_entry, np.int64)
    unit = np.asarray(program.func_unit, np.int64)
    ucode = np.asarray(program.unit_code_start, np.int64)
    ends = entry.copy()
    body = np.flatnonzero((np.asarray(program.func_import) < 0) & (entry >= ucode[unit]) & (entry < ucode[unit + 1]))
    if len(body):
        body = body[np.lexsort((-body, entry[body], unit[body]))]  # by unit, entry, -id
        e, u = entry[body], unit[body]
        first = np.ones(len(body), bool)
        first[1:] = (u[1:] != u[:-1]) | (e[1:] != e[:-1])
        body, e, u = body[first], e[first], u[first]
        nxt = ucode[u + 1]
        same = u[1:] == u[:-1]
        nxt[:-1][same] = e[1:][same]
        ends[body] = nxt
    return ends.astype(np.int32)


class ImageArrays(NamedTuple):
    """A Program as the VM kernels read it (image_arrays makes it, checked)."""

    code: np.ndarray  # int32[2N]: Program.code flattened, opcode at 2 * pc, operand at 2 * pc + 1
    lines: np.ndarray  # int32[N]
    consts: np.ndarray  # int64[M]
    func_entry: np.ndarray  # int32[F]
    func_end: np.ndarray  # int32[F]: function_ends (only the verifier reads it)
    func_nparams: np.ndarray  # int32[F]
    func_nlocals: np.ndarray  # int32[F]
    func_max_stack: np.ndarray  # int32[F]
    func_unit: np.ndarray  # int32[F]
    func_import: np.ndarray  # int32[F]
    unit_const_start: np.ndarray  # int32[U + 1]
    unit_func_start: np.ndarray  # int32[U + 1]
    func_ok: np.ndarray  # int8[F]: 1 where vm.verify.check_function passed; 0 (never runs) until it is run


def _arr(x, dtype, ndim, what, device_ok=False):
    if is_device_array(x):
        if not device_ok:
            raise ValueError(f"{what} is a CUDA device array: only the cuda backend runs a device-resident Program")
        if x.dtype != dtype or x.ndim != ndim:
            raise ValueError(f"device array {what} must be {np.dtype(dtype)} with {ndim} dimension(s), "
                             f"got {x.dtype} {x.shape}")  # fmt: skip
        return x
    a = np.ascontiguousarray(x, dtype=dtype)
    if a.ndim != ndim:
        raise ValueError(f"{what} must have {ndim} dimension(s), got shape {a.shape}")
    return a


def _monotone(a, last, what):
    if len(a) < 1 or a[0] != 0 or a[-1] != last or (np.diff(a) < 0).any():
        raise ValueError(f"{what} must rise from 0 to {last}")


def image_arrays(program: Program, device_ok: bool = False) -> ImageArrays:
    """The Program's ImageArrays, its tables checked (once per launch), func_ok all 0;
    device_ok lets code, lines and consts be device arrays.

    Raises ValueError for a malformed image (inconsistent tables).  Bad *code* is the
    verifier's business (vm.verify.function_checks): a job entering a function that fails
    it ends with INVALID_BYTECODE."""
    code = _arr(program.code, np.int32, 2, "code", device_ok)
    n = code.shape[0]
    if code.shape[1] != 2:
        raise ValueError(f"code must be int32[N, 2], got shape {code.shape}")
    lines = _arr(program.lines, np.int32, 1, "lines", device_ok)
    consts = _arr(program.consts, np.int64, 1, "consts", device_ok)
    names = ("func_entry", "func_nparams", "func_nlocals", "func_max_stack", "func_unit", "func_import")
    fe, fp, fl, fm, fu, fi = (_arr(getattr(program, k), np.int32, 1, k) for k in names)
    ucode, uconst, ufunc = (_arr(getattr(program, k), np.int32, 1, k)
                            for k in ("unit_code_start", "unit_const_start", "unit_func_start"))  # fmt: skip
    n_funcs = len(fe)
    if len(lines) != n or any(len(a) != n_funcs for a in (fp, fl, fm, fu, fi)):
        raise ValueError("lines must match code, and every func_* array func_entry")
    if not len(ucode) == len(uconst) == len(ufunc):
        raise ValueError("unit_*_start arrays differ in length")
    _monotone(ucode, n, "unit_code_start")
    _monotone(uconst, len(consts), "unit_const_start")
    _monotone(ufunc, n_funcs, "unit_func_start")
    unit_of = np.repeat(np.arange(len(ufunc) - 1), np.diff(ufunc))
    if (fu != unit_of).any():
        raise ValueError("func_unit disagrees with unit_func_start")
    body = fi < 0
    if ((fp < 0) | (fp > MAX_PARAMS) | (fm < 0) | (fm > _BIG) | (fl > _BIG)).any() or (
        fl[body] < fp[body]
    ).any():
        raise ValueError(f"need 0 <= nparams <= {MAX_PARAMS}, nparams <= nlocals, 0 <= max_stack")
    if ((fi < MODULE_CODE) | (fi >= MAX_IMPORTS)).any():
        raise ValueError(f"func_import must be -1, MODULE_CODE or an ordinal below {MAX_IMPORTS}")
    last = np.asarray(ufunc[1:], np.int64) - 1
    if ((fi == MODULE_CODE) & ~np.isin(np.arange(n_funcs), last)).any() or (fp[fi == MODULE_CODE] != 0).any():
        raise ValueError("module code must be its unit's last function and take no parameters")
    return ImageArrays(code.reshape(-1), lines, consts, fe, function_ends(program), fp, fl, fm, fu, fi, uconst, ufunc,
                       func_ok=np.zeros(n_funcs, np.int8))  # fmt: skip


@dataclass
class JobTable:
    """One row per (candidate, test, case), candidate-major.

    Argument k of job j is args[j, k]: a slot value, or, where bit k of arg_lists[j] is set,
    the offset of an object in `pool` (a str, list, tuple or boxed scalar, nested objects
    inside), copied into the job's heap before it starts: contract/pool.py's layout."""

    func: np.ndarray  # int32[J]: global id of the function to call (a test)
    link: np.ndarray  # int32[J]: row of `links` resolving the suite's imports, -1 if none
    args: np.ndarray  # int64[J, MAX_PARAMS]: arguments (bools as 0/1, floats as their bits)
    links: np.ndarray  # int32[L, MAX_IMPORTS]: global function ids
    pool: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # int64[P]: object arguments
    arg_lists: np.ndarray | None = None  # int32[J]: bit k set where argument k is an object; None: none

    def __len__(self) -> int:
        return len(self.func)

    @classmethod
    def empty(cls) -> "JobTable":
        return cls(
            func=np.zeros(0, np.int32),
            link=np.zeros(0, np.int32),
            args=np.zeros((0, MAX_PARAMS), np.int64),
            links=np.zeros((0, MAX_IMPORTS), np.int32),
        )


# JobTable's fields as the kernels read them: every array contiguous, arg_lists never None
JobArrays = namedtuple("JobArrays", [f.name for f in fields(JobTable)])


def job_arrays(jobs: JobTable) -> JobArrays:
    """A JobTable's JobArrays, checked: every object argument must be one of contract/pool.py's
    layout inside the pool (ValueError otherwise), so the kernel reads the pool unchecked."""
    func = _arr(jobs.func, np.int32, 1, "jobs.func")
    link = _arr(jobs.link, np.int32, 1, "jobs.link")
    args = _arr(jobs.args, np.int64, 2, "jobs.args")
    links = _arr(jobs.links, np.int32, 2, "jobs.links")
    if len(link) != len(func) or args.shape != (len(func), MAX_PARAMS):
        raise ValueError(f"jobs need func[J], link[J], args[J, {MAX_PARAMS}]")
    pool = _arr(jobs.pool, np.int64, 1, "jobs.pool")
    bits = np.zeros(len(func), np.int32) if jobs.arg_lists is None else jobs.arg_lists
    arg_lists = _arr(bits, np.int32, 1, "jobs.arg_lists")
    if len(arg_lists) != len(func) or ((arg_lists < 0) | (arg_lists >= 1 << MAX_PARAMS)).any():
        raise ValueError(f"jobs.arg_lists must be int32[J] with bits 0 .. {MAX_PARAMS - 1} only")
    is_object = (arg_lists[:, None] >> np.arange(MAX_PARAMS)) & 1 == 1
    check_objects(pool, args[is_object])
    return JobArrays(func=func, link=link, args=args, links=links, pool=pool, arg_lists=arg_lists)


@dataclass
class LaunchLimits:
    step_limit: int = 1_000_000  # instructions per job: the deterministic timeout
    stack_size: int = 1024  # value-stack slots per job (locals + operands of all frames)
    max_depth: int = 256  # call frames per job (the recursion limit)
    heap_size: int = 16384  # int64 words of heap per job, garbage-collected (MemoryError when live data outgrows it)


def _per_job(dtype, initial=0):
    """A Results field holding one `dtype` value per job, `initial` until the job runs."""
    return field(metadata={"dtype": dtype, "initial": initial})


@dataclass
class Results:
    """What each job ended with (contract.status codes) and what it cost.

    cost is the candidate's work, not the suite's: the weighted cost (contract.isa costs) of
    the instructions executed while the running function's unit differs from the unit of
    the job's function (job_func, before any link resolution), i.e. inside linked candidate
    code.  A CALL counts to the caller, a RETURN to the returning function.  A job without
    a link row (link -1: a direct call, as benchmarks make) counts every instruction.  A
    superinstruction costs what its sequence of plain instructions costs (contract.isa
    EXPANSIONS; only the part run, when one fails midway), so a cost does not depend on
    which superinstructions the compiler used.  steps counts every instruction executed,
    a superinstruction as one (the step limit is over all of them).  Neither counts the heap's
    garbage collections.  heap_peak_words is the most heap words (block headers too) the job
    held at once before collections freed them (vm/kernel_heap.py).

    The failure record (fail_*) describes the failing instruction: for STEP_LIMIT the next
    one, which did not run; none (-1 / 0) for OK and for failures before the first one."""

    status: np.ndarray = _per_job(np.int32)
    value: np.ndarray = _per_job(np.int64)  # return value when status == OK
    cost: np.ndarray = _per_job(np.int64)  # weighted cost of the candidate's instructions (above)
    steps: np.ndarray = _per_job(np.int64)  # instructions executed
    heap_peak_words: np.ndarray = _per_job(np.int64)  # the heap's high-water mark (vm/kernel_heap.py)
    fail_unit: np.ndarray = _per_job(np.int32, -1)  # unit of the failing instruction, -1 if none
    fail_line: np.ndarray = _per_job(np.int32, -1)  # its source line, -1 if none
    fail_lhs: np.ndarray = _per_job(np.int64)  # ASSERT_CMP left operand / ASSERT_TRUE value
    fail_rhs: np.ndarray = _per_job(np.int64)  # ASSERT_CMP right operand
    fail_arg: np.ndarray = _per_job(np.int32)  # operand of the failing instruction
    fail_op: np.ndarray = _per_job(np.int32, -1)  # opcode of the failing instruction, -1 if none
    launches: int = 1
    meta: dict = field(default_factory=dict)

    @classmethod
    def allocate(cls, n_jobs: int) -> "Results":
        """Every per-job array of n_jobs rows, at its initial value (what a job reports until it runs)."""
        return cls(**{f.name: np.full(n_jobs, f.metadata["initial"], f.metadata["dtype"]) for f in _PER_JOB})


_PER_JOB = tuple(f for f in fields(Results) if "dtype" in f.metadata)
# Results' per-job arrays, in its order: what the VM kernels write
ResultArrays = namedtuple("ResultArrays", [f.name for f in _PER_JOB])


def result_arrays(results: Results) -> ResultArrays:
    """The per-job arrays of `results` (the arrays themselves: a kernel writing them fills it)."""
    return ResultArrays(*(getattr(results, name) for name in ResultArrays._fields))
