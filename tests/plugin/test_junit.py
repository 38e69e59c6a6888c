"""JUnit XML (pytest's default junit_family, xunit2): each candidate's testcase carries its gpucc
status, cost, rank and rejection reason as properties, agreeing with the JSON results."""

import xml.etree.ElementTree as ET

from gpucc_project import run


def junit_cases(path):
    """{candidate name: (testcase element, {property: value})} of a JUnit XML file."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        cases[case.get("name")] = (case, {p.get("name"): p.get("value") for p in case.iter("property")})
    return cases


def expected_properties(c: dict) -> dict:
    props = {"gpucc_status": c["status"]}
    for key in ("cost", "rank"):
        if c[key] is not None:
            props[f"gpucc_{key}"] = str(c[key])
    if c["rejected"]:
        props["gpucc_rejected"] = c["reason"]
    return props


def test_properties_agree_with_json_under_the_default_family(project):
    result, doc = run(project, "--gpucc-backend=cpu", "--gpucc-step-limit=5000", "--junitxml=junit.xml")
    assert result.ret == 0
    cases = junit_cases(project.path / "junit.xml")
    candidates = doc["suites"][0]["candidates"]
    assert sorted(cases) == sorted(c["name"] for c in candidates)
    for c in candidates:
        element, props = cases[c["name"]]
        assert "file" not in element.attrib  # xunit2 (pytest's default) is in effect: xunit1 adds file=
        assert props == expected_properties(c), c["name"]
        assert element.find("failure") is None  # rejected candidates are not test failures
    assert cases["fast.py"][1]["gpucc_rank"] == "1" and cases["slow.py"][1]["gpucc_rank"] == "2"
    assert cases["forever.py"][1]["gpucc_status"] == "timeout" and "gpucc_rank" not in cases["forever.py"][1]
    assert cases["listy.py"][1]["gpucc_rejected"].startswith("compile error: gcd_candidates/listy.py:2:10: error:")


def test_strict_failures_keep_their_properties(project):
    result, doc = run(project, "--gpucc-backend=cpu", "--gpucc-step-limit=5000", "--gpucc-strict", "--junitxml=j.xml")
    assert result.ret == 1
    cases = junit_cases(project.path / "j.xml")
    for c in doc["suites"][0]["candidates"]:
        element, props = cases[c["name"]]
        assert props == expected_properties(c) and "gpucc_rejected" not in props  # strict: nothing is rejected
        assert (element.find("failure") is None) == (c["status"] == "passed")
