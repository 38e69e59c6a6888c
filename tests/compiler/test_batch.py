"""Batch compilation: many units in one launch behave exactly like each compiled alone."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gpucc.compiler import batch_layout, compile_batch, compile_source, errors
from gpucc.contract.image import Program
from gpucc.vm.verify import verify

ROOT = Path(__file__).resolve().parents[2]
GOOD = [
    "def f(a: int) -> int:\n    return a * 3000000000 + 1\n",
    "def gcd(a: int, b: int) -> int:\n    while b:\n        a, b = {b: a}, a % b\n    return a\n",  # dicts: bad
    "def fib(n: int) -> int:\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "def g(x: int) -> bool:\n    return 0 < x < 10 and x != 5\n\ndef s(x: int) -> int:\n    ...\n",
    "def h(s: str) -> list[str]:\n    return (s.upper() + 'x\\u00e9' * 3 + 'x\\u00e9').split('x', 1)\n",
]
BAD = [
    "",
    "def f() -> int:\n    return y\n",
    "def f(x: int) -> int:\n    return x / 2\n",
    "def f(x: int) -> int:\n    if x:\n        return 1\n    return x < 1\n",
    "def f(x: int) -> int:\n  return x $ 1\n",
    "def f(x: int) -> int:\n    return 99999999999999999999\n",
    "class A:\n    pass\n",
]

UNIT_FIELDS = ("code", "lines", "consts")
FUNC_FIELDS = (
    "func_entry", "func_nparams", "func_nlocals", "func_max_stack", "func_ret_type",
    "func_param_types", "func_is_import", "func_name_start", "func_name_end",
)  # fmt: skip


def unit_view(b, u: int) -> dict:
    """Everything the batch holds about unit u, unit-relative."""
    out = {
        "error": (int(b.error_code[u]), int(b.error_start[u]), int(b.error_end[u]), int(b.error_arg[u])),
        "code": b.code[b.code_start[u] : b.code_start[u + 1]].tolist(),
        "lines": b.lines[b.code_start[u] : b.code_start[u + 1]].tolist(),
        "consts": b.consts[b.const_start[u] : b.const_start[u + 1]].tolist(),
    }
    for name in FUNC_FIELDS:
        out[name] = getattr(b, name)[b.func_start[u] : b.func_start[u + 1]].tolist()
    return out


def mixed_sources(n: int) -> list[str]:
    pool = GOOD + BAD
    return [pool[(i * 7) % len(pool)] for i in range(n)]


def test_batch_equals_units_compiled_alone():
    sources = mixed_sources(60)
    together = compile_batch(sources)
    assert len(together) == 60
    for u, src in enumerate(sources):
        assert unit_view(together, u) == unit_view(compile_source(src), 0), src


def test_bad_units_have_nothing_and_good_units_are_untouched():
    b = compile_batch(BAD + GOOD + BAD)
    n_bad = len(BAD)
    for u in range(len(b)):
        bad = u < n_bad or u >= n_bad + len(GOOD)
        expect_ok = not bad and u != n_bad + 1  # GOOD[1] uses a dict
        assert b.ok(u) == expect_ok, b.sources[u]
        if not b.ok(u):
            assert b.code_start[u] == b.code_start[u + 1] and b.func_start[u] == b.func_start[u + 1]
            assert b.const_start[u] == b.const_start[u + 1]
            assert isinstance(b.error(u), errors.CompileError)
        else:
            assert b.error(u) is None
    program = Program.from_batch(b)
    assert program.n_units == len(b)


def test_error_spans_are_unit_relative():
    sources = ["def ok() -> int:\n    return 1\n"] * 3 + ["# café\ndef f() -> int:\n    return zz\n"]
    err = compile_batch(sources).error(3, "c.py")
    assert (err.line, err.col, err.code) == (3, 12, errors.E_UNDEFINED_NAME)
    assert err.format() == "c.py:3:12: error: name 'zz' is not defined\n        return zz\n               ^"


def test_function_names_and_imports():
    b = compile_batch([GOOD[3], GOOD[0]])
    assert b.function_names(0) == ["g", "s"] and b.function_names(1) == ["f"]
    assert b.func_is_import.tolist() == [0, 1, 0]


def test_empty_batch_and_backend_names():
    b = compile_batch([])
    assert len(b) == 0 and b.code.shape == (0, 2) and b.func_start.tolist() == [0]
    with pytest.raises(ValueError, match="valid backends: cpu"):
        compile_batch(GOOD, backend="tpu")


def test_chunked_launches_give_the_same_result(monkeypatch):
    sources = mixed_sources(25)
    whole = compile_batch(sources)
    monkeypatch.setattr(batch_layout, "CHUNK_INSTRUCTIONS", 600)
    chunks = list(batch_layout.chunks([s.encode() for s in sources]))
    assert len(chunks) > 3
    parts = compile_batch(sources)
    for u in range(len(sources)):
        assert unit_view(parts, u) == unit_view(whole, u)


def run_plain_python(sources: list[str], tmp_path) -> dict:
    """compile_batch with NUMBA_DISABLE_JIT=1 (the kernel bodies as plain Python, where an
    out-of-range index raises) in a subprocess; returns the CompiledBatch's fields."""
    src_file = tmp_path / "sources.pkl"
    src_file.write_bytes(pickle.dumps(sources))
    script = (
        "import pickle, sys\nfrom gpucc.compiler import compile_batch\n"
        "b = compile_batch(pickle.load(open(sys.argv[1], 'rb')))\n"
        "sys.stdout.buffer.write(pickle.dumps(b.__dict__))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script, str(src_file)], cwd=ROOT, env=env, capture_output=True)
    assert out.returncode == 0, out.stderr.decode()[-3000:]
    return pickle.loads(out.stdout)


def assert_same_arrays(plain: dict, jitted: dict) -> None:
    assert plain.keys() == jitted.keys()
    for key, value in jitted.items():
        if isinstance(value, np.ndarray):
            assert plain[key].dtype == value.dtype, key
            assert np.array_equal(plain[key], value), key


def test_plain_python_run_matches_the_jitted_one(tmp_path):
    """One source, several targets: the kernel bodies run as plain Python give the same arrays."""
    sources = mixed_sources(11) + [p.read_text() for p in sorted((ROOT / "tests/golden").glob("*.py"))]
    assert_same_arrays(run_plain_python(sources, tmp_path), compile_batch(sources).__dict__)


def _mutants(seed: int, n: int) -> list[str]:
    """Programs near valid ones: lines dropped, duplicated, swapped or re-indented, tokens
    replaced.  Whatever comes out, the compiler must answer with an error or valid code."""
    rng = random.Random(seed)
    base = [p.read_text() for p in sorted((ROOT / "tests/golden").glob("*.py"))] + GOOD
    words = ["x", "n", "i", "True", "None", "0", "-1", "3000000000", "(", ")", ":", "+", "<", "and", "not",
             "return", "break", "continue", "while", "for", "range", "if", "else", "pass", "...", "f(1)"]  # fmt: skip
    out = []
    for _ in range(n):
        lines = rng.choice(base).splitlines()
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            k = rng.randrange(5)
            if k == 0:
                del lines[i]
            elif k == 1:
                lines.insert(i, lines[i])
            elif k == 2:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif k == 3:
                lines[i] = "    " + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
            else:
                toks = lines[i].split(" ")
                toks[rng.randrange(len(toks))] = rng.choice(words)
                lines[i] = " ".join(toks)
            if not lines:
                lines = ["def f() -> int:", "    return 0"]
        out.append("\n".join(lines) + "\n")
    return out


def test_mutated_programs_give_errors_or_verified_code(tmp_path):
    sources = _mutants(seed=1, n=400)
    b = compile_batch(sources)
    for u, src in enumerate(sources):
        if not b.ok(u):
            assert 0 < b.error_code[u] < len(errors.NAMES)
            assert 0 <= b.error_start[u] <= b.error_end[u] <= len(src.encode())
            b.error(u).format()
    assert 20 < sum(b.ok(u) for u in range(len(b))) < len(b)  # both outcomes are exercised
    assert verify(Program.from_batch(b)) == []
    assert_same_arrays(run_plain_python(sources[:150], tmp_path), compile_batch(sources[:150]).__dict__)


@pytest.mark.parametrize("literal", ["{}.5", "{}e1", "{}"])
def test_a_unit_gets_room_for_every_constant_its_literals_can_make(literal):
    """The launch sizes each unit's constant pool from its bytes (compiler/limits.py
    const_capacity): 300 distinct float literals of 3-5 bytes, or ints too wide for an
    immediate, all fit."""
    values = [literal.format(i + 1) if literal != "{}" else str(3_000_000_000 + i) for i in range(300)]
    src = "def f() -> float:\n    return " + " + ".join(values) + "\n"
    batch = compile_batch([src, "def g() -> str:\n    return 'x' + \"y\"\n"])
    assert batch.ok(0) and batch.ok(1), batch.error(0, "f.py")
    assert len(set(batch.consts.tolist())) >= 300
