"""Train the neural compiler from scratch on generated (source, bytecode) pairs, then measure it.

    python -m gpucc.neural.train --config small --seed 1 --out neural-small.npz

One command: makes the pairs (neural/data.py, seed `seed` for training and `seed + 1` for the
held-out set, minus any held-out program whose tokens also occur in training), trains with the
curriculum (the first levels alone at first, every trained level by the end), then decodes the
held-out programs greedily and prints, per curriculum level: exact match (the traditional
compiler's tokens), valid (decoded and passed vm.verify) and functional (the VM gives the same
outcome as the traditional bytecode on every input, neural/evaluate.py).  Levels past the
trained ones are evaluated too: beyond the training lengths.  Writes the checkpoint: config,
weights, vocabulary, the ISA facts of its opcodes and the figures (neural/checkpoint.py).
Reproducible by seed (one torch thread count per run).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import asdict, dataclass, field, replace

import torch
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from gpucc.compiler.lexer import LexError
from gpucc.contract import isa as O
from gpucc.neural import checkpoint
from gpucc.neural import tokenizer as tk
from gpucc.neural.data import CURRICULUM, Pair, make_pairs
from gpucc.neural.evaluate import judge
from gpucc.neural.model import Compiler, NeuralConfig


@dataclass
class TrainConfig:
    model: dict
    train_levels: int  # curriculum levels trained on: 0 .. train_levels - 1, unless `levels` names them
    train_per_level: int
    eval_per_level: int  # held-out programs per level (every level of CURRICULUM)
    steps: int
    batch_size: int = 32
    lr: float = 1e-3
    warmup: int = 100
    weight_decay: float = 0.1
    stages: list[float] = field(default_factory=lambda: [0.0, 0.15, 0.35])  # step share where trained level k joins
    levels: list[int] = field(default_factory=list)  # the curriculum levels trained on, when not 0 .. train_levels - 1
    level_weights: list[float] = field(default_factory=list)  # how often each joined level is drawn (default equal)
    bf16: bool = False  # matmuls in bfloat16 (torch.autocast; weights stay float32): 1.4x per step on an AVX512-BF16 CPU
    ema: float = 0.0  # > 0: the model written is the exponential moving average of the weights at this decay


def trained(cfg: TrainConfig) -> list[int]:
    """The curriculum levels a config trains on, in the order they join."""
    return list(cfg.levels) or list(range(cfg.train_levels))


CONFIGS = {
    # the loss-falls test: seconds
    "tiny": TrainConfig(model=dict(n_layer=1, n_head=2, n_embd=32, block_size=160), train_levels=1,
                        train_per_level=64, eval_per_level=8, steps=40, batch_size=16, lr=3e-3, warmup=5),
    # the first measurement (README): about 10 minutes on one thread of a shared 2-core machine
    "first": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=96, block_size=192), train_levels=2,
                         train_per_level=6000, eval_per_level=60, steps=900, batch_size=24, lr=2e-3, warmup=50,
                         stages=[0.0, 0.3]),
    # a short experiment: the same model, more data, batches of similar lengths
    "quick": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=96, block_size=192), train_levels=2,
                         train_per_level=20000, eval_per_level=100, steps=1000, batch_size=32, lr=2e-3, warmup=50,
                         stages=[0.0, 0.3]),
    # the shipped checkpoint: about 25 minutes on one thread of the shared 2-core machine
    "small": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=128, block_size=192), train_levels=2,
                         train_per_level=40000, eval_per_level=100, steps=2600, batch_size=32, lr=2e-3, warmup=100,
                         stages=[0.0, 0.2]),
    # the same model trained three times as long on more pairs: about an hour on one idle core
    "long": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=128, block_size=192), train_levels=2,
                        train_per_level=100000, eval_per_level=100, steps=8000, batch_size=32, lr=2e-3, warmup=200,
                        stages=[0.0, 0.2]),
    # twice "long": a measurement of where more steps lead
    "longer": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=128, block_size=192), train_levels=2,
                          train_per_level=100000, eval_per_level=100, steps=16000, batch_size=32, lr=2e-3, warmup=200,
                          stages=[0.0, 0.2]),
    # a model three times "long"'s size on its levels and data: about an hour on one idle core
    "wide": TrainConfig(model=dict(n_layer=4, n_head=6, n_embd=192, block_size=192), train_levels=2,
                        train_per_level=100000, eval_per_level=100, steps=10000, batch_size=32, lr=1.5e-3,
                        warmup=300, stages=[0.0, 0.2]),
    # "wide" in one hour of this 2-core machine (--threads 2): bfloat16 matmuls and two threads make a
    # step 2x faster than float32 on one; the two-statement level drawn twice as often; 200 held-out
    # programs per level (was 100: 80 two-statement programs measured 85% +- 4 points)
    "hour": TrainConfig(model=dict(n_layer=4, n_head=6, n_embd=192, block_size=192), train_levels=2,
                        train_per_level=100000, eval_per_level=200, steps=20000, batch_size=32, lr=1.5e-3,
                        warmup=300, stages=[0.0, 0.2], level_weights=[1.0, 2.0], bf16=True, ema=0.999),
    # the same model on the old two levels and the drawn-signature ones (4 x 100,000 pairs): about an
    # hour on one idle core (timed at --threads 1 under load: 0.53 s per step wall, 0.17 s CPU; 20,000
    # pairs took ~9 CPU-seconds to make, so 400,000 ~3 minutes)
    "signatures": TrainConfig(model=dict(n_layer=3, n_head=4, n_embd=128, block_size=192), train_levels=4,
                              levels=[0, 1, 4, 5], train_per_level=100000, eval_per_level=100, steps=18000,
                              batch_size=32, lr=2e-3, warmup=200, stages=[0.0, 0.1, 0.2, 0.3]),
    # the loss-falls test on the drawn-signature levels: seconds
    "tiny-sig": TrainConfig(model=dict(n_layer=1, n_head=2, n_embd=32, block_size=160), train_levels=2,
                            levels=[0, 4], train_per_level=64, eval_per_level=8, steps=40, batch_size=16, lr=3e-3,
                            warmup=5, stages=[0.0, 0.0]),
}  # fmt: skip


@dataclass
class Example:
    pair: Pair
    src: tk.Source
    target: list[str]  # the traditional bytecode's tokens
    prompt: list[int]  # source ids + <sep>


def encode(pairs: list[Pair], block_size: int) -> tuple[list[Example], int]:
    """The pairs that fit the tokenizer and the block -> (examples, how many did not)."""
    out = []
    for p in pairs:
        try:
            src = tk.encode_source(p.source)
            target = tk.encode_unit(p.unit, src)
        except (tk.Unencodable, LexError):
            continue
        prompt = tk.ids(list(src.tokens)) + [tk.SEP_ID]
        if len(prompt) + len(target) + 1 <= block_size:
            out.append(Example(p, src, target, prompt))
    return out, len(pairs) - len(out)


def batch(examples: list[Example]) -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs (B, T) and targets (B, T): the loss is taken on the bytecode and <eos> only."""
    seqs = [e.prompt + tk.ids(e.target) + [tk.EOS_ID] for e in examples]
    T = max(len(s) for s in seqs) - 1
    x = torch.full((len(seqs), T), tk.PAD_ID, dtype=torch.long)  # (B, T)
    y = torch.full((len(seqs), T), -1, dtype=torch.long)  # (B, T)
    for b, (e, s) in enumerate(zip(examples, seqs)):
        x[b, : len(s) - 1] = torch.tensor(s[:-1])
        y[b, len(e.prompt) - 1 : len(s) - 1] = torch.tensor(s[len(e.prompt) :])
    return x, y


