"""k samples of bytecode per source in one batched pass, each step constrained to what the
bytecode's token grammar (neural/tokenizer.py) allows next.

    python -m gpucc.neural.sample neural-small.npz --k 16

measures a checkpoint (neural/train.py) on its held-out programs: per curriculum level the
samples that verify, that are functional (the estimate of p_correct) and the programs with a
functional sample among their k.

Sampling: temperature and nucleus (top-p); k = 1 is greedy.  The constraint (`Grammar`, one
per sample) follows the ISA table: a function starts with `FN` and its header; then come
opcodes (and `<label>` markers, each followed by an instruction); after an opcode exactly its
operand's fields by kind: a slot below the header's slot count (at most the compiler's
MAX_LOCALS; spelled V<base + slot>), an immediate inside its range (int32; a packed field's;
NEW_LIST's count, a float flag), as a small number or one of the source's literals, maybe
negated; a constant; a label seen before or the next new one; a comparison and two types.  A
`<label>` marker names a label jumped to and not yet defined, or the next new one.  A function
may end (`FN` or `<eos>`) only after an instruction and once every label it jumps to is
defined, and there are as many functions as the source has defs.  So every finished sample
decodes.  The stack depth is NOT constrained (the verifier finds those errors), and every
sample still goes through vm.verify before it may run.
"""

from __future__ import annotations

import argparse
import functools
from dataclasses import replace

import torch

from gpucc.compiler.limits import MAX_LOCALS, MAX_PARAMS
from gpucc.contract import isa as O
from gpucc.neural import tokenizer as tk
from gpucc.neural.checkpoint import load
from gpucc.neural.data import CURRICULUM
from gpucc.neural.evaluate import judge
from gpucc.neural.model import Compiler
from gpucc.neural.train import TrainConfig, datasets, trained

_V = len(tk.VOCAB)


def _ids(names) -> torch.Tensor:
    mask = torch.zeros(_V, dtype=torch.bool)
    mask[[tk.ID[n] for n in names]] = True
    return mask


@functools.lru_cache(maxsize=None)
def _numbers(lo: int, hi: int) -> torch.Tensor:
    """n<v> for lo <= v <= hi."""
    return _ids([f"n{v}" for v in range(max(lo, 0), min(hi, tk.SMALL - 1) + 1)])


@functools.lru_cache(maxsize=None)
def _names(lo: int, hi: int) -> torch.Tensor:
    """V<k> for lo <= k <= hi (a slot's spelling)."""
    return _ids([f"V{k}" for k in range(max(lo, 0), min(hi, tk.MAX_NAMES - 1) + 1)])


_TYPES = _ids(tk.TYPE_TOKENS)
_CMPS = _ids(tk.CMP_TOKENS)
_FN = _ids([tk.FN])
_INSTRUCTION = _ids([op.name for op in O.TABLE] + [tk.LABEL])  # an opcode, or a label marker before one
_EOS = _ids([tk.EOS])
INT32, INT64, FIELD16 = (-(2**31), 2**31 - 1), (-(2**63), 2**63 - 1), (O.FIELD_MIN, O.FIELD_MAX)
# a packed kind's immediate field: its range
_PACKED_IMM = {O.ARG_LOCAL_IMM: FIELD16, O.ARG_IMM_JUMP: FIELD16, O.ARG_LOCAL_IMM_JUMP: (-128, 127)}


def _fields(op: O.Op) -> list[tuple]:
    """What op's operand tokens must be, field by field: ("small", lo, hi), ("slot",),
    ("value", lo, hi) (an int in that range, maybe negated: NEG first), ("label",), ("cmp",),
    ("type",)."""
    out = []
    for kind in O.FIELDS.get(op.operand, (op.operand,)):
        if kind == O.ARG_LOCAL:
            out.append(("slot",))
        elif kind == O.ARG_FUNC:
            out.append(("func",))
        elif kind == O.ARG_IMM:
            rng = _PACKED_IMM.get(op.operand) or ((0, op.imm_max) if op.imm_max >= 0 else INT32)
            out.append(("value", *rng))
        elif kind == O.ARG_CONST:
            out.append(("value", *INT64))
        elif kind == O.ARG_JUMP:
            out.append(("label",))
        elif kind == O.ARG_TYPED_CMP:
            out += [("cmp",), ("type",), ("type",)]
    return out


_OPERANDS = {op.name: _fields(op) for op in O.TABLE}
_HEADER = [("small", 0, MAX_PARAMS), ("nlocals", 0, MAX_LOCALS), ("type",)]


