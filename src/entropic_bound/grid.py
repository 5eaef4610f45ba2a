"""The attention-native grid (Section 6, App. C; SPEC E3): one job trains every student of a
dataset (measurement lives in :mod:`entropic_bound.measure`).

Cell granularity: a job is one dataset (teacher, r*, seed) and trains its whole rank sweep
r = 1..sweep_factor*r* plus the over-parameterised recovery student in one process, so torch is
imported once per dataset rather than once per student, and adding an r* or a seed adds exactly
its own jobs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .atomic import write_npz, write_parquet
from .data import load_arrays, load_spec
from .students import init_qk, qk_forward
from .train import evaluate, train_adam

log = logging.getLogger("entropic_bound.grid")

SWEEP, RECOVERY = "sweep", "recovery"


@dataclass(frozen=True)
class GridTraining:
    """Optimisation settings of App. C.4 (config section ``e3.train``)."""

    lr: float = 1e-2
    sweep_steps: int = 1500
    recovery_steps: int = 2500
    recovery_init_scale: float = 0.3
    sweep_factor: int = 2
    recovery_rank: int | None = None  # None: r = d (App. C.3)
    log_every: int = 100


def students_of(r_star: int, d: int, cfg: GridTraining) -> list[tuple[str, int]]:
    """(role, rank) of every student of one dataset: the sweep, then recovery at r = d."""
    sweep = [(SWEEP, r) for r in range(1, cfg.sweep_factor * r_star + 1)]
    return sweep + [(RECOVERY, cfg.recovery_rank or d)]


def train_dataset(data_path: str, weights_out: str, metrics_out: str, cfg: GridTraining,
                  device: str = "cpu") -> pd.DataFrame:
    """Train all students of one dataset; write their weights (npz) and metrics (parquet).

    Metrics per student: final train/held-out loss L (float64 re-evaluation) and excess
    L - sigma^2 T d, steps, seconds, and the logged loss curve.
    """
    spec = load_spec(data_path)
    arrays = load_arrays(data_path, "X", "Y", "X_test", "Y_test")
    x = torch.from_numpy(arrays["X"]).to(device)
    y = torch.from_numpy(arrays["Y"]).to(device)
    floor = spec.noise_floor

    def forward(xx, WQ, WK, V):
        return qk_forward(spec.kind, xx, WQ, WK, V)

    weights: dict[str, np.ndarray] = {}
    rows = []
    for role, r in students_of(spec.r_star, spec.d, cfg):
        label = f"{spec.kind} r*={spec.r_star} seed={spec.seed} {role} r={r}"
        recovery = role == RECOVERY
        init = init_qk(spec.d, r, spec.seed, role=int(recovery),
                       init_scale=cfg.recovery_init_scale if recovery else 1.0)
        steps = cfg.recovery_steps if recovery else cfg.sweep_steps
        result = train_adam(forward, init, x, y, steps=steps, lr=cfg.lr,
                            log_every=cfg.log_every, label=label)
        loss = evaluate(forward, result.params, arrays["X"], arrays["Y"])
        loss_test = evaluate(forward, result.params, arrays["X_test"], arrays["Y_test"])
        log.info("%s done in %.1fs: excess %.4g (held-out %.4g)", label, result.seconds,
                 loss - floor, loss_test - floor)
        for name, value in result.params.items():
            weights[f"{role}_r{r}_{name}"] = value
        rows.append({
            "teacher": spec.kind, "r_star": spec.r_star, "seed": spec.seed, "role": role,
            "r": r, "steps": steps, "loss": loss, "loss_test": loss_test,
            "excess": loss - floor, "excess_test": loss_test - floor, "noise_floor": floor,
            "seconds": result.seconds,
            "curve_step": [s for s, _ in result.curve],
            "curve_loss": [v for _, v in result.curve],
        })
    write_npz(weights_out, **weights)
    frame = pd.DataFrame(rows)
    write_parquet(metrics_out, frame)
    return frame

