"""Char-level causal Transformers of App. B (protocol §E6): the model and its attention probes
(training is :mod:`entropic_bound.training.lm`, the weights files
:mod:`entropic_bound.models.checkpoints`, the windows :mod:`entropic_bound.data.windows`).

A small GPT-style model: token and learned position embeddings, ``layers`` pre-LN blocks
x <- x + Attn(LN(x)), x <- x + FFN(LN(x)) with ``heads`` causal heads of width d_model/heads
(bias-free query/key/value projections, so that a head's static kernel is exactly
W_QK = W_Q W_K^T), an FFN of width ffn_mult*d_model with exact GELU, a final LayerNorm and an
untied output layer. Attention A = softmax(q k^T / sqrt(d_head) + causal mask) is written out
(no fused kernel): the measures need each head's map A (T x T) and each layer's attention input
LN(x), and for training steps a fused kernel did not pay (docs/performance.md, "E6 steps").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class LMShape:
    """The architecture (config section ``e6.model``); the width d_model is a cell's own."""

    layers: int
    heads: int
    context: int
    ffn_mult: int

    def __post_init__(self) -> None:
        if min(self.layers, self.heads, self.ffn_mult) < 1 or self.context < 2:
            raise ValueError("LMShape: layers, heads and ffn_mult must be >= 1 and context >= 2")


class Block(nn.Module):
    def __init__(self, d: int, heads: int, ffn_mult: int):
        super().__init__()
        if d % heads:
            raise ValueError(f"d_model={d} is not divisible by heads={heads}")
        self.heads, self.dh = heads, d // heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.proj = nn.Linear(d, d)
        self.fc = nn.Linear(d, ffn_mult * d)
        self.out = nn.Linear(ffn_mult * d, d)

    def forward(self, x: torch.Tensor, probe: list | None = None) -> torch.Tensor:
        B, T, d = x.shape
        h = self.ln1(x)
        q, k, v = self.qkv(h).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        mask = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        attn = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        if probe is not None:
            probe.append({"attn": attn.detach(), "input": h.detach()})
        x = x + self.proj((attn @ v).transpose(1, 2).reshape(B, T, d))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))

    def head_factors(self, head: int) -> tuple[np.ndarray, np.ndarray]:
        """(W_Q, W_K) of one head, d_model x d_head each, float64: its scores are
        h W_Q (h' W_K)^T / sqrt(d_head)."""
        w = self.qkv.weight.detach().double().cpu()
        d, rows = w.shape[1], slice(head * self.dh, (head + 1) * self.dh)
        return w[:d][rows].T.numpy(), w[d:2 * d][rows].T.numpy()


class CharTransformer(nn.Module):
    def __init__(self, vocab: int, d_model: int, shape: LMShape):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(shape.context, d_model)
        self.blocks = nn.ModuleList(Block(d_model, shape.heads, shape.ffn_mult)
                                    for _ in range(shape.layers))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx: torch.Tensor, probe: list | None = None) -> torch.Tensor:
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = block(x, probe)
        return self.head(self.ln(x))


def build(vocab: int, d_model: int, shape: LMShape, seed: int) -> CharTransformer:
    """The model at its initialisation for ``seed`` (torch's default inits, CPU generator)."""
    torch.manual_seed(seed)
    return CharTransformer(vocab, d_model, shape)
