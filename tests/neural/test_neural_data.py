"""neural/data.py and the generator's Shape: (source, bytecode) pairs by curriculum level."""

from __future__ import annotations

import random
from dataclasses import replace

from gpucc.compiler import compile_batch
from gpucc.neural.bytecode import unit_code
from gpucc.neural.data import CURRICULUM, make_pairs, rename
from gpucc.neural.gen import FUZZ, ProgramGen
from gpucc.neural.tokenizer import encode_source


def test_the_fuzzers_shape_is_the_default_and_the_largest_level():
    assert ProgramGen(5).shape == FUZZ
    no_new_forms = replace(FUZZ, strs=False, structs=False, loop_else=False, iters=False, collections=False)
    assert no_new_forms == CURRICULUM[3].shape  # no strs, structs, loop else, modules, Counter yet
    assert ProgramGen(5).program() == ProgramGen(5, FUZZ).program()


def test_every_level_compiles_and_levels_grow(pairs):
    assert {p.level for p in pairs} == set(range(len(CURRICULUM)))
    sizes = [sum(len(encode_source(p.source).tokens) for p in pairs if p.level == k) / 30 for k in (0, 1, 2, 3)]
    assert sizes == sorted(sizes), sizes


def test_the_first_level_is_one_statement_and_a_return(pairs):
    for p in (p for p in pairs if p.level == 0):
        body = [line for line in p.source.splitlines()[1:] if line.strip() and '"""' not in line]
        assert len(body) <= 3, p.source  # a statement (or `if e: return e`) and maybe the return
        assert len(p.unit.functions) == 1 and p.params == ("int", "int", "bool", "float", "float")
        assert not any(word in p.source for word in ("for ", "while ", "xs", "ys"))


def test_pairs_are_deterministic_by_seed():
    a, b, c = make_pairs(3, {0: 5, 2: 5}), make_pairs(3, {0: 5, 2: 5}), make_pairs(4, {0: 5, 2: 5})
    assert a == b
    assert [p.source for p in a[0]] != [p.source for p in c[0]]


def test_renaming_keeps_the_bytecode_and_the_tokens(pairs):
    r = random.Random(0)
    sources = [p.source for p in pairs if p.level in (2, 3)][:20]
    renamed = [rename(s, r) for s in sources]
    assert all(a != b for a, b in zip(sources, renamed))
    batch = compile_batch(sources + renamed)
    n = len(sources)
    for u in range(n):
        assert batch.ok(u) and batch.ok(n + u), batch.error(n + u)
        assert unit_code(batch, u) == unit_code(batch, n + u)
        assert encode_source(sources[u]).tokens == encode_source(renamed[u]).tokens
