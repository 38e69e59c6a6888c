"""benchmarks/bench_neural.py: the side-by-side throughput rounds and the eq. 6 bands, with a
stand-in neural compiler whose samples are known (the real run: benchmarks/RESULTS.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from benchmarks import bench_neural
from gpucc.neural.compile import Sample
from gpucc.neural.data import CURRICULUM
from gpucc.neural.tokenizer import encode_source


@dataclass
class Held:  # what bands() reads of a train.Example
    pair: object


class StandIn:
    """Sample j of a source is the traditional unit when j < right[level], else does not decode."""

    def __init__(self, right: dict[int, int], levels: list[int]):
        self.right, self.levels, self.calls = right, levels, []

    def compile(self, sources, wants, k):
        self.calls.append(k)
        return [[Sample(w, True) if j < self.right[lv] else Sample(None, False, "did not decode") for j in range(k)]
                for w, lv in zip(wants, self.levels)]  # fmt: skip


def test_rounds_and_bands(pairs):
    held = [Held(p) for k in range(len(CURRICULUM)) for p in [p for p in pairs if p.level == k][:3]]
    for h in held:
        encode_source(h.pair.source)  # the generator's programs are the model's input
    compiler = StandIn({0: 4, 1: 1, 2: 0, 3: 0, 4: 0, 5: 0}, [h.pair.level for h in held])
    medians, samples = bench_neural.throughput(compiler, [h.pair.source for h in held], [1, 4], repeats=2)
    assert compiler.calls == [1, 4, 1, 4]  # side by side: traditional, k = 1, k = 4 in each round
    assert set(medians) == {"traditional", 1, 4} and all(w > 0 and c > 0 for w, c in medians.values())
    got = {b[0]: b[1:] for b in bench_neural.bands(held, samples[4], 4)}
    assert got["simple"] == ("1-stmt", 3, 12, 1.0, 1, 1.0, 1.0)
    band, n, m, p, k99, eq7, measured = got["complex"]
    assert (band, n, m, p, measured) == ("2-stmt-nest1", 3, 12, 0.25, 1.0)
    assert k99 == math.ceil(math.log(0.01) / math.log(0.75)) == 17 and eq7 == pytest.approx(1 - 0.75**4)
    assert got["rare"] == ("locals-nest2+fuzz", 6, 24, 0.0, None, 0.0, 0.0)


def test_example_sources_are_the_compiling_candidates():
    sources = bench_neural.example_sources()
    gcd = bench_neural.ROOT / "examples" / "gcd_candidates"
    assert (gcd / "euclid_mod.py").read_text() in sources  # compiles
    assert (gcd / "uses_numpy.py").read_text() not in sources  # a compile error (import numpy)
    assert sum("def collatz_steps" in s for s in sources) > len(list((gcd.parent / "collatz_candidates").iterdir()))  # + JSONL
    assert len(sources) >= 30
