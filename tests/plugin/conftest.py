"""Fixtures of the plugin tests."""

import numba.core.boxing  # noqa: F401  (imported lazily by numba's first compile: see warm_vm)
import pytest
from gpucc_project import write_project


@pytest.fixture(scope="session")
def warm_vm():
    """Compile and launch once in this process: pytester's in-process runs drop the modules
    they import (numba's lazily imported ones included), and re-importing numba modules
    fails with "duplicate registration".  numba.core.boxing is imported above, at collection:
    in one whole-suite run (session 23, the kernel's cache cold, another process compiling it
    at the same time) the in-process compiles after the plugin tests failed with a duplicate
    registration of its first boxer, while the same tests passed alone and in the run before."""
    from gpucc.compiler.batch import compile_batch
    from gpucc.contract.image import Program
    from gpucc.vm import launch
    from gpucc.vm.link import SuiteLink, link

    batch = compile_batch(["def f() -> int:\n    ...\n\n\ndef test_a() -> None:\n    assert f() == 1\n",
                           "def f() -> int:\n    return 1\n"])  # fmt: skip
    program = Program.from_batch(batch)
    linked = link(batch, program, [SuiteLink(0, [("test_a", [()])], [1])])
    assert list(launch(program, linked.jobs).status) == [0]


@pytest.fixture
def gpucc(pytester, warm_vm):
    """pytester, with the compiler and VM already warm in this process."""
    return pytester


@pytest.fixture
def project(gpucc):
    write_project(gpucc)
    return gpucc
