"""Full-batch Adam training of one student (App. C.4; protocol §1).

Loss (protocol §1): L = mean_n ||Y_hat_n - Y_n||_F^2. float32 training; the final losses are
re-evaluated in float64 so that excesses of order 1e-4 are not float32 rounding.

Converged loss (protocol §3b, App. C.5 "converged MSE"): the mean full-batch training loss
over the last 10% of the steps. Full-batch training evaluates the loss at every step anyway, so
it costs one addition per step of that window; the verdicts use it, and a student whose final
iterate sits far above it is flagged as spiked (:func:`convergence_columns`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

log = logging.getLogger(__name__)

Forward = Callable[..., torch.Tensor]


@dataclass(frozen=True)
class AdamSchedule:
    """Optimisation settings shared by every experiment (App. C.4; protocol §1): full-batch
    Adam at ``lr``; rank sweeps r = 1..sweep_factor*r* for ``sweep_steps``; over-parameterised
    students for ``recovery_steps`` with factor initialisation times ``recovery_init_scale``.
    No defaults here: the values come from the validated config (its schema holds them)."""

    lr: float
    sweep_steps: int
    recovery_steps: int
    recovery_init_scale: float
    sweep_factor: int
    log_every: int


CONVERGED_FRACTION = 0.1  # protocol §3b: the converged loss averages the last 10% of the steps
SPIKE_FRACTION = 0.01  # protocol §3b: final excess above the converged one by > 0.01 floor = spiked
# A window mean more than 10% (of the floor, or of the excess when larger) above the window's
# lowest loss: the student never reached a plateau, and no verdict is built on it.
UNSETTLED_FRACTION = 0.1
# A logged loss above 100x the first step's has diverged, finite or not: the job fails.
DIVERGENCE_FACTOR = 100.0


def tail_start(steps: int) -> int:
    """First step of the converged-loss window: the last ceil(10%) of ``steps`` (at least one)."""
    return steps - max(1, math.ceil(CONVERGED_FRACTION * steps)) + 1


class TailWindow:
    """Running sum and minimum of the full-batch loss over the last 10% of steps (protocol §3b), for
    one student (shape ()) or a batch of them (shape (B,)); float64 so the sum does not round."""

    def __init__(self, steps: int, shape: tuple[int, ...], device: torch.device):
        self.first = tail_start(steps)
        self.count = steps - self.first + 1
        self.sum = torch.zeros(shape, dtype=torch.float64, device=device)
        self.min = torch.full(shape, math.inf, dtype=torch.float64, device=device)

    def add(self, step: int, loss: torch.Tensor) -> None:
        if step >= self.first:
            loss = loss.detach().double()
            self.sum += loss
            self.min = torch.minimum(self.min, loss)

    def mean(self) -> torch.Tensor:
        return self.sum / self.count


def convergence_columns(loss_final: float, loss_converged: float, loss_tail_min: float,
                        floor: float) -> dict:
    """Final-iterate and converged excess (protocol §3b) and the two flags of one student.

    excess = L_final - floor (float64 re-evaluation of the last weights); excess_converged =
    mean loss over the last 10% of steps - floor; spiked when excess - excess_converged >
    0.01 floor (a late Adam spike that left the final iterate above the plateau it had reached:
    the converged value stands); unsettled when the window's mean exceeds its minimum by more
    than 0.1 max(floor, |excess_converged|) (no plateau: the tables give no verdict on it).
    """
    excess, converged = loss_final - floor, loss_converged - floor
    return {"excess": excess, "excess_converged": converged,
            "spiked": bool(excess - converged > SPIKE_FRACTION * floor),
            "unsettled": bool(loss_converged - loss_tail_min
                              > UNSETTLED_FRACTION * max(floor, abs(converged)))}


def check_divergence(values, start, step: int, labels: list[str]) -> None:
    """Raise TrainingDiverged for the first student whose logged loss is not finite or has risen
    above DIVERGENCE_FACTOR times its first-step loss."""
    for value, first, label in zip(values, start, labels):
        if not math.isfinite(value):
            raise TrainingDiverged(f"{label}: loss is {value} at step {step}; lower the learning "
                                   f"rate (config key 'lr' of this experiment's train section)")
        if value > DIVERGENCE_FACTOR * first:
            raise TrainingDiverged(f"{label}: loss rose from {first:.4g} at step 1 to {value:.4g}"
                                   f" at step {step} (over {DIVERGENCE_FACTOR:g}x): diverged; "
                                   f"lower the learning rate (config key 'lr' of this "
                                   f"experiment's train section)")


class TrainingDiverged(RuntimeError):
    """The loss became NaN or infinite, or rose far above its start; raised with the step and
    the student's label."""


@dataclass
class TrainResult:
    params: dict[str, np.ndarray]
    curve: list[tuple[int, float]] = field(default_factory=list)
    seconds: float = 0.0
    steps: int = 0
    converged_loss: float = float("nan")  # mean training loss over the last 10% of steps
    tail_min_loss: float = float("nan")  # lowest training loss in that window


def mse(y_hat: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """mean over samples of the squared Frobenius error of each T x d sample."""
    return ((y_hat - y) ** 2).sum(dim=(-2, -1)).mean(dim=-1)


def train_adam(forward: Forward, init: dict[str, np.ndarray], x: torch.Tensor, y: torch.Tensor,
               *, steps: int, lr: float, log_every: int = 100, label: str = "") -> TrainResult:
    """Plain per-student loop: autograd through ``forward(x, **params)``, full-batch Adam.

    This is the reference trainer; the fast trainer must reproduce its losses and kernels.
    """
    params = {k: torch.tensor(v, dtype=x.dtype, device=x.device, requires_grad=True)
              for k, v in init.items()}
    opt = torch.optim.Adam(params.values(), lr=lr)
    curve: list[tuple[int, float]] = []
    tail = TailWindow(steps, (), x.device)
    start = time.perf_counter()
    for step in range(1, steps + 1):
        opt.zero_grad(set_to_none=True)
        loss = mse(forward(x, **params), y)
        loss.backward()
        opt.step()
        if step == 1:
            first = float(loss.detach())
        tail.add(step, loss)
        if step % log_every == 0 or step == steps:
            value = float(loss.detach())
            check_divergence([value], [first], step, [label])
            curve.append((step, value))
            log.info("%s step %d/%d loss %.6g", label, step, steps, value)
    return TrainResult(
        params={k: p.detach().cpu().numpy() for k, p in params.items()},
        curve=curve, seconds=time.perf_counter() - start, steps=steps,
        converged_loss=float(tail.mean()), tail_min_loss=float(tail.min))


def evaluate(forward: Forward, params: dict[str, np.ndarray], x: np.ndarray,
             y: np.ndarray) -> float:
    """L of the given parameters on (x, y), in float64."""
    with torch.no_grad():
        p64 = {k: torch.from_numpy(np.asarray(v, dtype=np.float64)) for k, v in params.items()}
        x64 = torch.from_numpy(np.asarray(x, dtype=np.float64))
        y64 = torch.from_numpy(np.asarray(y, dtype=np.float64))
        return float(mse(forward(x64, **p64), y64))
