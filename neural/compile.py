"""The neural compiler as a compiler: sources in, k bytecode samples per source out, each one
checked the way untrusted bytecode must be (what the plugin's `--gpucc-compiler neural` uses).

    compiler = NeuralCompiler.load()           # the shipped checkpoint (neural/checkpoint.py)
    samples = compiler.compile(sources, k=4)   # per source: k Sample, or why none was written

Sampling is sample.sample: one batched, grammar-constrained pass over every source's k rows
(k = 1 greedy, else temperature and nucleus).  A sample is `valid` when it decoded, has the
functions of the traditional compiler's unit for the same source with the same parameter
counts and return types (names and parameter types come from that front end: the bytecode has
none), and passes vm.verify on its own.  Only valid samples may run.

torch is imported lazily: `missing_torch()` says whether it is installed, without importing
it, so the plugin can stop with a clear message.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from gpucc.compiler.lexer import LexError
from gpucc.neural import tokenizer as tk
from gpucc.neural.bytecode import UnitCode, program_of
from gpucc.vm.verify import verify

NO_TORCH = ("the neural compiler needs torch, which is not installed: pip install 'pytest-gpucc[neural]' "
            "(or pip install torch)")  # fmt: skip
ROWS_PER_PASS = 256  # sample rows decoded together (a larger batch is cut into passes of this many)


def missing_torch() -> str | None:
    """NO_TORCH when torch cannot be imported, else None."""
    return NO_TORCH if importlib.util.find_spec("torch") is None else None


@dataclass(frozen=True)
class Sample:
    unit: UnitCode | None  # None: the tokens did not decode
    valid: bool
    problem: str = ""  # why it is not valid


def check(unit: UnitCode | None, want: UnitCode) -> str:
    """Why `unit` may not run in place of the traditional `want` ("" when it may)."""
    if unit is None:
        return "did not decode"
    if [(f.nparams, f.ret_type) for f in unit.functions] != [(f.nparams, f.ret_type) for f in want.functions]:
        return "other functions than the source's (count, parameters or return types)"
    problems = verify(program_of([unit]))
    return f"vm.verify: {problems[0]}" if problems else ""


class NeuralCompiler:
    def __init__(self, model, meta: dict):
        self.model, self.meta = model, meta

    @classmethod
    def load(cls, path=None) -> "NeuralCompiler":
        """The checkpoint at `path` (default: the shipped one); RuntimeError(NO_TORCH) without torch."""
        if missing_torch():
            raise RuntimeError(NO_TORCH)
        import torch

        from gpucc.neural.checkpoint import load

        torch.set_num_threads(1)
        return cls(*load(path))

    def encodable(self, source: str) -> tk.Source | str:
        """The source's tokens, or why this model cannot take it."""
        try:
            src = tk.encode_source(source)
        except (tk.Unencodable, LexError) as e:
            return f"the tokenizer cannot take it ({e})"
        unknown = sorted({t for t in src.tokens if not self.model.known[tk.ID[t]]})
        if unknown:
            return f"tokens the model was not trained on: {' '.join(unknown[:5])}"
        if len(src.tokens) + 16 > self.model.config.block_size:
            return f"{len(src.tokens)} source tokens: too long for the model's {self.model.config.block_size}"
        return src

    def compile(self, sources: list[str], wants: list[UnitCode], k: int, seed: int = 0) -> list[list[Sample] | str]:
        """k samples of each source (wants[i]: the traditional compiler's unit for sources[i]),
        or the reason the model cannot take it."""
        from gpucc.neural.sample import sample

        encoded = [self.encodable(s) for s in sources]
        todo = [i for i, e in enumerate(encoded) if not isinstance(e, str)]
        out: list[list[Sample] | str] = [e if isinstance(e, str) else [] for e in encoded]
        per_pass = max(1, ROWS_PER_PASS // k)
        for c in range(0, len(todo), per_pass):
            part = todo[c : c + per_pass]
            for i, samples in zip(part, sample(self.model, [encoded[i] for i in part], k, seed=seed + c)):
                for toks in samples:
                    try:
                        unit = tk.decode_unit(toks, encoded[i])
                    except tk.DecodeError:
                        unit = None
                    problem = check(unit, wants[i])
                    out[i].append(Sample(unit, not problem, problem))
        return out
