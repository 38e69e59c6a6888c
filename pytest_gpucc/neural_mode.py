"""`--gpucc-compiler neural`: every candidate compiled by k samples of the neural compiler, all
of them run in the SAME VM launch as everything else (the paper's Alg. 2).

The traditional compiler still compiles every source (suites, candidates, references): its
bytecode runs beside the samples, and its front end gives each sample's function names and
parameter types (bytecode has none).  Each candidate the traditional compiler takes gets k
samples (gpucc.neural.compile, one batched pass); those that verify become units of the batch
(neural.bytecode.with_units), are linked to the candidate's suites and run in the one launch.

Verdict (`judge`): the candidate passes when one of its samples passes every test; it shows
that sample's outcome, else the first valid sample's, else a compile error saying why no sample
could run.  A sample is *faithful* when its outcome (status, and value when OK) equals the
traditional bytecode's on every job: passing is not faithful when the model "repaired" a wrong
source.  Figures per candidate: samples valid, passing and faithful, p_correct = faithful / k,
k_99 = log 0.01 / log(1 - p) and P_success(k) = 1 - (1 - p)^k (the paper's eq. 6-7) beside the
measured success (a faithful sample among the k), and `compiled_by`: whose bytecode gave the verdict.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from pytest_gpucc import report

CHOICES = ("traditional", "neural")
DEFAULT_K = 4


@dataclass
class Sampled:
    """What the neural compiler gave: the extended batch and each candidate unit's samples."""

    batch: object  # compiler.CompiledBatch: the traditional units, then the valid samples
    units: dict[int, list[int]] = field(default_factory=dict)  # traditional unit -> its valid samples' units
    problems: dict[int, list[str]] = field(default_factory=dict)  # traditional unit -> each invalid sample's problem
    reasons: dict[int, str] = field(default_factory=dict)  # traditional unit -> why it has no samples


def neural_options(compiler: str, k: int, checkpoint: str | None, error=ValueError, flag="--gpucc-compiler") -> dict:
    """session.Options fields of the compiler options; `error(message)` is raised when neural
    mode cannot run: torch missing, k < 1, a checkpoint missing or not matching the ISA (`flag`:
    the option's name in the message)."""
    if compiler != "neural":
        return {"compiler": compiler}
    from gpucc.neural.checkpoint import SHIPPED, mismatches, read_meta
    from gpucc.neural.compile import missing_torch

    if missing_torch():
        raise error(f"{flag} neural: {missing_torch()}")
    if k < 1:
        raise error(f"{flag.replace('compiler', 'neural-k')} must be at least 1")
    path = checkpoint or SHIPPED
    try:
        problems = mismatches(read_meta(path))
    except (OSError, ValueError, KeyError) as e:
        raise error(f"{flag} neural: cannot read the checkpoint {path}: {e}") from None
    if problems:
        raise error(f"{flag} neural: {path} does not match the ISA ({'; '.join(problems)}): retrain it")
    return {"compiler": compiler, "neural_k": k, "neural_checkpoint": checkpoint}


_compilers: dict = {}  # checkpoint path -> NeuralCompiler (loaded once per process)


def sample_units(batch, candidate_units: list[int], k: int, checkpoint: str | None = None) -> Sampled:
    """k samples for each candidate unit that compiled; the valid ones appended to the batch."""
    from gpucc.neural.bytecode import unit_code, with_units
    from gpucc.neural.compile import NeuralCompiler

    if checkpoint not in _compilers:
        _compilers[checkpoint] = NeuralCompiler.load(checkpoint)
    todo = [u for u in candidate_units if batch.ok(u)]
    wants = [unit_code(batch, u) for u in todo]
    made = _compilers[checkpoint].compile([batch.sources[u] for u in todo], wants, k)
    out, extra = Sampled(batch), []
    for u, samples in zip(todo, made):
        if isinstance(samples, str):
            out.reasons[u] = samples
            continue
        out.units[u] = [len(batch.sources) + len(extra) + j for j in range(sum(s.valid for s in samples))]
        extra += [(s.unit, u) for s in samples if s.valid]
        out.problems[u] = [s.problem for s in samples if not s.valid]
    out.batch = with_units(batch, extra) if extra else batch
    return out


def figures(k: int, valid: int, passing: int, faithful: int) -> dict:
    """One candidate's sample figures (p_correct: a sample compiles the source right)."""
    p = faithful / k if k else 0.0
    k_99 = 1 if p >= 1 else None if p <= 0 else math.ceil(math.log(0.01) / math.log(1 - p))
    return {"k": k, "valid": valid, "passing": passing, "faithful": faithful, "p_correct": p, "k_99": k_99,
            "p_success_eq7": 1 - (1 - p) ** k, "success_measured": faithful > 0}  # fmt: skip


def compiled_by(o: report.CandidateOutcome) -> str:
    """Which path gave the candidate's verdict: "neural" (a sample's bytecode, or no sample could
    run), "traditional" (traditional mode, or its front end rejected the source), "CPython" (the
    fallback ran the source)."""
    if o.engine == report.CPYTHON:
        return "CPython"
    return o.neural.get("compiled_by", "neural") if o.neural else "traditional"


def same_outcome(results, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Jobs a = (lo, hi) and b (the same tests and cases) end alike: status, and value when OK."""
    from gpucc.contract.status import OK

    sa, sb = results.status[a[0] : a[1]], results.status[b[0] : b[1]]
    va, vb = results.value[a[0] : a[1]], results.value[b[0] : b[1]]
    return len(sa) == len(sb) and bool(((sa == sb) & ((sa != OK) | (va == vb))).all())


def judge(traditional: report.CandidateOutcome, k: int, samples: list[report.CandidateOutcome],
          faithful: list[bool], problems: list[str], reason: str | None) -> report.CandidateOutcome:  # fmt: skip
    """The candidate's neural-mode outcome from its valid samples' outcomes (in sample order),
    which of them are faithful, the invalid samples' problems, or the reason it has none."""
    if reason is not None:
        if traditional.status in (report.COMPILE_ERROR, report.SYNTAX_ERROR, report.SUITE_ERROR):
            return dataclasses.replace(traditional, neural={"reason": reason, "compiled_by": "traditional"})
        o = report.from_error(traditional.suite, traditional.name, traditional.filename, report.COMPILE_ERROR,
                              f"neural compiler: {reason}")  # fmt: skip
        return dataclasses.replace(o, source_text=traditional.source_text,
                                   neural={"reason": reason, "k": k, "compiled_by": "neural"})  # fmt: skip
    passing = [o for o in samples if o.passed]
    info = figures(k, len(samples), len(passing), sum(faithful))
    info["traditional"], info["compiled_by"] = traditional.status, "neural"
    if passing or samples:
        chosen = (passing or samples)[0]
        return dataclasses.replace(chosen, name=traditional.name, filename=traditional.filename,
                                   source_text=traditional.source_text, neural=info)  # fmt: skip
    first = problems[0] if problems else "no sample"
    o = report.from_error(traditional.suite, traditional.name, traditional.filename, report.COMPILE_ERROR,
                          f"neural compiler: none of {k} samples verified (first: {first})")  # fmt: skip
    return dataclasses.replace(o, source_text=traditional.source_text, neural=info)
