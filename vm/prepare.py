"""Host side of a VM launch: check the limits, build the kernels' bundles (contract.image:
ImageArrays, JobArrays, Results to fill) and verify every function (vm.verify) before any job
runs.  The launchers (vm/cpu.py, vm/cuda.py) and the reference start here.

On the cuda backend a Program's code, lines and consts may be CUDA device arrays
(compiler.cuda_batch.compile_batch_resident): they are checked for dtype and shape and
passed through as they are; every other array is a host array."""

from __future__ import annotations

from gpucc.contract.image import ImageArrays, JobArrays, LaunchLimits, Results, image_arrays, job_arrays
from gpucc.vm.verify import V_OK, function_checks


def check_limits(limits: LaunchLimits) -> None:
    if limits.step_limit < 0 or limits.stack_size < 1 or limits.max_depth < 1 or limits.heap_size < 0:
        raise ValueError("launch limits must be step_limit >= 0, stack_size >= 1, max_depth >= 1, "
                         f"heap_size >= 0: {limits}")  # fmt: skip


def prepare_launch(program, jobs, limits: LaunchLimits | None,
                   backend: str) -> tuple[LaunchLimits, ImageArrays, JobArrays, Results]:  # fmt: skip
    """What every launcher starts with: (limits, image, jobs, Results to fill), the tables and
    limits checked; n_jobs == 0 is fine.  The host backends get image.func_ok filled here
    ("cpu" verifies with the jitted checker, "reference" in plain Python); vm/cuda.py
    verifies on the device."""
    limits = limits or LaunchLimits()
    check_limits(limits)
    image = image_arrays(program, device_ok=backend == "cuda")
    job_cols = job_arrays(jobs)
    results = Results.allocate(len(job_cols.func))
    results.meta["backend"] = backend
    if backend != "cuda" and len(job_cols.func):
        image.func_ok[:] = function_checks(image, jit=backend == "cpu")[:, 0] == V_OK
    return limits, image, job_cols, results
