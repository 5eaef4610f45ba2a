"""Faults at the workflow level, each injected into a copy of the finished quick run
(as a tester would) and checked against the new outcome. The unit-level ones (archives,
decoding, lock file, vocabulary, full disk, dataset and table checks) are in tests/unit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import EMPTY_STORE, QUICK, planned_jobs, snakemake

QUICK_YAML = "profiles/quick/quick.yaml"


def logs(run) -> str:
    return "".join(p.read_text() for p in (run / "logs").rglob("*.log"))


def test_a_teacher_file_copied_over_another_stops_its_jobs_naming_it(run_copy):
    """`cp .../linear_qk/sharp/r1/s0.npz .../softmax_qk/sharp/r2/s1.npz` exited 0 and
    Table 3's n_seeds for softmax r* = 2 dropped to 1."""
    data = run_copy / "results/data/e3"
    (data / "softmax_qk/sharp/r2/s1.npz").write_bytes(
        (data / "linear_qk/sharp/r1/s0.npz").read_bytes())
    # the store's entries were computed from the right file: a run fetches them and stays
    # right; where a job does read the file (an empty store), it stops naming it
    out = snakemake(run_copy, *QUICK, *EMPTY_STORE, "--keep-going", check=False)
    assert out.returncode != 0
    assert ("results/data/e3/softmax_qk/sharp/r2/s1.npz holds another dataset: "
            "kind='linear_qk' (expected 'softmax_qk')") in logs(run_copy)
    verify = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "verify"], cwd=run_copy,
                            capture_output=True, text=True)
    assert verify.returncode == 1 and "s1.npz is corrupt (it holds another dataset" in \
        verify.stderr


def test_tables_lost_to_a_killed_forced_rerun_come_back_with_a_plain_rerun(run_copy):
    """With table1*.parquet and the table6* files gone (a forced rerun killed after
    Snakemake removed them), a plain rerun said "Nothing to be done" and verify found nothing."""
    tables = run_copy / "results/tables"
    lost = [*tables.glob("table1*.parquet"), *tables.glob("table6*.parquet")]
    assert len(lost) >= 6
    for path in lost:
        path.unlink()
    jobs = planned_jobs(run_copy, *QUICK)
    assert jobs["aggregate_table1"] == 1 and jobs["aggregate_table6"] == 1
    verify = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "verify"], cwd=run_copy,
                            capture_output=True, text=True)
    assert "results/tables/table1.parquet is missing" in verify.stderr
    assert "results/tables/table6_stats.parquet is missing" in verify.stderr
    snakemake(run_copy, *QUICK)
    assert all(path.exists() for path in lost)


def test_a_finished_run_exits_at_once(run_copy):
    """After "Complete log" every run lingered ~60 s (the profiles' 60 s scheduler
    timespan arms a timer that the interpreter waited for). Now: within a few seconds."""
    start = time.time()
    snakemake(run_copy, *QUICK, "--forcerun", "render_report")
    finished = time.time()
    report = (run_copy / "report/out/report.html").stat().st_mtime
    assert report > start and finished - report < 20, f"{finished - report:.1f} s after the job"


def test_ctrl_c_stops_a_run_within_seconds(run_copy):
    """Ctrl-C was ignored for up to a minute. A terminal's Ctrl-C signals the whole
    foreground process group, Snakemake and its running jobs: so does this test."""
    proc = subprocess.Popen([sys.executable, "-m", "snakemake", *QUICK, *EMPTY_STORE,
                             "--forcerun", "train_grid_cells"], cwd=run_copy,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(15)
    assert proc.poll() is None, "the forced run finished before it could be interrupted"
    sent = time.time()
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=120)
    assert time.time() - sent < 30 and proc.returncode != 0


def test_unlock_beside_a_live_run_cannot_start_a_second_run(run_copy):
    """`--unlock` beside a live run let a second run start: it retrained cells under the first
    and rendered a report from partly retrained cells with no stale banner. Now the second run
    stops with one line (the kernel holds the first run's liveness lock, which `--unlock`
    does not touch), and the first finishes as if alone."""
    first = subprocess.Popen([sys.executable, "-m", "snakemake", *QUICK, "--forcerun",
                              "train_grid_cells", *EMPTY_STORE], cwd=run_copy,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(15)
    assert first.poll() is None, "the forced run finished before a second could start"
    snakemake(run_copy, "--unlock", *QUICK)
    # a run with work to do (one with none exits before it would start any job)
    second = snakemake(run_copy, *QUICK, "--forcerun", "render_report", check=False)
    assert second.returncode != 0
    assert "another run is alive in this directory (pid" in second.stderr, second.stderr
    assert "--unlock` removes Snakemake's lock files" in second.stderr
    _, err = first.communicate(timeout=900)
    assert first.returncode == 0, err[-2000:]
    report = (run_copy / "report/out/report.md").read_text()
    assert "STALE" not in report
    after = snakemake(run_copy, *QUICK, *EMPTY_STORE)
    assert "Nothing to be done" in after.stdout + after.stderr


@pytest.mark.parametrize("override,named", [
    ('e6={"corpora": {"../evil": [{"type": "stdlib", "members": ["*.py"]}], '
     '"ok": [{"type": "stdlib", "members": ["*.py"]}]}}', "does not match"),
    ('e6={"corpora": {"x": [{"type": "debian", "package": "../../..", "members": ["*"]}], '
     '"ok": [{"type": "stdlib", "members": ["*.py"]}]}}', "does not match"),
    ('e3={"T": 1}', "e3.T=1 with the softmax_qk teacher"),
    ('e3={"n": 1}', "e3.n=1: a dataset gives"),
])
def test_a_bad_name_or_a_degenerate_setting_fails_before_any_job(quick_run, override, named):
    """Corpus names outside [A-Za-z0-9_]+ were dropped silently, a debian
    package of ../../.. made a folder outside the repository, and T = 1 (softmax) or n = 1
    ran without a word."""
    out = snakemake(quick_run, "-n", *QUICK, "--configfile", QUICK_YAML, "--config", override,
                    check=False)
    assert out.returncode != 0 and named in out.stdout + out.stderr
