"""A trained neural compiler on disk, and whether it still fits today's ISA.

A checkpoint is one .npz: `meta` (JSON: model and training config, seed, the figures train.py
printed, the token vocabulary it was trained with, and the ISA facts of every opcode its
training targets used, the tokenizer's FORMAT) and one float16 array per weight (float32 in checkpoints written before
float16 was: both load; training and sampling run in float32).  Reading `meta` needs no torch.

The vocabulary is stored by token spelling, opcodes by NAME with the facts that give an
instruction its meaning for a model: operand kind, pops, pushes, keeps-on-jump, slot width and
immediate range.  The checkpoint matches the ISA while every opcode it knows still exists with
the same facts: opcodes added to the table do not invalidate it (the model never writes them),
a renamed or changed one does (retrain).  Loading maps every token to today's vocabulary by
spelling (so opcodes to today's numbers); tokens it does not know are never written, and a
source using one is not compiled.

SHIPPED is the package's own checkpoint (package data): `--gpucc-compiler neural` uses it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from gpucc.contract import isa as O
from gpucc.neural import tokenizer as tk

SHIPPED = Path(__file__).with_name("shipped_compiler.npz")


def op_facts(op: O.Op) -> list:
    return [O.OPERAND_KINDS[op.operand], op.pops, op.pushes, op.keeps, op.slot_width, op.imm_max]


def isa_facts(op_names) -> dict[str, list]:
    """name -> facts of the named opcodes (in table order)."""
    wanted = set(op_names)
    return {op.name: op_facts(op) for op in O.TABLE if op.name in wanted}


def mismatches(meta: dict) -> list[str]:
    """Why a checkpoint does not match today's ISA and tokenizer (empty: it matches)."""
    out = [] if meta.get("format") == tk.FORMAT else [f"token format {meta.get('format')}, the tokenizer's is {tk.FORMAT}"]
    for name, facts in meta["isa"].items():
        op = O.BY_NAME.get(name)
        if op is None:
            out.append(f"{name} is no longer in the ISA")
        elif op_facts(op) != facts:
            out.append(f"{name} changed: {facts} -> {op_facts(op)} (operand kind, pops, pushes, keeps, slot width, "
                       f"immediate max)")  # fmt: skip
    return out


def read_meta(path) -> dict:
    with np.load(path, allow_pickle=False) as f:
        return json.loads(str(f["meta"]))


def save(path, model, meta: dict) -> None:
    """model (model.Compiler) and `meta` (config, train, seed, figures, ops: the opcode names its
    training targets used) -> one .npz."""
    ops = meta.pop("ops")
    meta = {**meta, "format": tk.FORMAT, "vocab": list(tk.VOCAB), "isa": isa_facts(ops)}
    weights = {f"w:{k}": v.detach().half().numpy() for k, v in model.state_dict().items()}  # half the bytes
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **weights)


def known_tokens(meta: dict):
    """bool (len(tk.VOCAB),): today's tokens the checkpoint knows (an opcode: with its facts)."""
    ops = meta["isa"]
    return np.array([t in set(meta["vocab"]) and (t not in O.BY_NAME or t in ops) for t in tk.VOCAB])


def load(path=None):
    """A checkpoint (SHIPPED by default) -> (model.Compiler over today's vocabulary, meta);
    ValueError when it does not match the ISA.  Needs torch."""
    import torch

    from gpucc.neural.model import Compiler, NeuralConfig

    path = SHIPPED if path is None else path
    meta = read_meta(path)
    problems = mismatches(meta)
    if problems:
        raise ValueError(f"{path} does not match the ISA ({'; '.join(problems)}): retrain it "
                         "(python -m gpucc.neural.train)")  # fmt: skip
    with np.load(path, allow_pickle=False) as f:
        state = {k[2:]: torch.from_numpy(f[k]).float() for k in f.files if k.startswith("w:")}
    rows = [(tk.ID[t], i) for i, t in enumerate(meta["vocab"]) if t in tk.ID]  # today's id, its id
    for name in ("transformer.wte.weight", "lm_head.weight"):
        old = state[name]
        state[name] = torch.zeros(len(tk.VOCAB), old.shape[1])
        state[name][[a for a, _ in rows]] = old[[b for _, b in rows]]
    model = Compiler(NeuralConfig(**{**meta["config"], "vocab_size": len(tk.VOCAB)}))
    model.load_state_dict(state)
    model.known = torch.from_numpy(known_tokens(meta))
    return model.eval(), meta
