"""Benchmark: the fast trainer against the naive reference loop on the same cells, one run.

    python -m entropic_bound.benchmarks.bench [--steps N] [--threads T] [--device cpu|cuda]

Per cell type (E3 linear_qk and softmax_qk sweep cells, E3 recovery cells, E2 ladder cells B1
and B2) it trains the same student from the same initialisation with both trainers, each in a
fresh subprocess (so that peak memory is that trainer's own), and prints seconds per cell (at
the paper's step count, from the measured seconds per step), the ratio, peak resident memory,
achieved GFLOP/s against a measured matmul ceiling of this machine, the largest relative
difference of the final losses and of the learned kernels' R~eff, and the floor: seconds per
cell of the cheapest known formulation run at the matmul ceiling (:func:`floor_flops`), with
the ratio over the naive loop that such a perfect trainer would reach ("max ratio"), i.e. the
most this hardware allows; and the GEMM floor: seconds per cell of the cheapest formulation's
matrix products alone, each timed at its own shapes (:mod:`entropic_bound.benchmarks.gemm_floor`), the
fastest any trainer built from torch's GEMMs could be. Not a test: it measures.

With ``--dag`` it also prices the whole training DAG from per-cell costs: every grid student
(E3, E5) at the seconds per step of the cell of its experiment, kind, role and order (the fast
trainer's Gram or kernel order; within an order the step's flops scale the cost to the
student's rank), and at the floor; every fixed-operator student (E1, E2: the autograd loop the
workflow runs them with) at the seconds per step of its (experiment, class) cell, timed at
r = r* (:func:`ladder_cells`); every student of the training DAG (grids, ladders and E6's
LMs) also at its flop floor and its GEMM floor, summed against the 2 h budget of issue 11.
Given a finished run (``--dag results/benchmarks``) it prints the run's measured training
job-seconds beside the estimate and the run's job-seconds per experiment over every rule
(E4's estimators and E6's LMs have no cell). Beside the GEMM floor it prints the cost of
starting every job of the DAG (Snakemake's job statistics, :func:`dag_job_counts`; a fresh
interpreter importing the job's command's modules, :func:`job_start_seconds`).
``--dag --floor`` prints the floors alone, timing no trainer (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import re
import resource
import time
from dataclasses import dataclass
from pathlib import Path

from entropic_bound.benchmarks.gemm_floor import (
    GemmFloor,
    ladder_listings,
    listing_flops,
    lm_products,
)

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
# The grids whose every student the cells above price (the fast trainer's students of E3 and
# E5), and the fixed-operator experiments whose students the ladder cells price.
GRID_EXPERIMENTS = ("e3", "e5")
LADDER_EXPERIMENTS = ("e1", "e2")
TRAINING_RULES = {"train_grid_cells", "train_fixed_cells", "train_lm_cells"}
PAPER = ("config.yaml", "workflow/schemas/config.schema.yaml")
BUDGET_S = 2 * 3600 * 2  # issue 11's target: the whole paper in 2 h on 2 cores


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


def grid_students(paper: dict) -> list[dict]:
    """Every student the grids of ``paper`` (the effective config) train, one row per student
    and dataset family: experiment, kind, role, rank r, steps, datasets (seeds x spectra), and
    the shape n, T, d. Built by the trainer's own plan (:func:`train_grid.students_of`)."""
    from entropic_bound.data.teachers import TeacherSpec
    from entropic_bound.training.grid import GridTraining, students_of

    rows = []
    for exp in GRID_EXPERIMENTS:
        c = paper[exp]
        train = GridTraining(**c["train"])
        datasets = len(c["seeds"]) * len(c.get("spectra", ["sharp"]))
        for kind in c["teachers"]:
            for r_star in c["r_stars"]:
                spec = TeacherSpec(kind, T=c["T"], d=c["d"], r_star=r_star, n=c["n"],
                                   sigma=c["sigma"], seed=0)
                rows += [{"experiment": exp, "kind": kind, "role": s.role, "r": s.r,
                          "steps": s.steps, "datasets": datasets, "n": c["n"], "T": c["T"],
                          "d": c["d"]} for s in students_of(spec, train)]
    return rows


