"""The Python entry points: the pytest_gpucc_results hook, pytest_gpucc.run (api.run), and the
example agent loop built on it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gpucc_project import GCD_CANDIDATES, GCD_SUITE, run, write_project

from pytest_gpucc import api

ROOT = Path(__file__).resolve().parents[2]

HOOK_CONFTEST = """
import json

def pytest_gpucc_results(config, results):
    with open("hook_calls.jsonl", "a") as f:
        f.write(json.dumps({s.task: [s.fastest.name, len(s.outcomes)] for s in results.summaries}) + "\\n")
"""


def test_hook_is_called_once_with_the_final_results(project):
    project.makeconftest(HOOK_CONFTEST)
    result, doc = run(project, "--gpucc-step-limit=5000")
    assert result.ret == 0
    calls = (project.path / "hook_calls.jsonl").read_text().splitlines()
    assert [json.loads(c) for c in calls] == [{"gcd": [doc["suites"][0]["fastest"], 7]}]


def test_run_returns_the_results(gpucc):
    write_project(gpucc, candidates={k: GCD_CANDIDATES[k] for k in ("fast.py", "slow.py")})
    (gpucc.path / "s.jsonl").write_text(json.dumps({"task_id": "gcd", "completion": "    return 3\n"}) + "\n")
    results = api.run(gpucc.path, samples="s.jsonl", backend="cpu",
                      extra_args=["--gpucc-pass-at=1,2", "-p", "no:cacheprovider"])  # fmt: skip
    [suite] = results.summaries
    assert [o.name for o in suite.ranked] == ["fast.py", "slow.py"]
    assert [o.status for o in suite.outcomes] == ["passed", "passed", "failed"]
    assert results.info["backend"] == "cpu" and results.info["launches"] == 1
    assert results.info["pass_at_k"]["overall"] == {"pass@1": pytest.approx(2 / 3), "pass@2": 1.0}
    assert json.loads((gpucc.path / "s.jsonl_results.jsonl").read_text())["passed"] is False


def test_run_raises_a_clear_error_without_results(gpucc):
    write_project(gpucc, suite=GCD_SUITE.replace("(0, 9, 9)", "(0, 9)"))
    with pytest.raises(api.GpuccRunError, match=r"exited with code 2: collection failed\n.*suite_gcd.py:5: case \(0, 9\)") as e:
        api.run(gpucc.path, extra_args=["-p", "no:terminal", "-p", "no:cacheprovider"])
    assert e.value.exit_code == 2
    with pytest.raises(api.GpuccRunError, match="exited with code 5: no gpucc suite or candidate was collected"):
        api.run(gpucc.path / "gcd_candidates", extra_args=["-p", "no:terminal", "-p", "no:cacheprovider"])


def test_package_exports_run_lazily():
    code = ("import sys, pytest_gpucc; assert 'pytest_gpucc.api' not in sys.modules and 'numba' not in sys.modules; "
            "from pytest_gpucc import api; assert pytest_gpucc.run is api.run; print('ok')")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.stdout == "ok\n", out.stderr


def test_example_agent_loop_keeps_the_fastest_passing_variant(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "agent_loop.py"), "--rounds", "2"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "round 1: 4 variants, 2 passed"
    assert "  off_by_one: rejected: test_table(n=1, want=1): assert sum_squares(n) == want, where 0 == 1" in lines
    assert lines.index("  keeping for_loop") < lines.index("round 2: 4 variants, 3 passed")
    assert "  formula_no_guard: rejected: test_table(n=-5, want=0): assert sum_squares(n) == want, where -30 == 0" in lines
    cost = {line.split(":")[0].strip(): int(line.split("cost ")[1]) for line in lines if ": cost " in line}
    assert cost["formula"] < cost["for_loop"] < cost["while_loop"]
    assert lines[-4:] == ["kept: formula", "    if n <= 0:", "        return 0", "    return n * (n + 1) * (2 * n + 1) // 6"]


def test_hook_and_harness_outputs_are_the_same_with_xdist(project):
    """Under -n 2 the hook runs once, on the controller, with results equal to a plain run's."""
    project.makeconftest(HOOK_CONFTEST)
    write_project(project, name="other", candidates={k: GCD_CANDIDATES[k] for k in ("fast.py", "wrong.py")})
    (project.path / "s.jsonl").write_text("".join(json.dumps({"task_id": t, "completion": "    return 3\n"}) + "\n"
                                                  for t in ("other", "gcd", "nope")))  # fmt: skip
    outputs = []
    for tag, extra in [("plain", []), ("dist", ["-p", "xdist", "-n", "2"])]:
        result = project.runpytest_subprocess("--gpu-candidates", "--gpucc-step-limit=5000", "-p", "no:cacheprovider",
                                              "--gpucc-samples=s.jsonl", "--gpucc-pass-at=1,3", f"--gpucc-json={tag}.json",
                                              f"--gpucc-best-dir={tag}", *extra)  # fmt: skip
        assert result.ret == 0
        calls = (project.path / "hook_calls.jsonl").read_text().splitlines()
        (project.path / "hook_calls.jsonl").unlink()
        assert len(calls) == 1
        outputs.append((calls, json.loads((project.path / f"{tag}.json").read_text())["pass_at_k"],
                        (project.path / "s.jsonl_results.jsonl").read_text(),
                        sorted((p.name, p.read_text()) for p in (project.path / tag).iterdir())))  # fmt: skip
    assert outputs[0] == outputs[1]
    assert outputs[0][1]["overall"] == {"pass@1": pytest.approx((2 / 8 + 1 / 3) / 2), "pass@3": pytest.approx(
        ((1 - 20 / 56) + 1.0) / 2)}  # fmt: skip
