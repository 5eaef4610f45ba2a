"""Char-level causal Transformers of App. B (SPEC E6) and their attention probes.

A small GPT-style model: token and learned position embeddings, ``layers`` pre-LN blocks
x <- x + Attn(LN(x)), x <- x + FFN(LN(x)) with ``heads`` causal heads of width d_model/heads
(bias-free query/key/value projections, so that a head's static kernel is exactly
W_QK = W_Q W_K^T), an FFN of width ffn_mult*d_model with exact GELU, a final LayerNorm and an
untied output layer. Attention is written out (no fused kernel) because the measures need each
head's attention map A (T x T) and the attention input LN(x) of each layer.

Training: AdamW with linear warm-up and cosine decay, gradient clipping, random windows of the
training split drawn from a numpy stream keyed by the seed; validation loss on fixed,
evenly spaced windows of the validation split (the same windows the measures use).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.nn import functional as F

from .atomic import open_npz, write_npz, write_parquet
from .tokens import load_tokens
from .train import TrainingDiverged

log = logging.getLogger("entropic_bound.lm")


@dataclass(frozen=True)
class LMConfig:
    """Model and training settings (config section ``e6.model`` and ``e6.train``)."""

    layers: int = 2
    heads: int = 4
    context: int = 64
    ffn_mult: int = 4
    steps: int = 400
    batch: int = 16
    lr: float = 3e-3
    weight_decay: float = 0.01
    warmup: float = 0.05  # fraction of steps with linear warm-up
    grad_clip: float = 1.0
    log_every: int = 50
    eval_windows: int = 64

    def __post_init__(self) -> None:
        if self.steps < 1 or self.batch < 1 or self.context < 2:
            raise ValueError("config e6.train.steps, e6.train.batch must be >= 1 and "
                             "e6.model.context >= 2")


class Block(nn.Module):
    def __init__(self, d: int, heads: int, ffn_mult: int):
        super().__init__()
        if d % heads:
            raise ValueError(f"config e6.d_models: d_model={d} is not divisible by "
                             f"e6.model.heads={heads}")
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

    def head_kernel(self, head: int) -> np.ndarray:
        """W_QK = W_Q W_K^T (d_model x d_model) of one head, float64."""
        w = self.qkv.weight.detach().double().cpu()
        d, rows = w.shape[1], slice(head * self.dh, (head + 1) * self.dh)
        wq, wk = w[:d][rows].T, w[d:2 * d][rows].T
        return (wq @ wk.T).numpy()


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
                         f"{context + 1}; raise e6.max_chars or e6.val_fraction")
    return np.linspace(0, n_tokens - context - 1, count).astype(np.int64)


def validation_loss(model: CharTransformer, val: np.ndarray, cfg: LMConfig,
                    device: str = "cpu") -> float:
    x, y = windows(val, eval_starts(len(val), cfg.context, cfg.eval_windows), cfg.context)
    x, y = x.to(device), y.to(device)
    with torch.no_grad():
        logits = model(x)
        return float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1)))


def lr_at(step: int, cfg: LMConfig) -> float:
    warm = max(1, int(cfg.warmup * cfg.steps))
    if step < warm:
        return cfg.lr * (step + 1) / warm
    progress = (step - warm) / max(1, cfg.steps - warm)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


def build(vocab: int, d_model: int, cfg: LMConfig, seed: int) -> CharTransformer:
    torch.manual_seed(seed)
    return CharTransformer(vocab, d_model, cfg)


def train_lm(tokens: str, meta: str, weights_out: str, metrics_out: str, *, corpus: str,
             d_model: int, seed: int, cfg: LMConfig, device: str = "cpu") -> pd.DataFrame:
    """Train one (corpus, d_model, seed) cell on ``device``; write its weights and metrics
    (final validation cross-entropy in nats per character, the logged training curve).
    The initialisation and the batches do not depend on the device."""
    arrays, info = load_tokens(tokens, meta)
    train = arrays["train"]
    if len(train) <= cfg.context + 1:
        raise ValueError(f"{tokens}: {len(train)} training tokens, fewer than context+1")
    model = build(info["vocab_size"], d_model, cfg, seed).to(device)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": rest, "weight_decay": 0.0}], lr=cfg.lr)
    rng = np.random.default_rng(np.random.SeedSequence([seed, d_model, 4241]))
    label = f"{corpus} d_model={d_model} seed={seed}"
    curve, start = [], time.perf_counter()
    for step in range(cfg.steps):
        for group in opt.param_groups:
            group["lr"] = lr_at(step, cfg)
        x, y = windows(train, rng.integers(0, len(train) - cfg.context - 1, cfg.batch),
                       cfg.context)
        x, y = x.to(device), y.to(device)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        if not torch.isfinite(loss):
            raise TrainingDiverged(f"{label}: loss is {loss.item()} at step {step + 1}; lower "
                                   f"e6.train.lr or raise e6.train.warmup")
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        if (step + 1) % cfg.log_every == 0 or step + 1 == cfg.steps:
            value = loss.item()
            curve.append((step + 1, value))
            log.info("%s step %d/%d loss %.4f (%.1fs)", label, step + 1, cfg.steps, value,
                     time.perf_counter() - start)
    val = validation_loss(model, arrays["val"], cfg, device)
    log.info("%s: validation loss %.4f nats/char after %.1fs", label, val,
             time.perf_counter() - start)
    write_npz(weights_out, **{k: v.detach().cpu().numpy() for k, v in model.state_dict().items()})
    frame = pd.DataFrame([{
        "corpus": corpus, "d_model": d_model, "seed": seed, "val_loss": val,
        "train_loss": curve[-1][1], "vocab_size": info["vocab_size"],
        "params": sum(p.numel() for p in model.parameters()), **asdict(cfg),
        "curve_step": [s for s, _ in curve], "curve_loss": [v for _, v in curve]}])
    write_parquet(metrics_out, frame)
    return frame


def load_model(weights: str, vocab: int, d_model: int, cfg: LMConfig) -> CharTransformer:
    model = CharTransformer(vocab, d_model, cfg)
    with open_npz(weights) as z:
        model.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files})
    return model.eval()