@functools.lru_cache(maxsize=4096)
def _labels(ks: tuple[int, ...]) -> torch.Tensor:
    return _ids([f"J{k}" for k in ks if k < tk.MAX_LABELS])


class Grammar:
    """What may come next in one sample's bytecode tokens (`allowed`), advanced token by token."""

    def __init__(self, src: tk.Source):
        self.literals = src.literals
        self.bases = tk.slot_bases(src)  # per function: the placeholder its slot 0 is spelled with
        self.base = 0  # the current function's
        self.expect: list[tuple] = [("fn",)]  # what the next tokens must be, first to last
        self.nlocals = 0
        self.functions = 0  # FN tokens so far
        self.instructions = 0  # in the current function
        self.seen = 0  # labels of the current function so far (J0 .. J<seen - 1>)
        self.pending: set[int] = set()  # labels jumped to, not yet defined
        self.defined: set[int] = set()
        self._value_masks: dict[tuple, torch.Tensor] = {}

    def _values(self, lo: int, hi: int, negated: bool) -> torch.Tensor:
        """An int in [lo, hi]: a small number or a literal (their negation after NEG), or NEG."""
        key = (lo, hi, negated)
        if key not in self._value_masks:
            mask = _numbers(-hi, -lo) if negated else _numbers(lo, hi)
            literals = [f"L{k}" for k, (kind, v) in enumerate(self.literals)
                        if lo <= (tk.negated(kind, v) if negated else v) <= hi]  # fmt: skip
            self._value_masks[key] = mask | _ids(literals + ([tk.NEG] if lo < 0 and not negated else []))
        return self._value_masks[key]

    def allowed(self) -> torch.Tensor:
        """bool (V,): the ids that may come next (a shared mask: do not modify it)."""
        want = self.expect[0] if self.expect else ("body",)
        what = want[0]
        if what == "fn":
            return _FN
        if what in ("small", "nlocals"):
            return _numbers(want[1], want[2])
        if what == "func":  # a function of the unit: as many as the source has defs
            return _numbers(0, max(len(self.bases), 1) - 1)
        if what == "slot":
            return _names(self.base, self.base + max(self.nlocals, 1) - 1)
        if what in ("value", "negated"):
            return self._values(want[1], want[2], what == "negated")
        if what == "label":
            return _labels(tuple(range(self.seen + 1)))
        if what == "marker":
            return _labels(tuple(sorted(self.pending)) + (self.seen,))
        if what == "type":
            return _TYPES
        if what == "cmp":
            return _CMPS
        if what == "body" and self.instructions and not self.pending:  # the function may end
            return _INSTRUCTION | (_FN if self.functions < len(self.bases) else _EOS)  # a function per def
        return _INSTRUCTION

    def advance(self, token: str) -> None:
        want = self.expect.pop(0) if self.expect else ("body",)
        if token == tk.FN:
            self.base = self.bases[min(self.functions, len(self.bases) - 1)] if self.bases else 0
            self.functions += 1
            self.expect = list(_HEADER)
            self.instructions = self.seen = 0
            self.pending, self.defined = set(), set()
        elif want[0] == "nlocals":
            self.nlocals = int(token[1:])
        elif token == tk.NEG:
            self.expect.insert(0, ("negated", *want[1:]))
        elif want[0] in ("label", "marker"):
            k = int(token[1:])
            self.seen = max(self.seen, k + 1)
            if want[0] == "marker":
                self.pending.discard(k)
                self.defined.add(k)
            elif k not in self.defined:
                self.pending.add(k)
        elif token == tk.LABEL:
            self.expect = [("marker",), ("after_label",)]
        elif token in _OPERANDS:
            self.instructions += 1
            self.expect = list(_OPERANDS[token])


def _pick(logits: torch.Tensor, temperature: float, top_p: float, gen: torch.Generator) -> int:
    """One id from masked logits (V,): argmax at temperature 0, else nucleus sampling."""
    if temperature == 0:
        return int(logits.argmax())
    probs = torch.softmax(logits / temperature, dim=-1)  # (V,)
    sorted_p, order = probs.sort(descending=True)  # (V,), (V,)
    keep = sorted_p.cumsum(0) - sorted_p < top_p  # (V,) the smallest prefix reaching top_p
    sorted_p = torch.where(keep, sorted_p, torch.zeros_like(sorted_p))
    return int(order[torch.multinomial(sorted_p / sorted_p.sum(), 1, generator=gen)])


