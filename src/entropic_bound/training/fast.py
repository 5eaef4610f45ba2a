"""Fast trainer for query-key students: hand-written gradients, several students per call.

Computes exactly what :func:`entropic_bound.training.loop.train_adam` computes with ``qk_forward``
(same loss, same Adam updates up to float rounding, same step counts), but:

* the gradient is written out by hand (no autograd graph, no per-op allocation of its tape);
* the products are re-associated so that the big ones are square GEMMs and, for the linear
  teacher at small rank, the T x T score matrix is never formed:
    "gram" (linear, r <= GRAM_MAX_RANK): Y_hat_n = (X_n W_Q) (W_K^T G_n V) / sqrt(d),
        G_n = X_n^T X_n precomputed; ~ 10 n r d (T + d) flops per step
    "kernel" (softmax, and linear at larger r): Y_hat_n = (A_n X_n) V with
        A_n = mix(X_n K X_n^T / sqrt(d)), K = W_Q W_K^T formed once per step
* samples are processed in cache-sized chunks;
* B students are stacked on a leading axis, each zero-padded to the largest rank. A padded
  column has zero gradient for ever (its partner factor column is zero), so Adam leaves it at
  exactly zero and each student follows the trajectory it would follow alone. On a GPU this
  batching keeps the device busy; on a CPU one student per call is faster for the linear path.

Gradients (D = dL/dY_hat = 2 (Y_hat - Y) / n, s = sqrt(d)):
  kernel: dV = sum_n (A_n X_n)^T D_n, dA_n = D_n V^T X_n^T, dS_n = dA_n (linear) or
          A_n * (dA_n - rowsum(dA_n * A_n)) (softmax), dK = sum_n X_n^T dS_n X_n / s,
          dW_Q = dK W_K, dW_K = dK^T W_Q.
  gram:   with C_n = W_K^T G_n V: dQ_n = D_n C_n^T / s, dC_n = Q_n^T D_n / s,
          dV = sum_n (W_K^T G_n)^T dC_n, dW_K = sum_n G_n (dC_n V^T)^T, dW_Q = X^T dQ.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import torch

from entropic_bound.data.mixing import mixing
from entropic_bound.training.loop import TailWindow, check_divergence

# Up to this rank the Gram order is faster than the kernel order for the linear teacher
# (T=16, d=32, one CPU core: gram 4.9 ms/step at r=1, 12.9 at r=4, 15 at r=6; kernel ~12.5 at
# any r). Measured with the benchmark, python -m entropic_bound.benchmarks.bench.
GRAM_MAX_RANK = 4


class QKBatch:
    """Loss and hand-written gradients of B query-key students on one dataset.

    The samples are processed in chunks of ``chunk`` so that every intermediate of a chunk
    stays in cache; gradients are accumulated across chunks.
    """

    def __init__(self, kind: str, x: torch.Tensor, y: torch.Tensor, rank: int, chunk: int):
        self.mixing = mixing(kind)
        self.n, self.T, self.d = x.shape
        self.scale = 1.0 / math.sqrt(self.d)
        self.order = "gram" if self.mixing.linear and rank <= GRAM_MAX_RANK else "kernel"
        self.chunks = []
        for lo in range(0, self.n, chunk):
            xc, yc = x[lo:lo + chunk], y[lo:lo + chunk]
            item = {"x": xc, "y": yc, "xf": xc.reshape(-1, self.d), "m": xc.shape[0]}
            if self.order == "gram":
                g = xc.transpose(1, 2) @ xc  # (m, d, d), symmetric
                # gcat[i, (n, j)] = G_n[i, j]: W_K^T G_n over the chunk is one GEMM.
                item["gcat"] = g.permute(1, 0, 2).reshape(self.d, -1).contiguous()
            self.chunks.append(item)

    def loss_and_grads(self, wq: torch.Tensor, wk: torch.Tensor, v: torch.Tensor):
        """Per-student losses (B,) and gradients of their sum w.r.t. wq, wk (B,d,r), v (B,d,d)."""
        loss = wq.new_zeros(wq.shape[0])
        if self.order == "gram":
            grads = [torch.zeros_like(wq), torch.zeros_like(wk), torch.zeros_like(v)]
            for c in self.chunks:
                self._gram(c, wq, wk, v, loss, grads)
            return (loss, *grads)
        kt = wq @ wk.transpose(1, 2)
        grads = [torch.zeros_like(kt), None, torch.zeros_like(v)]  # [dK, -, dV]
        for c in self.chunks:
            self._kernel(c, kt, v, loss, grads)
        dk = grads[0]
        return loss, dk @ wk, dk.transpose(1, 2) @ wq, grads[2]

    def _residual(self, c: dict, y_hat: torch.Tensor, loss: torch.Tensor) -> torch.Tensor:
        """Add this chunk's losses to ``loss``; return D = 2 (Y_hat - Y) / n in place."""
        r = y_hat.sub_(c["y"])
        loss += r.square().sum(dim=(1, 2, 3)) / self.n
        return r.mul_(2.0 / self.n)

    def _kernel(self, c, kt, v, loss, grads):
        """Scores through the full kernel K = W_Q W_K^T: S_n = X_n K X_n^T / sqrt(d).

        Forming K (d x d) turns the skinny products X W_Q, X W_K (inefficient GEMMs of width
        r) into one square GEMM, and the kernel gradient sum_n X_n^T dS_n X_n is mapped back
        to the factors once per step: dW_Q = dK W_K, dW_K = dK^T W_Q.
        """
        B, m, T, d = kt.shape[0], c["m"], self.T, self.d
        x, xf = c["x"], c["xf"]
        xt_s = x.transpose(1, 2)
        s = ((xf @ kt).view(B, m, T, d) @ xt_s).mul_(self.scale)  # (B, m, T, T)
        a = self.mixing.forward_torch(s)
        ax = (a @ x).view(B, m * T, d)
        dy = self._residual(c, (ax @ v).view(B, m, T, d), loss).view(B, m * T, d)
        grads[2].baddbmm_(ax.transpose(1, 2), dy)
        da = (dy @ v.transpose(1, 2)).view(B, m, T, d) @ xt_s
        da = self.mixing.backward_torch(a, da)
        grads[0].baddbmm_(xf.t().expand(B, d, m * T), (da.mul_(self.scale) @ x).view(B, m * T, d))

    def _gram(self, c, wq, wk, v, loss, grads):
        B, m, T, d = wq.shape[0], c["m"], self.T, self.d
        r = wq.shape[-1]
        gcat = c["gcat"]
        q = (c["xf"] @ wq).view(B, m, T, r)
        p = (wk.transpose(1, 2) @ gcat).view(B, r * m, d)  # rows (r, n): W_K^T G_n
        cn = (p @ v).view(B, r, m, d).permute(0, 2, 1, 3)  # (B, m, r, d)
        dy = self._residual(c, (q @ cn).mul_(self.scale), loss)
        dq = (dy @ cn.transpose(-1, -2)).mul_(self.scale)  # (B, m, T, r)
        dc = (q.transpose(-1, -2) @ dy).mul_(self.scale)  # (B, m, r, d)
        dcr = dc.permute(0, 2, 1, 3).reshape(B, r * m, d)
        grads[2].baddbmm_(p.transpose(1, 2), dcr)
        dp = (dcr @ v.transpose(1, 2)).view(B, r, m * d)
        grads[1].add_(gcat @ dp.transpose(1, 2))
        grads[0].add_(c["xf"].t() @ dq.view(B, m * T, r))


