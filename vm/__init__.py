"""The gpucc VM: Program images, the ISA, and one launch that runs every job."""

from __future__ import annotations

BACKENDS = ("cpu", "reference")


def launch(program, jobs, backend: str = "cpu", limits=None):
    """Run every job of `jobs` (a vm.image.JobTable) on `program` in one launch -> Results.

    backend "cpu": the numba kernel over all cores; "reference": the plain-Python spec."""
    if backend == "cpu":
        from vm.cpu import launch_cpu

        return launch_cpu(program, jobs, limits)
    if backend == "reference":
        from vm.reference import run_reference

        return run_reference(program, jobs, limits)
    raise ValueError(f"unknown VM backend {backend!r}; valid backends: {', '.join(BACKENDS)}")
