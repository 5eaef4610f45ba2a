"""The benchmark's cells: one student of each kind at the paper's settings, and the flops of a
training step in each trainer's formulation and in the cheapest one known (the flop floor)."""

from __future__ import annotations

from dataclasses import dataclass

CELLS = {
    # name: (experiment, teacher kind, r* (None: the experiment's), student rank r (None: r*),
    # role: "sweep" or "recovery" (r = d)); sizes, steps, init scale, lr and chunk are the
    # paper's, read from config.yaml and the schema's defaults (:func:`paper_cell`).
    "e3 linear_qk sweep (r*=4, r=3)": ("e3", "linear_qk", 4, 3, "sweep"),
    "e3 linear_qk sweep (r*=8, r=8)": ("e3", "linear_qk", 8, 8, "sweep"),
    "e3 softmax_qk sweep (r*=4, r=3)": ("e3", "softmax_qk", 4, 3, "sweep"),
    "e3 linear_qk recovery (r=d)": ("e3", "linear_qk", 4, None, "recovery"),
    "e3 softmax_qk recovery (r=d)": ("e3", "softmax_qk", 4, None, "recovery"),
    "e5 linear_qk sweep (r*=4, r=3)": ("e5", "linear_qk", 4, 3, "sweep"),
    "e5 linear_qk sweep (r*=4, r=8)": ("e5", "linear_qk", 4, 8, "sweep"),
    "e5 linear_qk recovery (r=d)": ("e5", "linear_qk", 4, None, "recovery"),
    "e2 ladder B1 (linear QK, r=r*)": ("e2", "linear_qk", None, None, "sweep"),
    "e2 ladder B2 (softmax QK, r=r*)": ("e2", "softmax_qk", None, None, "sweep"),
}
PAPER = ("config.yaml", "src/entropic_bound/config.schema.yaml")


@dataclass(frozen=True)
class Cell:
    kind: str
    T: int
    d: int
    n: int
    sigma: float
    r_star: int
    r: int
    steps: int
    init_scale: float
    lr: float
    chunk: int


def paper_cell(name: str, paper: dict) -> Cell:
    """One benchmark cell at the paper's settings (``paper``: the effective config)."""
    exp, kind, r_star, r, role = CELLS[name]
    c, train = paper[exp], paper[exp]["train"]
    r_star = r_star or c["r_star"]
    recovery = role == "recovery"
    return Cell(kind, c["T"], c["d"], c["n"], c["sigma"], r_star,
                c["d"] if recovery else (r or r_star),
                train["recovery_steps"] if recovery else train["sweep_steps"],
                train["recovery_init_scale"] if recovery else 1.0, train["lr"],
                paper["e3"]["train"]["chunk"])  # the fast trainer's chunk (E2 has none)


def step_flops(trainer: str, kind: str, n: int, T: int, d: int, r: int) -> float:
    """Multiply-add flops (x2) of one training step in each trainer's own formulation;
    backward taken as twice the forward for autograd."""
    if trainer == "naive":
        fwd = 4 * n * T * d * r + 2 * n * T * T * r + 2 * n * T * T * d + 2 * n * T * d * d
        return 3.0 * fwd
    from entropic_bound.training.fast import GRAM_MAX_RANK

    if kind == "linear_qk" and r <= GRAM_MAX_RANK:
        return 10.0 * n * r * d * (T + d)
    return 10.0 * n * T * d * d + 8.0 * n * T * T * d


def floor_flops(kind: str, n: int, T: int, d: int, r: int) -> float:
    """Flops of one step in the cheapest formulation known here: scores through the kernel or
    the factors, whichever is cheaper (2nTd^2 + 2nT^2d vs 4nTdr + 2nT^2r, and the same again
    for their gradient), the value path A_n (X_n V) forward and backward (2nTd^2 + 2nT^2d,
    then 2nT^2d + 2nTd^2 for dV and 2nT^2d for dA); for the linear teacher also the Gram order.
    At the machine's matmul ceiling this gives the fastest any trainer of this model could be,
    hence the largest ratio over the naive loop that the hardware allows."""
    scores = min(2 * n * T * d * d + 2 * n * T * T * d, 4 * n * T * d * r + 2 * n * T * T * r)
    value = (2 * n * T * d * d + 2 * n * T * T * d) + (2 * n * T * T * d + 2 * n * T * d * d
                                                        + 2 * n * T * T * d)
    best = 2 * scores + value
    if kind == "linear_qk":
        best = min(best, 10.0 * n * r * d * (T + d))
    return float(best)


def order(kind: str, role: str, r: int) -> str:
    """The fast trainer's formulation of a student: "gram" or "kernel" (:class:`fast.QKBatch`)."""
    from entropic_bound.training.fast import GRAM_MAX_RANK

    return "gram" if kind == "linear_qk" and role == "sweep" and r <= GRAM_MAX_RANK else "kernel"
