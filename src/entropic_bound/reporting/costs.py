"""What a run cost, read from the jobs' records: Snakemake's ``benchmark:`` files
(``results/benchmarks/<rule>/<wildcards...>.tsv``, one row per job: wall seconds ``s``,
``max_rss`` in MB, ``cpu_time``), the records stored jobs write themselves beside them
(``<wildcards...>.json``, the same fields plus the machine and commit:
:mod:`entropic_bound.plumbing.job_record`), and the start time of the newest Snakemake run
(``.snakemake/log/<start>.snakemake.log``).

Every rule that runs a job declares ``benchmark:`` or writes its own record (a job whose
outputs go to the store, where Snakemake refuses ``benchmark:``, and E6's measures, which the
audit reruns by their records), so every job of a run is counted; a job fetched from the store
counts what it cost where it ran. A record is a stored job's where it is a link into the store
(Snakemake links every stored output so). The experiment of a record is the one its rule
serves (:func:`entropic_bound.plumbing.experiments.experiment_of`).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path

import pandas as pd

from entropic_bound.plumbing.experiments import experiment_of

LOG_STAMP = "%Y-%m-%dT%H%M%S.%f"


COLUMNS = ["rule", "experiment", "job", "seconds", "max_rss_mb", "cpu_seconds", "finished",
           "cpu_model", "capability", "commit", "stored"]


def _benchmark_row(path: Path) -> dict | None:
    """A Snakemake benchmark file's row (its last run, of a ``--benchmark-repeats`` file); one
    line of the log and no row where it is not one."""
    try:
        record = pd.read_csv(path, sep="\t").iloc[-1]
        row = {"seconds": float(record["s"]), "max_rss_mb": float(record["max_rss"]),
               "cpu_seconds": float(record["cpu_time"])}
    except (OSError, ValueError, KeyError, IndexError, pd.errors.ParserError) as err:
        logging.getLogger("entropic_bound").warning("costs: %s not counted: %s", path, err)
        return None
    return {**row, "finished": datetime.fromtimestamp(path.stat().st_mtime), "stored": False}


def _record_row(path: Path, stored: bool) -> dict | None:
    """A record's row; ``stored`` where it is the record of a stored job. A record past
    ``RECORD_LARGEST`` bytes, or of another form than the jobs write (``check_record``, both
    of :mod:`entropic_bound.store`), is one line of the log and no row."""
    from entropic_bound.store import RECORD_LARGEST as LARGEST
    from entropic_bound.store import Refused
    from entropic_bound.store import check_record as checked

    try:
        if path.stat().st_size > LARGEST:
            raise Refused(f"{path.stat().st_size} bytes, more than a record has")
        with open(path, "rb") as fh:
            record = checked(json.loads(fh.read(LARGEST + 1)))
        if not all(k in record for k in ("s", "max_rss", "cpu_time", "finished")):
            raise Refused("expected s, max_rss, cpu_time and finished")
    except (OSError, ValueError, RecursionError, Refused) as err:
        logging.getLogger("entropic_bound").warning("costs: %s not counted: %s", path, err)
        return None
    machine, commit = record.get("machine") or {}, record.get("commit") or {}
    return {"seconds": float(record["s"]), "max_rss_mb": float(record["max_rss"]),
            "cpu_seconds": float(record["cpu_time"]),
            "finished": datetime.strptime(record["finished"], "%Y-%m-%dT%H:%M:%S%z")
            .astimezone().replace(tzinfo=None),
            "cpu_model": machine.get("cpu_model"),
            "capability": machine.get("aten_cpu_capability"),
            "commit": commit.get("sha"), "stored": stored}


def stored_records(root: Path) -> set[str]:
    """The records of this run's stored jobs, by their path below ``root`` (the jobs' notes,
    in the ``jobs`` folder beside it: ``read_notes`` of :mod:`entropic_bound.store`)."""
    from entropic_bound.store import read_notes as notes

    found = set()
    for note in notes(root.parent / "jobs", existing=False):
        record = note["outputs"].get("record")
        if note.get("keep") == "entry" and record and f"/{root.name}/" in f"/{record}":
            found.add(record.split(f"{root.name}/", 1)[1])
    return found


def read_benchmarks(root: str | Path = "results/benchmarks") -> pd.DataFrame:
    """One row per job record (benchmark file or stored job's record, see the module's doc):
    rule, experiment, job (the wildcard path), seconds, max_rss_mb, cpu_seconds, finished;
    for stored jobs also the CPU model, torch's CPU capability and the commit they ran on.
    Empty (with those columns) where there are none."""
    rows = []
    stored = stored_records(Path(root))
    for path in sorted(Path(root).rglob("*")):
        if path.suffix not in (".tsv", ".json") or not path.is_file():
            continue
        rel = path.relative_to(root).with_suffix("")
        rule, *wildcards = rel.parts
        row = (_benchmark_row(path) if path.suffix == ".tsv"
               else _record_row(path, path.relative_to(root).as_posix() in stored))
        if row is None:
            continue
        rows.append({"rule": rule, "experiment": experiment_of(rule, wildcards),
                     "job": "/".join(wildcards), **row})
    return pd.DataFrame(rows, columns=COLUMNS)


def first_job_started(records: pd.DataFrame) -> datetime | None:
    """When the earliest benchmarked job began: its record's last write minus its seconds."""
    if records.empty:
        return None
    return (records["finished"] - pd.to_timedelta(records["seconds"], unit="s")).min()


