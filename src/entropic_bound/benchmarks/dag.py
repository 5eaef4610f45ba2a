"""The whole training DAG priced from per-cell costs (``bench --dag``): every student of the
grids (E3, E5), of the fixed-operator experiments (E1, E2) and E6's LMs, counted by the
trainers' own plans from the paper's config, at the measured seconds per step of its cell, at
the flop floor and at the GEMM floor; and the cost of starting each job of the DAG.
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

from entropic_bound.benchmarks.cells import CELLS, floor_flops, order, paper_cell, step_flops
from entropic_bound.benchmarks.gemm_floor import (
    GemmFloor,
    ladder_listings,
    listing_flops,
    lm_products,
)

# The grids whose every student the cells above price (the fast trainer's students of E3 and
# E5), and the fixed-operator experiments whose students the ladder cells price.
GRID_EXPERIMENTS = ("e3", "e5")
LADDER_EXPERIMENTS = ("e1", "e2")
TRAINING_RULES = {"train_grid_cells", "train_fixed_cells", "train_lm_cells"}
BUDGET_S = 2 * 3600 * 2  # the target: the whole paper in 2 h on 2 cores


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


def lm_students(paper: dict, steps_run: dict[int, int] | None = None) -> list[dict]:
    """E6's LM cells of ``paper``, one row per d_model: steps (``max_steps``: early stopping
    can only end a cell sooner, so this prices the most it costs), datasets (corpora x seeds)
    and the model's shape (config sections ``e6.model`` and ``e6.train``). ``steps_run``
    (d_model -> steps summed over its cells, :func:`lm_steps_run`) prices a d_model at the
    steps a finished run's cells trained instead (``steps_total``)."""
    c = paper["e6"]
    model, train = c["model"], c["train"]
    rows = [{"experiment": "e6", "d_model": d, "steps": train["max_steps"],
             "datasets": len(c["corpora"]) * len(c["seeds"]), "batch": train["batch"],
             "heads": model["heads"], "layers": model["layers"],
             "ffn_mult": model["ffn_mult"], "context": model["context"]}
            for d in c["d_models"]]
    for row in rows:
        if steps_run and row["d_model"] in steps_run:
            row["steps_total"] = steps_run[row["d_model"]]
    return rows


def lm_steps_run(cells: str | Path) -> dict[int, int]:
    """d_model -> the training steps E6's cells under ``cells`` (``results/cells/e6``) ran,
    summed over corpora and seeds: each cell's ``stop_step`` from its metrics file."""
    import pandas as pd

    files = sorted(Path(cells).glob("*/d*/s*.metrics.parquet"))
    if not files:
        raise SystemExit(f"{cells}: no E6 cell metrics (<corpus>/d<d_model>/s<seed>"
                         ".metrics.parquet); give the cells folder of a finished run")
    metrics = pd.concat([pd.read_parquet(f, columns=["d_model", "stop_step"]) for f in files])
    return {int(d): int(steps) for d, steps in metrics.groupby("d_model")["stop_step"].sum()
            .items()}


def _student_steps(st: dict) -> int:
    """Student-steps of one row of students: a finished run's total where it gives one (E6's
    ``steps_total``), else steps x datasets."""
    return st.get("steps_total", st["steps"] * st["datasets"])


def _lm_listing(st: dict):
    return lambda m: lm_products(m, st["d_model"], st["heads"], st["layers"], st["ffn_mult"],
                                 st["context"])


def dag_estimate(paper: dict, seconds_per_step: dict[str, float], ceiling: float,
                 ladder_seconds_per_step: dict[tuple[str, str], float] | None = None,
                 gemm_floor: GemmFloor | None = None,
                 lm_steps: dict[int, int] | None = None) -> list[dict]:
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
    student is also priced at the GEMM floor (``gemm_floor_s``; :class:`GemmFloor`).
    ``lm_steps``: E6 at the steps a finished run trained (:func:`lm_students`)."""
    out: dict[str, dict] = {}

    def add(st: dict, step_flops_floor: float, gemm_step_s: float | None) -> dict:
        row = out.setdefault(st["experiment"], {"experiment": st["experiment"], "students": 0,
                                                "student_steps": 0, "estimate_s": 0.0,
                                                "floor_s": 0.0, "unpriced_steps": 0})
        steps = _student_steps(st)
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
    for st in lm_students(paper, lm_steps):
        row = add(st, listing_flops(_lm_listing(st), st["batch"]),
                  gemm_floor and gemm_floor.listing_seconds(_lm_listing(st), st["batch"]))
        row["unpriced_steps"] += _student_steps(st)
    return list(out.values())


def job_start_seconds(command: str, rounds: int = 3) -> float:
    """Seconds a fresh interpreter takes to import what ``entropic-bound <command>`` imports
    itself (:func:`code_inputs.command_imports`; the best of ``rounds``): what every job of a
    rule running that command pays before its work, since Snakemake starts one process per
    job."""
    import subprocess
    import sys

    from entropic_bound.store import command_imports

    modules = ", ".join(["entropic_bound.cli", *command_imports(command)])
    best = math.inf
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {modules}"], check=True)
        best = min(best, time.perf_counter() - start)
    return best


_RULE = re.compile(r"^rule (\w+):", re.M)
_COMMAND = re.compile(r"entropic-bound ([a-z0-9-]+)")
# `use rule A as B with:` runs A's command (its shell is inherited unless the block sets one)
_USE_RULE = re.compile(r"^use rule (\w+) as (\w+)", re.M)
# a shell command given by name (MAKE_DATA; a stored rule's STORED runs the command of its
# `job` param, written in the rule)
_SHELL_NAME = re.compile(r"^    shell:\n\s+([A-Z][A-Z0-9_]*)\s*$", re.M)


def rule_commands(rules_dir: str = "workflow/rules") -> dict[str, str]:
    """The ``entropic-bound`` command each rule of the workflow runs (a rule runs one, by the
    workflow's design, written in its shell, its stored `job` param or the constant its shell
    names; a rule made by ``use rule`` runs its parent's); rules that run none (``all``) are
    absent."""
    texts = {path: path.read_text(encoding="utf-8")
             for path in sorted(Path(rules_dir).glob("*.smk"))}
    named = {m.group(1): c.group(1) for text in texts.values()
             for m in re.finditer(r"^([A-Z][A-Z0-9_]*) = \(?\s*\"", text, re.M)
             if (c := _COMMAND.match(text, m.end()))}
    commands = {}
    for text in texts.values():
        rules = list(_RULE.finditer(text))
        for match, end in zip(rules, [m.start() for m in rules[1:]] + [len(text)]):
            by_name = _SHELL_NAME.search(text, match.end(), end)
            if by_name and by_name.group(1) in named:
                commands[match.group(1)] = named[by_name.group(1)]
            elif command := _COMMAND.search(text, match.end(), end):
                commands[match.group(1)] = command.group(1)
    for text in texts.values():
        for use in _USE_RULE.finditer(text):
            if use.group(1) in commands:
                commands.setdefault(use.group(2), commands[use.group(1)])
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
