"""neural/sample.py: the grammar admits the traditional compiler's every output, random walks
under it decode, and k samples come back per source, reproducibly."""

from __future__ import annotations

import random

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install '.[neural]')")

from gpucc.neural import tokenizer as tk  # noqa: E402
from gpucc.neural.model import Compiler, NeuralConfig  # noqa: E402
from gpucc.neural.sample import Grammar, sample  # noqa: E402


def test_the_grammar_admits_every_compiled_unit(pairs):
    for p in pairs:
        src = tk.encode_source(p.source)
        g = Grammar(src)
        for t in tk.encode_unit(p.unit, src) + [tk.EOS]:
            assert g.allowed()[tk.ID[t]], (t, p.source)
            g.advance(t)


def test_random_walks_under_the_grammar_decode():
    two = tk.encode_source("def g(a: int) -> int:\n    return a\n\n\ndef f(b: int, c: int) -> int:\n    return g(b)\n")
    src = tk.Source(two.tokens, two.names, (("int", 100), ("int", 70000), ("float", 4612811918334230528)))
    r = random.Random(0)
    for _ in range(30):
        g, toks = Grammar(src), []
        while True:
            allowed = [tk.VOCAB[i] for i in g.allowed().nonzero().squeeze(1).tolist()]
            if tk.EOS in allowed and (r.random() < 0.3 or len(toks) > 120):
                break
            toks.append(r.choice([t for t in allowed if t != tk.EOS]))
            g.advance(toks[-1])
        tk.decode_unit(toks, src)  # DecodeError if the grammar let a malformed unit through


def test_k_samples_per_source_reproducibly(pairs):
    torch.manual_seed(0)
    model = Compiler(NeuralConfig(vocab_size=len(tk.VOCAB), block_size=128, n_layer=1, n_head=2, n_embd=16))
    sources = [tk.encode_source(p.source) for p in pairs if p.level == 0][:2]
    a = sample(model, sources, k=3, seed=5, max_new=20)
    assert [len(s) for s in a] == [3, 3] and all(len(t) <= 20 for s in a for t in s)
    assert a == sample(model, sources, k=3, seed=5, max_new=20)
    greedy = sample(model, sources, k=1, max_new=20)
    assert all(s[0][0] == tk.FN for s in greedy)
