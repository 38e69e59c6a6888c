"""neural/checkpoint.py: the shipped checkpoint matches today's ISA; a checkpoint knows its
opcodes by name and facts, so opcodes added to the table keep it valid and a renamed or changed
one does not; loading maps its tokens to today's ids by spelling."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpucc.contract import isa as O
from gpucc.neural import checkpoint as ck
from gpucc.neural import tokenizer as tk


def test_the_shipped_checkpoint_matches_the_isa():
    """Fails when an opcode the shipped model writes was renamed or changed: retrain it
    (python -m gpucc.neural.train, see the README) and replace neural/shipped_compiler.npz."""
    assert ck.SHIPPED.stat().st_size < 5_000_000
    meta = ck.read_meta(ck.SHIPPED)
    assert ck.mismatches(meta) == []
    assert {"RETURN", "LOAD_VAR", "JUMP_IF_FALSE"} <= set(meta["isa"])


def test_added_opcodes_keep_a_checkpoint_and_changed_ones_do_not():
    meta = {"format": tk.FORMAT, "isa": ck.isa_facts(["LOAD_VAR", "RETURN", "BINARY_ADD"])}
    assert ck.mismatches(meta) == []  # the table has many opcodes this one does not know
    renamed = {**meta, "isa": {**meta["isa"], "LOAD_LOCAL": meta["isa"].pop("LOAD_VAR")}}
    assert ck.mismatches(renamed) == ["LOAD_LOCAL is no longer in the ISA"]
    changed = {**meta, "isa": {**meta["isa"], "BINARY_ADD": ["NONE", 2, 2, 0, 1, -1]}}  # pushes two
    assert [m.split(":")[0] for m in ck.mismatches(changed)] == ["BINARY_ADD changed"]
    assert ck.mismatches({**meta, "format": tk.FORMAT - 1}) == [f"token format {tk.FORMAT - 1}, the tokenizer's is {tk.FORMAT}"]


def _tiny(tmp_path, vocab: list[str], ops: list[str]):
    torch = pytest.importorskip("torch", reason="torch is not installed (pip install '.[neural]')")
    from gpucc.neural.model import Compiler, NeuralConfig

    torch.manual_seed(0)
    model = Compiler(NeuralConfig(vocab_size=len(tk.VOCAB), block_size=16, n_layer=1, n_head=2, n_embd=8))
    path = tmp_path / "tiny.npz"
    ck.save(path, model, dict(config={**model.config.__dict__}, ops=ops))
    with np.load(path) as f:  # as if trained when the vocabulary was `vocab`: rows in its order
        arrays = {k: f[k] for k in f.files}
    meta = {**json.loads(str(arrays["meta"])), "vocab": vocab}
    order = [tk.ID[t] for t in vocab]
    for k in ("w:transformer.wte.weight", "w:lm_head.weight"):
        arrays[k] = arrays[k][order]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    return model, path


def test_loading_maps_tokens_by_spelling_and_masks_what_it_does_not_know(tmp_path):
    vocab = list(reversed(tk.VOCAB[:-3]))  # another order, and three tokens it never had
    model, path = _tiny(tmp_path, vocab, ["RETURN", "LOAD_VAR"])
    loaded, meta = ck.load(path)
    w, w0 = loaded.transformer.wte.weight, model.transformer.wte.weight.half().float()  # stored as float16
    assert (w[tk.ID["RETURN"]] == w0[tk.ID["RETURN"]]).all() and (w[tk.ID["FN"]] == w0[tk.ID["FN"]]).all()
    known = loaded.known.tolist()
    assert known[tk.ID["RETURN"]] and known[tk.ID["FN"]] and not known[tk.ID["BINARY_ADD"]]  # an op it never wrote
    assert not any(known[-3:])


def test_a_changed_opcode_is_refused_at_load(tmp_path):
    _, path = _tiny(tmp_path, list(tk.VOCAB), ["RETURN"])
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    meta["isa"]["RETURN"][1] = 2  # pops two
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(ValueError, match="retrain"):
        ck.load(path)
    assert O.BY_NAME["RETURN"].pops == 1


def test_weights_are_stored_as_float16_and_float32_checkpoints_still_load(tmp_path):
    model, path = _tiny(tmp_path, list(tk.VOCAB), ["RETURN"])
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    assert {a.dtype for k, a in arrays.items() if k.startswith("w:")} == {np.dtype(np.float16)}
    loaded, _ = ck.load(path)
    w = model.transformer.h[0].attn.c_attn.weight
    assert (loaded.transformer.h[0].attn.c_attn.weight == w.half().float()).all()
    assert (loaded.transformer.h[0].attn.c_attn.weight - w).abs().max() <= 1e-3 * w.abs().max()
    np.savez(path, **{k: a.astype(np.float32) if k.startswith("w:") else a for k, a in arrays.items()})  # older
    older, _ = ck.load(path)
    assert (older.transformer.h[0].attn.c_attn.weight == loaded.transformer.h[0].attn.c_attn.weight).all()
