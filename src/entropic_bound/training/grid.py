"""Attention-native grids (protocol §E3, Table 3; E5, Table 5): one job trains every student of a
dataset (measurement lives in :mod:`entropic_bound.measures.grid`).

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

from entropic_bound.data.datasets import load_arrays, load_spec
from entropic_bound.data.teachers import TeacherSpec
from entropic_bound.models.students import init_qk, qk_forward
from entropic_bound.plumbing.atomic import write_npz, write_parquet
from entropic_bound.training.fast import train_fast
from entropic_bound.training.loop import AdamSchedule, convergence_columns, evaluate, train_adam

log = logging.getLogger(__name__)

SWEEP, RECOVERY = "sweep", "recovery"


@dataclass(frozen=True)
class GridTraining(AdamSchedule):
    """Settings of a grid (config sections ``e3.train``, ``e5.train``)."""

    trainer: str  # "fast" (entropic_bound.training.fast) or "naive" (autograd reference loop)
    chunk: int  # samples per chunk of the fast trainer
    recovery_rank: int | None = None  # None: r = d (App. C.3); not a config setting

    def __post_init__(self) -> None:
        if self.trainer not in ("fast", "naive"):
            raise ValueError(f"trainer must be 'fast' or 'naive', got {self.trainer!r}")


@dataclass
class Student:
    """One student of a dataset: its role, rank, initial parameters and step count."""

    role: str
    r: int
    label: str
    init: dict[str, np.ndarray]
    steps: int


def students_of(spec: TeacherSpec, cfg: GridTraining) -> list[Student]:
    """The rank sweep r = 1..sweep_factor*r* (default init), then recovery at r = d with the
    factors' initialisation multiplied by ``recovery_init_scale`` (App. C.3-C.4)."""
    plan = [(SWEEP, r) for r in range(1, cfg.sweep_factor * spec.r_star + 1)]
    plan.append((RECOVERY, cfg.recovery_rank or spec.d))
    out = []
    for role, r in plan:
        recovery = role == RECOVERY
        out.append(Student(
            role=role, r=r, label=f"{spec.kind} r*={spec.r_star} seed={spec.seed} {role} r={r}",
            init=init_qk(spec.d, r, spec.seed, role=int(recovery),
                         init_scale=cfg.recovery_init_scale if recovery else 1.0),
            steps=cfg.recovery_steps if recovery else cfg.sweep_steps))
    return out


def train_dataset(data_path: str, weights_out: str, metrics_out: str, cfg: GridTraining,
                  device: str = "cpu") -> pd.DataFrame:
    """Train all students of one dataset; write their weights (npz) and metrics (parquet).

    Metrics per student: final train/held-out loss L (float64 re-evaluation) and excess
    L - sigma^2 T d, the converged excess and spike flag (protocol §3b), steps, trainer, and the
    logged loss curve. Wall time goes to the log and
    to Snakemake's benchmark file, not here, so that the table is identical across reruns.
    """
    spec = load_spec(data_path)
    arrays = load_arrays(data_path, "X", "Y", "X_test", "Y_test")
    x = torch.from_numpy(arrays["X"]).to(device)
    y = torch.from_numpy(arrays["Y"]).to(device)
    floor = spec.noise_floor

    def forward(xx, WQ, WK, V):
        return qk_forward(spec.kind, xx, WQ, WK, V)

    students = students_of(spec, cfg)
    weights: dict[str, np.ndarray] = {}
    rows = []
    for st, (params, curve, seconds, converged, tail_min) in zip(
            students, _train(spec.kind, students, x, y, cfg, forward)):
        loss = evaluate(forward, params, arrays["X"], arrays["Y"])
        loss_test = evaluate(forward, params, arrays["X_test"], arrays["Y_test"])
        conv = convergence_columns(loss, converged, tail_min, floor)
        log.info("%s: %.1fs, excess %.4g (converged %.4g%s%s, held-out %.4g)", st.label, seconds,
                 conv["excess"], conv["excess_converged"], ", SPIKED" if conv["spiked"] else "",
                 ", UNSETTLED" if conv["unsettled"] else "", loss_test - floor)
        weights.update({f"{st.role}_r{st.r}_{k}": v for k, v in params.items()})
        rows.append({
            "teacher": spec.kind, "spectrum": spec.spectrum, "r_star": spec.r_star,
            "seed": spec.seed, "role": st.role,
            "r": st.r, "steps": st.steps, "loss": loss, "loss_test": loss_test,
            **conv, "excess_test": loss_test - floor, "noise_floor": floor,
            "trainer": cfg.trainer,
            "curve_step": [s for s, _ in curve], "curve_loss": [v for _, v in curve],
        })
    write_npz(weights_out, **weights)
    frame = pd.DataFrame(rows)
    write_parquet(metrics_out, frame)
    return frame


def _train(kind: str, students: list[Student], x: torch.Tensor, y: torch.Tensor,
           cfg: GridTraining, forward) -> list[tuple[dict, list, float, float, float]]:
    """(params, curve, seconds, converged loss, lowest loss of its window) per student.

    The fast trainer batches students of the same role on a GPU (the whole sweep of a dataset
    in one computation keeps the device busy); on a CPU it trains them one at a time, which is
    faster there (the Gram order's cost grows with the padded rank).
    """
    if cfg.trainer == "naive":
        results = [train_adam(forward, st.init, x, y, steps=st.steps, lr=cfg.lr,
                              log_every=cfg.log_every, label=st.label) for st in students]
        return [(r.params, r.curve, r.seconds, r.converged_loss, r.tail_min_loss)
                for r in results]
    groups: list[list[Student]] = []
    for st in students:
        if x.device.type == "cuda" and groups and groups[-1][0].role == st.role:
            groups[-1].append(st)
        else:
            groups.append([st])
    out = []
    for group in groups:
        labels = [st.label for st in group]
        res = train_fast(kind, [st.init for st in group], x, y, steps=group[0].steps, lr=cfg.lr,
                         log_every=cfg.log_every, labels=labels, chunk=cfg.chunk,
                         log=log, prefix=" + ".join(labels))
        out.extend((p, c, res.seconds / len(group), conv, low) for p, c, conv, low in
                   zip(res.params, res.curves, res.converged_losses, res.tail_min_losses))
    return out
