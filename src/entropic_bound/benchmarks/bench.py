"""Benchmark: the fast trainer against the naive reference loop on the same cells, one run.

    python -m entropic_bound.benchmarks.bench [--steps N] [--threads T] [--device cpu|cuda]

Per cell type (E3 linear_qk and softmax_qk sweep cells, E3 recovery cells, E2 ladder cells B1
and B2) it trains the same student from the same initialisation with both trainers, each in a
fresh subprocess (so that peak memory is that trainer's own), and prints seconds per cell (at
the paper's step count, from the measured seconds per step), the ratio, peak resident memory,
achieved GFLOP/s against a measured matmul ceiling of this machine, the largest relative
difference of the final losses and of the learned kernels' R~eff, and the floor: seconds per
cell of the cheapest known formulation run at the matmul ceiling (:func:`cells.floor_flops`), with
the ratio over the naive loop that such a perfect trainer would reach ("max ratio"), i.e. the
most this hardware allows; and the GEMM floor: seconds per cell of the cheapest formulation's
matrix products alone, each timed at its own shapes
(:mod:`entropic_bound.benchmarks.gemm_floor`), the fastest any trainer built from torch's
GEMMs could be. Not a test: it measures.

With ``--dag`` it also prices the whole training DAG from per-cell costs: every grid student
(E3, E5) at the seconds per step of the cell of its experiment, kind, role and order (the fast
trainer's Gram or kernel order; within an order the step's flops scale the cost to the
student's rank), and at the floor; every fixed-operator student (E1, E2: the autograd loop the
workflow runs them with) at the seconds per step of its (experiment, class) cell, timed at
r = r* (:func:`dag.ladder_cells`); every student of the training DAG (grids, ladders and E6's
LMs) also at its flop floor and its GEMM floor, summed against the 2 h budget of the whole paper.
Given a finished run (``--dag results/benchmarks``) it prints the run's measured training
job-seconds beside the estimate and the run's job-seconds per experiment over every rule
(E4's estimators and E6's LMs have no cell). Beside the GEMM floor it prints the cost of
starting every job of the DAG (Snakemake's job statistics, :func:`dag.dag_job_counts`; a fresh
interpreter importing the job's command's modules, :func:`dag.job_start_seconds`).
``--dag --floor`` prints the floors alone, timing no trainer (a few minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import resource
import time
from dataclasses import dataclass

from entropic_bound.benchmarks.cells import CELLS, PAPER, floor_flops, paper_cell, step_flops
from entropic_bound.benchmarks.dag import (
    dag_estimate,
    fixed_spec,
    ladder_cells,
    lm_steps_run,
    print_dag,
)
from entropic_bound.benchmarks.gemm_floor import GemmFloor


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
    parser.add_argument("--e6-cells", metavar="CELLS",
                        help="with --dag: price E6 at the steps a finished run's cells trained "
                             "(their metrics under CELLS, e.g. results/cells/e6) instead of at "
                             "e6.train.max_steps")
    a = parser.parse_args(argv)
    from entropic_bound.plumbing.settings import effective_config

    paper = effective_config(*PAPER)
    ceiling = matmul_ceiling(a.threads, a.device)
    gemm = GemmFloor() if a.device == "cpu" else None
    lm_steps = lm_steps_run(a.e6_cells) if a.e6_cells else None
    print(f"matmul ceiling: {ceiling:.1f} GFLOP/s (float32 2048^3 GEMM, {a.threads} thread(s), "
          f"{a.device}); {a.steps} steps per measurement\n")
    if a.floor:
        print_dag(dag_estimate(paper, {}, ceiling, None, gemm, lm_steps), a.dag or "")
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
        print_dag(dag_estimate(paper, per_step, ceiling, ladder_per_step, gemm, lm_steps), a.dag)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
