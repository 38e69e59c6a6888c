"""pytest-xdist (``-n 2``, in subprocesses): whole suites per worker, one launch per worker, and the
controller's summary, JSON and JUnit XML the same as without xdist."""

import json
import re
import xml.etree.ElementTree as ET

from gpucc_project import GCD_CANDIDATES, write_project

from gpucc.contract import status as st
from pytest_gpucc.collect_results import merge_run_info, outcome_from_dict, payload
from pytest_gpucc.distribute import assign_files
from pytest_gpucc.report import CandidateOutcome, JobRecord

WORKER_LINE = re.compile(r"^\[(gw\d)\] \[ *\d+%\] \w+ (\S+)::(\S+)")


def two_suites(pytester):
    """suite_gcd.py (7 candidates) and suite_gcd_again.py (the same suite, 3 candidates)."""
    write_project(pytester)
    write_project(pytester, name="gcd_again", candidates={k: GCD_CANDIDATES[k] for k in ("slow.py", "fast.py", "wrong.py")})


def run_subprocess(pytester, tag, *args):
    """Run pytest in a subprocess; return (result, JSON document, JUnit properties by test id)."""
    doc_path, xml_path = pytester.path / f"{tag}.json", pytester.path / f"{tag}.xml"
    result = pytester.runpytest_subprocess("--gpu-candidates", "--gpucc-step-limit=5000", f"--gpucc-json={doc_path}",
                                           f"--junitxml={xml_path}", "-p", "no:cacheprovider", *args)  # fmt: skip
    props = {}
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        props[test_id] = {p.get("name"): p.get("value") for p in case.iter("property")}
    return result, json.loads(doc_path.read_text()), props


def summary_body(result) -> list[str]:
    """The gpucc summary's lines after its header (which names workers and timings)."""
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "gpucc summary" in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("="))
    return [line for line in lines[start + 1 : end] if not line.startswith("gpucc: ")]


def test_n2_matches_a_run_without_xdist(gpucc):
    two_suites(gpucc)
    plain, plain_doc, plain_props = run_subprocess(gpucc, "plain", "-v")
    dist, dist_doc, dist_props = run_subprocess(gpucc, "dist", "-p", "xdist", "-n", "2", "-v")
    assert plain.ret == dist.ret == 0
    assert plain.parseoutcomes() == dist.parseoutcomes() == {"passed": 4, "rejected": 6}

    # each suite ran whole on one worker, and each worker launched once, for its own suite only
    workers = {}
    for line in dist.stdout.lines:
        if m := WORKER_LINE.match(line):
            workers.setdefault(m.group(2), set()).add(m.group(1))
    assert sorted(workers) == ["suite_gcd.py", "suite_gcd_again.py"]
    assert all(len(w) == 1 for w in workers.values()) and workers["suite_gcd.py"] != workers["suite_gcd_again.py"]
    assert (plain_doc["workers"], plain_doc["launches"]) == (1, 1) and (dist_doc["workers"], dist_doc["launches"]) == (2, 2)
    assert dist_doc["jobs"] == plain_doc["jobs"] == (5 + 3) * 4  # no candidate ran twice
    dist.stdout.fnmatch_lines(["gpucc: backend cpu, 2 suites, 10 candidates *, 2 VM launches (2 xdist workers, one each); device: *"])

    # the controller's summary, JSON and JUnit are those of the run without xdist
    assert dist.stdout.str().count("gpucc summary") == 1  # the controller's: workers print none
    assert summary_body(dist) == summary_body(plain)
    assert "  rank  candidate  cost  vs fastest" in summary_body(plain)  # the body really holds the tables
    assert dist_doc["suites"] == plain_doc["suites"]
    assert [s["suite"] for s in plain_doc["suites"]] == ["suite_gcd.py", "suite_gcd_again.py"]
    assert dist_props == plain_props and len(plain_props) == 10
    for suite in plain_doc["suites"]:
        for c in suite["candidates"]:
            props = plain_props[f"{suite['suite'][:-3]}::{c['name']}"]
            assert props["gpucc_status"] == c["status"]
            assert props.get("gpucc_cost") == (str(c["cost"]) if c["cost"] is not None else None)
            assert props.get("gpucc_rank") == (str(c["rank"]) if c["rank"] is not None else None)


def test_assign_files_balances_whole_files():
    ids = [f"a.py::{i}" for i in range(5)] + [f"b.py::{i}" for i in range(3)] + ["c.py::x", "c.py::y", "d.py::z"]
    owner = assign_files(ids, 2)
    assert owner == {"a.py": 0, "b.py": 1, "c.py": 1, "d.py": 0}  # 6 items on each worker
    assert assign_files(ids, 1) == dict.fromkeys(owner, 0)
    assert assign_files(list(reversed(ids)), 2) == {"a.py": 0, "b.py": 1, "c.py": 1, "d.py": 0}


def test_every_outcome_field_travels_as_builtins():
    job = JobRecord("test_t", 1, "test_t(a=2)", [2, True], st.ASSERT_FAILED, cost=7, steps=9,
                    location="suite_x.py:3", source_line="assert f(a)", in_suite=True, line=3, lhs=1, rhs=2, op=5)
    out = CandidateOutcome("suite_x.py", "c.py", "x/c.py", "failed", "why", "detail", 7, 9, [job], None, True)
    data = payload(out, "x", 4, "gw1", {"launches": 1})
    assert json.loads(json.dumps(data)) == data  # plain builtins: xdist's serialisation keeps them
    assert outcome_from_dict(data["outcome"]) == out  # every field, the jobs included


def test_run_info_of_workers_merges():
    merged = merge_run_info({"gw0": {"backend": "cpu", "launches": 1, "jobs": 5, "timings": {"compile": 1.0, "launch": 0.5}},
                             "gw1": {"backend": "cpu", "launches": 1, "jobs": 7, "timings": {"compile": 2.0, "launch": 0.1}}})  # fmt: skip
    assert merged == {"backend": "cpu", "launches": 2, "jobs": 12, "timings": {"compile": 2.0, "launch": 0.5}, "workers": 2}