def similar_lengths(pool: list[Example], n: int, r: random.Random) -> list[Example]:
    """n examples of about the same length (pool sorted by length): less padding per batch."""
    start = r.randrange(max(1, len(pool) - 4 * n))
    return r.sample(pool[start : start + 4 * n], min(n, len(pool)))


def draw_level(cfg: TrainConfig, joined: list[int], r: random.Random) -> int:
    """The level of the next batch: one of the joined ones (indices into trained(cfg)), by weight."""
    if not cfg.level_weights:
        return r.choice(joined)
    return r.choices(joined, [cfg.level_weights[k] for k in joined])[0]


def learning_rate(cfg: TrainConfig, step: int) -> float:
    if step < cfg.warmup:
        return cfg.lr * (step + 1) / cfg.warmup
    progress = (step - cfg.warmup) / max(1, cfg.steps - cfg.warmup)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def datasets(cfg: TrainConfig, seed: int, log=print) -> tuple[list[Example], list[Example]]:
    """(training examples, held-out examples whose source tokens are not also in training)."""
    block_size = cfg.model["block_size"]
    pairs, failed = make_pairs(seed, {k: cfg.train_per_level for k in trained(cfg)})
    examples, dropped = encode(pairs, block_size)
    held, held_failed = make_pairs(seed + 1, {k: cfg.eval_per_level for k in range(len(CURRICULUM))})
    held, held_dropped = encode(held, block_size)
    seen = {tuple(e.src.tokens) for e in examples}
    fresh = [e for e in held if tuple(e.src.tokens) not in seen]
    log(f"data: {len(examples)} training pairs ({failed} did not compile, {dropped} too long or unencodable); "
        f"{len(fresh)} held out ({len(held) - len(fresh)} also in training, {held_failed + held_dropped} dropped)")
    return examples, fresh


