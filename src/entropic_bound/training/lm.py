"""Training of one char-level Transformer cell of App. B (protocol §E6) to a stated criterion.

AdamW with linear warm-up and cosine decay to 10 % of ``lr`` over ``max_steps``, gradient
clipping, random windows of the training split drawn from a numpy stream keyed by the seed.
Every ``eval_every`` steps (and at step 0) the model is validated on fixed windows of the
first half of the validation split (:func:`entropic_bound.models.lm.split_validation`);
training stops once ``patience`` validations in a row have not improved on the reference
loss by ``min_delta`` (the reference is the loss at the last such improvement), or at
``max_steps``. The weights of the lowest validation loss are kept, and the reported loss is
theirs on the second half. A cell that reaches ``max_steps`` was still improving: it fails the
training criterion of protocol §E6. At :meth:`LMConfig.checkpoint_steps` the weights are kept in
memory and, once training ends, measured on the held-out windows
(:func:`entropic_bound.measures.heads.trajectory_rows`) with the kept weights as the last
point, all in float32: the trajectory is written instead of the checkpoints, which are only
written where ``checkpoints_out`` is given (``inspect --step`` reads them). The kept weights
are written in ``weights_dtype`` (the workflow stores float16: half the size in the store,
for ``inspect``; every measure was taken on the float32 weights before). The store then keeps
a cell's trajectory (kB) and half-precision weights, not its checkpoints (MB).
"""

from __future__ import annotations

import logging
import math
import time
from contextlib import nullcontext
from dataclasses import asdict

import numpy as np
import pandas as pd
import torch
from torch import nn

from entropic_bound.data.tokens import load_tokens
from entropic_bound.measures.heads import trajectory_rows
from entropic_bound.models.lm import (
    CharTransformer,
    LMConfig,
    build,
    checkpoint_prefix,
    fixed_windows,
    split_validation,
    validation_loss,
    windows,
)
from entropic_bound.plumbing.atomic import write_npz, write_parquet
from entropic_bound.training.loop import TrainingDiverged

log = logging.getLogger(__name__)

STOPPED_BY_PATIENCE, STOPPED_AT_MAX = "patience", "max_steps"


def lr_at(step: int, cfg: LMConfig) -> float:
    warm = max(1, int(cfg.warmup * cfg.max_steps))
    if step < warm:
        return cfg.lr * (step + 1) / warm
    progress = (step - warm) / max(1, cfg.max_steps - warm)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


class EarlyStopping:
    """The stopping rule: ``update(step, loss)`` after each validation; ``stop`` once
    ``patience`` validations in a row did not go below reference - min_delta. ``best_step``
    and ``best_loss`` track the plain minimum (the weights kept)."""

    def __init__(self, patience: int, min_delta: float):
        self.patience, self.min_delta = patience, min_delta
        self.reference = self.best_loss = math.inf
        self.best_step, self.waited = -1, 0

    def update(self, step: int, loss: float) -> bool:
        """Record one validation; True when it is the lowest so far."""
        if loss < self.reference - self.min_delta:
            self.reference, self.waited = loss, 0
        else:
            self.waited += 1
        if loss < self.best_loss:
            self.best_loss, self.best_step = loss, step
            return True
        return False

    @property
    def stop(self) -> bool:
        return self.waited >= self.patience


