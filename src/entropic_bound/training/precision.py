"""Whether a device has a fast bfloat16 path, checked before an E6 cell trains in bf16.

bf16 autocast is fast only where the hardware multiplies bf16 natively (CUDA GPUs; CPUs with
``avx512_bf16`` or AMX). Elsewhere torch emulates it: on an AVX2 CPU a bf16 GEMM ran at about
1 GFLOP/s against 83-92 in fp32, and an E6 step at d_model 256 took 7,419 ms against 310 ms, so
the d_model 256 cells would take on the order of 300 hours. A short GEMM probe (a 256 x 256
product in each precision, the best of a few) finds that in tens of milliseconds, on any CPU.
"""

from __future__ import annotations

import time

import torch

# bf16 slower than fp32 by more than this factor is an emulated path (native: 0.3-0.7; the
# emulated AVX2 path measured ~80)
SLOW_BF16_RATIO = 3.0


class SlowPrecision(RuntimeError):
    """The configured precision has no fast path on this device."""


def _best_seconds(a: torch.Tensor, b: torch.Tensor, repeats: int = 10) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t0)
    return best


def bf16_over_fp32(n: int = 256, rounds: int = 3) -> float:
    """Time of an n x n x n GEMM in bfloat16 over the same in float32, on the CPU: the smallest
    ratio of ``rounds`` rounds, each the best of 10 products per precision. A busy machine only
    slows a round down (one round was 31x on a loaded native-bf16 CPU, the next 0.5x), and an
    emulated path stays ~80x slower in every round."""
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(n, n, generator=gen), torch.randn(n, n, generator=gen)
    a16, b16 = a.bfloat16(), b.bfloat16()
    a16 @ b16, a @ b  # warm-up: the first call pays for dispatch and allocation
    return min(_best_seconds(a16, b16) / _best_seconds(a, b) for _ in range(rounds))


def check_precision(precision: str, device: str) -> None:
    """Raise :class:`SlowPrecision` (one line naming the setting and the choices) when
    ``precision`` is bf16 on a CPU without a fast bf16 path; CUDA devices pass."""
    if precision != "bf16" or torch.device(device).type != "cpu":
        return
    ratio = bf16_over_fp32()
    if ratio > SLOW_BF16_RATIO:
        raise SlowPrecision(
            f"e6.train.precision is bf16, but this CPU ({torch.backends.cpu.get_cpu_capability()}"
            f") has no fast bfloat16 path: a 256 x 256 GEMM ran {ratio:.0f}x slower in bf16 "
            f"than in fp32 (native bf16 needs avx512_bf16 or AMX). Choose: "
            f"e6.train.precision: fp32 (2.1x slower than native bf16 where that exists; held-out "
            f"loss and static Reff within the seed spread of bf16, docs/protocol.md), another "
            f"machine, or a GPU (device: cuda)")