@dataclass
class BatchResult:
    params: list[dict[str, np.ndarray]]
    curves: list[list[tuple[int, float]]] = field(default_factory=list)
    seconds: float = 0.0
    converged_losses: list[float] = field(default_factory=list)  # mean over the last 10% of steps
    tail_min_losses: list[float] = field(default_factory=list)  # lowest loss in that window


def train_fast(kind: str, inits: list[dict[str, np.ndarray]], x: torch.Tensor, y: torch.Tensor,
               *, steps: int, lr: float, log_every: int, chunk: int,
               labels: list[str] | None = None, log=None, prefix: str = "") -> BatchResult:
    """Train the students ``inits`` (each {WQ: d x r, WK: d x r, V: d x d}) jointly for
    ``steps`` full-batch Adam steps; return each student's parameters at its own rank."""
    ranks = [init["WQ"].shape[1] for init in inits]
    rmax, d = max(ranks), x.shape[-1]
    B = len(inits)
    labels = labels or [f"student {i}" for i in range(B)]

    def stack(name: str, width: int) -> torch.Tensor:
        out = np.zeros((B, d, width))
        for i, init in enumerate(inits):
            out[i, :, : init[name].shape[1]] = init[name]
        return torch.tensor(out, dtype=x.dtype, device=x.device)

    params = [stack("WQ", rmax), stack("WK", rmax), stack("V", d)]
    batch = QKBatch(kind, x, y, rmax, chunk=chunk)
    opt = torch.optim.Adam(params, lr=lr)
    curves: list[list[tuple[int, float]]] = [[] for _ in range(B)]
    tail = TailWindow(steps, (B,), x.device)
    start = time.perf_counter()
    for step in range(1, steps + 1):
        loss, *grads = batch.loss_and_grads(*params)
        for p, g in zip(params, grads):
            p.grad = g
        opt.step()
        if step == 1:
            first = loss.tolist()
        tail.add(step, loss)
        if step % log_every == 0 or step == steps:
            values = loss.tolist()
            check_divergence(values, first, step, labels)
            for i, value in enumerate(values):
                curves[i].append((step, value))
            if log is not None:
                log.info("%s step %d/%d loss %s", prefix, step, steps,
                         " ".join(f"{v:.6g}" for v in values))
    out = [{"WQ": params[0][i, :, :r].cpu().numpy(), "WK": params[1][i, :, :r].cpu().numpy(),
            "V": params[2][i].cpu().numpy()} for i, r in enumerate(ranks)]
    return BatchResult(params=out, curves=curves, seconds=time.perf_counter() - start,
                       converged_losses=tail.mean().tolist(), tail_min_losses=tail.min.tolist())
