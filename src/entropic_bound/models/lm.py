"""Char-level causal Transformers of App. B (protocol §E6) and their attention probes (the model;
training is :mod:`entropic_bound.training.lm`).

A small GPT-style model: token and learned position embeddings, ``layers`` pre-LN blocks
x <- x + Attn(LN(x)), x <- x + FFN(LN(x)) with ``heads`` causal heads of width d_model/heads
(bias-free query/key/value projections, so that a head's static kernel is exactly
W_QK = W_Q W_K^T), an FFN of width ffn_mult*d_model with exact GELU, a final LayerNorm and an
untied output layer. Attention is written out (no fused kernel) because the measures need each
head's attention map A (T x T) and the attention input LN(x) of each layer.

Evaluation: the validation split is cut in two (:func:`split_validation`): fixed, evenly
spaced windows of its first half choose the stopping step of early stopping; those of its
second half give the reported validation loss and feed the measures, which so never see the
text that chose the weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from entropic_bound.plumbing.atomic import open_npz


@dataclass(frozen=True)
class LMConfig:
    """Model and training settings (config section ``e6.model`` and ``e6.train``)."""

    layers: int
    heads: int
    context: int
    ffn_mult: int
    max_steps: int
    batch: int
    lr: float
    weight_decay: float
    warmup: float  # fraction of max_steps with linear warm-up
    grad_clip: float
    log_every: int
    eval_every: int  # steps between validations on the selection windows
    patience: int  # validations without an improvement of min_delta before stopping
    min_delta: float  # nats/char: the smallest improvement that resets the patience
    select_windows: int
    eval_windows: int
    precision: str = "fp32"  # "bf16": bfloat16 autocast of the training forward pass

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.batch < 1 or self.context < 2:
            raise ValueError("LMConfig: max_steps and batch must be >= 1 and context >= 2")
        if self.precision not in PRECISIONS:
            raise ValueError(f"LMConfig: precision {self.precision!r} is not one of "
                             f"{', '.join(PRECISIONS)}")

    def checkpoint_steps(self) -> list[int]:
        """Steps whose weights are kept for the measures along training: the initialisation
        and every validation step eval_every * 2^k up to max_steps (doubling, since the
        measures move fastest early)."""
        steps, k = [0], self.eval_every
        while k <= self.max_steps:
            steps.append(k)
            k *= 2
        return steps


PRECISIONS = ("fp32", "bf16")


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
    def __init__(self, vocab: int, d_model: int, cfg: LMConfig):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(cfg.context, d_model)
        self.blocks = nn.ModuleList(Block(d_model, cfg.heads, cfg.ffn_mult)
                                    for _ in range(cfg.layers))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx: torch.Tensor, probe: list | None = None) -> torch.Tensor:
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = block(x, probe)
        return self.head(self.ln(x))


def windows(ids: np.ndarray, starts: np.ndarray, context: int) -> tuple[torch.Tensor, ...]:
    """Inputs ids[s : s+context] and next-character targets for each start s."""
    idx = starts[:, None] + np.arange(context + 1)[None, :]
    chunk = torch.from_numpy(ids[idx].astype(np.int64))
    return chunk[:, :-1], chunk[:, 1:]


def eval_starts(n_tokens: int, context: int, count: int) -> np.ndarray:
    """Evenly spaced window starts over a split (fixed, so every cell sees the same text)."""
    if n_tokens <= context + 1:
        raise ValueError(f"validation split has {n_tokens} tokens, fewer than context+1="
                         f"{context + 1}; raise the corpus's max_chars or val_fraction")
    return np.linspace(0, n_tokens - context - 1, count).astype(np.int64)


def split_validation(val: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(selection, held_out): the first half of the validation split, which early stopping
    reads, and the second half, which the reported loss and the measures read."""
    half = len(val) // 2
    return val[:half], val[half:]


def fixed_windows(ids: np.ndarray, cfg: LMConfig, count: int) -> tuple[torch.Tensor, ...]:
    """``count`` evenly spaced windows of ``ids`` and their targets."""
    return windows(ids, eval_starts(len(ids), cfg.context, count), cfg.context)


def cross_entropy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    """Mean next-character cross-entropy in nats, in float32 whatever the logits' dtype."""
    return float(F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]),
                                 targets.reshape(-1)))


def validation_loss(model: CharTransformer, x: torch.Tensor, y: torch.Tensor) -> float:
    """Cross-entropy of ``model`` (float32, no autocast) on fixed windows x -> y."""
    was_training = model.training
    model.eval()
    with torch.no_grad():
        loss = cross_entropy(model(x), y)
    model.train(was_training)
    return loss


def build(vocab: int, d_model: int, cfg: LMConfig, seed: int) -> CharTransformer:
    torch.manual_seed(seed)
    return CharTransformer(vocab, d_model, cfg)


def load_model(weights: str, vocab: int, d_model: int, cfg: LMConfig,
               prefix: str = "") -> CharTransformer:
    """The model stored in ``weights``; ``prefix`` selects one checkpoint of a checkpoint
    file (keys ``<prefix><parameter>``, :func:`checkpoint_prefix`)."""
    model = CharTransformer(vocab, d_model, cfg)
    with open_npz(weights) as z:
        model.load_state_dict({k.removeprefix(prefix): torch.from_numpy(z[k])
                               for k in z.files if k.startswith(prefix)})
    return model.eval()


def checkpoint_prefix(step: int) -> str:
    return f"step{step}/"


def checkpoint_steps_in(path: str) -> list[int]:
    """The steps stored in a checkpoint file, in order."""
    with open_npz(path) as z:
        return sorted({int(k.split("/", 1)[0].removeprefix("step")) for k in z.files})
