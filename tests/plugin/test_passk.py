"""--gpucc-pass-at: the unbiased estimator against exact fractions, per suite and overall in
the terminal and the JSON, k > n skipped, bad values a usage error."""

from fractions import Fraction
from math import comb

import pytest
from gpucc_project import GCD_CANDIDATES, run, write_project

from pytest_gpucc.humaneval import estimate_pass_at_k, parse_ks


def exact(n: int, c: int, k: int) -> Fraction:
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def test_estimator_matches_the_exact_formula():
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert estimate_pass_at_k(n, c, k) == pytest.approx(float(exact(n, c, k)), abs=1e-12), (n, c, k)
    assert estimate_pass_at_k(2, 1, 1) == 0.5
    assert estimate_pass_at_k(10, 3, 2) == pytest.approx(24 / 45)  # 1 - C(7,2)/C(10,2)
    assert estimate_pass_at_k(5, 0, 3) == 0.0 and estimate_pass_at_k(5, 5, 1) == 1.0


def test_estimator_is_stable_for_large_n():
    assert estimate_pass_at_k(100_000, 1, 1) == pytest.approx(1e-5, rel=1e-9)
    assert estimate_pass_at_k(1000, 10, 100) == pytest.approx(float(exact(1000, 10, 100)), rel=1e-9)


def test_estimator_rejects_k_above_n_and_bad_counts():
    for n, c, k in [(3, 1, 4), (3, 4, 1), (3, 1, 0)]:
        with pytest.raises(ValueError, match="pass@k needs"):
            estimate_pass_at_k(n, c, k)


def test_parse_ks():
    assert parse_ks("10, 1,10,100") == [1, 10, 100]
    for bad in ["", "0", "-1", "a", "1.5", "1,,2"]:
        with pytest.raises(ValueError, match="is not a positive integer"):
            parse_ks(bad)


def test_pass_at_k_per_suite_overall_and_skipped(project):
    write_project(project, name="other", candidates={k: GCD_CANDIDATES[k] for k in ("fast.py", "wrong.py")})
    result, doc = run(project, "--gpucc-pass-at=1,5,10", "--gpucc-step-limit=5000")
    assert result.ret == 0
    section = doc["pass_at_k"]
    gcd, other = section["suites"]  # gcd: 7 candidates, 2 pass; other: 2 candidates, 1 passes
    assert gcd == {"suite": "suite_gcd.py", "task": "gcd", "n": 7, "c": 2,
                   "pass@1": pytest.approx(2 / 7), "pass@5": pytest.approx(20 / 21)}  # fmt: skip
    assert other == {"suite": "suite_other.py", "task": "other", "n": 2, "c": 1, "pass@1": 0.5}
    assert section["overall"] == {"pass@1": pytest.approx((2 / 7 + 0.5) / 2)}  # only k <= n of every suite
    assert section["ks"] == [1, 5, 10] and section["skipped"] == [5, 10]
    result.stdout.fnmatch_lines([
        "*gpucc pass@k (unbiased estimator, Chen et al. 2021)*",
        "suite_gcd.py (task gcd): n=7 c=2  pass@1 0.286  pass@5 0.952  skipped (k > n): pass@10",
        "suite_other.py (task other): n=2 c=1  pass@1 0.500  skipped (k > n): pass@5, pass@10",
        "overall (mean over 2 suites): pass@1 0.393",
        "skipped overall: pass@5, pass@10 (k > n: the smallest suite has n=2 candidates)",
    ])  # fmt: skip


def test_no_pass_at_k_without_the_option_and_bad_values(project):
    result, doc = run(project, "-k", "fast")
    assert result.ret == 0 and "pass_at_k" not in doc and "pass@" not in result.stdout.str()
    result, _ = run(project, "--gpucc-pass-at=1,0")
    assert result.ret == 4
    assert "--gpucc-pass-at: '0' is not a positive integer (expected e.g. 1,10,100)" in result.stderr.str()
