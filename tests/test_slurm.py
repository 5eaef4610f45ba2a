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

pytestmark = pytest.mark.slow

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
        with cluster(root) as env:
            yield root, env
    except ClusterUnavailable as err:
        if os.environ.get("ENTROPIC_BOUND_REQUIRE_SLURM"):
            pytest.fail(f"the SLURM daemons did not start: {err}")
        pytest.skip(f"no SLURM cluster here: {err}")


def run(workdir: Path, env: dict, *args: str) -> subprocess.Popen:
    log = open(workdir / "snakemake.log", "a")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, "-m", "snakemake", *SLURM, *args], cwd=workdir,
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def jobs_by_comment(env: dict) -> dict[str, list[str]]:
    """Every job slurmctld knows (MinJobAge keeps finished ones): comment -> states."""
    out = subprocess.run(["scontrol", "show", "job", "--oneliner"], env=env, check=True,
                         capture_output=True, text=True).stdout
    jobs: dict[str, list[str]] = {}
    for line in out.splitlines():
        state = re.search(r"JobState=(\S+)", line)
        comment = re.search(r"Comment=(\S+)", line)
        if state and comment:
            jobs.setdefault(comment.group(1), []).append(state.group(1))
    return jobs


def tables(workdir: Path) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_parquet(p) for p in sorted((workdir / "results/tables").glob("*"))}


def test_quick_profile_through_slurm_interrupted_and_resumed(slurm, quick_run, tmp_path):
    root, env = slurm
    work = copy_workflow(tmp_path / "work")
    # The download cache is not a rule output: reuse the local run's instead of refetching.
    shutil.copytree(quick_run / "results/corpora/downloads",
                    work / "results/corpora/downloads")
    first = run(work, env)
    # Interrupt once some jobs have completed and others are still queued or running.
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and first.poll() is None:
        states = [s for st in jobs_by_comment(env).values() for s in st]
        if states.count("COMPLETED") >= 4:
            break
        time.sleep(1)
    assert first.poll() is None, "the first run ended before it could be interrupted"
    os.killpg(first.pid, signal.SIGINT)  # Ctrl-C: the plugin cancels its running jobs
    assert first.wait(timeout=300) != 0
    done_before = {c for c, st in jobs_by_comment(env).items() if "COMPLETED" in st}
    n_before = len(submitted_jobs(root))
    assert done_before

    second = run(work, env)
    assert second.wait(timeout=1800) == 0, (work / "snakemake.log").read_text()[-4000:]
    jobs = jobs_by_comment(env)
    # Every job of both runs went through sbatch and slurmctld scheduled it.
    assert len(submitted_jobs(root)) == sum(len(st) for st in jobs.values())
    assert all(st[-1] in ("COMPLETED", "CANCELLED") for st in jobs.values()), jobs
    # Nothing completed before the interruption was submitted again.
    resubmitted = {c for c, st in jobs.items() if st.count("COMPLETED") > 1}
    assert resubmitted == set(), resubmitted
    assert len(submitted_jobs(root)) > n_before
    # The tables equal those of the local run of the same config.
    local, cluster_tables = tables(quick_run), tables(work)
    assert local.keys() == cluster_tables.keys()
    for name, frame in local.items():
        pd.testing.assert_frame_equal(cluster_tables[name], frame, obj=name)
