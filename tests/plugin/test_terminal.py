"""The terminal: progress lines around the batch, the summary's header and ranked table, -q / -v,
colour, the note when ``auto`` runs on the CPU, and the ``gpucc_backend`` ini option."""

import re

from gpucc_project import GCD_CANDIDATES, run, write_project

from gpucc.vm import devices as vm_devices

CPU = "--gpucc-backend=cpu"


def factor(cost, best):
    x = cost / best
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x" if x < 100 else f"{x:.0f}x"


def test_progress_header_and_table_sorted_by_cost(project):
    result, doc = run(project, CPU, "--gpucc-step-limit=5000")
    cost = {c["name"]: c["cost"] for c in doc["suites"][0]["candidates"]}
    width = len(str(cost["slow.py"]))
    result.stdout.fnmatch_lines([
        "gpucc: compiling 7 candidates in one batch, then one VM launch (cpu backend) ...",
        "gpucc: compiled in * s, linked 20 jobs in * s, ran them in * s",
        "*gpucc summary*",
        "gpucc: backend cpu, 1 suite, 7 candidates (7 unique sources), 20 jobs, 1 VM launch; device: *, * cores",
        "gpucc: timings: collect *s compile *s link *s launch *s report *s",
        "suite_gcd.py (task gcd): 2/7 candidates passed",
        f"  rank  candidate  {'cost':>{width}}  vs fastest",
        f"     1  fast.py    {cost['fast.py']:>{width}}       1.00x",
        f"     2  slow.py    {cost['slow.py']:>{width}}  {factor(cost['slow.py'], cost['fast.py']):>10}",
        "  fastest: fast.py cost * faster than the slowest passing (slow.py)",
        "  rejected:",
        "    divzero.py: test_table(a=12, b=18, want=6): ZeroDivisionError at gcd_candidates/divzero.py:2",
    ])  # fmt: skip
    assert cost["fast.py"] < cost["slow.py"]
    assert "no usable CUDA device" not in result.stdout.str()  # cpu was asked for: no fallback note
    assert "      >   return a // (b - b)" not in result.stdout.lines  # details only with -v


def test_quiet_prints_each_suite_fastest_line_only(gpucc):
    write_project(gpucc)
    write_project(gpucc, name="none", candidates={"wrong.py": "def gcd(a: int, b: int) -> int:\n    return 3\n"})
    result, _ = run(gpucc, CPU, "--gpucc-step-limit=5000", "-q")
    assert result.ret == 1  # suite_none.py has no passing candidate
    result.stdout.fnmatch_lines([
        "*gpucc summary*",
        "suite_gcd.py (task gcd): 2/7 passed; fastest: fast.py cost * faster than the slowest passing (slow.py)",
        "suite_none.py (task none): 0/1 passed; no candidate passed",
    ])  # fmt: skip
    out = result.stdout.str()
    assert "gpucc: " not in out and "rank  candidate" not in out and "rejected:" not in out


def test_verbose_lists_every_candidate_with_its_report(project):
    result, doc = run(project, CPU, "--gpucc-step-limit=5000", "-v")
    lines = result.stdout.lines
    summary = lines[next(i for i, line in enumerate(lines) if "gpucc summary" in line) :]
    for c in doc["suites"][0]["candidates"]:
        listed = [line for line in summary if re.match(rf"\s+(\d+  )?{re.escape(c['name'])}[: ]", line)]
        assert listed, c["name"]
    result.stdout.fnmatch_lines(["    wrong.py: test_table(a=12, b=18, want=6): assert gcd(a, b) == want, where 3 == 6",
                                 "      suite_gcd.py:7: in test_table(a=12, b=18, want=6)",
                                 "      >   assert gcd(a, b) == want", "      E   AssertionError: where 3 == 6"])  # fmt: skip


def test_colour_highlights_the_fastest(project):
    result, _ = run(project, CPU, "--gpucc-step-limit=5000", "--color=yes")
    out = result.stdout.str()
    assert re.search(r"\x1b\[32m\x1b\[1m +1  fast\.py +\d+ +1\.00x\x1b\[0m", out)
    assert re.search(r"\n +2  slow\.py +\d+ +\d[\d.]*x\n", out)  # the others are plain


def test_auto_falls_back_to_cpu_with_a_note_and_ini_backend(gpucc, monkeypatch):
    write_project(gpucc, candidates={"fast.py": GCD_CANDIDATES["fast.py"]})
    monkeypatch.setattr(vm_devices, "cuda_available", lambda: False)
    note = "gpucc: no usable CUDA device (an NVIDIA GPU, its driver and numba-cuda): running on the CPU"
    result, doc = run(gpucc)
    assert doc["backend"] == "cpu" and doc["backend_note"] == note[len("gpucc: ") :]
    result.stdout.fnmatch_lines(["gpucc: backend cpu, *", note])

    gpucc.makeini("[pytest]\ngpucc_backend = cpu\n")
    result, doc = run(gpucc)
    assert doc["backend"] == "cpu" and doc["backend_note"] is None and note not in result.stdout.lines

    gpucc.makeini("[pytest]\ngpucc_backend = cuda\n")
    result, doc = run(gpucc, CPU)  # the command line wins over the ini file
    assert doc["backend"] == "cpu"

    gpucc.makeini("[pytest]\ngpucc_backend = gpu\n")
    result, _ = run(gpucc)
    assert result.ret == 4 and "ini option gpucc_backend = 'gpu': expected one of auto, cpu, cuda" in result.stderr.str()