def sample(model: Compiler, sources: list[tk.Source], k: int = 1, temperature: float = 0.8, top_p: float = 0.95,
           seed: int = 0, max_new: int | None = None) -> list[list[list[str]]]:  # fmt: skip
    """k constrained samples per source (k = 1: greedy) in one batched pass -> per source its
    samples' bytecode tokens (decode each with tokenizer.decode_unit; a sample cut off by
    max_new or the block size does not decode)."""
    temperature = 0.0 if k == 1 else temperature
    prompts = [tk.ids(list(s.tokens)) + [tk.SEP_ID] for s in sources for _ in range(k)]
    grammars = [Grammar(s) for s in sources for _ in range(k)]
    gen = torch.Generator().manual_seed(seed)

    known = getattr(model, "known", torch.ones(_V, dtype=torch.bool))  # (V,) checkpoint.load's

    def choose(rows: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
        out = []
        for row, row_logits in zip(rows.tolist(), logits):  # (V,) each
            masked = row_logits.masked_fill(~(grammars[row].allowed() & known), float("-inf"))
            nxt = _pick(masked, temperature, top_p, gen)
            grammars[row].advance(tk.VOCAB[nxt])
            out.append(nxt)
        return torch.tensor(out)

    written = model.generate(prompts, choose, tk.EOS_ID, tk.PAD_ID, max_new)
    return [[tk.tokens(written[i * k + j]) for j in range(k)] for i in range(len(sources))]


def measure(model: Compiler, held: list, k: int, temperature: float, top_p: float, chunk: int = 8) -> dict[str, dict]:
    """k constrained samples of every held-out example (train.Example) -> per curriculum level:
    programs, samples exact (the traditional compiler's tokens), samples valid, samples functional
    (the estimate of p_correct) and programs with a functional sample among their k."""
    units, exact = [], []
    for c in range(0, len(held), chunk):
        part = held[c : c + chunk]
        longest = max(len(e.target) for e in part)
        for samples, e in zip(sample(model, [e.src for e in part], k, temperature, top_p, seed=c,
                                     max_new=2 * longest + 8), part):  # fmt: skip
            for toks in samples:
                exact.append(toks == e.target)
                try:
                    units.append(tk.decode_unit(toks, e.src))
                except tk.DecodeError:  # cut off by max_new
                    units.append(None)
    verdicts = judge([e.pair for e in held for _ in range(k)], units)
    figures = {}
    for level, spec in enumerate(CURRICULUM):
        rows = [i for i, e in enumerate(held) if e.pair.level == level]
        mine = [verdicts[i * k : (i + 1) * k] for i in rows]
        figures[spec.name] = dict(
            n=len(rows), samples=len(rows) * k, exact=sum(sum(exact[i * k : (i + 1) * k]) for i in rows),
            valid=sum(v.valid for vs in mine for v in vs),
            functional=sum(v.functional for vs in mine for v in vs),
            solved=sum(any(v.functional for v in vs) for vs in mine),
        )  # fmt: skip
    return figures


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m gpucc.neural.sample",
                                 description="k constrained samples of a checkpoint's held-out programs, measured")  # fmt: skip
    ap.add_argument("checkpoint")
    ap.add_argument("--k", type=int, default=16)
    ap.add_argument("--temperature", type=float, default=0.8)
    ap.add_argument("--top-p", type=float, default=0.95)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--trained-only", action="store_true", help="only the levels the checkpoint was trained on")
    ap.add_argument("--held-out", type=int, default=None, metavar="N",
                    help="draw N held-out programs per level (default: as many as training measured on)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    model, meta = load(args.checkpoint)
    cfg = TrainConfig(**meta["train"])
    if args.held_out is not None:
        cfg = replace(cfg, eval_per_level=args.held_out)
    _, held = datasets(cfg, meta["seed"])
    if args.trained_only:
        held = [e for e in held if e.pair.level in trained(cfg)]
    figures = measure(model, held, args.k, args.temperature, args.top_p)
    print(f"{'level':<18}{'n':>6}{'samples':>9}{'exact':>8}{'valid':>8}{'functional':>12}{f'solved@{args.k}':>11}")
    for name, f in figures.items():
        pct = lambda c, n: f"{100 * c / n:.1f}%" if n else "-"  # noqa: E731
        print(f"{name:<18}{f['n']:>6}{f['samples']:>9}{pct(f['exact'], f['samples']):>8}"
              f"{pct(f['valid'], f['samples']):>8}{pct(f['functional'], f['samples']):>12}"
              f"{pct(f['solved'], f['n']):>11}")  # fmt: skip


if __name__ == "__main__":
    main()
