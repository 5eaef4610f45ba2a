"""The GEMM floor of a training step: its matrix products timed at their own shapes.

:func:`entropic_bound.benchmarks.cells.floor_flops` prices a step at the large-GEMM ceiling (a
2048^3 product), which the products of a step never reach here: their inner or outer dimension is T,
d or r (16, 32, <= 16 in E3), where a BLAS kernel spends most of its time outside its inner
loop. This module lists every product of each known formulation of one full-batch step
(forward and backward; n samples in chunks of m, sample-wise products batched):

    trainer kernel order (fast.QKBatch):  S = (X K) X^T, Y_hat = (A X) V
    value-first, kernel scores:           S = (X K) X^T, Y_hat = A (X V)
    value-first, factor scores:           S = (X W_Q)(X W_K)^T, Y_hat = A (X V)
    Gram order (linear teacher only):     Y_hat_n = (X_n W_Q)(W_K^T G_n V), G_n = X_n^T X_n

and, for the rest of the training DAG, the products of the fixed-operator ladder (E1, E2:
:func:`ladder_listings`, the query-key step above plus B3's FFN, and B0's linear mixer
A X V) and of one step of E6's char Transformer (:func:`lm_products`). It times each product
alone on contiguous float32 operands (the best of several rounds), with torch's own kernels on
this machine, in its faster orientation (C = A B or C^T = B^T A^T), at the chunk size where it
is fastest and, where a data operand is shared, with
up to 16 students of a dataset stacked into one wider product (:func:`stacked`), whichever is
fastest per student. The floor of a step is the cheapest formulation's sum: no elementwise
pass, no LayerNorm, no optimizer, no Python, each product in its best layout, chunking and
stacking. The one non-product pass in it is the softmax of a softmax step (forward and
backward, torch's kernels, :func:`softmax_pass`): no formulation avoids it and no GEMM computes
it. So no trainer built from torch's kernels runs faster; a hand-fused small-matrix kernel
could (this is a floor for torch's kernels, not for the hardware).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

# A product: ("mm", M, K, N) is (M x K)(K x N); ("bmm", b, M, K, N) is b such products;
# ("softmax", b, M, N): the row softmax of b (M x N) score matrices, forward and backward
# (no GEMM, no flops counted; priced so that a softmax step's floor holds its one
# unavoidable non-product pass).
Product = tuple
# Where a product's data operand (X, X^T or the Gram matrices) is shared by every student of a
# dataset, students can be stacked into one wider product: "M" stacks their left operands'
# rows (X shared on the right), "N" their right operands' columns (X shared on the left); None:
# nothing shared (each student's own weights on both sides).
Stack = str | None

CHUNKS = (64, 128, 256, 512, 1024, 3000)
STACKS = (1, 2, 4, 8, 16)  # students per product; E3's largest dataset trains 17


def products(formulation: str, T: int, d: int, r: int, m: int) -> list[tuple[Product, Stack]]:
    """The products of one step of ``formulation`` on a chunk of m samples, forward then
    backward (gradients of the loss w.r.t. the factors and V), each with its :data:`Stack`."""
    mt = m * T
    if formulation == "gram":
        return [(("mm", mt, d, r), "N"), (("mm", r, d, m * d), "M"),  # Q, P = W_K^T G
                (("mm", r * m, d, d), None),  # C = P V
                (("bmm", m, T, r, d), None),  # Y_hat_n = Q_n C_n
                (("bmm", m, T, d, r), None), (("bmm", m, r, T, d), None),  # dQ_n, dC_n
                (("mm", d, r * m, d), None), (("mm", r * m, d, d), None),  # dV, dP
                (("mm", d, m * d, r), "N"), (("mm", d, mt, r), "N")]  # dW_K, dW_Q
    kernel_scores = [(("mm", mt, d, d), "N"), (("bmm", m, T, d, T), "M"),  # X K, (X K) X^T
                     (("bmm", m, T, T, d), "M"), (("mm", d, mt, d), "N")]  # dS X, X^T (dS X)
    if formulation == "kernel":  # the fast trainer's: Y_hat = (A X) V
        return kernel_scores + [(("bmm", m, T, T, d), "M"), (("mm", mt, d, d), None),  # A X, .V
                                (("mm", d, mt, d), None), (("mm", mt, d, d), None),  # dV, dY V^T
                                (("bmm", m, T, d, T), "M")]  # dA = (dY V^T) X^T
    value_first = [(("mm", mt, d, d), "N"), (("bmm", m, T, T, d), None),  # X V, A (X V)
                   (("bmm", m, T, d, T), None), (("bmm", m, T, T, d), None),  # dA, A^T dY
                   (("mm", d, mt, d), "N")]  # dV = X^T (A^T dY)
    if formulation == "value_first":
        return kernel_scores + value_first
    if formulation == "factor_scores":
        return value_first + [(("mm", mt, d, r), "N"), (("mm", mt, d, r), "N"),  # X W_Q, X W_K
                              (("bmm", m, T, r, T), None),  # S = Q K^T
                              (("bmm", m, T, T, r), None), (("bmm", m, T, T, r), None),  # dQ, dK
                              (("mm", d, mt, r), "N"), (("mm", d, mt, r), "N")]  # dW_Q, dW_K
    raise ValueError(f"unknown formulation {formulation!r}")


def softmax_pass(T: int, m: int, heads: int = 1) -> list[tuple[Product, Stack]]:
    """The softmax of a softmax step's scores on m samples (each with ``heads`` T x T score
    matrices), forward and backward; students share nothing in it."""
    return [(("softmax", m * heads, T, T), None)]


def stacked(product: Product, stack: Stack, students: int) -> Product:
    """The one product that computes ``product`` for ``students`` students at once."""
    if students == 1:
        return product
    if stack is None:
        raise ValueError(f"{product} shares no operand between students")
    *head, M, K, N = product
    return (*head, M * students, K, N) if stack == "M" else (*head, M, K, N * students)


def formulations(kind: str) -> tuple[str, ...]:
    """The formulations of a step of ``kind`` (the Gram order needs the linear mixer)."""
    base = ("kernel", "value_first", "factor_scores")
    return (*base, "gram") if kind == "linear_qk" else base


def flops(product: Product) -> float:
    """2 x multiply-adds of one product (a softmax pass: 0, it is no GEMM)."""
    return 0.0 if product[0] == "softmax" else 2.0 * math.prod(product[1:])


Listing = Callable[[int], list[tuple[Product, Stack]]]  # a step's products on m samples


def gradients(product: Product, stack: Stack = None, left: bool = True, right: bool = True
              ) -> list[tuple[Product, Stack]]:
    """The backward products of C = A B: dA = dC B^T (if ``left``), dB = A^T dC (if
    ``right``); an operand shared by stacked students in the forward stays shared."""
    *head, M, K, N = product
    out = []
    if left:
        out.append(((*head, M, N, K), stack if stack == "M" else None))
    if right:
        out.append(((*head, K, M, N), stack if stack == "N" else None))
    return out


def trained(forward: list[Product]) -> list[tuple[Product, Stack]]:
    """Forward products whose operands are all trained or upstream of trained weights: each
    with both gradients, nothing shared between students."""
    return [(q, None) for p in forward for q in (p, *(g for g, _ in gradients(p)))]


def ffn_products(rows: int, d: int, mult: int) -> list[tuple[Product, Stack]]:
    """A two-layer FFN (d -> mult d -> d) on ``rows`` tokens, forward and backward (the input's
    gradient too: it flows back into the attention sublayer and the LayerNorms)."""
    return trained([("mm", rows, d, mult * d), ("mm", rows, mult * d, d)])


def mixer_products(T: int, d: int, m: int) -> list[tuple[Product, Stack]]:
    """Class B0, Y_hat_n = A X_n V with A = P Q^T shared by the samples: A [X_1 .. X_m]
    (T x T)(T x md), then (mT x d)(d x d); backward dV, dY V^T and dA = d(AX) X^T (X is
    data: no gradient). P Q^T (T x r x T) is negligible and left out."""
    ax = ("mm", T, T, m * d)
    return [(ax, "M"), (("mm", m * T, d, d), None), (("mm", d, m * T, d), None),
            (("mm", m * T, d, d), None), *gradients(ax, "M", right=False)]


def lm_products(m: int, d_model: int, heads: int, layers: int, ffn_mult: int,
                context: int) -> list[tuple[Product, Stack]]:
    """One training step of :class:`entropic_bound.models.lm.CharTransformer` on m windows of
    ``context`` tokens, forward and backward: per layer the fused QKV projection, the scores
    Q K^T and A V of each head (batched over windows x heads), the output projection and the
    FFN. The output layer is left out: its width is a corpus's vocabulary, known only once
    the corpus is tokenised, and leaving it out keeps this a floor."""
    rows, dh = m * context, d_model // heads
    layer = [("mm", rows, d_model, 3 * d_model), ("bmm", m * heads, context, dh, context),
             ("bmm", m * heads, context, context, dh), ("mm", rows, d_model, d_model)]
    return [q for _ in range(layers)
            for q in trained(layer) + softmax_pass(context, m, heads)
            + ffn_products(rows, d_model, ffn_mult)]


def qk_products(kind: str, formulation: str, T: int, d: int, r: int, m: int
                ) -> list[tuple[Product, Stack]]:
    """:func:`products` of a query-key step of ``kind``, with the softmax pass of a softmax
    step."""
    softmax = softmax_pass(T, m) if kind == "softmax_qk" else []
    return products(formulation, T, d, r, m) + softmax


def ladder_listings(cls: str, T: int, d: int, r: int) -> list[tuple[Listing, bool]]:
    """The candidate formulations of one step of a fixed-operator student (ladder class
    ``cls``, :mod:`entropic_bound.models.ladder`), each with whether students may share its data
    operand. B0: the linear mixer. B1 (linear QK), B1c (full-rank K: r = d) and B2 (softmax
    QK): the query-key step of that kind. The B3 family: the softmax query-key step plus the
    FFN; stacking is not allowed (its attention reads LN(X), which is each student's own),
    and the attention's input gradient, the LayerNorms and the residuals are left out."""
    if cls == "B0":
        return [(lambda m: mixer_products(T, d, m), True)]
    if cls in ("B1", "B1c", "B2"):
        kind = "softmax_qk" if cls == "B2" else "linear_qk"
        return [(lambda m, f=f: qk_products(kind, f, T, d, r, m), True)
                for f in formulations(kind)]
    if cls.startswith("B3"):
        return [(lambda m, f=f: qk_products("softmax_qk", f, T, d, r, m)
                 + ffn_products(m * T, d, 4), False) for f in formulations("softmax_qk")]
    raise ValueError(f"unknown ladder class {cls!r}")


def transposed(product: Product) -> Product:
    """The product that computes C^T = B^T A^T of ``product`` C = A B (same flops); a
    softmax pass has one orientation, its rows."""
    if product[0] == "softmax":
        return product
    *head, M, K, N = product
    return (*head, N, K, M)


def listing_flops(listing: Listing, n: int) -> float:
    """Flops of one step of ``listing`` over n samples (chunking and stacking change none)."""
    return sum(flops(p) for p, _ in listing(n))


def time_product(product: Product, rounds: int = 7, round_seconds: float = 2e-3) -> float:
    """Best seconds of one product on contiguous random float32 operands (current threads):
    the fastest of ``rounds`` rounds of at least ``round_seconds`` each. The minimum, because
    a shared machine only ever adds time."""
    import torch

    if product[0] == "softmax":
        scores, grad = torch.randn(product[1:]), torch.randn(product[1:])
        out, grad_in = torch.softmax(scores, -1), torch.empty(product[1:])

        def run():  # ATen's own forward and backward kernels, with no autograd around them
            torch.softmax(scores, -1, out=out)
            torch._softmax_backward_data(grad, out, -1, scores.dtype, grad_input=grad_in)
    else:
        if product[0] == "mm":
            _, M, K, N = product
            a, b = torch.randn(M, K), torch.randn(K, N)
        else:
            _, B, M, K, N = product
            a, b = torch.randn(B, M, K), torch.randn(B, K, N)
        out = a @ b

        def run():
            torch.matmul(a, b, out=out)
    run()  # warm-up: thread pool, allocator
    start = time.perf_counter()
    run()
    repeats = max(1, math.ceil(round_seconds / max(time.perf_counter() - start, 1e-7)))
    best = math.inf
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            run()
        best = min(best, (time.perf_counter() - start) / repeats)
    return best


class GemmFloor:
    """Seconds per student-step at the GEMM floor: each product at the chunk and the number of
    stacked students where it is fastest, each distinct product timed once."""

    def __init__(self, timer: Callable[[Product], float] = time_product,
                 chunks: tuple[int, ...] = CHUNKS, stacks: tuple[int, ...] = STACKS):
        self.timer = timer
        self.chunks = chunks
        self.stacks = stacks
        self._seconds: dict[Product, float] = {}

    def _timed(self, product: Product) -> float:
        if product not in self._seconds:
            self._seconds[product] = self.timer(product)
        return self._seconds[product]

    def _seconds_of(self, product: Product) -> float:
        """The faster orientation: C = A B, or C^T = B^T A^T with the same operands stored
        transposed (BLAS speed depends on the shape's orientation: tall products with a small
        inner dimension can run several times slower than their transposes)."""
        return min(self._timed(product), self._timed(transposed(product)))

    def product_seconds(self, listing: Listing, n: int, index: int, stack: bool = True) -> float:
        """Seconds per student of the index-th product of ``listing`` over all n samples, at
        its fastest chunk (n / m chunks of m samples) and, with ``stack``, the fastest number
        of students sharing it (B students a product)."""
        best = math.inf
        for m in {min(c, n) for c in self.chunks}:
            product, shared = listing(m)[index]
            for b in self.stacks if stack and shared is not None else (1,):
                best = min(best, self._seconds_of(stacked(product, shared, b)) * n / m / b)
        return best

    def listing_seconds(self, listing: Listing, n: int, stack: bool = True) -> float:
        """Seconds per student of one step of ``listing`` over n samples: the sum of its
        products, each at its own best chunk and stack."""
        return sum(self.product_seconds(listing, n, i, stack) for i in range(len(listing(1))))

    def step_seconds(self, kind: str, n: int, T: int, d: int, r: int) -> tuple[float, str]:
        """(seconds, formulation) of the cheapest query-key formulation for one step."""
        costs = {f: self.listing_seconds(lambda m, f=f: qk_products(kind, f, T, d, r, m), n)
                 for f in formulations(kind)}
        best = min(costs, key=costs.get)
        return costs[best], best

    def ladder_step_seconds(self, cls: str, n: int, T: int, d: int, r: int) -> float:
        """Seconds of one step of a fixed-operator student: its cheapest formulation."""
        return min(self.listing_seconds(listing, n, stack)
                   for listing, stack in ladder_listings(cls, T, d, r))

    def lm_step_seconds(self, batch: int, d_model: int, heads: int, layers: int,
                        ffn_mult: int, context: int) -> float:
        """Seconds of one training step of E6's char Transformer (:func:`lm_products`)."""
        return self.listing_seconds(
            lambda m: lm_products(m, d_model, heads, layers, ffn_mult, context), batch)