def train(cfg: TrainConfig, seed: int, log=print,
          last=None) -> tuple[Compiler, list[Example], list[float], list[Example]]:
    """Trains a model -> (model, held-out examples, loss per step, training examples).  With
    cfg.ema the model is the weights' moving average (torch's AveragedModel), and the last step's
    weights go to `last(model)` when given."""
    torch.manual_seed(seed)
    examples, fresh = datasets(cfg, seed, log)
    mconf = NeuralConfig(vocab_size=len(tk.VOCAB), **cfg.model)
    length = lambda e: len(e.prompt) + len(e.target)  # noqa: E731
    by_level = [sorted((e for e in examples if e.pair.level == k), key=length) for k in trained(cfg)]
    model = Compiler(mconf)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=cfg.weight_decay)
    averaged = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(cfg.ema)) if cfg.ema else None
    r, losses, t0 = random.Random(seed), [], time.time()
    model.train()
    for step in range(cfg.steps):
        joined = [k for k, start in enumerate(cfg.stages[: len(by_level)]) if step >= start * cfg.steps and by_level[k]]
        x, y = batch(similar_lengths(by_level[draw_level(cfg, joined, r)], cfg.batch_size, r))
        for g in opt.param_groups:
            g["lr"] = learning_rate(cfg, step)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.bf16):
            _, loss = model(x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if averaged is not None:
            averaged.update_parameters(model)
        losses.append(loss.item())
        if step % 100 == 0 or step == cfg.steps - 1:
            levels = [trained(cfg)[k] for k in joined]
            log(f"step {step:5d}  loss {loss.item():.4f}  levels {levels}  {time.time() - t0:.0f}s")
    if averaged is None:
        return model, fresh, losses, examples
    if last is not None:
        last(model)
    return averaged.module, fresh, losses, examples


def measure(model: Compiler, held: list[Example], chunk: int = 64) -> dict[str, dict]:
    """Greedy decoding of every held-out example (at most twice its target's length plus 8
    tokens) -> per curriculum level: n, mean source tokens, exact / valid / functional counts."""
    model.eval()
    order = sorted(range(len(held)), key=lambda i: len(held[i].prompt))  # similar lengths per chunk
    written: list[list[int]] = [[] for _ in held]
    for c in range(0, len(order), chunk):
        part = order[c : c + chunk]
        longest = max(len(held[i].target) for i in part)
        for i, ids in zip(part, model.greedy([held[i].prompt for i in part], tk.EOS_ID, tk.PAD_ID, 2 * longest + 8)):
            written[i] = ids
    units = []
    for e, ids in zip(held, written):
        try:
            units.append(tk.decode_unit(tk.tokens(ids), e.src))
        except tk.DecodeError:
            units.append(None)
    verdicts = judge([e.pair for e in held], units)
    figures = {}
    for k, level in enumerate(CURRICULUM):
        rows = [(e, ids, v) for e, ids, v in zip(held, written, verdicts) if e.pair.level == k]
        figures[level.name] = dict(
            n=len(rows), src_tokens=sum(len(e.src.tokens) for e, _, _ in rows) / max(1, len(rows)),
            exact=sum(tk.tokens(ids) == e.target for e, ids, _ in rows), valid=sum(v.valid for _, _, v in rows),
            functional=sum(v.functional for _, _, v in rows),
        )  # fmt: skip
    return figures


def report(figures: dict[str, dict], levels: list[int]) -> str:
    lines = [f"{'level':<18}{'trained':>8}{'n':>6}{'src tok':>9}{'exact':>8}{'valid':>8}{'functional':>12}"]
    for k, (name, f) in enumerate(figures.items()):
        pct = lambda c: f"{100 * c / f['n']:.1f}%" if f["n"] else "-"  # noqa: E731
        lines.append(f"{name:<18}{'yes' if k in levels else 'no':>8}{f['n']:>6}{f['src_tokens']:>9.1f}"
                     f"{pct(f['exact']):>8}{pct(f['valid']):>8}{pct(f['functional']):>12}")  # fmt: skip
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m gpucc.neural.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", choices=sorted(CONFIGS), default="small")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (a fixed count keeps runs reproducible; on a busy machine 1 is fastest)")
    ap.add_argument("--out", default=None, help="checkpoint path (default neural-<config>.npz)")
    ap.add_argument("--steps", type=int, default=None, help="train this many steps instead (to time a config)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    cfg = CONFIGS[args.config] if args.steps is None else replace(CONFIGS[args.config], steps=args.steps)
    t0 = time.time()
    lasts = []
    model, held, losses, examples = train(cfg, args.seed, last=lasts.append)
    figures = measure(model, held)
    print(report(figures, trained(cfg)))
    for last in lasts:  # the same run without the weights' average, for comparison
        print("the last step's weights (not averaged):\n" + report(measure(last, held), trained(cfg)))
    print(f"total {time.time() - t0:.0f}s")
    out = args.out or f"neural-{args.config}.npz"
    ops = sorted({t for e in examples for t in e.target if t in O.BY_NAME})
    checkpoint.save(out, model, dict(config=asdict(model.config), train=asdict(cfg), seed=args.seed,
                                     figures=figures, ops=ops))  # fmt: skip
    print(f"checkpoint: {out}")


def evaluate_main(argv=None) -> None:
    """`gpucc neural eval CHECKPOINT`: the table training printed, measured again."""
    ap = argparse.ArgumentParser(prog="gpucc neural eval", description=evaluate_main.__doc__)
    ap.add_argument("checkpoint")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    model, meta = checkpoint.load(args.checkpoint)
    cfg = TrainConfig(**meta["train"])
    _, held = datasets(cfg, meta["seed"])
    print(report(measure(model, held), trained(cfg)))


if __name__ == "__main__":
    main()
