"""Device residency and byte counting (contract/transfer.py, compiler.cuda_batch.compile_batch_resident,
vm/cuda.py): the session's cuda path gives the CPU backend's batch and results, code never
crosses PCIe, and the counted bytes are exactly the arrays the module docstrings list.

Simulator runs happen in a subprocess (tests/gpu/simrun.py `resident`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from gpusim import assert_same_arrays, simulate
from simrun import arrays

from gpucc import vm
from gpucc.compiler.arrays import ERR_WIDTH
from gpucc.compiler.batch import compile_batch
from gpucc.compiler.scope import F_WIDTH
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program, ResultArrays, Results, image_arrays
from gpucc.contract.limits import MAX_IMPORTS
from gpucc.contract.transfer import TransferCounter, is_device_array, require_device, run_info
from gpucc.vm.link import SuiteLink, link

SUITE = """
def f(n: int) -> int:
    ...


def test_value(n: int, want: int) -> None:
    assert f(n) == want
"""
CANDIDATES = [
    "def f(n: int) -> int:\n    s = 0\n    for i in range(n + 1):\n        s += i\n    return s\n",  # right
    "def f(n: int) -> int:\n    return n * (n + 1) // (2 * (n // 4))\n",  # division by zero for n < 4
    "def f(n: int) -> int:\n    return n\n",  # wrong
    "def f(n: int) -> int:\n    while n >= 0:\n        n += 0\n    return n\n",  # step limit
    "def f(n: int) -> int:\n    return n $ 1\n",  # compile error (lexer)
    "def f(n: int) -> float:\n    return n / 2\n",  # link error: another signature
]
SOURCES = [SUITE, *CANDIDATES]
TESTS = [["test_value", [[0, 0], [4, 10], [10, 55]]]]
LIMITS = {"step_limit": 300, "stack_size": 64, "max_depth": 8}


def _spec(**extra) -> dict:
    return {"sources": SOURCES, "links": [[0, TESTS, list(range(1, len(SOURCES)))]], "limits": LIMITS, **extra}


def _cpu():
    """The CPU backend's batch and results for _spec()."""
    batch = compile_batch(SOURCES, "cpu")
    program = Program.from_batch(batch)
    suite = SuiteLink(0, [(n, [tuple(c) for c in cases]) for n, cases in TESTS], list(range(1, len(SOURCES))))
    jobs = link(batch, program, [suite]).jobs
    return batch, program, jobs, vm.launch(program, jobs, "cpu", LaunchLimits(**LIMITS))


def _copies(got: dict, phase: str) -> tuple[int, int, int, set]:
    """(host->device bytes, device->host bytes, copies, labels) of one phase of a simulated run."""
    rows = got[f"t_{phase}"]
    h2d = int(rows[rows[:, 0] == 1, 1].sum())
    return h2d, int(rows[rows[:, 0] == 0, 1].sum()), len(rows), set(got[f"t_{phase}_labels"].tolist())


def test_resident_path_matches_cpu_and_counts_every_byte(tmp_path: Path):
    batch, program, jobs, expected = _cpu()
    assert {S.OK, S.ASSERT_FAILED, S.ZERO_DIVISION, S.STEP_LIMIT} <= set(expected.status.tolist())
    got = simulate("resident", tmp_path, _spec())
    assert_same_arrays(arrays(batch), got)  # including code, lines, consts (read back by the test)
    assert_same_arrays({f"r_{k}": v for k, v in arrays(expected).items()}, got)

    n, n_failed, n_funcs = len(SOURCES), int((batch.error_code != 0).sum()), len(batch.func_entry)
    offsets = 8 * (n + 1)  # one int64 per unit boundary
    h2d, d2h, copies, labels = _copies(got, "compile")
    assert h2d == sum(len(s.encode()) for s in SOURCES) + 7 * offsets + 3 * offsets
    assert d2h == n * 3 * 8 + 8 + n_failed * (1 + ERR_WIDTH) * 4 + n_funcs * F_WIDTH * 4  # counts, #failed, their rows, functions
    assert copies == 1 + 7 + 1 + 3 + 1 + 1 + 1 and n_failed == 1

    n_jobs, n_units = len(jobs), program.n_units
    h2d, d2h, copies, labels = _copies(got, "launch")
    assert h2d == 7 * n_funcs * 4 + 2 * (n_units + 1) * 4 + jobs.func.nbytes + jobs.link.nbytes + jobs.args.nbytes \
        + jobs.links.nbytes + jobs.pool.nbytes + jobs.arg_lists.nbytes  # no cost table: constant memory, in the kernel
    assert jobs.links.shape == (4, MAX_IMPORTS)  # the four linked candidates
    assert d2h == 1 + sum(a.nbytes for a in arrays(expected).values()) == 1 + n_jobs * 68  # "has lists", results
    assert copies == 9 + 5 + int(jobs.pool.size > 0) + 1 + len(arrays(expected))  # an empty pool is not copied
    assert not labels & {"code", "lines", "consts"}  # code never crosses