def fixed_spec(c: dict, operator: str):
    """The TeacherSpec of seed 0 of a fixed-operator experiment (config section ``c``)."""
    from entropic_bound.data.teachers import TeacherSpec

    return TeacherSpec("fixed_operator", T=c["T"], d=c["d"], r_star=c["r_star"], n=c["n"],
                       sigma=c["sigma"], seed=0, operator=operator)


def ladder_students(paper: dict) -> list[dict]:
    """Every student the fixed-operator experiments of ``paper`` train, one row per student and
    operator: experiment, class, role, rank r, steps, datasets (seeds). Built by the trainer's
    own plan (:func:`train_fixed.students_of`) over the paper's operator (with its
    over-parameterised students) and each sensitivity operator (at r = r* only)."""
    from entropic_bound.plumbing.settings import fixed_operators
    from entropic_bound.training.fixed import FixedTraining, students_of

    rows = []
    for exp in LADDER_EXPERIMENTS:
        c = paper[exp]
        for operator in fixed_operators(c):
            cfg = FixedTraining(**c["train"], overparam=operator == c["operator"])
            rows += [{"experiment": exp, "class": s.cls, "role": s.role, "r": s.r,
                      "steps": s.steps, "datasets": len(c["seeds"])}
                     for s in students_of(exp, fixed_spec(c, operator), cfg)]
    return rows


def ladder_cells(paper: dict) -> dict[tuple[str, str], int]:
    """The (experiment, class) cells that price the fixed-operator students, each with the rank
    it is timed at: r* (B1c, full rank by construction: d). One cell prices every rank of its
    class: at d <= 12 the rank-dependent products (X W_Q, X W_K, P Q^T) are a small part of a
    step next to the value path, the LayerNorms and the FFN; the measured-over-estimate ratio
    of a finished run shows what that costs."""
    cells: dict[tuple[str, str], int] = {}
    for st in ladder_students(paper):
        key = (st["experiment"], st["class"])
        if st["role"] in ("sweep", "at_r_star") and (
                key not in cells or st["r"] == paper[st["experiment"]]["r_star"]):
            cells[key] = st["r"]
    return cells


def lm_students(paper: dict) -> list[dict]:
    """E6's LM cells of ``paper``, one row per d_model: steps, datasets (corpora x seeds) and
    the model's shape (config sections ``e6.model`` and ``e6.train``)."""
    c = paper["e6"]
    model, train = c["model"], c["train"]
    return [{"experiment": "e6", "d_model": d, "steps": train["steps"],
             "datasets": len(c["corpora"]) * len(c["seeds"]), "batch": train["batch"],
             "heads": model["heads"], "layers": model["layers"],
             "ffn_mult": model["ffn_mult"], "context": model["context"]}
            for d in c["d_models"]]


def _lm_listing(st: dict):
    return lambda m: lm_products(m, st["d_model"], st["heads"], st["layers"], st["ffn_mult"],
                                 st["context"])