def _state(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


def train_lm(tokens: str, meta: str, weights_out: str, metrics_out: str, trajectory_out: str,
             *, corpus: str, d_model: int, seed: int, cfg: LMConfig, device: str = "cpu",
             checkpoints_out: str | None = None, weights_dtype: str = "float32") -> pd.DataFrame:
    """Train one (corpus, d_model, seed) cell on ``device`` until the stopping rule or
    ``max_steps``; write the best weights, the metrics (stopping step and reason, tokens seen,
    the validation curve on the selection windows, the training curve, and the best weights'
    held-out cross-entropy in nats per character) and the measures at every checkpoint and at
    the kept weights (the trajectory, ``final`` true for the kept weights); the checkpoints
    themselves only into ``checkpoints_out``, where given; the kept weights in
    ``weights_dtype``.
    The initialisation and the batches do not depend on the device."""
    arrays, info = load_tokens(tokens, meta)
    train = arrays["train"]
    if len(train) <= cfg.context + 1:
        raise ValueError(f"{tokens}: {len(train)} training tokens, fewer than context+1")
    selection, held_out = split_validation(arrays["val"])
    sel_x, sel_y = (t.to(device) for t in fixed_windows(selection, cfg, cfg.select_windows))
    model = build(info["vocab_size"], d_model, cfg, seed).to(device)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": rest, "weight_decay": 0.0}], lr=cfg.lr)
    rng = np.random.default_rng(np.random.SeedSequence([seed, d_model, 4241]))
    label = f"{corpus} d_model={d_model} seed={seed}"
    keep = set(cfg.checkpoint_steps())
    autocast = (torch.autocast(torch.device(device).type, dtype=torch.bfloat16)
                if cfg.precision == "bf16" else nullcontext())
    stopping = EarlyStopping(cfg.patience, cfg.min_delta)
    curve, checks, checkpoints = [], [], {}
    best_state, start, eval_seconds = _state(model), time.perf_counter(), 0.0

    def validate(step: int) -> None:
        nonlocal best_state, eval_seconds
        t0 = time.perf_counter()
        loss = validation_loss(model, sel_x, sel_y)
        checks.append((step, loss))
        if stopping.update(step, loss):
            best_state = _state(model)
        if step in keep:
            checkpoints[step] = _state(model)
        eval_seconds += time.perf_counter() - t0
        log.info("%s step %d/%d validation %.4f (best %.4f at %d, %.1fs)", label, step,
                 cfg.max_steps, loss, stopping.best_loss, stopping.best_step,
                 time.perf_counter() - start)

    validate(0)
    step, reason = 0, STOPPED_AT_MAX
    while step < cfg.max_steps:
        for group in opt.param_groups:
            group["lr"] = lr_at(step, cfg)
        x, y = windows(train, rng.integers(0, len(train) - cfg.context - 1, cfg.batch),
                       cfg.context)
        x, y = x.to(device), y.to(device)
        with autocast:
            logits = model(x)
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, logits.shape[-1]),
                                           y.reshape(-1))
        if not torch.isfinite(loss):
            raise TrainingDiverged(f"{label}: loss is {loss.item()} at step {step + 1}; lower "
                                   f"the train section's lr or raise its warmup")
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        step += 1
        if step % cfg.log_every == 0 or step == cfg.max_steps:
            curve.append((step, loss.item()))
        if step % cfg.eval_every == 0 or step == cfg.max_steps:
            validate(step)
            if stopping.stop:
                reason = STOPPED_BY_PATIENCE
                break
    train_seconds = time.perf_counter() - start
    model.load_state_dict(best_state)
    val = validation_loss(model, *(t.to(device) for t in fixed_windows(held_out, cfg,
                                                                      cfg.eval_windows)))
    log.info("%s: stopped at step %d (%s); best step %d; held-out validation %.4f nats/char; "
             "validation took %.1f%% of %.1fs", label, step, reason, stopping.best_step, val,
             100 * eval_seconds / train_seconds, train_seconds)
    write_npz(weights_out, **{k: v.numpy().astype(weights_dtype) for k, v in best_state.items()})
    if checkpoints_out:
        write_npz(checkpoints_out, **{checkpoint_prefix(s) + k: v.numpy()
                                      for s, state in checkpoints.items()
                                      for k, v in state.items()})
    tokens_per_step = cfg.batch * cfg.context
    eval_x, eval_y = fixed_windows(held_out, cfg, cfg.eval_windows)
    fields = {"corpus": corpus, "d_model": d_model, "seed": seed, "stop_step": step,
              "stop_reason": reason}
    selected = dict(checks)
    probe = CharTransformer(info["vocab_size"], d_model, cfg)  # on the CPU, in float32
    trajectory = []
    points = [(at, state, False) for at, state in sorted(checkpoints.items())]
    for at, state, final in [*points, (stopping.best_step, best_state, True)]:
        probe.load_state_dict(state)
        trajectory += trajectory_rows(probe, eval_x, eval_y, step=at, final=final,
                                      tokens=at * tokens_per_step,
                                      select_loss=selected.get(at, math.nan), fields=fields)
    write_parquet(trajectory_out, pd.DataFrame(trajectory))
    frame = pd.DataFrame([{
        "corpus": corpus, "d_model": d_model, "seed": seed, "val_loss": val,
        "stop_step": step, "stop_reason": reason, "best_step": stopping.best_step,
        "best_select_loss": stopping.best_loss, "tokens_seen": step * tokens_per_step,
        "train_tokens": len(train), "train_loss": curve[-1][1] if curve else math.nan,
        "train_seconds": train_seconds, "eval_seconds": eval_seconds,
        "vocab_size": info["vocab_size"],
        "params": sum(p.numel() for p in model.parameters()), **asdict(cfg),
        "curve_step": [s for s, _ in curve], "curve_loss": [v for _, v in curve],
        "select_step": [s for s, _ in checks], "select_loss": [v for _, v in checks]}])
    write_parquet(metrics_out, frame)
    return frame

