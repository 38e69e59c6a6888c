"""Neural vs traditional compile throughput on the same sources, in one run; p_correct per band.

    python -m benchmarks.bench_neural [--per-level N] [--repeats 3] [--ks 1,16] [--threads CORES]
                                      [--checkpoint PATH] [--no-train-filter]

Sources: the held-out programs of the checkpoint's curriculum (train.datasets: seed + 1, none
whose tokens also occur in training; `--per-level N`: the first N of each level;
`--no-train-filter` skips regenerating the training set, so some may also be in it) and every
candidate in examples/ that the traditional compiler takes.

Throughput, candidates/s (sources / wall time, and / CPU time: user + system of every thread,
which a loaded machine moves less; medians of `--repeats`; in each repeat the traditional and
every neural run go one after another, so a ratio compares runs under the same load):
  traditional  compiler.compile_batch(sources): numba's threads as the machine has
  neural k     NeuralCompiler.compile(sources, k): what `--gpucc-compiler neural` runs per
               candidate (tokenize, k samples in batched grammar-constrained passes, decode,
               vm.verify each sample), torch with `--threads` threads; a source the model cannot
               take (too long, untrained tokens) costs only its check, counted all the same
The paper's claim is "neural 10-100x faster than traditional" (on a GPU): the ratio is printed
as traditional time / neural time, > 1 when neural is faster.

Bands of the paper's eq. 6 (p_correct by program kind), from the held-out programs at the
largest k: each sample is run on 8 inputs beside the traditional bytecode in one launch
(neural/evaluate.py) and counts when it gives the same outcome on every input (faithful).
The bands are the curriculum's levels (neural/data.py): simple = "1-stmt" (one statement over
the parameters, no nesting); complex = "2-stmt-nest1" (two statements, an if / loop one deep);
rare = "locals-nest2" and "fuzz" (locals, nesting 2+, longer: shapes never trained on).  Per
band: p_correct = faithful samples / samples, k_99 = log 0.01 / log(1 - p), eq. 7's
1 - (1 - p)^k beside the measured share of programs with a faithful sample among their k.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from pathlib import Path

from gpucc.compiler import compile_batch
from gpucc.neural.bytecode import unit_code

ROOT = Path(__file__).resolve().parent.parent
BANDS = {"simple": ("1-stmt",), "complex": ("2-stmt-nest1",), "rare": ("locals-nest2", "fuzz")}


def example_sources() -> list[str]:
    """Every candidate in examples/ (files and JSONL samples, as whole sources) that the
    traditional compiler takes."""
    from pytest_gpucc.candidates import from_directory, from_samples, load_samples
    from pytest_gpucc.suite import load_suite

    suites = [load_suite(p) for p in sorted((ROOT / "examples").glob("suite_*.py"))]
    found = [c for s in suites for c in from_directory(s)]
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        found += [c for s in suites for c in from_samples(s, load_samples(path), path)]
    sources = [c.source for c in found if c.error is None]
    batch = compile_batch(sources)
    return [s for u, s in enumerate(sources) if batch.ok(u)]


def held_out(meta: dict, per_level: int | None, train_filter: bool) -> list:
    """The checkpoint's held-out examples (train.Example), the first `per_level` of each level."""
    from gpucc.neural.data import CURRICULUM, make_pairs
    from gpucc.neural.train import TrainConfig, datasets, encode

    cfg = TrainConfig(**meta["train"])
    if train_filter:
        _, held = datasets(cfg, meta["seed"], log=lambda line: print("  " + line))
    else:
        n = per_level or cfg.eval_per_level
        held = encode(make_pairs(meta["seed"] + 1, {k: n for k in range(len(CURRICULUM))})[0], cfg.model["block_size"])[0]
    if per_level is None:
        return held
    return [e for k in range(len(CURRICULUM)) for e in [e for e in held if e.pair.level == k][:per_level]]


