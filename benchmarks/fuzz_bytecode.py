"""Bytecode from a model is untrusted input: N random and mutated programs through the verifier,
the CPU kernel and the reference interpreter.

    python -m benchmarks.fuzz_bytecode --programs 1000000 --seed 1

Program k of a run (seed s) is drawn with random.Random(s * 10**9 + k) (tests/vm/isaprog.py):
30% random programs over the whole ISA (`isa_program`), 70% mutations (1-3 of operand flips,
opcode swaps, jump retargets, constant-pool corruption, truncations, function-table edits:
`isaprog.MUTATIONS`) of real programs: 60% of --corpus programs of the differential fuzzer's
generator (neural/gen.py) compiled by the compiler, run on their generated arguments, 10% of
--corpus random ISA programs.  Each program is one unit; --batch of them are laid end to end
into one Program whose jobs (--jobs per program: a function of the unit with real arguments,
or random slot values; now and then a function id outside the unit) run in one CPU kernel
launch, which verifies every function first.

Checked: the launch returns (a crash would end this process: its last progress line names the
batch before it), every job ends in a defined status (one of contract.status', not NOT_RUN)
with 0 <= steps <= the step limit, and the host verifier (vm.verify.verify, its messages)
takes every batch without raising.  A program whose function table the image check
(contract.image) refuses is counted apart: no launch takes it.  Every job of every
--reference-every-th program whose functions all verified also runs on the reference
interpreter (vm/reference.py, the ISA's plain-Python spec), and every result field (status,
value, cost, steps, the failure record) must equal the kernel's.  Findings are written to
--out with each program's index (`--only K` shows program K alone: its disassembly, the
verifier's verdicts, its jobs on both); exit 1 if there is any.
"""

from __future__ import annotations

import argparse
import collections
import faulthandler
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from gpucc import vm
from gpucc.compiler import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program, ResultArrays, image_arrays
from gpucc.neural.gen import ProgramGen
from gpucc.vm.disasm import disassemble
from gpucc.vm.verify import V_OK, function_checks, verify
from tests.vm.isaprog import isa_program, job_rows, job_table, mutate, split_units

LIMITS = LaunchLimits(step_limit=500, stack_size=256, max_depth=16, heap_size=4096)


class Corpus:
    """Programs to mutate: (one-unit Program, entry function index, argument tuples): n compiled by
    the compiler from the differential fuzzer's generator (neural/gen.py), n random ISA programs."""

    def __init__(self, n: int, seed: int):
        gens = [ProgramGen(seed * 7919 + k).program() for k in range(n)]
        batch = compile_batch([g.source for g in gens])
        units = split_units(Program.from_batch(batch))
        self.compiled = []
        for u, g in enumerate(gens):
            if batch.ok(u):
                entry = batch.function_names(u).index(g.entry)
                self.compiled.append((units[u], entry, g.inputs(random.Random(u), 8)))
        self.isa = [(isa_program(random.Random(-1 - seed * 7919 - k)), 0, []) for k in range(n)]


def draw(k: int, seed: int, corpus: Corpus) -> tuple[Program, str, list]:
    """(program k, how it was made, argument tuples of the entry function 0 or of `entry`):
    30% random over the ISA, 60% a mutated compiled program, 10% a mutated random one."""
    r = random.Random(seed * 10**9 + k)
    x = r.random()
    if x < 0.3:
        return isa_program(r), "isa", []
    base, entry, inputs = r.choice(corpus.compiled if x < 0.9 else corpus.isa)
    how, cases = ("compiled" if x < 0.9 else "isa"), [(entry, args) for args in inputs]
    kinds = []
    for _ in range(r.choice([1, 1, 1, 2, 3])):
        base, kind = mutate(base, r)
        kinds.append(kind)
    return base, f"{how}+{'+'.join(kinds)}", cases


def field_rows(results, idx) -> dict[str, np.ndarray]:
    return {f: np.asarray(getattr(results, f))[idx] for f in ResultArrays._fields}


