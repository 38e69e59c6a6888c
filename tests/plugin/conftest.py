"""Fixtures of the plugin tests."""

import pytest
from gpucc_project import write_project


@pytest.fixture(scope="session")
def warm_vm():
    """Compile and launch once in this process: pytester's in-process runs drop the modules
    they import (numba's lazily imported ones included), and re-importing numba modules
    fails with "duplicate registration"."""
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
