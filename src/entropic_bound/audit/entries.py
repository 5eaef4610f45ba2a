"""``entropic-bound audit``: recompute stored entries and compare them with the store.

A record is data: the audit never runs the command a store record names. It recomputes the
entry of a job of *this run* by the exact command this checkout's workflow gave that job, as
the store's wrapper noted it (its notes: :mod:`entropic_bound.store`), with the job's outputs sent
to a temporary folder, and compares the result with the job's outputs (the entry's files,
checked against its seal as they were fetched); so the run must exist here first:

The command runs with the job's thread counts (torch's from its ``--threads``, BLAS's from the
job's note: what Snakemake gave it in this run). The comparison is

* **exact** (every value bit-identical, NaNs in the same places) where the entry was computed
  on the same kernel class: the same CPU kernel flags (AVX2, AVX-512, bf16: :data:`KERNEL_FLAGS
  <entropic_bound.plumbing.job_record.KERNEL_FLAGS>`) and the same torch CPU capability;
* **within the machine tolerance** otherwise. A training entry (``train-grid``, ``train-fixed``,
  ``train-lm``) by what is identifiable and what the paper reads
  (:mod:`entropic_bound.audit.trained_comparison`: operators rather than factors, losses in
  noise floors, E6's losses against its seeds' spread); any other entry elementwise,
  ``|a - b| <= atol + rtol * |b|`` (numpy's ``allclose``,
  :mod:`entropic_bound.audit.file_comparison`), except the ranks read off a spectrum
  (numerical, Gavish-Donoho, at other tolerances, numpy's, largest gap; whatever their column's
  dtype): a stored rank agrees when it lies in the band of ranks that machine rounding allows
  around the recomputed spectrum's threshold (:mod:`entropic_bound.audit.rank_bands`, which
  the command runs under), and where it moved within its band, the values read at that rank (the
  numerical rank's margins, a column that equals the rank) are judged with it (docs/design.md,
  "Determinism", gives the differences measured across capabilities).

Each outcome says which comparison ran (``comparison``) and its ``margin``: the largest
difference over its tolerance (<= 1 agrees; 0 bit-identical).

Columns whose names hold ``seconds`` (wall-clock timings, different on every run) and the
record itself are not compared. A mismatch fails the audit (exit 1).

The entries are drawn at random with a printed seed, over the whole run or per experiment
(:func:`entropic_bound.plumbing.experiments.experiment_of`, from the job's rule and outputs),
among the entries of this run's noted jobs: the workflow's ``audit_store``
rule draws per experiment, so the report shows one recomputed entry of each. Entries whose
command reads a package registry (:data:`NETWORK_COMMANDS`: a corpus text, pinned by its
sha256 instead) are not drawn: an audit must run where only the checkout is.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import random
import re
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from entropic_bound.audit import rank_bands
from entropic_bound.audit.downstream import run_command
from entropic_bound.audit.file_comparison import RTOL, compare
from entropic_bound.audit.trained_comparison import (
    Comparison,
    compare_lm_metrics,
    compare_metrics,
    compare_operators,
    weights_of,
)
from entropic_bound.plumbing import job_record
from entropic_bound.plumbing.atomic import read_parquet
from entropic_bound.plumbing.experiments import experiment_of
from entropic_bound.store import NOTES, Refused, Store, signed_records
from entropic_bound.store import read_notes as notes

log = logging.getLogger(__name__)

NETWORK_COMMANDS = ("fetch-corpus",)
STORE = "store"  # the workflow's default (config ``store``)


TRAINING_COMMANDS = ("train-grid", "train-fixed", "train-lm")


@dataclass
class Outcome:
    key: str
    experiment: str
    command: str
    exact_required: bool
    max_abs_diff: float
    max_rel_diff: float
    ok: bool
    detail: str = ""
    recomputed: bool = True  # False: the command could not run here (detail says why)
    comparison: str = "bit for bit"  # which comparison ran, and its tolerance
    margin: float = 0.0  # the largest difference over its tolerance (<= 1 agrees)
    # the claims judged with the recomputed entry in place of the stored one
    verdict_check: str = "not checked"
    verdicts_moved: int = 0

    @property
    def verdict(self) -> str:
        """identical / agrees within the machine tolerance / DIFFERS / not recomputed / not
        judged (recomputed, with nothing to judge it by: ``comparison`` says why)."""
        if not self.recomputed:
            return "not recomputed"
        if not self.ok:
            return "DIFFERS"
        if math.isnan(self.margin):
            return "not judged"
        return "identical" if self.max_abs_diff == 0 else "agrees within the machine tolerance"


def kernel_class(machine: object) -> tuple:
    """What decides which kernels a job ran: CPU kernel flags, torch's CPU capability (which
    ``ATEN_CPU_CAPABILITY`` lowers), the variables that choose numpy's and OpenBLAS's kernels
    and the device. ``machine`` is a record's (data): a field of another shape than a record
    writes counts as unknown (None), which no machine's class equals."""
    machine = machine if isinstance(machine, dict) else {}

    def text(value: object) -> str | None:
        return value if isinstance(value, str) else None

    flags, env = machine.get("cpu_flags"), machine.get("kernel_env")
    flags = tuple(flags) if isinstance(flags, list) and all(map(text, flags)) else None
    env = (tuple(sorted((k, v) for k, v in env.items() if k != "ATEN_CPU_CAPABILITY"))
           if isinstance(env, dict) and all(text(k) and text(v) for k, v in env.items())
           else None)
    return (flags, text(machine.get("aten_cpu_capability")), env,
            text(machine.get("device", "cpu")))


