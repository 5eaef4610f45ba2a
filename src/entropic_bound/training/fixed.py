"""Experiments on the fixed-operator task Y = A* X V* + E (Sections 4-5): the linear surrogate
(protocol §E1, Table 1) and the interpolation ladder (E2, Table 2).

One job per dataset trains every student of it with the reference trainer (autograd, full-batch
Adam): for E1 the B0 rank sweep r = 1..sweep_factor*r* plus over-parameterised B0 at r = T;
for E2 every ladder class at r = r* ("at_r_star") and over-parameterised ("overparam": r = T
for B0, r = d for the QK classes; B1c is full rank in both roles) with the factors'
initialisation multiplied by ``recovery_init_scale``, plus the sensitivity ``variants`` (B3
block variants) at r = r* only. Datasets of a sensitivity operator (``overparam`` false) train
at r = r* only: they test the excess, not the realized operator.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pandas as pd
import torch

from entropic_bound.data.datasets import load_arrays, load_spec
from entropic_bound.data.teachers import TeacherSpec
from entropic_bound.models import ladder
from entropic_bound.plumbing.atomic import write_npz, write_parquet
from entropic_bound.training.loop import AdamSchedule, convergence_columns, evaluate, train_adam

log = logging.getLogger(__name__)

EXPERIMENTS = ("e1", "e2")


@dataclass(frozen=True)
class FixedTraining(AdamSchedule):
    """Settings of the fixed-operator experiments (config sections ``e1.train``, ``e2.train``)."""

    classes: tuple[str, ...]
    variants: tuple[str, ...]  # sensitivity classes, trained at r = r* only
    overparam: bool  # False on sensitivity-operator datasets: at r = r* only
    pos_init_scale: float  # std of the positional embeddings of the B3_pos variants


@dataclass
class FixedStudent:
    cls: str
    role: str
    r: int
    steps: int
    init_scale: float

    @property
    def key(self) -> str:
        return ladder.weight_key(self.cls, self.role, self.r)


def students_of(experiment: str, spec: TeacherSpec, cfg: FixedTraining) -> list[FixedStudent]:
    small = cfg.recovery_init_scale
    if experiment == "e1":
        sweep = [FixedStudent("B0", "sweep", r, cfg.sweep_steps, 1.0)
                 for r in range(1, cfg.sweep_factor * spec.r_star + 1)]
        return sweep + [FixedStudent("B0", "recovery", spec.T, cfg.recovery_steps, small)]
    if experiment == "e2":
        out = []
        for cls in (*cfg.classes, *cfg.variants):
            at, over = (spec.r_star, spec.T if cls == "B0" else spec.d)
            if cls == "B1c":
                at = over = spec.d
            out.append(FixedStudent(cls, "at_r_star", at, cfg.sweep_steps, 1.0))
            if cfg.overparam and cls in cfg.classes:
                out.append(FixedStudent(cls, "overparam", over, cfg.recovery_steps, small))
        return out
    raise ValueError(f"unknown fixed-task experiment {experiment!r}; expected {EXPERIMENTS}")


def train_fixed(experiment: str, data_path: str, weights_out: str, metrics_out: str,
                cfg: FixedTraining, device: str = "cpu") -> pd.DataFrame:
    """Train every student of one fixed-operator dataset; write weights and metrics.

    Metrics per student: loss and held-out loss (float64), excess = L - sigma^2 T d, the
    converged excess and spike flag (protocol §3b), the loss curve. Weights are stored as
    ``<class>_<role>_r<r>_<name>``.
    """
    spec = load_spec(data_path)
    arrays = load_arrays(data_path, "X", "Y", "X_test", "Y_test")
    x = torch.from_numpy(arrays["X"]).to(device)
    y = torch.from_numpy(arrays["Y"]).to(device)
    weights, rows = {}, []
    for st in students_of(experiment, spec, cfg):
        label = f"{experiment} seed={spec.seed} {st.cls} {st.role} r={st.r}"
        init = ladder.init_params(st.cls, spec.T, spec.d, st.r, spec.seed,
                                  role=int(st.init_scale != 1.0), init_scale=st.init_scale,
                                  pos_init_scale=cfg.pos_init_scale)

        def fwd(xx, _cls=st.cls, **p):
            return ladder.forward(_cls, xx, **p)

        res = train_adam(fwd, init, x, y, steps=st.steps, lr=cfg.lr, log_every=cfg.log_every,
                         label=label)
        loss = evaluate(fwd, res.params, arrays["X"], arrays["Y"])
        loss_test = evaluate(fwd, res.params, arrays["X_test"], arrays["Y_test"])
        conv = convergence_columns(loss, res.converged_loss, res.tail_min_loss, spec.noise_floor)
        log.info("%s: %.1fs, excess %.4g (converged %.4g%s%s)", label, res.seconds,
                 conv["excess"], conv["excess_converged"], ", SPIKED" if conv["spiked"] else "",
                 ", UNSETTLED" if conv["unsettled"] else "")
        weights.update({f"{st.key}_{k}": v for k, v in res.params.items()})
        rows.append({"experiment": experiment, "operator": spec.operator, "seed": spec.seed,
                     "class": st.cls, "role": st.role, "r": st.r, "steps": st.steps,
                     "loss": loss, "loss_test": loss_test, **conv,
                     "excess_test": loss_test - spec.noise_floor,
                     "noise_floor": spec.noise_floor,
                     "curve_step": [s for s, _ in res.curve],
                     "curve_loss": [v for _, v in res.curve]})
    write_npz(weights_out, **weights)
    frame = pd.DataFrame(rows)
    write_parquet(metrics_out, frame)
    return frame