def dag_estimate(paper: dict, seconds_per_step: dict[str, float], ceiling: float,
                 ladder_seconds_per_step: dict[tuple[str, str], float] | None = None,
                 gemm_floor: GemmFloor | None = None) -> list[dict]:
    """Job-seconds of the training DAG, per experiment, priced from per-cell costs.

    ``seconds_per_step``: the fast trainer's measured seconds per step of each cell in CELLS.
    A grid student costs steps x datasets x the seconds per step of the cell with its
    experiment, kind, role and :func:`order`, times step_flops(student r) / step_flops(cell r);
    its floor is floor_flops at the matmul ``ceiling`` (GFLOP/s).
    ``ladder_seconds_per_step``: the autograd loop's seconds per step of each
    (experiment, class) of :func:`ladder_cells`; a fixed-operator student costs steps x
    datasets x that of its cell; its floor is the flops of its cheapest formulation
    (:func:`gemm_floor.ladder_listings`) at the ceiling. E6's LM cells (:func:`lm_students`)
    have no cell: their floor is the flops of :func:`gemm_floor.lm_products` at the ceiling.
    Students with no cell are counted in ``unpriced_steps``. ``gemm_floor``: given, every
    student is also priced at the GEMM floor (``gemm_floor_s``; :class:`GemmFloor`)."""
    out: dict[str, dict] = {}

    def add(st: dict, step_flops_floor: float, gemm_step_s: float | None) -> dict:
        row = out.setdefault(st["experiment"], {"experiment": st["experiment"], "students": 0,
                                                "student_steps": 0, "estimate_s": 0.0,
                                                "floor_s": 0.0, "unpriced_steps": 0})
        steps = st["steps"] * st["datasets"]
        row["students"] += st["datasets"]
        row["student_steps"] += steps
        row["floor_s"] += steps * step_flops_floor / (ceiling * 1e9)
        if gemm_step_s is not None:
            row["gemm_floor_s"] = row.get("gemm_floor_s", 0.0) + steps * gemm_step_s
        return row

    ladders = ladder_seconds_per_step is not None or gemm_floor is not None
    for st in ladder_students(paper) if ladders else []:
        c = paper[st["experiment"]]
        shape = (c["n"], c["T"], c["d"], st["r"])
        row = add(st, min(listing_flops(listing, c["n"])
                          for listing, _ in ladder_listings(st["class"], *shape[1:])),
                  gemm_floor and gemm_floor.ladder_step_seconds(st["class"], *shape))
        cost = (ladder_seconds_per_step or {}).get((st["experiment"], st["class"]))
        if cost is None:
            row["unpriced_steps"] += st["steps"] * st["datasets"]
        else:
            row["estimate_s"] += st["steps"] * st["datasets"] * cost
    cells = {name: paper_cell(name, paper) for name in seconds_per_step}
    for st in grid_students(paper):
        shape = (st["n"], st["T"], st["d"])
        row = add(st, floor_flops(st["kind"], *shape, st["r"]),
                  gemm_floor and gemm_floor.step_seconds(st["kind"], *shape, st["r"])[0])
        steps = st["steps"] * st["datasets"]
        match = next((name for name, cell in cells.items()
                      if CELLS[name][0] == st["experiment"] and cell.kind == st["kind"]
                      and CELLS[name][4] == st["role"]
                      and order(cell.kind, CELLS[name][4], cell.r)
                      == order(st["kind"], st["role"], st["r"])), None)
        if match is None:
            row["unpriced_steps"] += steps
            continue
        scale = (step_flops("fast", st["kind"], *shape, st["r"])
                 / step_flops("fast", st["kind"], *shape, cells[match].r))
        row["estimate_s"] += steps * seconds_per_step[match] * scale
    for st in lm_students(paper):
        row = add(st, listing_flops(_lm_listing(st), st["batch"]),
                  gemm_floor and gemm_floor.listing_seconds(_lm_listing(st), st["batch"]))
        row["unpriced_steps"] += st["steps"] * st["datasets"]
    return list(out.values())


def job_start_seconds(command: str, rounds: int = 3) -> float:
    """Seconds a fresh interpreter takes to import what ``entropic-bound <command>`` imports
    itself (:func:`code_inputs.command_imports`; the best of ``rounds``): what every job of a
    rule running that command pays before its work, since Snakemake starts one process per
    job."""
    import subprocess
    import sys

    from entropic_bound.plumbing.code_inputs import command_imports

    modules = ", ".join(["entropic_bound.cli", *command_imports(command)])
    best = math.inf
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {modules}"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


_RULE = re.compile(r"^rule (\w+):", re.M)
_COMMAND = re.compile(r"entropic-bound ([a-z0-9-]+)")


def rule_commands(rules_dir: str = "workflow/rules") -> dict[str, str]:
    """The ``entropic-bound`` command each rule of the workflow runs (a rule runs one, by the
    workflow's design); rules that run none (``all``) are absent."""
    commands = {}
    for path in sorted(Path(rules_dir).glob("*.smk")):
        text = path.read_text(encoding="utf-8")
        rules = list(_RULE.finditer(text))
        for match, end in zip(rules, [m.start() for m in rules[1:]] + [len(text)]):
            command = _COMMAND.search(text, match.end(), end)
            if command:
                commands[match.group(1)] = command.group(1)
    return commands


def dag_job_counts(workdir: str = ".") -> dict[str, int]:
    """Jobs per rule of the whole DAG of the workflow in ``workdir`` (its config), as if
    nothing were built: Snakemake's own job statistics of ``--dry-run --forceall``."""
    import subprocess

    out = subprocess.run(["snakemake", "--dry-run", "--forceall", "--quiet", "rules"],
                         cwd=workdir, capture_output=True, text=True, check=True).stdout
    counts = {}
    table = out[out.rindex("Job stats:"):].splitlines()[3:]  # after the header and its rule
    for line in table:
        rule, count = line.split()
        if rule == "total":
            return counts
        counts[rule] = int(count)
    raise ValueError(f"no 'total' row in Snakemake's job statistics:\n{out}")


