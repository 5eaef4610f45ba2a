"""How fast this machine runs the store's jobs against the machine that recorded them: the
audit's budget is in this machine's seconds.

A record's cost ``s`` is the recording machine's wall time. Before drawing, the audit times a
fixed probe here (:func:`probe_seconds`: training steps of a small E6 model in float32 and in
bf16, through :func:`entropic_bound.training.precision.training_precision` as E6 trains, and
float64 SVDs, as the estimators and measures run them) and divides by the same probe's time on
the machine that computed the published store (:data:`REFERENCE_SECONDS`); a recorded cost
times that ratio is this machine's expected cost. One ratio for every job is an approximation
(a CPU without native bf16 slows E6 training more than the rest: the probe's bf16 half carries
that), measured in docs/performance.md ("The audit's budget"). The ratio is rounded to
half-octave steps (..., 0.71, 1, 1.41, 2, ...): the probe varies by ~10 % between runs on one
quiet machine, and an unrounded ratio drew other entries on the same machine from run to run.
"""

from __future__ import annotations

import logging
import math
import time

import numpy as np

log = logging.getLogger(__name__)

# the probe's best time on the machine that computed the published store (AMD EPYC, Zen 4,
# AVX-512 with avx512_bf16, torch capability AVX512, one thread, quiet)
REFERENCE_SECONDS = 0.205
REFERENCE_MACHINE = "AMD EPYC (Zen 4, AVX-512, avx512_bf16)"


def _training_steps(precision: str, steps: int = 6) -> None:
    import torch
    from torch import nn

    from entropic_bound.models.lm import LMShape, build
    from entropic_bound.training.precision import training_precision

    model = build(64, 64, LMShape(layers=2, heads=4, context=64, ffn_mult=4), seed=0)
    gen = torch.Generator().manual_seed(0)
    x, y = (torch.randint(0, 64, (16, 64), generator=gen) for _ in range(2))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    with training_precision(precision, "cpu") as autocast:
        for _ in range(steps):
            with autocast():
                logits = model(x)
            loss = nn.functional.cross_entropy(logits.float().reshape(-1, 64), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()


def _svds(count: int = 6, n: int = 192) -> None:
    rng = np.random.default_rng(0)
    for _ in range(count):
        np.linalg.svd(rng.standard_normal((n, n)), compute_uv=False)


def probe_seconds(rounds: int = 3) -> float:
    """The best of ``rounds`` timings of the probe (the module's doc), one torch thread (as the
    jobs run), after one warm-up round."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        best = float("inf")
        for i in range(rounds + 1):
            start = time.perf_counter()
            _training_steps("fp32")
            _training_steps("bf16")
            _svds()
            if i:  # the first round pays for imports, dispatch and allocation
                best = min(best, time.perf_counter() - start)
        return best
    finally:
        torch.set_num_threads(threads)


def half_octave(ratio: float) -> float:
    """``ratio`` rounded to the nearest power of sqrt(2)."""
    return float(2.0 ** (round(2 * math.log2(ratio)) / 2))


def speed_ratio() -> float:
    """This machine's seconds per recorded second: the probe here over
    :data:`REFERENCE_SECONDS`, rounded by :func:`half_octave`, logged."""
    here = probe_seconds()
    ratio = half_octave(here / REFERENCE_SECONDS)
    log.info("calibration: the probe took %.2f s here against %.2f s on the machine that "
             "recorded the store (%s): this machine's cost is %.2f x a recorded cost (rounded "
             "to half octaves)", here, REFERENCE_SECONDS, REFERENCE_MACHINE, ratio)
    return ratio
