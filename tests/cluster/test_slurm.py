"""The slurm profile against SLURM's own daemons: a single-node cluster on loopback
(``slurm_cluster``) runs the quick profile's config through ``profiles/slurm`` and
snakemake-executor-plugin-slurm. With an empty store every job goes through sbatch and its job
step stores what it computes under the keys a local run uses (a local clone given that store
computes none of those jobs); a submitting Snakemake interrupted mid-run, when rerun, finishes
with the same tables without resubmitting what had completed. With a full store the documented
command (``entropic-bound cluster -- OPTIONS``) fetches every stored job in a local pass and
the run submits nothing. The tables equal the local run's.

Skips, saying why, only where the daemons cannot start at all; ``.ci/run`` installs slurm-wlm
and munge and sets ENTROPIC_BOUND_REQUIRE_SLURM=1, so there a missing cluster fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import QUICK, copy_workflow, snakemake
from slurm_cluster import ClusterUnavailable, cluster, submitted_jobs

from entropic_bound.measures.estimators import TIMING_COLUMNS
from entropic_bound.store import plan as store_plans
from entropic_bound.store.layout import Store

# the stored rules and their jobs in the quick DAG (tests/workflow/test_resume_from_store.py)
STORED = {"train_grid_cells": 11, "measure_grid_cells": 11, "train_fixed_cells": 4,
          "measure_fixed_cells": 4, "estimate_e1_data": 2, "estimate_e4_data": 22,
          "fetch_corpus": 6, "train_lm_cells": 24, "train_e7_cells": 12}

# The cheap rules the main process runs itself (workflow/rules/common.smk's localrules)
LOCAL = ["make_grid_data", "make_fixed_data", "fetch_corpus", "tokenize_corpus",
         "corpus_stats", "measure_lm_cells", "aggregate_grid", "aggregate_table1",
         "aggregate_table2", "aggregate_table4", "aggregate_table6", "evaluate_claims",
         "audit_store", "render_report"]
# The README's command adds the site's partition (and account) as default resources; the
# loopback cluster's partition is `main` (slurm_cluster.py).
SITE = ["--default-resources", "slurm_partition=main"]

# The plugin's settings that a loopback cluster needs: no account, job states from squeue
# (there is no accounting database), and short polling so the test does not idle.
SLURM = ["--workflow-profile", "slurm", "--configfile", "profiles/quick/quick.yaml",
         "--slurm-no-account", "--slurm-status-command", "squeue",
         "--slurm-init-seconds-before-status-checks", "1", "--seconds-between-status-checks", "2",
         "--latency-wait", "10", "--jobs", "4"]


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    root = tmp_path_factory.mktemp("slurm")
    try:
        # Twice this machine's CPUs, so that two of the profile's 2-CPU group jobs run at
        # once: the quick DAG's jobs wait (sbatch, status polls, interpreter starts) more than
        # they compute, and one at a time on a 2-CPU node they took ~18 min of CI.
        with cluster(root, cpus=2 * (os.cpu_count() or 1)) as env:
            yield root, env
    except ClusterUnavailable as err:
        if os.environ.get("ENTROPIC_BOUND_REQUIRE_SLURM"):
            pytest.fail(f"the SLURM daemons did not start: {err}")
        pytest.skip(f"no SLURM cluster here: {err}")


def _default_sigint() -> None:
    # A shell that starts a command in the background has it ignore SIGINT, and children
    # inherit that; Ctrl-C must reach Snakemake however the test suite itself was started.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(workdir: Path, env: dict, *args: str) -> subprocess.Popen:
    """The documented cluster command, `entropic-bound cluster -- OPTIONS`: a local fetch-only
    pass of the stored jobs the store serves, then (the same process) `snakemake OPTIONS`."""
    log = open(workdir / "snakemake.log", "a")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, "-m", "entropic_bound.cli", "cluster", "--",
                             *SLURM, *args], cwd=workdir, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=_default_sigint)


EMPTY: dict[str, float] = {}  # the empty store's submissions and wall time, for the full one's


def finish(proc: subprocess.Popen, workdir: Path) -> None:
    """Wait for a submitting Snakemake to succeed; never leave one behind."""
    try:
        assert proc.wait(timeout=1800) == 0, (workdir / "snakemake.log").read_text()[-4000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def slurm_jobs(env: dict) -> dict[str, str]:
    """Every job slurmctld knows (MinJobAge keeps finished ones): JobId -> state."""
    out = subprocess.run(["squeue", "-h", "-t", "all", "-o", "%i %T"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return dict(line.split() for line in out.splitlines())


def results(workdir: Path) -> dict[str, int]:
    """Every result file (the download cache aside) and its mtime in ns."""
    return {str(p.relative_to(workdir)): p.stat().st_mtime_ns
            for p in (workdir / "results").rglob("*")
            if p.is_file() and "downloads" not in p.parts}


def planned_outputs(workdir: Path, env: dict) -> set[str]:
    """Output and benchmark files of the jobs a dry run of the same command would (re)run,
    and the store's note of each (a job the interruption cancelled after its wrapper noted it
    runs again and notes again: results/jobs/, entropic_bound.store.notes)."""
    from entropic_bound.store.notes import note_path

    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", *SLURM], cwd=workdir,
                         env=env, capture_output=True, text=True, check=True).stdout
    jobs = [[f.strip() for f in line.split(",")]
            for line in re.findall(r"^\s*output: (.*)$", out, re.M)]
    files = {f.strip() for line in re.findall(r"^\s*(?:output|benchmark): (.*)$", out, re.M)
             for f in line.split(",")}
    return files | {str(note_path({str(i): f for i, f in enumerate(outputs)}, "results/jobs"))
                    for outputs in jobs}


def submissions(workdir: Path) -> int:
    return (workdir / "snakemake.log").read_text().count("has been submitted with SLURM jobid")


def tables(workdir: Path) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_parquet(p)
             for p in sorted((workdir / "results/tables").glob("*.parquet"))}


def test_quick_profile_through_slurm_interrupted_and_resumed(slurm, quick_run, tmp_path):
    root, env = slurm
    work = copy_workflow(tmp_path / "work")
    # The download cache is not a rule output: reuse the local run's instead of refetching.
    shutil.copytree(quick_run / "results/corpora/downloads",
                    work / "results/corpora/downloads")
    before = len(submitted_jobs(root))
    start = time.monotonic()
    first = run(work, env, *SITE)
    # Interrupt once some jobs have completed while others are queued or running.
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and first.poll() is None:
        if list(slurm_jobs(env).values()).count("COMPLETED") >= 2:
            break
        time.sleep(1)
    assert first.poll() is None, "the first run ended before it could be interrupted"
    os.killpg(first.pid, signal.SIGINT)  # Ctrl-C: the plugin cancels its running jobs
    try:
        assert first.wait(timeout=300) != 0
    finally:
        if first.poll() is None:  # never leave a submitting Snakemake behind
            os.killpg(first.pid, signal.SIGKILL)
    subprocess.run([sys.executable, "-m", "snakemake", "--unlock", *SLURM], cwd=work, env=env,
                   capture_output=True, check=True)
    finished = results(work)
    todo = planned_outputs(work, env)
    kept = {f: t for f, t in finished.items() if f not in todo}
    assert kept, "nothing had completed before the interruption"

    finish(run(work, env, *SITE), work)
    EMPTY.update(submissions=submissions(work), wall=time.monotonic() - start)
    assert "cluster: 0 stored jobs fetched here" in (work / "snakemake.log").read_text()
    local = submitted_rules(work) & {f"rule_{rule}" for rule in LOCAL}
    assert submitted_rules(work) and not local, local
    # Every job of both runs went through sbatch: slurmctld accepted each submission Snakemake
    # reports, ran it, and nothing ran outside SLURM but the `all` target.
    assert len(submitted_jobs(root)) == submissions(work) == len(slurm_jobs(env))
    assert set(slurm_jobs(env).values()) <= {"COMPLETED", "CANCELLED"}
    # The documented command kept the profile's per-rule resources: every submission has the
    # site's partition, a time limit and a memory request (none of the cluster's defaults:
    # no limit, no memory), which a --default-resources that replaced them would have lost.
    ours = set(submitted_jobs(root)[before:])
    limits = [line.split() for line in subprocess.run(
        ["squeue", "-h", "-t", "all", "-o", "%i %P %l %m"], env=env, check=True,
        capture_output=True, text=True).stdout.splitlines() if line.split()[0] in ours]
    assert len(limits) == len(ours) > 0
    assert {partition for _, partition, _, _ in limits} == {"main"}, limits
    assert not [job for job in limits if job[2] in ("UNLIMITED", "INFINITE") or job[3] == "0"], \
        limits
    # What had completed before the interruption was neither resubmitted nor rewritten.
    after = results(work)
    assert {f for f, t in kept.items() if after[f] != t} == set()
    # The job steps stored every job they computed, sealed, under the keys a local run uses:
    # a local clone given only this store plans to fetch every stored job and compute none,
    # and its run does so (no stored rule's log has a line) and builds the same tables.
    stored = Store(work / "results/store")
    assert len(stored.listing().seals) == sum(STORED.values())
    assert stored.check() == [] and stored.leftovers() == []
    clone = copy_workflow(tmp_path / "clone")
    shutil.copytree(work / "results/store", clone / "results/store")
    plan = store_plans.store_plan(QUICK, clone)
    assert {rule: c["fetched"] for rule, c in plan.items()} == STORED
    assert not any(c["computed"] for c in plan.values()), plan
    snakemake(clone, *QUICK)
    assert stored_rules_that_ran(clone) == []
    assert_tables_equal(tables(quick_run), tables(work))
    assert_tables_equal(tables(quick_run), tables(clone))


def test_with_a_full_store_the_cluster_run_submits_nothing(slurm, quick_run, tmp_path):
    """Every stored job is fetched by the documented command's local pass (fetch-only: it
    computes none), so the SLURM run submits nothing (the issue: 25 submissions whose job steps
    only copied files, 321 s); the cheap rules run in the main process. The tables equal the
    local run's. Printed beside the empty store's submissions and both wall times."""
    root, env = slurm
    work = copy_workflow(tmp_path / "work")
    shutil.copytree(quick_run / "results/store", work / "results/store")
    before = len(submitted_jobs(root))
    start = time.monotonic()
    finish(run(work, env, *SITE), work)
    wall = time.monotonic() - start
    log = (work / "snakemake.log").read_text()
    fetched = sum(STORED.values())
    assert f"cluster: {fetched} stored jobs fetched here" in log, log[-3000:]
    assert f"cluster: store: {fetched} stored jobs fetched, 0 computed" in log, log[-3000:]
    assert stored_rules_that_ran(work) == []
    count = submissions(work)
    assert count == len(submitted_jobs(root)) - before
    print(f"full store: {count} submissions ({fetched} stored jobs fetched by the local pass, "
          f"0 computed), {wall:.0f} s wall; empty store: {EMPTY.get('submissions', '?')} "
          f"submissions, {EMPTY.get('wall', float('nan')):.0f} s wall")
    assert count == 0, sorted(submitted_rules(work))
    assert_tables_equal(tables(quick_run), tables(work))


def submitted_rules(workdir: Path) -> set[str]:
    """What each of this run's submissions ran, as the plugin names its log folder:
    ``rule_<rule>`` (then a folder of its wildcards) or ``group_<group>``."""
    log = (workdir / "snakemake.log").read_text()
    return set(re.findall(r"slurm_logs/((?:rule|group)_[^/\s]+)/(?:[^/\s]+/)?\d+\.log", log))


def stored_rules_that_ran(workdir: Path) -> list[Path]:
    """The logs of stored rules' jobs that computed: a fetched job's log says so in one line
    and nothing else ran."""
    return [p for rule in STORED for p in (workdir / "logs" / rule).rglob("*")
            if p.is_file() and "not stored: computing" in p.read_text()][:3]


def assert_tables_equal(local: dict[str, pd.DataFrame], cluster: dict[str, pd.DataFrame]):
    """The tables of a cluster run equal the local run's (but for wall-clock columns; the audit
    draws its own entries, and each run's must agree)."""
    assert cluster.pop("audit.parquet")["ok"].all() and local.pop("audit.parquet")["ok"].all()
    assert local.keys() == cluster.keys()
    for name, frame in local.items():
        timing = [c for c in TIMING_COLUMNS if c in frame.columns]
        pd.testing.assert_frame_equal(cluster[name].drop(columns=timing),
                                      frame.drop(columns=timing), obj=name)