def matmul_ceiling(threads: int, device: str, rounds: int = 5) -> float:
    """GFLOP/s of a large float32 GEMM on this machine with the same thread count: the best of
    ``rounds`` rounds (a shared machine only ever slows a round, and a ceiling measured low
    would raise every floor priced at it)."""
    import torch

    torch.set_num_threads(threads)
    a = torch.randn(2048, 2048, device=device)
    b = torch.randn(2048, 2048, device=device)
    a @ b
    best = math.inf
    for _ in range(rounds):
        _sync(device)
        start = time.perf_counter()
        for _ in range(3):
            a @ b
        _sync(device)
        best = min(best, (time.perf_counter() - start) / 3)
    return 2 * 2048**3 / best / 1e9


def _sync(device: str) -> None:
    if device == "cuda":
        import torch

        torch.cuda.synchronize()


@dataclass
class Run:
    seconds_per_step: float
    peak_mb: float
    loss: float
    reff_energy: float


def _run_cell(args: tuple) -> dict:
    """In a fresh process: train one cell with one trainer; report time, memory, results."""
    trainer, cell, steps, threads, device = args  # cell: a Cell
    import numpy as np
    import torch

    from entropic_bound.data.teachers import TeacherSpec, generate
    from entropic_bound.measures import spectra
    from entropic_bound.models.students import init_qk, qk_forward
    from entropic_bound.training.fast import train_fast
    from entropic_bound.training.loop import evaluate, train_adam

    torch.set_num_threads(threads)
    kind, d, r, scale = cell.kind, cell.d, cell.r, cell.init_scale
    spec = TeacherSpec(kind, T=cell.T, d=d, r_star=cell.r_star, n=cell.n, sigma=cell.sigma,
                       seed=0)
    data = generate(spec)
    x = torch.tensor(data["X"], dtype=torch.float32, device=device)
    y = torch.tensor(data["Y"], dtype=torch.float32, device=device)
    init = init_qk(d, r, 0, role=int(scale != 1.0), init_scale=scale)

    def fwd(xx, WQ, WK, V):
        return qk_forward(kind, xx, WQ, WK, V)

    def train(n_steps: int) -> dict:
        if trainer == "naive":
            return train_adam(fwd, init, x, y, steps=n_steps, lr=cell.lr,
                              log_every=n_steps).params
        return train_fast(kind, [init], x, y, steps=n_steps, lr=cell.lr, log_every=n_steps,
                          chunk=cell.chunk).params[0]

    params, timing = _timed(train, steps, device)
    kernel = params["WQ"].astype(np.float64) @ params["WK"].astype(np.float64).T
    return {**timing, "loss": evaluate(fwd, params, data["X"], data["Y"]),
            "reff_energy": spectra.reff_energy(kernel)}


def _run_ladder(args: tuple) -> dict:
    """In a fresh process: time the autograd loop (train.train_adam, as train_fixed runs it) on
    one (experiment, class) cell at the paper's shape, on seed 0 of the paper's operator."""
    exp, cls, r, paper, steps, threads, device = args
    import torch

    from entropic_bound.data.teachers import generate
    from entropic_bound.models import ladder
    from entropic_bound.training.loop import train_adam

    torch.set_num_threads(threads)
    c = paper[exp]
    data = generate(fixed_spec(c, c["operator"]))
    x = torch.tensor(data["X"], dtype=torch.float32, device=device)
    y = torch.tensor(data["Y"], dtype=torch.float32, device=device)
    init = ladder.init_params(cls, c["T"], c["d"], r, 0, role=0)

    def fwd(xx, **p):
        return ladder.forward(cls, xx, **p)

    def train(n_steps: int) -> dict:
        return train_adam(fwd, init, x, y, steps=n_steps, lr=c["train"]["lr"],
                          log_every=n_steps).params

    return _timed(train, steps, device)[1]


