"""The neural compiler's model: one small decoder-only transformer (nanoGPT's GPT) that reads
a source's tokens as a prefix and writes its bytecode's tokens after `<sep>`.

torch is imported here (and in train.py), never by the plugin: `pip install ".[neural]"`.
Shapes: B batch, T sequence length, C n_embd, H heads, V vocab_size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class NeuralConfig:
    vocab_size: int
    block_size: int = 384  # longest source + bytecode sequence
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    dropout: float = 0.0
    bias: bool = False


class CausalSelfAttention(nn.Module):
    def __init__(self, config: NeuralConfig):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.dropout = config.dropout

    def forward(self, x, past=None, mask=None):
        """x (B, T, C); past: the keys and values of S earlier positions ((B, H, S, C/H) each) or
        None; mask (B, 1, T, S + T) of the keys each query may see, or None: causal ->
        (y (B, T, C), the keys and values of all S + T positions)."""
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)  # (B, T, C) each
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, H, T, C/H)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, H, T, C/H)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, H, T, C/H)
        if past is not None:
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)  # (B, H, S + T, C/H)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=self.dropout if self.training else 0,
                                           is_causal=mask is None)  # fmt: skip
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
        return self.resid_dropout(self.c_proj(y)), (k, v)


class MLP(nn.Module):
    def __init__(self, config: NeuralConfig):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(F.gelu(self.c_fc(x))))  # (B, T, C)


class Block(nn.Module):
    def __init__(self, config: NeuralConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x, past=None, mask=None):
        a, kv = self.attn(self.ln_1(x), past, mask)
        x = x + a
        return x + self.mlp(self.ln_2(x)), kv


class Compiler(nn.Module):
    def __init__(self, config: NeuralConfig):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            drop=nn.Dropout(config.dropout),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f=nn.LayerNorm(config.n_embd, bias=config.bias),
        ))  # fmt: skip
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying
        self.apply(self._init_weights)
        for name, p in self.named_parameters():  # scaled init of the residual projections (GPT-2)
            if name.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.n_layer))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        """idx (B, T) token ids; targets (B, T), -1 where no loss is taken -> (logits (B, T, V), loss)."""
        B, T = idx.size()
        assert T <= self.config.block_size, f"sequence of {T} tokens, block size {self.config.block_size}"
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device)  # (T,)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))  # (B, T, C)
        for block in self.transformer.h:
            x, _ = block(x)  # (B, T, C)
        logits = self.lm_head(self.transformer.ln_f(x))  # (B, T, V)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    def step(self, idx, start, cache=None):
        """Decoding with a key-value cache.  idx (B, T): the next tokens of rows left-padded to one
        length (row b's tokens begin at start[b]); cache: what the previous step returned, or None
        for the first -> (logits (B, T, V), cache)."""
        B, T = idx.size()
        past = 0 if cache is None else cache[0][0].size(2)
        t = torch.arange(past, past + T)  # (T,) positions in the padded rows
        pos = (t[None, :] - start[:, None]).clamp(0, self.config.block_size - 1)  # (B, T) (rows done: ignored)
        keys = torch.arange(past + T)  # (S + T,)
        mask = (keys[None, None, :] <= t[None, :, None]) & (  # causal, and not the padding (but itself)
            (keys[None, None, :] >= start[:, None, None]) | (keys[None, None, :] == t[None, :, None]))  # (B, T, S + T)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)  # (B, T, C)
        new_cache = []
        for block, kv in zip(self.transformer.h, cache or [None] * len(self.transformer.h)):
            x, kv = block(x, kv, mask[:, None])  # (B, T, C)
            new_cache.append(kv)
        return self.lm_head(self.transformer.ln_f(x)), new_cache  # (B, T, V)

    @torch.no_grad()
    def generate(self, prompts: list[list[int]], choose, eos: int, pad: int, max_new: int | None = None) -> list[list[int]]:
        """Each prompt (source ids ending in <sep>) continued until <eos>, max_new ids or the
        block size -> the ids written after the prompt (without <eos>).  choose(rows (L,), logits
        (L, V)) picks the next id of each row still writing.  One batch, prompts left-padded,
        with a key-value cache (`step`)."""
        B, P = len(prompts), max(len(p) for p in prompts)
        length = torch.tensor([len(p) for p in prompts])  # (B,)
        idx = torch.full((B, P), pad, dtype=torch.long)  # (B, P)
        for b, p in enumerate(prompts):
            idx[b, P - len(p) :] = torch.tensor(p)
        start = P - length  # (B,)
        budget = (self.config.block_size - length).clamp(min=0)
        budget = budget if max_new is None else budget.clamp(max=max_new)  # (B,) ids each row may write
        written = [[] for _ in prompts]
        done = budget <= 0  # (B,)
        logits, cache = self.step(idx, start)  # (B, P, V)
        while not done.all():
            live = (~done).nonzero().squeeze(1)  # (L,) rows still writing
            nxt = choose(live, logits[live, -1])  # (L,)
            step_ids = torch.full((B, 1), pad, dtype=torch.long)  # (B, 1)
            step_ids[live, 0] = nxt
            for b, i in zip(live.tolist(), nxt.tolist()):
                written[b].append(i)
                done[b] = i == eos or len(written[b]) >= budget[b]
            if not done.all():
                logits, cache = self.step(step_ids, start, cache)  # (B, 1, V)
        return [w[:-1] if w and w[-1] == eos else w for w in written]

    def greedy(self, prompts: list[list[int]], eos: int, pad: int, max_new: int | None = None) -> list[list[int]]:
        """generate() taking the most likely id at every step, unconstrained."""
        return self.generate(prompts, lambda rows, logits: logits.argmax(-1), eos, pad, max_new)
