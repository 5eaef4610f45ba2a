"""The slurm profile against SLURM's own daemons: a single-node cluster on loopback
(``slurm_cluster``) runs the quick profile's config through ``profiles/slurm`` and
snakemake-executor-plugin-slurm. Every job must go through sbatch, the tables must equal the
local run's, and a submitting Snakemake interrupted mid-run must, when rerun, finish with the
same tables without resubmitting what had completed.

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
from conftest import copy_workflow
from slurm_cluster import ClusterUnavailable, cluster, submitted_jobs

from entropic_bound.measures.estimators import TIMING_COLUMNS

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
    log = open(workdir / "snakemake.log", "a")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, "-m", "snakemake", *SLURM, *args], cwd=workdir,
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_default_sigint)


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
    """Output and benchmark files of the jobs a dry run of the same command would (re)run."""
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", *SLURM], cwd=workdir,
                         env=env, capture_output=True, text=True, check=True).stdout
    return {f.strip() for line in re.findall(r"^\s*(?:output|benchmark): (.*)$", out, re.M)
            for f in line.split(",")}


def submissions(workdir: Path) -> int:
    return (workdir / "snakemake.log").read_text().count("has been submitted with SLURM jobid")


def tables(workdir: Path) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_parquet(p) for p in sorted((workdir / "results/tables").glob("*"))}


def test_quick_profile_through_slurm_interrupted_and_resumed(slurm, quick_run, tmp_path):
    root, env = slurm
    work = copy_workflow(tmp_path / "work")
    # The download cache is not a rule output: reuse the local run's instead of refetching.
    shutil.copytree(quick_run / "results/corpora/downloads",
                    work / "results/corpora/downloads")
    first = run(work, env)
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

    second = run(work, env)
    try:
        assert second.wait(timeout=1800) == 0, (work / "snakemake.log").read_text()[-4000:]
    finally:
        if second.poll() is None:
            os.killpg(second.pid, signal.SIGKILL)
    # Every job of both runs went through sbatch: slurmctld accepted each submission Snakemake
    # reports, ran it, and nothing ran outside SLURM but the `all` target.
    assert len(submitted_jobs(root)) == submissions(work) == len(slurm_jobs(env))
    assert set(slurm_jobs(env).values()) <= {"COMPLETED", "CANCELLED"}
    # What had completed before the interruption was neither resubmitted nor rewritten.
    after = results(work)
    assert {f for f, t in kept.items() if after[f] != t} == set()
    # Snakemake's between-workflow cache lives in its local executor: on SLURM every job ran
    # and none was stored, which the run says in one line, and the audit had nothing to draw.
    assert "is not used by this executor" in (work / "snakemake.log").read_text()
    assert not any((work / "results/store").iterdir())
    local, cluster_tables = tables(quick_run), tables(work)
    assert cluster_tables.pop("audit.parquet").empty and len(local.pop("audit.parquet")) == 6
    # The tables equal those of the local run of the same config (but for wall-clock columns).
    assert local.keys() == cluster_tables.keys()
    for name, frame in local.items():
        timing = [c for c in TIMING_COLUMNS if c in frame.columns]
        pd.testing.assert_frame_equal(cluster_tables[name].drop(columns=timing),
                                      frame.drop(columns=timing), obj=name)
