"""The long differential run: random programs on the VM vs CPython, until N (program, input)
pairs are checked.

    python -m benchmarks.fuzz_differential --pairs 100000 --seed 1

Each batch generates --batch programs (neural/gen.py) with --inputs argument tuples each,
compiles them in one compile_batch, runs every pair in one VM launch (--backend, default cpu),
and compares each outcome (value, or exception kind) with CPython's (tests/oracle/oracle.py).
The first --reference programs of every batch also run on the reference interpreter (the
plain-Python spec of the ISA; slow).  Prints a progress line per batch and a summary; writes
each disagreement (backend, program seed, source, input, CPython's and the VM's outcome) to
--out and exits 1 if there is any.

A program the compiler refuses for one of its documented capacities (compiler/limits.py: 64
locals with the hidden ones of comprehensions and folds, 64 functions, ...; a located compile
error, README "What is in") checks nothing about semantics: its pairs are set aside, counted in the
summary, and not counted as checked; the run goes on until --pairs pairs are checked.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

from gpucc.compiler import errors
from gpucc.neural.gen import ProgramGen
from tests.oracle.oracle import cpython_outcomes, vm_outcomes


# the compiler's capacity errors (compiler/errors.py's templates ending "(limit {arg})")
CAPACITY_MESSAGES = tuple(t.split(" (limit")[0] for t in errors.TEMPLATES if t.endswith("(limit {arg})"))


def program_seed(seed: int, k: int) -> int:
    """The generator seed of program k of the run with --seed seed."""
    return seed * 1_000_000_007 + k


def check_batch(seeds: list[int], n_inputs: int, backend: str, n_reference: int, step_limit: int, heap_size: int):
    """Generate, run and compare one batch -> (pairs checked, reference pairs checked,
    disagreements, CPython's outcomes of the checked pairs, programs over a capacity)."""
    programs = [ProgramGen(s).program() for s in seeds]
    sources = [p.source for p in programs]
    calls = [(u, p.entry, args) for u, p in enumerate(programs)
             for args in p.inputs(random.Random(-1 - seeds[u]), n_inputs)]  # fmt: skip
    want = cpython_outcomes(sources, calls)
    reference = calls[: n_reference * n_inputs]  # calls are program-major
    bad, over = [], set()
    for name, subset in ((backend, calls), ("reference", reference)):
        got = vm_outcomes(sources, subset, name, step_limit, heap_size) if subset else []
        over |= {u for (u, _, _), g in zip(subset, got) if over_capacity(g)}
        bad += [(name, seeds[u], sources[u], f, args, w, g) for (u, f, args), w, g in zip(subset, want, got)
                if w != g and u not in over]  # fmt: skip
    kept = [w for (u, _, _), w in zip(calls, want) if u not in over]
    checked = len(kept), sum(u not in over for u, _, _ in reference)
    return *checked, bad, collections.Counter(map(outcome_kind, kept)), len(over)


def over_capacity(outcome: str) -> bool:
    """Whether an outcome is the compiler's refusal of a program past one of its capacities."""
    return outcome.startswith("compile error:") and any(m in outcome for m in CAPACITY_MESSAGES)



def outcome_kind(outcome: str) -> str:
    """"value" for a returned value (an int, bool or float repr), else the exception kind."""
    return outcome if outcome[0].isalpha() and outcome not in ("True", "False", "nan", "inf") else "value"


def write_disagreements(path: Path, bad: list[tuple]) -> None:
    with path.open("w") as out:
        for backend, seed, source, f, args, want, got in bad:
            out.write(f"# backend {backend}, program seed {seed}\n{source}\n")
            out.write(f"# {f}{args!r}: CPython {want}, VM {got}\n\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=100_000, help="(program, input) pairs to check")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=500, help="programs per compile_batch and launch")
    ap.add_argument("--inputs", type=int, default=20, help="argument tuples per program")
    ap.add_argument("--backend", choices=["cpu", "cuda", "reference"], default="cpu")
    ap.add_argument("--reference", type=int, default=50, help="programs per batch also run on the reference VM")
    ap.add_argument("--step-limit", type=int, default=2_000_000)
    ap.add_argument("--heap-size", type=int, default=1 << 22,
                    help="list heap words per job (a job never frees a list: generated programs allocate freely)")
    ap.add_argument("--out", type=Path, default=Path("fuzz_disagreements.txt"))
    a = ap.parse_args(argv)
    if min(a.pairs, a.batch, a.inputs) < 1 or a.reference < 0:
        ap.error("--pairs, --batch and --inputs must be >= 1, --reference >= 0")

    print(f"differential fuzz: seed {a.seed}, backend {a.backend} (+ reference on {a.reference} "
          f"programs/batch), {a.batch} programs x {a.inputs} inputs per batch", flush=True)  # fmt: skip
    t0, done, programs, ref_pairs, bad, outcomes = time.perf_counter(), 0, 0, 0, [], collections.Counter()
    set_aside = 0
    while done < a.pairs:
        n = min(a.batch, -(-(a.pairs - done) // a.inputs))
        seeds = [program_seed(a.seed, programs + k) for k in range(n)]
        pairs, ref, batch_bad, batch_outcomes, over = check_batch(seeds, a.inputs, a.backend, a.reference,
                                                                  a.step_limit, a.heap_size)  # fmt: skip
        done, programs, ref_pairs, set_aside = done + pairs, programs + n, ref_pairs + ref, set_aside + over
        bad += batch_bad
        outcomes += batch_outcomes
        rate = done / (time.perf_counter() - t0)
        print(f"  {programs:>7,} programs  {done:>9,} pairs checked (+{ref_pairs:,} on reference)  "
              f"{len(bad)} disagreements  {set_aside} over a capacity  {rate:,.0f} pairs/s", flush=True)  # fmt: skip
    seconds = time.perf_counter() - t0
    kinds = ", ".join(f"{k} {v / done:.0%}" for k, v in outcomes.most_common())
    print(f"checked {done:,} (program, input) pairs on {a.backend} and {ref_pairs:,} on reference "
          f"in {seconds:.0f} s: {len(bad)} disagreements with CPython")  # fmt: skip
    print(f"CPython outcomes: {kinds}")
    print(f"{set_aside} of {programs:,} programs set aside: refused past a compiler capacity (not checked)")
    if bad:
        write_disagreements(a.out, bad)
        print(f"disagreements written to {a.out}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