def _timed(train, steps: int, device: str) -> tuple[dict, dict]:
    """(train(steps)'s result, its seconds per step and peak resident MB), after a 3-step
    warm-up (thread pools, allocator, first-call dispatch)."""
    train(3)
    _sync(device)
    start = time.perf_counter()
    result = train(steps)
    _sync(device)
    seconds = time.perf_counter() - start
    return result, {"seconds_per_step": seconds / steps, "peak_mb": peak_rss_mb()}


def peak_rss_mb() -> float:
    """Peak resident MB of this process image: Linux's VmHWM, which starts afresh at exec.
    getrusage's ru_maxrss does not: a spawned worker inherits the parent's peak from the fork
    before its exec, so it would report the parent's size wherever that is larger."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300,
                        help="training steps per measurement (the paper's count is used to "
                             "convert to seconds per cell; use 1500 for final-loss agreement "
                             "at the paper's step count)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads per process")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--cells", nargs="*", default=list(CELLS), help="cell names to run")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--dag", nargs="?", const="", metavar="BENCHMARKS",
                        help="also price the whole training DAG from the cells; with a "
                             "finished run's benchmark folder (results/benchmarks), beside its "
                             "measured job-seconds")
    parser.add_argument("--floor", action="store_true",
                        help="with --dag: only the DAG's floors (no trainer is timed)")
    a = parser.parse_args(argv)
    from entropic_bound.plumbing.settings import effective_config

    paper = effective_config(*PAPER)
    ceiling = matmul_ceiling(a.threads, a.device)
    gemm = GemmFloor() if a.device == "cpu" else None
    print(f"matmul ceiling: {ceiling:.1f} GFLOP/s (float32 2048^3 GEMM, {a.threads} thread(s), "
          f"{a.device}); {a.steps} steps per measurement\n")
    if a.floor:
        print_dag(dag_estimate(paper, {}, ceiling, None, gemm), a.dag or "")
        return
    header = (f"{'cell':34s} {'naive s/cell':>12s} {'fast s/cell':>11s} {'ratio':>6s} "
              f"{'floor s/cell':>12s} {'GEMM floor':>10s} {'max ratio':>9s} "
              f"{'naive MB':>8s} {'fast MB':>8s} {'naive GF/s':>10s} {'fast GF/s':>9s} "
              f"{'dloss rel':>9s} {'dR~eff':>8s}")
    print(header)
    rows = []
    ctx = mp.get_context("spawn")
    for cell in a.cells:
        spec = paper_cell(cell, paper)
        kind, T, d, r, paper_steps, n = spec.kind, spec.T, spec.d, spec.r, spec.steps, spec.n
        res = {}
        for trainer in ("naive", "fast"):
            with ctx.Pool(1) as pool:
                res[trainer] = Run(**pool.apply(_run_cell, ((trainer, spec, a.steps, a.threads,
                                                             a.device),)))
        nv, fs = res["naive"], res["fast"]
        gf = {t: step_flops(t, kind, n, T, d, r) / res[t].seconds_per_step / 1e9
              for t in res}
        floor_s = floor_flops(kind, n, T, d, r) / (ceiling * 1e9)
        gemm_s = gemm.step_seconds(kind, n, T, d, r)[0] if gemm else math.nan
        row = {"cell": cell, "naive_s_per_cell": nv.seconds_per_step * paper_steps,
               "floor_s_per_cell": floor_s * paper_steps,
               "gemm_floor_s_per_cell": gemm_s * paper_steps,
               "max_ratio": nv.seconds_per_step / floor_s,
               "fast_s_per_cell": fs.seconds_per_step * paper_steps,
               "fast_s_per_step": fs.seconds_per_step,
               "ratio": nv.seconds_per_step / fs.seconds_per_step,
               "naive_peak_mb": nv.peak_mb, "fast_peak_mb": fs.peak_mb,
               "naive_gflops": gf["naive"], "fast_gflops": gf["fast"],
               "loss_rel_diff": abs(nv.loss - fs.loss) / abs(nv.loss),
               "reff_energy_diff": abs(nv.reff_energy - fs.reff_energy),
               "ceiling_gflops": ceiling, "steps": a.steps, "threads": a.threads}
        rows.append(row)
        print(f"{cell:34s} {row['naive_s_per_cell']:12.1f} {row['fast_s_per_cell']:11.1f} "
              f"{row['ratio']:6.2f} {row['floor_s_per_cell']:12.1f} "
              f"{row['gemm_floor_s_per_cell']:10.1f} {row['max_ratio']:9.2f} "
              f"{nv.peak_mb:8.0f} {fs.peak_mb:8.0f} {gf['naive']:10.1f} "
              f"{gf['fast']:9.1f} {row['loss_rel_diff']:9.1e} {row['reff_energy_diff']:8.1e}",
              flush=True)
    if a.dag is not None:
        per_step = {row["cell"]: row["fast_s_per_step"] for row in rows}
        print(f"\nfixed-operator cells (E1/E2's autograd loop, {a.steps} steps each):")
        print(f"{'cell':22s} {'r':>3s} {'s/step':>8s} {'s per 1500 steps':>16s} {'MB':>6s}")
        ladder_per_step = {}
        for (exp, cls), r in ladder_cells(paper).items():
            with ctx.Pool(1) as pool:
                timing = pool.apply(_run_ladder, ((exp, cls, r, paper, a.steps, a.threads,
                                                   a.device),))
            ladder_per_step[(exp, cls)] = timing["seconds_per_step"]
            print(f"{exp + ' ' + cls:22s} {r:3d} {timing['seconds_per_step']:8.4f} "
                  f"{timing['seconds_per_step'] * 1500:16.1f} {timing['peak_mb']:6.0f}",
                  flush=True)
        print_dag(dag_estimate(paper, per_step, ceiling, ladder_per_step, gemm), a.dag)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)


def print_dag(estimate: list[dict], benchmarks: str) -> None:
    """The estimated training job-seconds beside a finished run's measured ones, then the run's
    job-seconds per experiment over every rule."""
    import pandas as pd

    from entropic_bound.reporting.costs import cost_summary, read_benchmarks

    table = pd.DataFrame(estimate)
    records = read_benchmarks(benchmarks) if benchmarks else None
    if records is not None:
        training = records[records["rule"].isin(TRAINING_RULES)]
        table["measured_s"] = table["experiment"].map(
            training.groupby("experiment")["seconds"].sum())
        # no ratio where nothing was priced (E6, or every row under --floor)
        table["measured_over_estimate"] = (table["measured_s"]
                                           / table["estimate_s"].where(table["estimate_s"] > 0))
    print("\ntraining DAG (job-seconds, one thread per job; floor: the flops at the matmul "
          "ceiling; gemm_floor: the products at their own shapes' speed):")
    print(table.to_string(index=False, float_format="{:.1f}".format))
    if "gemm_floor_s" in table:
        floor = table["gemm_floor_s"].sum()
        print(f"the whole training DAG at the GEMM floor: {floor:.0f} job-seconds, "
              f"{floor / 7200:.2f} h on 2 cores at full use ({floor / BUDGET_S:.0%} of a 2 h "
              f"run's {BUDGET_S:,} job-seconds); the work of E4's estimators and of every measure, "
              f"table and data job is not in it")
        commands = rule_commands()
        jobs = {rule: n for rule, n in dag_job_counts().items() if rule in commands}
        per_command = {c: job_start_seconds(c) for c in sorted({commands[r] for r in jobs})}
        starts = {rule: per_command[commands[rule]] for rule in jobs}
        start = sum(jobs[rule] * starts[rule] for rule in jobs)
        print(f"job starts (a fresh interpreter importing its command's modules, for each of "
              f"the DAG's {sum(jobs.values())} jobs): "
              + ", ".join(f"{rule} {jobs[rule]} x {starts[rule]:.2f} s" for rule in jobs)
              + f" = {start:.0f} job-seconds; with the GEMM floor {floor + start:.0f} "
                f"({(floor + start) / BUDGET_S:.0%} of the budget)")
    if records is not None:
        summary = cost_summary(records, "experiment")
        print("\nthe run, every benchmarked rule (job-seconds per experiment):")
        print(summary[["experiment", "jobs", "job_seconds"]].to_string(
            index=False, float_format="{:.0f}".format))
        total = records["seconds"].sum()
        print(f"total: {total:.0f} job-seconds ({total / 3600:.2f} h of one core, "
              f"{total / 7200:.2f} h on 2 cores at full use)")


if __name__ == "__main__":
    main()
