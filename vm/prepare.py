"""Host side of a VM launch: check a Program / JobTable / LaunchLimits once and hand the
launchers (vm/cpu.py, vm/cuda.py) and the reference the flat arrays run_job takes.

On the cuda backend a Program's code, lines and consts may be CUDA device arrays
(compiler.cuda_batch.compile_batch_resident): they are checked for dtype and shape and
passed through as they are; every other array is a host array."""

from __future__ import annotations

import numpy as np

from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS

_BIG = 1 << 24  # sanity bound on per-function slot counts


def function_ends(program) -> np.ndarray:
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


def _arr(x, dtype, ndim, what, device_ok=False):
    from gpucc.contract.transfer import is_device_array

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


def image_arrays(program, device_ok: bool = False) -> tuple:
    """The Program's arrays in run_job's order (code flattened to int32[2N], func_end
    added), checked once per launch; device_ok lets code, lines and consts be device arrays.

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
                            for k in ("unit_code_start", "unit_const_start", "unit_func_start"))
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
    if ((fi < -1) | (fi >= MAX_IMPORTS)).any():
        raise ValueError(f"func_import must be -1 or an ordinal below {MAX_IMPORTS}")
    return (code.reshape(-1), lines, consts, fe, function_ends(program), fp, fl, fm, fu, fi, uconst, ufunc)


def job_arrays(jobs) -> tuple:
    """(func, link, args, links, pool, arg_lists) of a JobTable, checked and contiguous: every
    list argument's pool offset o must hold a length n >= 0 with its n elements inside the
    pool (ValueError otherwise), so the kernel reads the pool unchecked."""
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
    is_list = (arg_lists[:, None] >> np.arange(MAX_PARAMS)) & 1 == 1
    offsets = args[is_list]
    if len(offsets):
        inside = (offsets >= 0) & (offsets < len(pool))
        n = np.where(inside, pool[np.where(inside, offsets, 0)] if len(pool) else 0, -1)
        if not (inside & (n >= 0) & (n < len(pool) - offsets)).all():
            raise ValueError("a list argument's pool offset (or its length) points outside jobs.pool")
    return func, link, args, links, pool, arg_lists


def check_limits(limits) -> None:
    if limits.step_limit < 0 or limits.stack_size < 1 or limits.max_depth < 1 or limits.heap_size < 0:
        raise ValueError("launch limits must be step_limit >= 0, stack_size >= 1, max_depth >= 1, "
                         f"heap_size >= 0: {limits}")


def prepare_launch(program, jobs, limits, backend: str, verify: bool = True):
    """What every launcher starts with: (limits, image arrays, job arrays, Results to fill,
    per-function verified flags).  Checks the tables and limits; n_jobs == 0 is fine.
    verify=False leaves the flags (None) to the launcher: vm/cuda.py verifies on the device."""
    from gpucc.contract.image import LaunchLimits, Results
    from gpucc.vm.verify import function_checks

    limits = limits or LaunchLimits()
    check_limits(limits)
    image = image_arrays(program, device_ok=backend == "cuda")
    job_cols = job_arrays(jobs)
    results = Results.allocate(len(job_cols[0]))
    results.meta["backend"] = backend
    func_ok = (function_checks(image)[:, 0] == 0).astype(np.int8) if verify and len(job_cols[0]) else None
    return limits, image, job_cols, results, func_ok
