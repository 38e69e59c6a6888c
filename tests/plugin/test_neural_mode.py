"""--gpucc-compiler neural (pytest_gpucc/neural_mode.py): k samples per candidate run in the same
launch as the traditional bytecode; a candidate passes when one sample passes every test, and a
sample is faithful only when it does what the traditional bytecode does on every job.

A stand-in neural compiler (neural_standin.py) writes known samples, so the verdicts are exact:
its first sample is the traditional compiler's own unit (faithful), its second the right
candidate's unit (a "repair" for the wrong one), its third does not decode."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from neural_standin import RIGHT, SUITE, TWO_FUNCTIONS, WRONG, StandIn

from gpucc.neural.compile import NO_TORCH, Sample
from pytest_gpucc import neural_mode, report
from pytest_gpucc.candidates import Candidate, load_samples
from pytest_gpucc.problems import load_problems
from pytest_gpucc.session import GpuccSession, Options
from pytest_gpucc.suite import load_suite


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setitem(neural_mode._compilers, None, StandIn())
    (tmp_path / "suite_double.py").write_text(SUITE)
    suite = load_suite(tmp_path / "suite_double.py")
    cands = [Candidate(name, src, f"{name}.py") for name, src in
             (("right", RIGHT), ("wrong", WRONG), ("two_functions", TWO_FUNCTIONS))]  # fmt: skip
    gs = GpuccSession(Options(backend="cpu", compiler="neural", neural_k=3), tmp_path)
    gs.add(suite, cands)
    gs.run()
    return gs


def test_samples_run_in_the_one_launch_and_are_judged(session):
    assert session.launches == 1
    right, wrong, two = (session.outcome("suite_double.py", n) for n in ("right", "wrong", "two_functions"))
    assert right.passed and right.neural["valid"] == 2 and right.neural["passing"] == 2
    assert right.neural["faithful"] == 2 and right.neural["p_correct"] == pytest.approx(2 / 3)
    # the wrong source passes on its "repaired" sample, which is not faithful; its own bytecode is
    assert wrong.passed and wrong.neural["traditional"] == "failed"
    assert (wrong.neural["valid"], wrong.neural["passing"], wrong.neural["faithful"]) == (2, 1, 1)
    # the right candidate's one-function unit does not fit a two-function source: not valid
    assert two.passed and (two.neural["valid"], two.neural["passing"], two.neural["faithful"]) == (1, 1, 1)
    assert two.neural["k_99"] == math.ceil(math.log(0.01) / math.log(2 / 3))
    assert two.neural["p_success_eq7"] == pytest.approx(1 - (2 / 3) ** 3) and two.neural["success_measured"]


def test_the_summary_and_json_report_the_samples(session):
    results = session.results()
    text = "\n".join(line for line, _ in results.summary_rows())
    assert "wrong: 2/3 valid, 1 passing, 1 faithful; p_correct 0.33, k_99 12, P_success(3) eq.7 0.70 vs measured 1" in text
    doc = results.to_json()
    assert doc["compiler"] == "neural" and doc["neural_k"] == 3
    by_name = {c["name"]: c for c in doc["suites"][0]["candidates"]}
    assert by_name["right"]["neural"]["faithful"] == 2 and by_name["right"]["status"] == "passed"


def test_a_clear_message_without_torch(monkeypatch):
    monkeypatch.setattr("gpucc.neural.compile.missing_torch", lambda: NO_TORCH)
    with pytest.raises(ValueError, match=r"needs torch, which is not installed: pip install 'pytest-gpucc\[neural\]'"):
        neural_mode.neural_options("neural", 4, None)
    assert neural_mode.neural_options("traditional", 4, None) == {"compiler": "traditional"}


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXCERPT = Path(__file__).parent / "data" / "humaneval_excerpt.jsonl"
HIDE_TORCH = "import sys; sys.modules['torch'] = None; "  # `import torch` fails, as without it


def without_torch(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE_TORCH + code], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("argv", [["neural", "train", "--config", "tiny"], ["neural", "sample", "x.npz", "--k", "16"],
                                  ["neural", "eval", "x.npz"], ["run", str(EXAMPLES / "suite_gcd.py"), "--compiler", "neural"]])  # fmt: skip
def test_every_command_says_torch_is_missing(argv, tmp_path):
    done = without_torch(f"from pytest_gpucc.cli import main; sys.exit(main({argv!r}))", tmp_path)
    assert done.returncode == 2 and "needs torch, which is not installed: pip install 'pytest-gpucc[neural]'" in done.stderr
    assert "Traceback" not in done.stderr and not list(tmp_path.iterdir())  # nothing trained or written
    if argv[0] == "run":
        assert "gpucc run: error: --compiler neural: the neural compiler needs torch" in done.stderr


def test_pytest_says_torch_is_missing(tmp_path):
    done = without_torch(f"import pytest; sys.exit(pytest.main(['--gpu-candidates', '--gpucc-compiler', 'neural', "
                         f"'-p', 'no:cacheprovider', {str(EXAMPLES / 'suite_gcd.py')!r}]))", tmp_path)  # fmt: skip
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "ERROR: --gpucc-compiler neural: the neural compiler needs torch, which is not installed" in done.stderr


def test_compiled_by_names_the_path(session):
    right = session.outcome("suite_double.py", "right")
    assert neural_mode.compiled_by(right) == "neural"
    traditional = dataclasses.replace(right, neural=None)
    assert neural_mode.compiled_by(traditional) == "traditional"
    assert neural_mode.compiled_by(dataclasses.replace(traditional, engine=report.CPYTHON)) == "CPython"


class NoValidSample:
    """A neural compiler none of whose samples decodes."""

    def compile(self, sources, wants, k):
        return [[Sample(None, False, "did not decode")] * k for _ in wants]


def test_a_problem_sample_with_no_valid_sample_keeps_its_figures(tmp_path, monkeypatch):
    # a problem file's compile errors become "not run: unsupported: ..."; the samples' figures stay
    monkeypatch.setitem(neural_mode._compilers, None, NoValidSample())
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/13", "completion": "    while b:\n        a, b = b, a % b\n    return a\n"}) + "\n")
    gs = GpuccSession(Options(backend="cpu", compiler="neural", neural_k=3), tmp_path)
    (entry,) = gs.add_problems(load_problems(EXCERPT), load_samples(samples, numbered_tasks=True), samples)
    gs.run()
    results = gs.results()
    (o,) = results.summaries[0].outcomes
    assert o.status == report.NOT_RUN and "none of 3 samples verified (first: did not decode)" in o.reason
    assert (o.neural["k"], o.neural["valid"], o.neural["passing"], o.neural["faithful"]) == (3, 0, 0, 0)
    assert neural_mode.compiled_by(o) == "neural"
    (cand,) = results.to_json()["suites"][0]["candidates"]
    assert cand["status"] == "not run" and cand["neural"]["valid"] == 0
