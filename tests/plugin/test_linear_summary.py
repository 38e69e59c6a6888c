"""pytest's failure summary stays linear in the number of failing candidates
(pytest_gpucc.linear_summary): pytest's reporter scans every setup/teardown report once per
failure to find its teardown sections; with --gpu-candidates it scans them once, and prints the
same summary."""

import json
import shutil
from pathlib import Path

EXCERPT = Path(__file__).parent / "data" / "humaneval_excerpt.jsonl"

COUNT_SCANS = '''
import pytest

SCANS = []


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    getreports = reporter.getreports
    reporter.getreports = lambda name: SCANS.append(name) or getreports(name)


def pytest_unconfigure(config):
    print(f"scans of the setup/teardown reports: {SCANS.count('')}")
'''

TEARDOWN_OUTPUT = '''
import pytest


@pytest.fixture
def noisy():
    yield
    print("said at teardown")


def test_fails_with_teardown_output(noisy):
    assert False
'''


def run_failing(pytester, n: int, *args):
    shutil.copy(EXCERPT, pytester.path / "problems.jsonl")
    samples = [{"task_id": "HumanEval/2", "completion": f"    return number * {i}.5\n"} for i in range(n)]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    pytester.makeconftest(COUNT_SCANS)
    pytester.makepyfile(test_noisy=TEARDOWN_OUTPUT)
    return pytester.runpytest_inprocess("--gpu-candidates", "-p", "no:cacheprovider", "--gpucc-problems=problems.jsonl",
                                        "--gpucc-samples=samples.jsonl", "test_noisy.py", *args)  # fmt: skip


def summary(result) -> list[str]:
    """The output from the failures to the last line (the counts and the time) without it, and
    without the gpucc summary's phase timings (wall clock: 0.00s in one run, 0.01s in the next)."""
    start = next(i for i, x in enumerate(result.outlines) if "FAILURES" in x)
    end = next(i for i, x in enumerate(result.outlines) if " failed in " in x)
    return [line for line in result.outlines[start:end] if not line.startswith("gpucc: timings")]


def test_the_failure_summary_scans_the_reports_once_and_prints_the_same(gpucc):
    ours = run_failing(gpucc, 30)
    assert ours.ret == 1
    ours.assert_outcomes(failed=31)
    ours.stdout.fnmatch_lines(["*Captured stdout teardown*", "said at teardown", "scans of the setup/teardown reports: 1"])
    pytests = run_failing(gpucc, 30, "-p", "no:pytest_gpucc.linear_summary")
    pytests.stdout.fnmatch_lines(["scans of the setup/teardown reports: 31"])  # one per failure
    assert summary(ours) == summary(pytests)
