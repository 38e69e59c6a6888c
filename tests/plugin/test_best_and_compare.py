"""--gpucc-best-dir writes each suite's fastest passing source; --gpucc-compare shows cost change
vs a saved --gpucc-json file and --gpucc-compare-fail fails the run on a regression."""

import json

from gpucc_project import GCD_CANDIDATES, GCD_SUITE, run, write_project

NO_PASS_SUITE = "# gpucc: task = Human/0\n" + GCD_SUITE


def test_best_dir_writes_fastest_source_and_removes_stale_files(project):
    write_project(project, suite=NO_PASS_SUITE, name="none", candidates={"wrong.py": GCD_CANDIDATES["wrong.py"]})
    best = project.path / "out" / "best"
    best.mkdir(parents=True)
    (best / "Human_0.py").write_text("stale answer of an earlier run\n")
    result, _ = run(project, "--gpucc-best-dir=out/best", "-k", "fast or slow or wrong")
    assert result.ret == 1  # suite_none.py has no passing candidate
    assert sorted(p.name for p in best.iterdir()) == ["gcd.py"]
    assert (best / "gcd.py").read_text() == GCD_CANDIDATES["fast.py"]
    result.stdout.fnmatch_lines([
        "*gpucc best candidates in out/best*",
        "suite_gcd.py: fast.py (cost *) -> out/best/gcd.py",
        "suite_none.py: no passing candidate, no out/best/Human_0.py written",
    ])  # fmt: skip


def save_baseline(pytester, **costs) -> None:
    """Run once, then set the given candidates' costs in the saved JSON (None: failing)."""
    result, doc = run(pytester, "-k", "fast or slow or wrong")
    assert result.ret == 0
    for c in doc["suites"][0]["candidates"]:
        if c["name"] in costs:
            c["cost"] = costs[c["name"]]
            c["status"] = "passed" if costs[c["name"]] is not None else "failed"
    doc["suites"][0]["fastest"] = min((c for c in doc["suites"][0]["candidates"] if c["status"] == "passed"),
                                      key=lambda c: c["cost"])["name"]  # fmt: skip
    doc["suites"][0]["candidates"] = [c for c in doc["suites"][0]["candidates"] if c["name"] != "slow.py"]
    (pytester.path / "base.json").write_text(json.dumps(doc))


def test_compare_shows_cost_change_and_fails_on_regression(project):
    now = run(project, "-k", "fast")[1]["suites"][0]["candidates"][0]["cost"]
    then = now * 4 // 5
    pct = f"{(now - then) / then * 100:+.1f}%"  # about +25%
    save_baseline(project, **{"fast.py": then, "wrong.py": now * 10})
    result, _ = run(project, "-k", "fast or slow or wrong", "--gpucc-compare=base.json")
    assert result.ret == 0
    result.stdout.fnmatch_lines([
        "*gpucc cost vs baseline base.json*",
        f"suite_gcd.py: fastest cost {now} vs {then}: {pct}",
        f"    fast.py: cost {now} vs {then}: {pct}",
        "    slow.py: new, cost *",
        f"    wrong.py: failing now, cost {now * 10} in the baseline",
    ])  # fmt: skip
    result, _ = run(project, "-k", "fast or slow or wrong", "--gpucc-compare=base.json", "--gpucc-compare-fail=5%")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["gpucc compare FAILED (--gpucc-compare-fail=5%):",
                                 f"  suite_gcd.py: fastest cost {now} vs {then}: {pct}, more than 5%"])
    result, _ = run(project, "-k", "fast or slow or wrong", "--gpucc-compare=base.json", "--gpucc-compare-fail=30")
    assert result.ret == 0 and "compare FAILED" not in result.stdout.str()


def test_compare_fails_when_a_passing_suite_has_none_now(project):
    save_baseline(project)
    result, _ = run(project, "-k", "wrong", "--gpucc-strict", "--gpucc-compare=base.json", "--gpucc-compare-fail=0")
    assert result.ret == 1
    result.stdout.fnmatch_lines(["suite_gcd.py: fastest failing now, cost * in the baseline",
                                 "  suite_gcd.py: no passing candidate now (the baseline's fastest cost was *)"])


def test_bad_baseline_and_options_are_usage_errors(project):
    (project.path / "notjson.json").write_text("{oops")
    (project.path / "nosuites.json").write_text('{"backend": "cpu"}')
    cases = [
        (["--gpucc-compare=missing.json"], "--gpucc-compare: cannot read missing.json: No such file or directory"),
        (["--gpucc-compare=notjson.json"], "--gpucc-compare: notjson.json is not a --gpucc-json results file (Expecting"),
        (["--gpucc-compare=nosuites.json"], "nosuites.json is not a --gpucc-json results file (no field 'suites')"),
        (["--gpucc-compare-fail=5"], "--gpucc-compare-fail needs --gpucc-compare BASELINE.json"),
        (["--gpucc-compare=notjson.json", "--gpucc-compare-fail=-1"], "--gpucc-compare-fail: '-1' is not a non-negative"),
    ]  # fmt: skip
    for args, message in cases:
        result, _ = run(project, *args)
        assert result.ret == 4 and message in result.stderr.str(), (args, result.stderr.str())
