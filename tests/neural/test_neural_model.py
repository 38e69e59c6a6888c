"""neural/model.py and train.py (torch): shapes, greedy decoding, a tiny training run whose loss
falls and whose held-out programs are measured."""

from __future__ import annotations

import dataclasses
import random

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (pip install '.[neural]')")

from gpucc.neural import tokenizer as tk  # noqa: E402
from gpucc.neural.data import CURRICULUM  # noqa: E402
from gpucc.neural.model import Compiler, NeuralConfig  # noqa: E402
from gpucc.neural.train import CONFIGS, draw_level, measure, report, train, trained  # noqa: E402


def test_forward_shapes_and_greedy_stops_at_the_block():
    torch.manual_seed(0)
    model = Compiler(NeuralConfig(vocab_size=len(tk.VOCAB), block_size=24, n_layer=1, n_head=2, n_embd=16))
    x = torch.randint(0, len(tk.VOCAB), (3, 10))
    logits, loss = model(x, x)
    assert logits.shape == (3, 10, len(tk.VOCAB)) and loss.item() > 0
    out = model.greedy([[1, 2, tk.SEP_ID], [4, 5, 6, 7, tk.SEP_ID]], tk.EOS_ID, tk.PAD_ID)
    assert all(len(o) <= 24 - n and tk.EOS_ID not in o for o, n in zip(out, (3, 5)))


def test_a_tiny_training_run_lowers_the_loss_and_is_measured():
    model, held, losses, _ = train(CONFIGS["tiny"], seed=0, log=lambda _: None)
    assert sum(losses[-5:]) / 5 < 0.75 * sum(losses[:5]) / 5, losses
    figures = measure(model, held)
    assert sum(f["n"] for f in figures.values()) == len(held) > 0
    assert all(f["exact"] <= f["functional"] <= f["valid"] <= f["n"] for f in figures.values())


def test_a_tiny_run_in_bfloat16_lowers_the_loss_and_computes_in_bfloat16():
    cfg = dataclasses.replace(CONFIGS["tiny"], bf16=True)
    _, _, losses, _ = train(cfg, seed=0, log=lambda _: None)
    assert sum(losses[-5:]) / 5 < 0.75 * sum(losses[:5]) / 5, losses
    _, _, float32_losses, _ = train(CONFIGS["tiny"], seed=0, log=lambda _: None)
    assert losses != float32_losses  # the same run in float32: the matmuls did change precision


def test_ema_writes_the_weights_moving_average_and_hands_over_the_last_ones():
    def run(decay):
        lasts = []
        model, _, losses, _ = train(dataclasses.replace(CONFIGS["tiny"], ema=decay), seed=0, log=lambda _: None,
                                    last=lasts.append)  # fmt: skip
        return model, lasts, losses

    averaged, lasts, losses = run(0.5)
    (last,) = lasts
    assert isinstance(averaged, Compiler) and averaged is not last
    assert any(not torch.equal(a, b) for a, b in zip(averaged.parameters(), last.parameters()))
    _, _, plain_losses, _ = train(CONFIGS["tiny"], seed=0, log=lambda _: None)
    assert losses == plain_losses  # averaging does not touch the training itself
    no_memory, lasts, _ = run(1e-12)  # decay ~0: the average is the last step's weights
    assert all(torch.allclose(a, b) for a, b in zip(no_memory.parameters(), lasts[0].parameters()))


def test_levels_are_drawn_by_their_weights():
    r = random.Random(0)
    equal = [draw_level(CONFIGS["tiny-sig"], [0, 1], r) for _ in range(4000)]
    weighted = [draw_level(CONFIGS["hour"], [0, 1], r) for _ in range(4000)]
    assert CONFIGS["hour"].level_weights == [1.0, 2.0]
    assert abs(equal.count(1) / 4000 - 1 / 2) < 0.03 and abs(weighted.count(1) / 4000 - 2 / 3) < 0.03
    assert {draw_level(CONFIGS["hour"], [0], r) for _ in range(50)} == {0}  # level 1 not joined yet


def test_the_key_value_cache_gives_the_full_forward_passes_logits():
    torch.manual_seed(0)
    model = Compiler(NeuralConfig(vocab_size=len(tk.VOCAB), block_size=32, n_layer=2, n_head=2, n_embd=16)).eval()
    prompts = [[5, 6, 7, tk.SEP_ID], [8, tk.SEP_ID], [9, 10, 11, 12, 13, tk.SEP_ID]]
    steps = []
    model.generate(prompts, lambda rows, logits: steps.append((rows, logits)) or logits.argmax(-1), tk.EOS_ID,
                   tk.PAD_ID, max_new=6)  # fmt: skip
    for b, p in enumerate(prompts):  # row b's sequence so far, recomputed without the cache
        seq = list(p)
        for rows, logits in steps:
            if b in rows.tolist():
                full, _ = model(torch.tensor([seq]))
                mine = logits[rows.tolist().index(b)]
                assert torch.allclose(full[0, -1], mine, atol=1e-5)
                seq.append(int(mine.argmax()))


def test_a_tiny_run_on_a_drawn_signature_level_trains_decodes_and_is_measured():
    cfg = CONFIGS["tiny-sig"]
    assert trained(cfg) == [0, 4] and trained(CONFIGS["tiny"]) == [0]
    assert trained(CONFIGS["signatures"]) == [0, 1, 4, 5]
    model, held, losses, examples = train(cfg, seed=0, log=lambda _: None)
    assert {e.pair.level for e in examples} == {0, 4}
    assert sum(losses[-5:]) / 5 < 0.75 * sum(losses[:5]) / 5, losses
    figures = measure(model, held)
    assert figures["sig-1-stmt"]["n"] > 0 and figures["sig-2-stmt-nest1"]["n"] > 0
    assert all(f["exact"] <= f["functional"] <= f["valid"] <= f["n"] for f in figures.values())
    assert ["sig-1-stmt", "yes"] in [line.split()[:2] for line in report(figures, trained(cfg)).splitlines()]


def test_sampling_the_trained_levels_only(tmp_path, capsys):
    """`python -m gpucc.neural.sample CKPT --trained-only` samples the held-out programs of the
    levels the checkpoint was trained on and no others (their rows show no programs)."""
    from gpucc.neural import sample
    from gpucc.neural import train as train_module

    out = tmp_path / "tiny.npz"
    train_module.main(["--config", "tiny", "--seed", "0", "--out", str(out)])
    capsys.readouterr()
    sample.main([str(out), "--k", "2", "--trained-only"])
    levels = {spec.name for spec in CURRICULUM}
    rows = {w[0]: w[1:] for w in map(str.split, capsys.readouterr().out.splitlines()) if w and w[0] in levels}
    assert set(rows) == levels
    assert int(rows["1-stmt"][0]) > 0 and int(rows["1-stmt"][1]) == 2 * int(rows["1-stmt"][0])
    assert all(int(r[0]) == 0 for name, r in rows.items() if name != "1-stmt")
