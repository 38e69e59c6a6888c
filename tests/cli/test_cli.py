"""The `gpucc` command: help, `gpucc disasm` (the golden disassembly format, compile errors),
`gpucc run` (the same results as `pytest --gpu-candidates`, exit codes, bad input) and the
installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_gpucc.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
GCD_SUITE = EXAMPLES / "suite_gcd.py"
GCD_DIR = EXAMPLES / "gcd_candidates"


def gpucc(capsys, *argv) -> tuple[int, str, str]:
    """Run `gpucc argv...` in-process: (exit code, stdout, stderr)."""
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# -- help ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--help"], ["disasm", "--help"], ["run", "--help"]])
def test_help_describes_and_gives_an_example(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: gpucc")
    assert "example" in out
    if argv == ["--help"]:
        assert "disasm" in out and "run" in out and "gpucc run examples/suite_gcd.py" in out
    else:
        assert f"gpucc {argv[0]} examples/" in out  # the epilog's example


def test_help_imports_no_compiler_or_numba():
    code = ("import sys\nfrom pytest_gpucc import cli\ncli.build_parser()\n"
            "print(sorted(m for m in ('numpy', 'numba', 'gpucc.compiler.batch', 'gpucc.contract.image') if m in sys.modules))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2
    assert "required: COMMAND" in capsys.readouterr().err


# -- gpucc disasm ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.py")))
def test_disasm_prints_the_golden_disassembly(capsys, name):
    rc, out, err = gpucc(capsys, "disasm", GOLDEN / f"{name}.py")
    assert (rc, err) == (0, "")
    assert out == (GOLDEN / f"{name}.dis").read_text()


def test_disasm_one_function_of_a_suite(capsys):
    rc, out, _ = gpucc(capsys, "disasm", GCD_SUITE, "--function", "divides")
    assert rc == 0
    assert out.startswith("function 1 divides(2 params, 2 locals, max stack 2) -> bool\n")
    assert "BINARY_MOD" in out and "gcd(" not in out and "unit 0" not in out
    rc, out, _ = gpucc(capsys, "disasm", GCD_SUITE)  # the whole suite: @cases blanked, the stub an import
    assert rc == 0
    assert "function 0 gcd(2 params) -> int: import #0" in out and "function 2 test_table(" in out


def test_disasm_unknown_function_names_the_functions(capsys):
    rc, out, err = gpucc(capsys, "disasm", GOLDEN / "fib.py", "-f", "nope")
    assert (rc, out) == (2, "")
    assert err.startswith("gpucc disasm: error: no function 'nope' in ") and "its functions: fib" in err


def test_disasm_compile_error_is_located_with_a_caret(capsys, tmp_path):
    src = tmp_path / "bad.py"
    src.write_text("def f(a: int) -> int:\n    xs = {[a]}\n    return a\n")
    rc, out, err = gpucc(capsys, "disasm", src)
    assert (rc, out) == (1, "")
    assert err == (f"{src}:2:10: error: dict keys and set elements of this type (keys: int, bool, float, str, or "
                   "tuples of those): not supported by gpucc\n        xs = {[a]}\n             ^\n")


def test_disasm_missing_file(capsys, tmp_path):
    rc, out, err = gpucc(capsys, "disasm", tmp_path / "missing.py")
    assert (rc, out) == (2, "")
    assert err == f"gpucc disasm: error: file not found: {tmp_path / 'missing.py'}\n"


# -- gpucc run -------------------------------------------------------------------------------


def statuses(doc: dict) -> dict:
    return {c["name"]: (c["status"], c["cost"], c["rank"]) for s in doc["suites"] for c in s["candidates"]}


def test_run_agrees_with_pytest(capsys, pytester):
    """`gpucc run SUITE --json x` and `pytest --gpu-candidates SUITE --gpucc-json y`: the same
    candidates, statuses, costs and ranks, the same JSON suites and summary, the same exit code."""
    shutil.copy(GCD_SUITE, pytester.path / GCD_SUITE.name)
    shutil.copytree(GCD_DIR, pytester.path / GCD_DIR.name)
    rc, out, err = gpucc(capsys, "run", "suite_gcd.py", "--json", "cli.json")  # pytester's cwd
    assert rc == 0
    assert err == "gpucc: compiling 8 candidates in one batch, then one VM launch (cpu backend)\n"
    result = pytester.runpytest_inprocess("--gpu-candidates", "suite_gcd.py", "--gpucc-json=pytest.json",
                                          "--gpucc-backend=auto", "-p", "no:cacheprovider")  # fmt: skip
    assert result.ret == rc
    cli, plugin = (json.loads((pytester.path / f).read_text()) for f in ("cli.json", "pytest.json"))
    assert statuses(cli) == statuses(plugin)
    assert statuses(cli)["uses_tuple.py"][2] == 1 and statuses(cli)["euclid_mod.py"][2] == 2
    assert statuses(cli)["wrong_min.py"][0] == "failed"
    assert cli["suites"] == plugin["suites"]
    assert {k: cli[k] for k in ("backend", "launches", "jobs", "units")} == {
        k: plugin[k] for k in ("backend", "launches", "jobs", "units")
    }
    lines = out.splitlines()
    assert lines[0].startswith("gpucc: backend cpu, 1 suite, 8 candidates") and "1 VM launch" in lines[0]
    assert "  fastest: uses_tuple.py cost 51591 \u2014 2.85x faster than the slowest passing (euclid_sub.py)" in lines
    pytest_out = result.stdout.str()
    for line in lines:  # the same summary (but the phase timings)
        assert line in pytest_out or line.startswith("gpucc: timings")


def test_run_and_pytest_go_through_one_batch_flow(capsys, pytester, recorded_batches):
    """`gpucc run` and the plugin each run one GpuccSession batch, with equal outcomes, and print
    the summary rows of its results."""
    batches = recorded_batches
    shutil.copy(GCD_SUITE, pytester.path / GCD_SUITE.name)
    shutil.copytree(GCD_DIR, pytester.path / GCD_DIR.name)
    rc, out, _ = gpucc(capsys, "run", "suite_gcd.py", "-q")
    result = pytester.runpytest_inprocess("--gpu-candidates", "suite_gcd.py", "-q", "--gpucc-backend=auto",
                                          "-p", "no:cacheprovider")  # fmt: skip
    assert rc == result.ret == 0
    cli, plugin = batches
    assert len(cli.outcomes) == 8 and cli.outcomes == plugin.outcomes and cli.summaries == plugin.summaries
    (line, _markup), = cli.results().summary_rows(verbosity=-1)
    assert out == line + "\n" and line in result.stdout.lines


def test_run_explicit_files_exit_1_when_none_passes(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # reports name files relative to the working directory
    rc, out, err = gpucc(capsys, "run", GCD_SUITE, GCD_DIR / "wrong_min.py")
    assert rc == 1 and "compiling 1 candidate in one batch" in err
    lines = out.splitlines()
    assert lines.index("examples/suite_gcd.py (task gcd): 0/1 candidates passed") < lines.index("  failed:")
    assert lines[-1] == "    wrong_min.py: test_table(a=12, b=18, want=6): assert gcd(a, b) == want, where 12 == 6"


def test_run_quiet_prints_one_line_per_suite(capsys):
    rc, out, err = gpucc(capsys, "run", GCD_SUITE, "-q")
    assert (rc, err) == (0, "")  # no progress line either
    assert len(out.splitlines()) == 1
    assert "5/8" in out and "fastest: uses_tuple.py cost 51591" in out  # pair_list.py's garbage is collected


def test_run_files_directories_options_between_them(capsys, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "plus_one.py").write_text("def gcd(a: int, b: int) -> int:\n    return a + 1\n")
    (mine / "notes.txt").write_text("not a candidate")
    rc, out, err = gpucc(capsys, "run", GCD_SUITE, mine, "-v", GCD_DIR / "euclid_sub.py", "--step-limit", "500000",
                         "--json", tmp_path / "r.json")  # fmt: skip
    assert rc == 0 and "compiling 2 candidates" in err
    assert "1/2 candidates passed" in out and "fastest: euclid_sub.py" in out
    assert "E   AssertionError: where 13 == 6" in out  # -v: the failing candidate's full report
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["step_limit"] == 500000
    assert statuses(doc) == {"plus_one.py": ("failed", 50, None), "euclid_sub.py": ("passed", 146983, 1)}


def test_run_shows_the_lists_a_failed_assert_compared(capsys, tmp_path):
    """The device keeps a list's elements in the job's heap: the report replays the job on the
    reference interpreter to show them (pytest_gpucc/heap_values.py)."""
    (tmp_path / "suite_rev.py").write_text(
        "def rev(xs: list[float]) -> list[float]: ...\n\n\n"
        "@cases([([1, 2, 3], [3, 2, 1]), ([0.5], [0.5])])\n"
        "def test_rev(xs: list[float], want: list[float]) -> None:\n    assert rev(xs) == want\n")
    (tmp_path / "rev_candidates").mkdir()
    (tmp_path / "rev_candidates" / "same.py").write_text("def rev(xs: list[float]) -> list[float]:\n    return xs\n")
    rc, out, err = gpucc(capsys, "run", tmp_path / "suite_rev.py", "-v")
    assert rc == 1
    assert "test_rev(xs=[1.0, 2.0, 3.0], want=[3.0, 2.0, 1.0]): assert rev(xs) == want, where [1.0, 2.0, 3.0] == [3.0, 2.0, 1.0]" in out
    assert "AssertionError: where [1.0, 2.0, 3.0] == [3.0, 2.0, 1.0]" in out


def test_run_samples_add_to_the_directory(capsys):
    rc, out, _ = gpucc(capsys, "run", EXAMPLES / "suite_collatz.py", "--samples", EXAMPLES / "collatz_samples.jsonl")
    assert rc == 0
    assert "7/10 candidates passed" in out and "Collatz/0#1" in out and "while_loop.py" in out
    assert out.splitlines()[-1] == "samples whose task_id is not this suite's task (Collatz/0): Other/1"


@pytest.mark.parametrize(
    "make_args, message",
    [
        (lambda t: [t / "suite_none.py"], "suite not found: "),
        (lambda t: [GCD_SUITE, t / "nope.py"], "candidate file or directory not found: "),
        (lambda t: [GCD_SUITE, GCD_DIR, GCD_DIR / "euclid_mod.py"], "two candidates named euclid_mod.py: "),
        (lambda t: [GCD_SUITE, "--step-limit", "0"], "--step-limit must be at least 1"),
        (lambda t: [GCD_SUITE, "--heap-words", "0"], "--heap-words must be at least 1"),
        (lambda t: [GCD_SUITE, "--samples", t / "bad.jsonl"], "bad.jsonl:1: invalid JSON"),
        (lambda t: [t / "suite_bad.py"], "bad gpucc suite: "),
        (lambda t: [t / "suite_lonely.py"], "no candidates: "),
    ],
)
def test_run_bad_input_exits_2_with_a_message(capsys, tmp_path, make_args, message):
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    (tmp_path / "suite_bad.py").write_text("def test_a() -> None:\n    assert f(1) == 1\n    @cases([1])\n")
    (tmp_path / "suite_lonely.py").write_text("def f(a: int) -> int:\n    ...\n\n\ndef test_a() -> None:\n"
                                              "    assert f(1) == 1\n")  # fmt: skip
    rc, out, err = gpucc(capsys, "run", *make_args(tmp_path))
    assert (rc, out) == (2, "")
    assert err.startswith("gpucc run: error: ") and message in err


# -- the console script ----------------------------------------------------------------------


def test_installed_console_script():
    exe = shutil.which("gpucc") or shutil.which("gpucc", path=str(Path(sys.executable).parent))
    assert exe, "no `gpucc` script: install the project with `pip install -e .`"
    proc = subprocess.run([exe, "disasm", GOLDEN / "gcd.py"], capture_output=True, text=True, timeout=300, check=False)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (GOLDEN / "gcd.dis").read_text()


# -- gpucc neural ----------------------------------------------------------------------------


def test_neural_passes_its_options_to_the_action(capsys):
    with pytest.raises(SystemExit) as exit_:
        gpucc(capsys, "neural", "eval", "--help")
    assert exit_.value.code == 0 and "gpucc neural eval" in capsys.readouterr().out


def test_neural_without_torch_says_how_to_install_it(capsys, monkeypatch):
    from gpucc.neural.compile import NO_TORCH

    monkeypatch.setattr("gpucc.neural.compile.missing_torch", lambda: NO_TORCH)
    rc, _, err = gpucc(capsys, "neural", "train", "--config", "tiny")
    assert rc == 2 and "pip install 'pytest-gpucc[neural]'" in err
    rc, _, err = gpucc(capsys, "run", "examples/suite_gcd.py", "--compiler", "neural")
    assert rc == 2 and "--compiler neural: the neural compiler needs torch" in err


def test_the_heap_words_default_is_the_vms():
    """The CLI writes the default out (it starts without the VM's imports): it must stay LaunchLimits'."""
    from gpucc.contract.image import LaunchLimits
    from pytest_gpucc.cli import HEAP_WORDS_ARG

    assert HEAP_WORDS_ARG[1]["default"] == LaunchLimits().heap_size