def cost_summary(records: pd.DataFrame, by: str) -> pd.DataFrame:
    """Job count, job-seconds (sum of wall seconds), largest job and peak memory per ``by``
    (``rule`` or ``experiment``), most expensive first, with a total row."""
    grouped = records.groupby(by).agg(jobs=("seconds", "size"), job_seconds=("seconds", "sum"),
                                      longest_s=("seconds", "max"),
                                      peak_rss_mb=("max_rss_mb", "max"))
    grouped = grouped.sort_values("job_seconds", ascending=False).reset_index()
    total = pd.DataFrame([{by: "total", "jobs": int(grouped["jobs"].sum()),
                           "job_seconds": grouped["job_seconds"].sum(),
                           "longest_s": grouped["longest_s"].max(),
                           "peak_rss_mb": grouped["peak_rss_mb"].max()}])
    return pd.concat([grouped, total], ignore_index=True) if len(grouped) else grouped


def stored_provenance(records: pd.DataFrame) -> dict[str, dict]:
    """Per experiment, where its stored jobs ran (``records`` of :func:`read_benchmarks`):
    how many, their job-seconds, the commits (12 hex) and the CPUs (model and torch's CPU
    capability) of their records, in order. Jobs without a stored record are left out."""
    stored = records[records["stored"].astype(bool)]
    out = {}
    for experiment, rows in sorted(stored.groupby("experiment")):
        cpus = (rows["cpu_model"].fillna("?") + " ("
                + rows["capability"].fillna("no torch") + ")")
        out[experiment] = {"entries": int(len(rows)),
                           "job_seconds": round(float(rows["seconds"].sum())),
                           "commits": sorted({str(c)[:12] for c in rows["commit"].dropna()}),
                           "cpus": sorted(set(cpus))}
    return out


def invocations(log_dir: str | Path = ".snakemake/log") -> pd.DataFrame:
    """One row per Snakemake invocation that left a log: start (the log's name), end (its last
    write) and seconds, oldest first. A run resumed after an interruption has several."""
    rows = []
    for path in Path(log_dir).glob("*.snakemake.log"):
        try:
            start = datetime.strptime(path.name.removesuffix(".snakemake.log"), LOG_STAMP)
        except ValueError:
            continue
        end = max(start, datetime.fromtimestamp(path.stat().st_mtime))
        rows.append({"start": start, "end": end, "seconds": (end - start).total_seconds()})
    frame = pd.DataFrame(rows, columns=["start", "end", "seconds"])
    return frame.sort_values("start", ignore_index=True)


def overlapping(runs: pd.DataFrame, start: datetime, end: datetime) -> pd.DataFrame:
    """The invocations of :func:`invocations` that ran at some time between start and end."""
    return runs[(runs["end"] >= start) & (runs["start"] <= end)]


def running_seconds(runs: pd.DataFrame, start: datetime, end: datetime) -> float:
    """Seconds Snakemake was running between ``start`` and ``end``: the invocations of
    :func:`invocations` clipped to that span, overlaps counted once. Unlike end - start, the
    pauses between the invocations of a resumed run are not counted."""
    total, reached = 0.0, start
    for run in runs.itertuples():
        lo, hi = max(run.start, reached), min(run.end, end)
        if hi > lo:
            total += (hi - lo).total_seconds()
        reached = max(reached, hi)
    return total


def wall_summary(runs: pd.DataFrame, first_job: datetime | None, now: datetime) -> str:
    """The wall time of the run whose results are on disk, as the report's header gives it:
    the newest invocation's time when it built everything, else the time Snakemake was
    running since the first benchmarked job, over how many invocations."""
    if runs.empty:
        return "unknown (no Snakemake log)"
    this = runs["start"].iloc[-1]
    since = min(first_job, this) if first_job is not None else this
    spanned = overlapping(runs, since, now)
    if len(spanned) <= 1:
        return f"{(now - this).total_seconds() / 60:.1f} min (run started {this:%Y-%m-%d %H:%M})"
    running = running_seconds(runs, since, now)
    return (f"{running / 60:.1f} min of Snakemake running over {len(spanned)} invocations since "
            f"the first job ({since:%Y-%m-%d %H:%M}); the newest started {this:%Y-%m-%d %H:%M}")
