"""The curriculum's drawn-signature levels (gen.Shape.signature): f takes 1-4 parameters of drawn
names and types and returns a drawn scalar type; deterministic by seed; every pair encodes."""

from __future__ import annotations

import hashlib
from collections import Counter

from gpucc.neural import tokenizer as tk
from gpucc.neural.data import CURRICULUM, make_pairs
from gpucc.neural.gen import ProgramGen

SIG_LEVELS = [k for k, level in enumerate(CURRICULUM) if level.shape.signature]


def test_the_old_levels_programs_are_unchanged():
    """The shipped checkpoint's figures refer to the programs of levels 0 and 1 (README): the
    drawn-signature levels are added, not made from those."""
    h = hashlib.sha256()
    for level in (0, 1):
        for seed in range(100):
            h.update(ProgramGen(seed, CURRICULUM[level].shape).program().source.encode())
    assert h.hexdigest()[:16] == "ff1a23ea830c02ad"
    assert SIG_LEVELS == [4, 5] and not any(CURRICULUM[k].shape.signature for k in range(4))


def test_signature_levels_are_deterministic_by_seed():
    a, b = make_pairs(11, {k: 40 for k in SIG_LEVELS}), make_pairs(11, {k: 40 for k in SIG_LEVELS})
    assert a == b and a[1] == 0  # every program compiles
    assert [p.source for p in a[0]] != [p.source for p in make_pairs(12, {k: 40 for k in SIG_LEVELS})[0]]


def test_signatures_vary_and_every_pair_encodes():
    pairs, failed = make_pairs(5, {k: 150 for k in SIG_LEVELS})
    assert failed == 0 and {p.level for p in pairs} == set(SIG_LEVELS)
    counts = Counter(len(p.params) for p in pairs)
    assert set(counts) == {1, 2, 3, 4}, counts
    assert {t for p in pairs for t in p.params} == {"int", "bool", "float", "list[int]"}
    heads = {p.source.split(")", 1)[0] for p in pairs}
    assert len(heads) > 0.9 * len(pairs)  # names drawn too
    returns = {p.source.split("-> ", 1)[1].split(":", 1)[0] for p in pairs}
    assert returns == {"int", "bool", "float"}  # scalars: evaluate.judge compares values
    for p in pairs:
        src = tk.encode_source(p.source)
        toks = tk.encode_unit(p.unit, src)
        assert tk.decode_unit(tk.tokens(tk.ids(toks)), src) == p.unit
        assert p.unit.functions[p.entry].nparams == len(p.params)