def timed(fn):
    """((wall seconds, CPU seconds of this process: user + system, every thread), fn())."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return (time.perf_counter() - t0, time.process_time() - c0), out


def throughput(compiler, sources: list[str], ks: list[int], repeats: int, after_round=None) -> tuple[dict, dict]:
    """Median (wall, CPU) seconds per compiler ("traditional", k...) over `repeats` side-by-side
    rounds, and the neural samples of the last round per k; after_round(times, samples) after each."""
    times: dict = {"traditional": []} | {k: [] for k in ks}
    samples: dict = {}
    for _ in range(repeats):
        t, batch = timed(lambda: compile_batch(sources))
        times["traditional"].append(t)
        wants = [unit_code(batch, u) for u in range(len(sources))]
        for k in ks:
            t, samples[k] = timed(lambda: compiler.compile(sources, wants, k))
            times[k].append(t)
        if after_round:
            after_round({name: ts[-1] for name, ts in times.items()}, samples)
    return {name: tuple(statistics.median(t[i] for t in ts) for i in (0, 1)) for name, ts in times.items()}, samples


def print_times(title: str, times: dict, n: int) -> None:
    """One round's or the medians' (wall, CPU) seconds per compiler, as candidates/s and ratios."""
    (trad, trad_cpu) = times["traditional"]
    print(f"{title} (wall; CPU: user + system of every thread):")
    print(f"  {'traditional compile_batch':<28}{trad:10.3f} s wall {n / trad:10.1f} candidates/s   "
          f"{trad_cpu:10.3f} s CPU {n / trad_cpu:10.1f} candidates/CPU-s")  # fmt: skip
    for k in (k for k in times if k != "traditional"):
        t, cpu = times[k]
        print(f"  {f'neural k = {k}':<28}{t:10.3f} s wall {n / t:10.1f} candidates/s   {cpu:10.3f} s CPU "
              f"{n / cpu:10.1f} candidates/CPU-s   neural / traditional speed: {trad / t:.5f}x wall, "
              f"{trad_cpu / cpu:.5f}x CPU", flush=True)  # fmt: skip


def print_bands(held: list, samples: list, k: int) -> None:
    print(f"p_correct per eq. 6 band, k = {k}, held-out programs (faithful on 8 inputs):")
    print(f"  {'band':<9}{'levels':<20}{'programs':>9}{'samples':>9}{'p_correct':>11}{'k_99':>7}"
          f"{'eq.7':>8}{'measured':>10}")  # fmt: skip
    for band, levels, n, m, p, k99, eq7, measured in bands(held, samples, k):
        print(f"  {band:<9}{levels:<20}{n:>9}{m:>9}{p:>11.3f}{'inf' if k99 is None else k99:>7}"
              f"{eq7:>8.3f}{measured:>10.3f}", flush=True)  # fmt: skip


def bands(held: list, samples: list, k: int) -> list[tuple]:
    """Per eq. 6 band: (band, levels, programs, samples, p_correct, k_99, eq. 7, measured)."""
    from gpucc.neural.data import CURRICULUM
    from gpucc.neural.evaluate import judge

    units = [[s.unit if s.valid else None for s in ss] if not isinstance(ss, str) else [None] * k for ss in samples]
    verdicts = judge([e.pair for e in held for _ in range(k)], [u for us in units for u in us])
    faithful = [[v.functional for v in verdicts[i * k : (i + 1) * k]] for i in range(len(held))]
    out = []
    for band, levels in BANDS.items():
        rows = [f for e, f in zip(held, faithful) if CURRICULUM[e.pair.level].name in levels]
        n = len(rows) * k
        p = sum(map(sum, rows)) / n if n else 0.0
        k99 = 1 if p >= 1 else None if p <= 0 else math.ceil(math.log(0.01) / math.log(1 - p))
        measured = sum(any(f) for f in rows) / len(rows) if rows else 0.0
        out.append((band, "+".join(levels), len(rows), n, p, k99, 1 - (1 - p) ** k, measured))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", default=None, help="default: the shipped one")
    ap.add_argument("--per-level", type=int, default=None, help="held-out programs per curriculum level (default all)")
    ap.add_argument("--no-train-filter", action="store_true", help="do not regenerate the training set to filter")
    ap.add_argument("--ks", default="1,16", help="samples per candidate, comma-separated (default 1,16)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)), help="torch threads (default: cores)")
    a = ap.parse_args(argv)
    import numba
    import torch

    from gpucc.neural.compile import NeuralCompiler

    ks = [int(k) for k in a.ks.split(",")]
    compiler = NeuralCompiler.load(a.checkpoint)
    torch.set_num_threads(a.threads)  # after load, which sets 1 for the plugin
    held = held_out(compiler.meta, a.per_level, not a.no_train_filter)
    examples = example_sources()
    sources = [e.pair.source for e in held] + examples
    compile_batch(sources)  # warm: numba's compile and cache
    print(f"sources: {len(held)} held-out programs + {len(examples)} examples/ candidates = {len(sources)}; "
          f"torch {torch.__version__} {torch.get_num_threads()} thread(s), numba {numba.get_num_threads()} thread(s), "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    took = sum(not isinstance(compiler.encodable(s), str) for s in sources)
    print(f"  the model takes {took} of them (the others: too long or tokens it was not trained on)")
    k, rounds = max(ks), []

    def after_round(times: dict, samples: dict) -> None:
        rounds.append(times)
        print_times(f"round {len(rounds)}, load average {os.getloadavg()[0]:.1f}", times, len(sources))
        if len(rounds) == 1:  # sampling is seeded: every round writes the same samples
            print_bands(held, samples[k][: len(held)], k)

    medians, _ = throughput(compiler, sources, ks, a.repeats, after_round)
    print_times(f"median of {a.repeats} side-by-side rounds", medians, len(sources))


if __name__ == "__main__":
    main()