def this_kernel_class(stored: dict) -> tuple:
    """This machine's :func:`kernel_class`, with torch's capability only where the entry's
    job loaded torch (a numpy-only job's kernels do not depend on it)."""
    here = job_record.machine()
    if stored.get("aten_cpu_capability") is None:
        here["aten_cpu_capability"] = None
    else:
        import torch

        here["aten_cpu_capability"] = torch.backends.cpu.get_cpu_capability()
    return kernel_class(here)


# the thread counts Snakemake gives a job's linear-algebra libraries (its shell sets each)
THREAD_VARIABLES = ("OMP_NUM_THREADS", "GOTO_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def job_environment(note: dict) -> dict[str, str]:
    """This process's environment with the BLAS threads Snakemake gave the noted job in this
    run (numpy's products depend on the count; 1 where the note has no count). The CPU
    capability is this process's: the audit compares across capabilities
    (``ATEN_CPU_CAPABILITY=avx2 entropic-bound audit ...``)."""
    threads = note.get("blas_threads")
    threads = threads if isinstance(threads, str) and re.fullmatch(r"[1-9]\d{0,3}", threads) \
        else "1"
    env = dict(os.environ)
    env.update(dict.fromkeys(THREAD_VARIABLES, threads))
    return env


def _record(note: dict) -> dict:
    """The record of a noted job (its cost and machine, as data): the job's own record
    output, a copy of its entry's, checked against the seal when it was fetched."""
    path = note["outputs"].get("record")
    try:
        record = json.loads(Path(path).read_text()) if path else {}
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def recorded_seconds(record: dict) -> float:
    """The job time a record states (``s``), as data: a finite number >= 0, else 0."""
    s = record.get("s")
    try:
        s = float(s) if isinstance(s, int | float) and not isinstance(s, bool) else math.nan
    except OverflowError:  # an int of hundreds of digits
        s = math.nan
    return s if math.isfinite(s) and s >= 0 else 0.0


def _command(argv: list[str]) -> str:
    """The ``entropic-bound`` subcommand of a command line."""
    return argv[1] if len(argv) > 1 else "?"


def _experiment(note: dict) -> str:
    """The experiment of a noted job, from its rule and its first output's path (not its
    record's)."""
    first = min(p for n, p in note["outputs"].items() if n != "record")
    return experiment_of(note["rule"], list(Path(first).parts))


def audit_entry(note: dict, workdir: Path, scratch: Path,
                store: str | os.PathLike[str] = STORE) -> tuple[Outcome, dict[str, str]]:
    """Recompute the entry of one noted job of this run into ``scratch``, by the command this
    run's workflow gave the job (its note), and compare it with the entry's files (the job's
    outputs: copies checked against the entry's seal); returns the outcome and the recomputed
    outputs (each output's path as the workflow spells it -> the new file; empty where the
    command could not run)."""
    record = _record(note)
    argv, key = list(note["argv"]), note["entry"]
    command, experiment = _command(argv), _experiment(note)
    machine = record.get("machine") if isinstance(record.get("machine"), dict) else {}
    exact_required = kernel_class(machine) == this_kernel_class(machine)
    scratch.mkdir(parents=True, exist_ok=True)
    made = {path: str(scratch / f"{name}_{Path(path).name}")
            for name, path in note["outputs"].items()}
    stored = {made[path]: Path(path) for name, path in note["outputs"].items()
              if name != "record"}
    recomputed = {path: made[path] for name, path in note["outputs"].items() if name != "record"}
    bands_file = scratch / "rank-bands.json"
    failure = run_command([str(bands_file), "--", *(made.get(a, a) for a in argv[1:])],
                          workdir, job_environment(note),
                          module="entropic_bound.audit.rank_bands")
    if failure:
        return Outcome(key, experiment, command, exact_required, np.inf, np.inf, False,
                       f"the command failed {failure}", recomputed=False), {}
    bands = rank_bands.read(bands_file)
    worst_abs = worst_rel = judged_rel = 0.0
    ok, identical, where = True, True, []
    for ours, theirs in stored.items():
        d_abs, d_rel, exact, close, at, j_rel = compare(Path(ours), theirs, bands)
        where += [at] if at and not exact else []
        worst_abs, worst_rel = max(worst_abs, d_abs), max(worst_rel, d_rel)
        judged_rel = max(judged_rel, j_rel)
        identical &= exact
        ok &= exact if exact_required else close
    if exact_required or identical or command not in TRAINING_COMMANDS:
        how = "bit for bit" if exact_required else (
            f"elementwise, rtol {RTOL:g} (ranks within their rounding bands)")
        margin = 0.0 if identical else (float("inf") if exact_required
                                        else judged_rel / RTOL)
        return Outcome(key, experiment, command, exact_required, worst_abs, worst_rel, ok,
                       f"largest difference at {'; '.join(where)}" if where else "", True,
                       how, margin), recomputed
    judged = compare_training(command, stored, store)
    return Outcome(key, experiment, command, exact_required, worst_abs, worst_rel,
                   judged.agrees, f"largest margin at {judged.where}", True, judged.how,
                   judged.margin), recomputed


def compare_training(command: str, outputs: dict[str, Path],
                     store: str | os.PathLike[str] = STORE) -> Comparison:
    """A recomputed training entry's outputs (recomputed path -> the job's output, a copy of
    the entry's file) against the stored ones, by
    :mod:`entropic_bound.audit.trained_comparison` (E6's seeds read from ``store``)."""
    results = []
    for ours, stored in outputs.items():
        label = stored.name
        if stored.suffix == ".npz" and command != "train-lm":
            results.append(compare_operators(weights_of(Path(ours)), weights_of(stored),
                                             label))
        elif stored.name.endswith("metrics.parquet") and command == "train-lm":
            stored_metrics = read_parquet(stored)
            results.append(compare_lm_metrics(read_parquet(Path(ours)), stored_metrics,
                                              lm_seed_metrics(stored, store), label))
        elif stored.name.endswith("metrics.parquet"):
            results.append(compare_metrics(read_parquet(Path(ours)), read_parquet(stored),
                                           label))
    # a difference first, then what could not be judged (NaN), then the largest margin
    worst = max(results, key=lambda c: (c.margin > 1, math.isnan(c.margin),
                                        0.0 if math.isnan(c.margin) else c.margin))
    return Comparison(worst.margin, worst.where, "; ".join(sorted({c.how for c in results})))


def lm_seed_metrics(metrics_path: Path, store: str | os.PathLike[str] = STORE,
                   root: str | os.PathLike[str] = NOTES) -> pd.DataFrame:
    """The metrics rows of the cell's seeds, this one included: every ``train-lm`` entry of
    the store a trusted key signed (:func:`entropic_bound.store.signed_records`) whose command
    sets every param the noted job of ``metrics_path`` (this run's output) sets, but the seed
    (corpus, width, depth, training protocol), one per seed, each read from the entry and
    checked against its seal: fetched by this run or not, so a partial run judges as a whole
    one does. The noted job's own rows alone where it has no note or no other seed is
    stored."""
    own = read_parquet(metrics_path)
    argv = next((n["argv"] for n in notes(root)
                 if n["outputs"].get("metrics") == str(metrics_path)), None)
    cell = _params_but_seed(argv) if argv else None
    if cell is None:
        return own
    rows, seeds = [own], {cell[1]}
    for entry, record, seal in signed_records(Store(store), "train-lm"):
        found = _params_but_seed(record["argv"])
        suffix = next((s for s in seal if s.startswith("_metrics")), None)
        if found is None or found[0] != cell[0] or found[1] in seeds or suffix is None:
            continue
        try:
            data = Store(store).read_verified(entry, suffix, seal[suffix])
            rows.append(pd.read_parquet(io.BytesIO(data)))
        except (Refused, OSError, ValueError) as err:
            log.warning("audit: %s/%s: a seed's metrics not read: %s", store, entry[:12], err)
            continue
        seeds.add(found[1])
    return pd.concat(rows, ignore_index=True)


def _params_but_seed(argv: list[str]) -> tuple[str, object] | None:
    """A train-lm command's ``--params`` without its seed (canonical JSON), and the seed;
    None where the command has no such object."""
    try:
        params = json.loads(argv[argv.index("--params") + 1])
    except (ValueError, IndexError, TypeError):
        return None
    if not isinstance(params, dict) or "seed" not in params:
        return None
    seed = params.pop("seed")
    return json.dumps(params, sort_keys=True), json.dumps(seed)


def draw(candidates: dict[str, dict], count: int, seed: int,
         per_experiment: bool = False,
         budget_seconds: float | None = None) -> tuple[list[str], list[str]]:
    """``count`` entries drawn with ``random.Random(seed)`` from the entries of this run's
    noted jobs (entry -> note) whose command needs no network, or ``count`` of each
    experiment's (in experiment order); and the experiments left out.

    With ``budget_seconds`` (of recorded job time, the record's ``s``), a training entry is
    preferred: experiments are taken cheapest training first (those with none, or none that
    fits what is left, last), each drawing at random among its training entries that fit an
    equal share of what is left of the budget, else its cheapest training entry if that fits
    what is left, else among its other entries likewise; an experiment none of whose entries
    fits is left out."""
    commands = {key: note["argv"] for key, note in candidates.items()}
    keys = sorted(k for k, argv in commands.items() if _command(argv) not in NETWORK_COMMANDS)
    rng = random.Random(seed)
    if not per_experiment:
        return rng.sample(keys, min(count, len(keys))), []
    groups: dict[str, list[str]] = {}
    for key in keys:
        groups.setdefault(_experiment(candidates[key]), []).append(key)
    if budget_seconds is None:
        return [key for _, group in sorted(groups.items())
                for key in rng.sample(group, min(count, len(group)))], []
    cost = {key: recorded_seconds(_record(candidates[key])) for key in keys}
    training = {exp: [k for k in group if _command(commands[k]) in TRAINING_COMMANDS]
                for exp, group in groups.items()}
    left = float(budget_seconds)

    def cheapest_training(exp: str) -> float:
        costs = [cost[k] for k in training[exp]]
        return min(costs) if costs and min(costs) <= left else float("inf")

    order = sorted(groups, key=lambda e: (cheapest_training(e),
                                          min(cost[k] for k in groups[e]), e))
    chosen, left_out = [], []
    for i, exp in enumerate(order):
        share = left / (len(order) - i)
        others = [k for k in groups[exp] if k not in training[exp]]
        picked: list[str] = []
        for pool in (training[exp], others):
            if not pool:
                continue
            fits = [k for k in pool if cost[k] <= share]
            cheapest = min(pool, key=lambda k: (cost[k], k))
            picked = (rng.sample(fits, min(count, len(fits))) if fits
                      else [cheapest] if cost[cheapest] <= left else [])
            if picked:
                break
        if not picked:
            left_out.append(exp)
        chosen += picked
        left -= sum(cost[k] for k in picked)
    return chosen, left_out


# the verdict check of one recomputed entry: (its command line, its recomputed outputs, a
# scratch folder) -> (what it found, how many verdicts moved)
VerdictCheck = Callable[[list[str], dict[str, str], Path], tuple[str, int]]


def audit(notes_dir: str | os.PathLike[str], count: int, seed: int,
          workdir: str | os.PathLike[str] = ".", keys: list[str] | None = None,
          per_experiment: bool = False, budget_seconds: float | None = None,
          speed: float | None = None, check: VerdictCheck | None = None,
          jobs: int = 1, store: str | os.PathLike[str] = STORE
          ) -> tuple[list[Outcome], list[str]]:
    """Recompute ``count`` entries of this run's noted stored jobs (of each experiment's, with
    ``per_experiment``, within ``budget_seconds`` where given: of this machine's time where
    ``speed`` says how many of its seconds a recorded second costs
    (:mod:`entropic_bound.audit.calibration`), else of recorded time; ``jobs`` recomputed at
    once), drawn by
    :func:`draw`, or the entries whose keys start with one of ``keys``, and compare each with
    the store (see the module's doc); with ``check``, run the verdict check on each recomputed
    entry. Returns the outcomes and the experiments left out."""
    candidates = {note["entry"]: note for note in notes(notes_dir)
                  if note.get("keep") == "entry" and note.get("entry")
                  and "record" in note["outputs"]}
    left_out: list[str] = []
    if keys:
        chosen = sorted(k for k in candidates if k.startswith(tuple(keys)))
    else:
        recorded = None if budget_seconds is None else budget_seconds / (speed or 1.0)
        chosen, left_out = draw(candidates, count, seed, per_experiment, recorded)
        if recorded is not None:
            log.info("audit: a budget of %g s of this machine's time, %.0f s of recorded job "
                     "time%s", budget_seconds, recorded,
                     f"; left out: {', '.join(left_out)}" if left_out else "")
    log.info("audit: %d of %d entries of this run, drawn with seed %d: %s", len(chosen),
             len(candidates), seed, ", ".join(k[:12] for k in chosen))
    checking = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="audit-") as tmp:

        def recompute(key: str) -> Outcome:
            scratch = Path(tmp) / key[:12]
            outcome, recomputed = audit_entry(candidates[key], Path(workdir), scratch, store)
            if check is not None and recomputed:
                # the checks judge in this process, one at a time, while the other
                # recomputations run on
                with checking:
                    outcome.verdict_check, outcome.verdicts_moved = check(
                        candidates[key]["argv"], recomputed, scratch / "readers")
            # as each finishes: a line of progress
            log.log(logging.INFO if outcome.ok and not outcome.verdicts_moved
                    else logging.ERROR,
                    "%s %s %s (%s): %s; margin %.3g, max |diff| %.3g, max relative %.3g%s; "
                    "verdict check: %s", key[:12], outcome.experiment, outcome.command,
                    outcome.comparison if outcome.recomputed else "not run", outcome.verdict,
                    outcome.margin, outcome.max_abs_diff, outcome.max_rel_diff,
                    f"; {outcome.detail}" if outcome.detail else "", outcome.verdict_check)
            return outcome

        # each recomputation is a process of its own with the job's thread counts, ``jobs`` of
        # them at once, the longest recorded first: a long one started last would run alone
        longest_first = sorted(chosen, key=lambda k: -recorded_seconds(_record(candidates[k])))
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            done = dict(zip(longest_first, pool.map(recompute, longest_first), strict=True))
    return [done[key] for key in chosen], left_out
