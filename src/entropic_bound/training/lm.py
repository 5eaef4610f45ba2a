"""Training of one char-level Transformer cell of App. B (SPEC E6): AdamW with linear
warm-up and cosine decay to 10 % of ``lr``, gradient clipping, random windows of the training
split drawn from a numpy stream keyed by the seed; the final validation loss on the fixed
windows of :func:`entropic_bound.models.lm.validation_loss`.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import asdict

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.nn import functional as F

from entropic_bound.data.tokens import load_tokens
from entropic_bound.models.lm import LMConfig, build, validation_loss, windows
from entropic_bound.plumbing.atomic import write_npz, write_parquet
from entropic_bound.training.loop import TrainingDiverged

log = logging.getLogger(__name__)


def lr_at(step: int, cfg: LMConfig) -> float:
    warm = max(1, int(cfg.warmup * cfg.steps))
    if step < warm:
        return cfg.lr * (step + 1) / warm
    progress = (step - warm) / max(1, cfg.steps - warm)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


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
                                   f"the train section's lr or raise its warmup")
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