def check_batch(ks: list[int], a, corpus: Corpus, out: list, counts: collections.Counter) -> None:
    units, rows, hows, ks_run, pool = [], [], [], [], []
    for k in ks:
        p, how, cases = draw(k, a.seed, corpus)
        counts[how.split("+")[0]] += 1
        try:
            if "table" in how or "truncate" in how:  # the other mutations leave the tables as they were
                image_arrays(p)
        except ValueError:
            counts["image refused"] += 1
            continue
        units.append(p)
        rows.append(job_rows(p, cases, random.Random(-1 - k), a.jobs, pool))
        hows.append(how)
        ks_run.append(k)
    program, jobs = job_table(units, rows, pool)
    results = vm.launch(program, jobs, "cpu", LIMITS)
    counts["jobs"] += len(jobs)
    status = np.asarray(results.status)
    counts.update(S.NAMES[s] if 0 <= s < len(S.NAMES) else "undefined" for s in status.tolist())
    bad = (status < 0) | (status >= len(S.NAMES)) | (status == S.NOT_RUN) | (results.steps > LIMITS.step_limit)
    bad |= results.steps < 0
    ok = function_checks(image_arrays(program))[:, 0] == V_OK
    try:  # the verifier's messages (host side) on every program of the batch
        counts["verifier messages"] += len(verify(program))
    except Exception as e:  # noqa: BLE001 -- any exception here is a finding
        out.append((ks_run[0], f"batch of {len(units)}", f"vm.verify.verify raised {e!r}"))
    unit_ok = np.logical_and.reduceat(ok, program.unit_func_start[:-1]) if len(ok) else ok
    first_job = np.cumsum([0] + [len(r) for r in rows])
    for u in np.flatnonzero(unit_ok):
        counts["verified programs"] += 1
    for u in np.flatnonzero([bad[first_job[u] : first_job[u + 1]].any() for u in range(len(units))]):
        out.append((ks_run[u], hows[u], "undefined status or steps"))
    sample = [u for u in np.flatnonzero(unit_ok) if ks_run[u] % a.reference_every == 0]
    if not sample:
        return
    idx = np.concatenate([np.arange(first_job[u], first_job[u + 1]) for u in sample])
    # the same program (its function ids and pcs: an exception value a program forged names a
    # function and pc by global id, so another layout would fail "elsewhere"), these jobs only
    sub_jobs = replace(jobs, func=jobs.func[idx], link=jobs.link[idx], args=jobs.args[idx],
                       arg_lists=jobs.arg_lists[idx])  # fmt: skip
    ref = vm.launch(program, sub_jobs, "reference", LIMITS)
    counts["reference programs"] += len(sample)
    counts["reference jobs"] += len(idx)
    got, want = field_rows(results, idx), field_rows(ref, slice(None))
    differ = np.zeros(len(idx), bool)
    for f in got:
        differ |= got[f] != want[f]
    for i in np.flatnonzero(differ):
        u = sample[int(np.searchsorted(np.cumsum([len(rows[v]) for v in sample]), i, side="right"))]
        out.append((ks_run[u], hows[u], "kernel != reference"))


def show(k: int, a, corpus: Corpus) -> None:
    """Program k alone: its disassembly, verifier problems and every job on both backends."""
    p, how, cases = draw(k, a.seed, corpus)
    print(f"program {k} ({how})")
    print(disassemble(p))
    pool = []
    program, jobs = job_table([p], [job_rows(p, cases, random.Random(-1 - k), a.jobs, pool)], pool)
    print("verifier:", function_checks(image_arrays(program)).tolist())
    for backend in ("cpu", "reference"):
        r = vm.launch(program, jobs, backend, LIMITS)
        for j in range(len(jobs)):
            print(backend, j, jobs.func[j], jobs.args[j].tolist(), {f: int(getattr(r, f)[j]) for f in ResultArrays._fields})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=2000, help="programs per kernel launch")
    ap.add_argument("--jobs", type=int, default=2, help="jobs per program")
    ap.add_argument("--corpus", type=int, default=300, help="compiled (and random) programs to mutate")
    ap.add_argument("--reference-every", type=int, default=10, metavar="N",
                    help="run every Nth verified program's jobs on the reference too")  # fmt: skip
    ap.add_argument("--only", type=int, metavar="K", help="show program K alone")
    ap.add_argument("--out", type=Path, default=Path("fuzz_bytecode_findings.txt"))
    a = ap.parse_args(argv)
    faulthandler.enable()
    corpus = Corpus(a.corpus, a.seed)
    if a.only is not None:
        show(a.only, a, corpus)
        return 0
    print(f"bytecode fuzz: seed {a.seed}, {a.programs:,} programs, {a.batch} per launch, {a.jobs} jobs each, "
          f"{len(corpus.compiled)} compiled and {len(corpus.isa)} random programs to mutate, reference on every {a.reference_every} verified",
          flush=True)  # fmt: skip
    t0, findings, counts = time.perf_counter(), [], collections.Counter()
    for lo in range(0, a.programs, a.batch):
        check_batch(list(range(lo, min(a.programs, lo + a.batch))), a, corpus, findings, counts)
        print(f"  {min(a.programs, lo + a.batch):>9,} programs  {counts['verified programs']:>8,} verified  "
              f"{counts['reference jobs']:>8,} jobs on reference  {len(findings)} findings  "
              f"{time.perf_counter() - t0:6.0f} s", flush=True)  # fmt: skip
    statuses = ", ".join(f"{n} {counts[n]:,}" for n in S.NAMES if counts[n]) + (f", undefined {counts['undefined']}"
                                                                              if counts["undefined"] else "")  # fmt: skip
    print(f"{a.programs:,} programs ({counts['isa']:,} random over the ISA, {counts['compiled']:,} mutated compiled "
          f"ones; {counts['image refused']:,} refused by the image check), {counts['jobs']:,} jobs on the CPU kernel "
          f"in {time.perf_counter() - t0:.0f} s: 0 crashes")  # fmt: skip
    print(f"job statuses: {statuses}")
    print(f"{counts['verified programs']:,} programs verified; {counts['reference programs']:,} of them "
          f"({counts['reference jobs']:,} jobs) compared with the reference: {len(findings)} findings")  # fmt: skip
    if findings:
        with a.out.open("w") as f:
            for k, how, what in findings:
                f.write(f"program {k} ({how}): {what}\n")
        print(f"findings written to {a.out} (show one: --seed {a.seed} --only K)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
