"""The gpucc VM: Program images, the ISA, and one launch that runs every job.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""

from __future__ import annotations

import os

# numba's OpenMP threads spin between parallel regions by default: with another busy process on
# a small machine every region then costs milliseconds.  Must be set before numba loads libgomp.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

BACKENDS = ("cpu", "cuda", "reference")


def launch(program, jobs, backend: str = "cpu", limits=None):
    """Run every job of `jobs` (a contract.image.JobTable) on `program` in one launch -> Results.

    backend "cpu": the numba kernel over all cores; "cuda": the same kernel on the current
    CUDA device (needs numba-cuda); "reference": the plain-Python spec."""
    if backend == "cpu":
        from gpucc.vm.cpu import launch_cpu

        return launch_cpu(program, jobs, limits)
    if backend == "cuda":
        from gpucc.vm.cuda import launch_cuda

        return launch_cuda(program, jobs, limits)
    if backend == "reference":
        from gpucc.vm.reference import run_reference

        return run_reference(program, jobs, limits)
    raise ValueError(f"unknown VM backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