def test_resident_path_across_several_compile_launches(tmp_path: Path):
    _, _, _, expected = _cpu()
    got = simulate("resident", tmp_path, _spec(chunk_instructions=1))  # one unit per compile launch
    assert_same_arrays({f"r_{k}": v for k, v in arrays(expected).items()}, got)
    rows = got["t_compile"][got["t_compile_labels"] == "sources"]  # one upload per launch
    assert len(rows) == len(SOURCES) and rows[:, 1].sum() == sum(len(s.encode()) for s in SOURCES)
    assert not set(got["t_compile_labels"].tolist()) & {"code", "lines", "consts"}


class _FakeDeviceArray:
    """Stands in for a device array where no simulator runs (is_device_array duck-types)."""

    def __init__(self, a: np.ndarray):
        self.shape, self.dtype, self.ndim = a.shape, a.dtype, a.ndim

    def copy_to_host(self):
        raise AssertionError("nothing may read a device array back here")


def test_host_backends_reject_a_device_resident_program():
    program = Program.from_batch(compile_batch(["def f() -> int:\n    return 1\n"]))
    resident = dataclasses.replace(program, code=_FakeDeviceArray(program.code))
    assert is_device_array(resident.code) and not is_device_array(program.code)
    with pytest.raises(ValueError, match="only the cuda backend runs a device-resident Program"):
        image_arrays(resident)
    for backend in ("cpu", "reference"):
        with pytest.raises(ValueError, match="device-resident"):
            vm.launch(resident, link_free_jobs(program), backend)
    wrong = dataclasses.replace(program, lines=_FakeDeviceArray(program.lines.astype(np.int64)))
    with pytest.raises(ValueError, match="device array lines must be int32"):
        image_arrays(wrong, device_ok=True)


def link_free_jobs(program):
    from gpucc.contract.image import JobTable

    jobs = JobTable.empty()
    return dataclasses.replace(jobs, func=np.zeros(1, np.int32), link=np.full(1, -1, np.int32),
                               args=np.zeros((1, jobs.args.shape[1]), np.int64))  # fmt: skip


def test_counter_totals_labels_and_merging():
    run, launch = TransferCounter(), TransferCounter()
    run.record("h2d", "sources", 100)
    launch.record("h2d", "job_args", 64)
    launch.record("d2h", "results", 40)
    launch.record("d2h", "results", 8)
    run.add(launch)
    assert run.totals() == {"host_to_device_bytes": 164, "device_to_host_bytes": 48, "transfers": 4}
    assert run.by_label() == {("h2d", "sources"): 100, ("h2d", "job_args"): 64, ("d2h", "results"): 48}
    with pytest.raises(ValueError, match="direction"):
        run.record("d2d", "x", 1)
    assert run_info("cpu", None) == {**TransferCounter().totals(), "note": "no device"} and run.totals()["transfers"]
    assert run_info("cuda", run) == run.totals() and run_info("cuda", None)["transfers"] == 0


def test_kernel_launches_refuse_host_arrays():
    require_device((_FakeDeviceArray(np.zeros(2)), np.int64(3)), "k")  # scalars are kernel parameters
    with pytest.raises(TypeError, match=r"k: arguments \[1\] are host arrays"):
        require_device((_FakeDeviceArray(np.zeros(2)), np.zeros(2)), "k")
    bundle = ResultArrays(*[_FakeDeviceArray(np.zeros(2))] * len(ResultArrays._fields))
    require_device((bundle,), "k")  # a bundle of device arrays
    with pytest.raises(TypeError, match=r"k: arguments \[0.cost\] are host arrays"):
        require_device((bundle._replace(cost=np.zeros(2)),), "k")


def test_results_are_sixty_eight_bytes_a_job():  # heap_peak_words included
    assert sum(a.nbytes for a in arrays(Results.allocate(10)).values()) == 680
