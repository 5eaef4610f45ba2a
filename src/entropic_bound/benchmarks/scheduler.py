"""Snakemake's scheduler cost and exit latency under each ``max-jobs-per-timespan``.

    python -m entropic_bound.benchmarks.scheduler [--jobs 300] [--inputs 20] [--sleep 0.5]

Snakemake re-selects jobs once per timespan while jobs wait for cores (each time statting every
input of every waiting job), and each re-selection arms a ``threading.Timer`` of one timespan
that the interpreter waits for at exit. So a long timespan keeps the scheduler's CPU low and
holds the finished run for up to one timespan; a short one exits at once and costs CPU. This
runs one generated workflow (``--jobs`` jobs of ``sleep``, each reading ``--inputs`` files, on
2 cores) under each timespan, in one run on one machine, and prints for each the CPU-seconds of
Snakemake and its job shells, that CPU as a share of one core over the run, and the seconds
from the last job's end to the process's exit. Not a test: it measures.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SNAKEFILE = """
{hooks}
N = {jobs}
rule all:
    input: expand("out/{{i}}.txt", i=range(N))
rule one:
    input: expand("in/{{k}}.txt", k=range({inputs}))
    output: "out/{{i}}.txt"
    shell: "sleep {sleep}; date +%s.%N > {{output}}"
"""
# The workflow's own exit hooks (Snakefile): cancel the scheduler's pending timers.
HOOKS = """
onsuccess:
    from entropic_bound.plumbing.timers import cancel_pending_timers
    cancel_pending_timers()
"""


def run_once(workdir: Path, timespan: str, cores: int = 2) -> dict:
    """CPU-seconds (Snakemake and its children), run wall time and exit latency of one run."""
    for old in [*(workdir / "out").glob("*.txt"), *(workdir / ".snakemake").glob("log/*")]:
        old.unlink()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    subprocess.run([sys.executable, "-m", "snakemake", "--cores", str(cores), "--quiet",
                    "--max-jobs-per-timespan", timespan], cwd=workdir, check=True,
                   capture_output=True)
    end = time.time()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = max(float(p.read_text()) for p in (workdir / "out").glob("*.txt"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"timespan": timespan, "cpu_s": cpu, "wall_s": end - start,
            "core_share": cpu / (end - start), "exit_latency_s": end - last}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=300)
    parser.add_argument("--inputs", type=int, default=20, help="input files per job")
    parser.add_argument("--sleep", type=float, default=0.5, help="seconds each job sleeps")
    parser.add_argument("--timespans", nargs="+", default=["1000/1s", "1000/5s", "1000/60s"])
    parser.add_argument("--hooks", choices=["without", "with", "both"], default="both",
                        help="run without and/or with the workflow's timer-cancelling onsuccess")
    a = parser.parse_args(argv)
    hooks = {"without": [False], "with": [True], "both": [False, True]}[a.hooks]
    print(f"{a.jobs} jobs of sleep {a.sleep} s, {a.inputs} inputs each, 2 cores")
    print(f"{'timespan':>10s} {'hooks':>7s} {'CPU s':>7s} {'wall s':>7s} {'core share':>10s} "
          f"{'exit latency s':>14s}")
    for timespan in a.timespans:
        for hook in hooks:
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                (work / "Snakefile").write_text(SNAKEFILE.format(
                    hooks=HOOKS if hook else "", jobs=a.jobs, inputs=a.inputs, sleep=a.sleep))
                (work / "in").mkdir()
                for k in range(a.inputs):
                    (work / "in" / f"{k}.txt").write_text("x")
                row = run_once(work, timespan)
            print(f"{row['timespan']:>10s} {'with' if hook else 'without':>7s} "
                  f"{row['cpu_s']:7.2f} {row['wall_s']:7.1f} {row['core_share']:10.3f} "
                  f"{row['exit_latency_s']:14.1f}", flush=True)


if __name__ == "__main__":
    main()
