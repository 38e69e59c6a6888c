"""What keeps a --gpu-candidates run's per-candidate cost flat (issue #11): candidate items'
phases skip the output- and log-capture wrappers once the batch ran, but keep every other
plugin's phase hooks (pytest_gpucc.lean_hooks); the run's objects are frozen out of the garbage
collector's full passes while it reports, and nothing stays frozen after it (pytest_gpucc.gc_freeze)."""

import gc
import json
import shutil
from pathlib import Path

EXCERPT = Path(__file__).parent / "data" / "humaneval_excerpt.jsonl"

SPIES = '''
import gc

import pytest

SEEN = {"phases": [], "captured": [], "frozen": []}


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    capture = config.pluginmanager.get_plugin("capturemanager")
    item_capture = capture.item_capture

    def spy(when, item):
        SEEN["captured"].append(item.name)
        return item_capture(when, item)

    capture.item_capture = spy


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    SEEN["phases"].append(item.name)
    return (yield)


def pytest_runtest_logreport(report):
    if report.when == "call":
        SEEN["frozen"].append(gc.get_freeze_count())


def pytest_unconfigure(config):
    print(f"phases: {sorted(SEEN['phases'])}")
    print(f"captured: {sorted(set(SEEN['captured']))}")
    print(f"frozen while reporting: {min(SEEN['frozen']) > 0}")
'''


def run(pytester, completions, *args):
    shutil.copy(EXCERPT, pytester.path / "problems.jsonl")
    samples = [{"task_id": "HumanEval/2", "completion": c} for c in completions]
    (pytester.path / "samples.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    pytester.makeconftest(SPIES)
    pytester.makepyfile(test_plain="def test_plain():\n    print('captured as usual')\n")
    return pytester.runpytest_inprocess("--gpu-candidates", "-p", "no:cacheprovider", "--gpucc-problems=problems.jsonl",
                                        "--gpucc-samples=samples.jsonl", "test_plain.py", *args)  # fmt: skip


def test_candidate_phases_run_every_hook_but_output_capture(gpucc):
    result = run(gpucc, ["    return number % 1.0\n", "    return number * 2.5\n"])
    assert result.parseoutcomes() == {"passed": 2, "rejected": 1}
    result.stdout.fnmatch_lines(["phases: ['HumanEval/2#0', 'HumanEval/2#1', 'test_plain']",
                                 "captured: ['test_plain']"])  # fmt: skip


def test_the_run_is_frozen_while_it_reports_and_nothing_stays_frozen(gpucc, monkeypatch):
    from pytest_gpucc import gc_freeze

    monkeypatch.setattr(gc_freeze, "_exit_hook", [])
    result = run(gpucc, ["    return number % 1.0\n"] * 3)
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["frozen while reporting: True"])
    assert gc.get_freeze_count() == 0
    assert gc_freeze._exit_hook == []  # a small run leaves the interpreter's exit as it is


def test_a_large_run_freezes_everything_at_exit_once(gpucc, monkeypatch):
    from pytest_gpucc import gc_freeze

    monkeypatch.setattr(gc_freeze, "_exit_hook", [])
    monkeypatch.setattr(gc_freeze, "FREEZE_EVERY", 2)  # "large": two reported items
    run(gpucc, ["    return number % 1.0\n"] * 3).assert_outcomes(passed=4)
    assert gc.get_freeze_count() == 0
    assert gc_freeze._exit_hook == [gc.freeze]  # the exit sweeps skip everything, registered once
