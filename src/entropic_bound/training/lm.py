"""Training of one char-level Transformer cell of App. B (protocol §E6) to a stated criterion.

AdamW with linear warm-up and cosine decay to 10 % of ``lr`` over ``max_steps``, gradient
clipping, random windows of the training split drawn from a numpy stream keyed by the seed.
Every ``eval_every`` steps (and at step 0) the model is validated on fixed windows of the
first half of the validation split (:func:`entropic_bound.data.windows.split_validation`);
training stops once ``patience`` validations in a row have not improved on the reference
loss by ``min_delta`` (the reference is the loss at the last such improvement), or at
``max_steps``. The weights of the lowest validation loss are kept, and the reported loss is
theirs on the second half. A cell that reaches ``max_steps`` was still improving: it fails the
training criterion of protocol §E6. At :meth:`TrainConfig.checkpoint_steps` the weights are kept in
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
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
import torch
from torch import nn

from entropic_bound.data.tokens import load_tokens
from entropic_bound.data.windows import fixed_windows, split_validation, windows
from entropic_bound.measures.heads import trajectory_rows
from entropic_bound.models.checkpoints import checkpoint_prefix
from entropic_bound.models.evaluation import validation_loss
from entropic_bound.models.lm import CharTransformer, LMShape, build
from entropic_bound.plumbing.atomic import write_npz, write_parquet
from entropic_bound.training.loop import TrainingDiverged
from entropic_bound.training.precision import training_precision
from entropic_bound.training.stopping import STOPPED_AT_MAX, STOPPED_BY_PATIENCE, EarlyStopping

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class TrainConfig:
    """The training settings (config section ``e6.train``; their defaults live in the schema
    alone, so every field is required here)."""

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
    precision: str  # "bf16": bfloat16 autocast of the training forward pass; or "fp32"
    # (bf16 on a CPU without a fast path: training.precision computes it through fp32 GEMMs)

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.batch < 1:
            raise ValueError("TrainConfig: max_steps and batch must be >= 1")
        if self.precision not in PRECISIONS:
            raise ValueError(f"TrainConfig: precision {self.precision!r} is not one of "
                             f"{', '.join(PRECISIONS)}")

    def checkpoint_steps(self) -> list[int]:
        """Steps whose weights are measured along training: the initialisation and every
        validation step eval_every * 2^k up to max_steps (doubling, since the measures move
        fastest early)."""
        steps, k = [0], self.eval_every
        while k <= self.max_steps:
            steps.append(k)
            k *= 2
        return steps


PRECISIONS = ("fp32", "bf16")


def lr_at(step: int, cfg: TrainConfig) -> float:
    warm = max(1, int(cfg.warmup * cfg.max_steps))
    if step < warm:
        return cfg.lr * (step + 1) / warm
    progress = (step - warm) / max(1, cfg.max_steps - warm)
    return cfg.lr * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress)))


def _state(model: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


def train_lm(tokens: str, meta: str, weights_out: str, metrics_out: str, trajectory_out: str,
             *, corpus: str, d_model: int, seed: int, shape: LMShape, cfg: TrainConfig,
             device: str = "cpu", checkpoints_out: str | None = None,
             weights_dtype: str = "float32") -> pd.DataFrame:
    """Train one (corpus, d_model, seed) cell on ``device`` until the stopping rule or
    ``max_steps``; write the best weights, the metrics (stopping step and reason, tokens seen,
    the validation curve on the selection windows, the training curve, and the best weights'
    held-out cross-entropy in nats per character) and the measures at every checkpoint and at
    the kept weights (the trajectory, ``final`` true for the kept weights); the checkpoints
    themselves only into ``checkpoints_out``, where given; the kept weights in
    ``weights_dtype``.
    The initialisation and the batches do not depend on the device."""
    arrays, info = load_tokens(tokens, meta)
    train, context = arrays["train"], shape.context
    if len(train) <= context + 1:
        raise ValueError(f"{tokens}: {len(train)} training tokens, fewer than context+1")
    selection, held_out = split_validation(arrays["val"])
    sel_x, sel_y = (t.to(device) for t in fixed_windows(selection, context, cfg.select_windows))
    model = build(info["vocab_size"], d_model, shape, seed).to(device)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": rest, "weight_decay": 0.0}], lr=cfg.lr)
    rng = np.random.default_rng(np.random.SeedSequence([seed, d_model, 4241]))
    label = f"{corpus} d_model={d_model} seed={seed}"
    keep = set(cfg.checkpoint_steps())
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

    with training_precision(cfg.precision, device) as autocast:
        validate(0)
        step, reason = 0, STOPPED_AT_MAX
        while step < cfg.max_steps:
            for group in opt.param_groups:
                group["lr"] = lr_at(step, cfg)
            x, y = windows(train, rng.integers(0, len(train) - context - 1, cfg.batch), context)
            x, y = x.to(device), y.to(device)
            with autocast():
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
    eval_x, eval_y = fixed_windows(held_out, context, cfg.eval_windows)
    val = validation_loss(model, eval_x.to(device), eval_y.to(device))
    log.info("%s: stopped at step %d (%s); best step %d; held-out validation %.4f nats/char; "
             "validation took %.1f%% of %.1fs", label, step, reason, stopping.best_step, val,
             100 * eval_seconds / train_seconds, train_seconds)
    write_npz(weights_out, **{k: v.numpy().astype(weights_dtype) for k, v in best_state.items()})
    if checkpoints_out:
        write_npz(checkpoints_out, **{checkpoint_prefix(s) + k: v.numpy()
                                      for s, state in checkpoints.items()
                                      for k, v in state.items()})
    tokens_per_step = cfg.batch * context
    fields = {"corpus": corpus, "d_model": d_model, "seed": seed, "stop_step": step,
              "stop_reason": reason}
    selected = dict(checks)
    probe = CharTransformer(info["vocab_size"], d_model, shape)  # on the CPU, in float32
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
        "params": sum(p.numel() for p in model.parameters()), **asdict(shape), **asdict(cfg),
        "curve_step": [s for s, _ in curve], "curve_loss": [v for _, v in curve],
        "select_step": [s for s, _ in checks], "select_loss": [v for _, v in checks]}])
    write_parquet(metrics_out, frame)
    return frame

