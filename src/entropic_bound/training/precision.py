"""bfloat16 training on any device: the native path where it is fast, else the same arithmetic
through float32 matrix products.

bf16 autocast is fast only where the hardware multiplies bf16 natively (CUDA GPUs; CPUs with
``avx512_bf16`` or AMX). Elsewhere torch emulates it slowly: on an AVX2 CPU a bf16 GEMM ran at
about 1 GFLOP/s against 83-92 in fp32, and an E6 step at d_model 256 took 7,419 ms against
310 ms (the d_model 256 cells would take on the order of 300 hours). A short GEMM probe (a
256 x 256 product in each precision, the best of a few) finds that in tens of milliseconds.

Where the probe finds no fast path, :func:`training_precision` computes what the native path
computes: autocast still chooses which operations run in bf16 and rounds their operands to
bf16, and each matrix product (``F.linear``, ``matmul``, ``mm``, ``bmm`` and the products of
their backward passes) runs as a float32 GEMM of those bf16 operands with its result rounded to
bf16 once, as a native bf16 GEMM with float32 accumulation rounds it. A product of two bf16
numbers is exact in float32 (8 + 8 significant bits), so the two differ only in the order of
the float32 sums inside each dot product (oneDNN's blocking against the float32 GEMM's),
which moves a result by at most one bf16 ulp where the float32 sums round to either side of
a bf16 rounding boundary (docs/protocol.md, "E6 on CPUs without bf16", gives the measured
fractions and the audit's comparisons). Every other operation runs as under native autocast.
The path taken is logged, and it is a property of the machine, as every kernel choice is: the
audit compares across it (:mod:`entropic_bound.audit.entries`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import cache
from typing import Any

import torch
from torch.nn import functional as F
from torch.overrides import TorchFunctionMode

log = logging.getLogger(__name__)

# bf16 slower than fp32 by more than this factor is an emulated path (native: 0.3-0.7; the
# emulated AVX2 path measured ~80, ~32 under ATEN_CPU_CAPABILITY=avx2 on an AVX-512 CPU)
SLOW_BF16_RATIO = 3.0


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
    emulated path stays ~30-80x slower in every round."""
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(n, n, generator=gen), torch.randn(n, n, generator=gen)
    a16, b16 = a.bfloat16(), b.bfloat16()
    a16 @ b16, a @ b  # warm-up: the first call pays for dispatch and allocation
    return min(_best_seconds(a16, b16) / _best_seconds(a, b) for _ in range(rounds))


@cache
def native_bf16(device_type: str) -> bool:
    """Whether a device of this type multiplies bf16 at speed: CUDA devices yes; a CPU where the
    probe's bf16 GEMM is at most :data:`SLOW_BF16_RATIO` times slower than float32 (probed once
    a process)."""
    return device_type != "cpu" or bf16_over_fp32() <= SLOW_BF16_RATIO


def _rounded(x: torch.Tensor) -> torch.Tensor:
    """``x`` rounded to bf16 (round to nearest even), held in float32 for the GEMM."""
    return x.to(torch.bfloat16).float()


class _Product(torch.autograd.Function):
    """a @ b (batched as ``torch.matmul``) of bf16-rounded operands in float32, rounded to bf16;
    its backward computes the two gradient products the same way (as native bf16 autocast's
    backward runs them as bf16 GEMMs), each returned in its operand's dtype."""

    @staticmethod
    def forward(ctx: Any, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(a, b)
        with torch.autocast(a.device.type, enabled=False):
            return torch.matmul(_rounded(a), _rounded(b)).to(torch.bfloat16)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        a, b = ctx.saved_tensors
        with torch.autocast(grad.device.type, enabled=False):
            g = _rounded(grad)
            grad_a = torch.matmul(g, _rounded(b).transpose(-1, -2)).to(torch.bfloat16)
            grad_b = torch.matmul(_rounded(a).transpose(-1, -2), g).to(torch.bfloat16)
        # a broadcast operand sums its gradient over the dimensions it was broadcast along
        return (grad_a.float().sum_to_size(a.shape).to(a.dtype),
                grad_b.float().sum_to_size(b.shape).to(b.dtype))


class _Linear(torch.autograd.Function):
    """F.linear(x, w, bias) of bf16-rounded operands: x @ w^T + bias summed in float32 and
    rounded to bf16 once (a native bf16 GEMM adds its bias before the one rounding); the
    backward's products as :class:`_Product`'s, the bias's gradient summed in float32."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, w: torch.Tensor,
                bias: torch.Tensor | None) -> torch.Tensor:
        ctx.save_for_backward(x, w)
        ctx.bias_dtype = None if bias is None else bias.dtype
        with torch.autocast(x.device.type, enabled=False):
            out = torch.matmul(_rounded(x), _rounded(w).T)
            if bias is not None:
                out = out + _rounded(bias)
            return out.to(torch.bfloat16)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        x, w = ctx.saved_tensors
        with torch.autocast(grad.device.type, enabled=False):
            g = _rounded(grad)
            grad_x = torch.matmul(g, _rounded(w)).to(torch.bfloat16)
            rows = g.reshape(-1, g.shape[-1])
            grad_w = (rows.T @ _rounded(x).reshape(-1, x.shape[-1])).to(torch.bfloat16)
            grad_bias = None if ctx.bias_dtype is None else \
                rows.sum(0).to(torch.bfloat16).to(ctx.bias_dtype)
        return grad_x.to(x.dtype), grad_w.to(w.dtype), grad_bias


def _bf16_autocast_on(device_type: str) -> bool:
    return (torch.is_autocast_enabled(device_type)
            and torch.get_autocast_dtype(device_type) == torch.bfloat16)


class Bf16ThroughFp32(TorchFunctionMode):
    """While bf16 autocast is on, matrix products run as :class:`_Product` and
    :class:`_Linear`; everything else (and everything outside autocast) runs unchanged."""

    def __init__(self, device_type: str = "cpu"):
        super().__init__()
        self.device_type = device_type

    def __torch_function__(self, func: Callable, types: Any, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        if _bf16_autocast_on(self.device_type):
            if func is F.linear:
                x, w, *rest = args
                return _Linear.apply(x, w, rest[0] if rest else kwargs.get("bias"))
            if func in (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__,
                        torch.mm, torch.bmm, torch.Tensor.mm, torch.Tensor.bmm):
                return _Product.apply(*args)
        return func(*args, **kwargs)


@contextmanager
def training_precision(precision: str, device: str) -> Iterator[Callable[[], Any]]:
    """The context of a training loop at ``precision`` on ``device``: yields a factory of the
    autocast context for each forward pass (a null context in fp32). bf16 on a CPU without a
    fast bf16 path runs under :class:`Bf16ThroughFp32` (logged); elsewhere bf16 is native
    autocast."""
    if precision != "bf16":
        yield nullcontext
        return
    kind = torch.device(device).type

    def autocast() -> torch.autocast:
        return torch.autocast(kind, dtype=torch.bfloat16)

    if native_bf16(kind):
        yield autocast
        return
    log.info("this CPU (%s) has no fast bfloat16 path: bf16 products run as float32 GEMMs of "
             "bf16-rounded operands, rounded to bf16 (entropic_bound.training.precision)",
             torch.backends.cpu.get_cpu_capability())
    with Bf16ThroughFp32(kind):
        yield autocast
