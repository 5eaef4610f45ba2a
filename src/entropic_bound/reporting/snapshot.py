"""A published snapshot of a run, and the check that it still describes the repository.

``report/paper/`` (the whole paper at its settings) or ``report/partial/<name>/`` holds what a
reader needs without rerunning anything: the rendered report (Markdown, HTML, figures) when the
run rendered one, every summary table as CSV, and ``stamp.json``: the commit the run was built
from, the SHA-256 of the run's effective config (:func:`config_hash`), when it ran and for how
long (``wall_seconds``: first job's start to newest output; ``running_seconds``: the time
Snakemake was running in that span, which leaves out the pauses of a run resumed over several
``invocations``), its job-seconds per experiment (:mod:`costs`), per experiment the commits,
CPUs and job-seconds of its stored jobs (``stored_jobs``), and the machine that published
it. Per-cell parquet and weights stay in ``results/`` (git-ignored).

:func:`stale_reasons` compares a stamp with a checkout: a snapshot whose commit is not in the
history, or whose config is not the current ``config.yaml`` (with the schema's defaults), is
reported as stale rather than trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path

import pandas as pd

from entropic_bound.claims.rules import CLAIM, EXTENSION
from entropic_bound.plumbing.atomic import read_parquet, write_text
from entropic_bound.plumbing.settings import (
    RUN_KEYS,
    InvalidConfig,
    effective_config,
    flat_settings,
)
from entropic_bound.reporting.costs import (
    cost_summary,
    first_job_started,
    invocations,
    overlapping,
    read_benchmarks,
    running_seconds,
    stored_provenance,
)

REPORT_FILES = ("report.md", "report.html")
# The generated blocks of the front door (README.md: the headline) and of the results page
# (docs/results.md: every claim) lie between these lines; :func:`write_block` rewrites them.
GENERATOR = ("python -m entropic_bound.reporting.snapshot --readme README.md "
             "--results docs/results.md")


# where the schema lived before it became package data (2026-12-03): stamps of earlier
# commits find theirs there
FORMER_SCHEMA_HOMES = ("workflow/schemas/config.schema.yaml",)


def _schema_at(repo: str | Path, commit: str, schema: str) -> subprocess.CompletedProcess:
    """``git show`` of the config schema at ``commit``, at its path then or a former home."""
    for home in (schema, *FORMER_SCHEMA_HOMES):
        shown = _git(repo, "show", f"{commit}:{home}")
        if not shown.returncode:
            break
    return shown

def block_begin(kind: str) -> str:
    return f"<!-- {kind} of report/paper: written by {GENERATOR} report/paper -->"


def block_end(kind: str) -> str:
    return f"<!-- end of the {kind} of report/paper -->"


def config_hash(cfg: dict) -> str:
    """SHA-256 of the config's settings as canonical JSON (sorted keys; run names left out)."""
    settings = {k: v for k, v in cfg.items() if k not in RUN_KEYS}
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def _git(repo: str | Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def head_commit(repo: str | Path = ".", outside: str | Path | None = None) -> tuple[str, bool]:
    """(full hash of HEAD, whether tracked files differ from it), with the folder ``outside``
    left out of the comparison when given."""
    head = _git(repo, "rev-parse", "HEAD")
    if head.returncode:
        raise RuntimeError(f"{repo} is not a git checkout: {head.stderr.strip()}")
    paths = []
    if outside is not None:
        rel = Path(os.path.relpath(Path(outside).resolve(), Path(repo).resolve())).as_posix()
        paths = ["--", ".", f":(exclude){rel}"]
    status = _git(repo, "status", "--porcelain", "--untracked-files=no", *paths)
    return head.stdout.strip(), bool(status.stdout.strip())


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else the architecture: sessions of one
    project get different CPUs, and job-seconds are only comparable on the same one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """Cores, memory, the CPU model and the versions that decide the numbers."""
    import numpy
    import pandas
    import torch

    pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    return {"cores": os.cpu_count(), "memory_gib": round(pages * page_size / 2**30, 1),
            "cpu": cpu_model(), "python": platform.python_version(),
            "torch": torch.__version__, "numpy": numpy.__version__, "pandas": pandas.__version__}


def run_span(records: pd.DataFrame, outputs: list[Path]) -> tuple[datetime, datetime]:
    """(start, end) of the run: the earliest benchmarked job's start (``records`` of
    :func:`costs.read_benchmarks`) and the newest output. Covers every invocation of a resumed
    run, pauses included, so the wall time is an upper bound."""
    start = first_job_started(records)
    if start is None or not outputs:
        raise ValueError("no benchmark records or no outputs: nothing ran")
    return start, datetime.fromtimestamp(max(path.stat().st_mtime for path in outputs))


def report_commit(report_md: str | Path) -> str:
    """The commit a rendered report's header names (``| commit | `abc...` |``)."""
    found = re.search(r"^\| commit \| `([^`]*)` \|$", Path(report_md).read_text(), re.M)
    return found.group(1) if found else "unknown"


def write_snapshot(out: str | Path, *, what: str, command: str, run_config: dict,
                   tables: list[str], report_dir: str | Path | None,
                   benchmarks: str | Path = "results/benchmarks", repo: str | Path = ".",
                   log_dir: str | Path = ".snakemake/log",
                   paper_config: str = "config.yaml",
                   schema: str = "src/entropic_bound/config.schema.yaml") -> dict:
    """Write the snapshot into ``out`` (replacing its previous contents) and return the stamp.

    ``tables``: parquet tables, each written as ``<name>.csv``; ``report_dir``: where the
    rendered report and its figures are (None for a run that rendered none)."""
    # The snapshot's own folder is not the code it was built from: once published it is
    # tracked, and Snakemake deletes a rule's outputs before the job runs.
    commit, dirty = head_commit(repo, outside=out)
    if report_dir is not None:  # the header must name the commit the stamp names
        rendered_at = report_commit(Path(report_dir) / "report.md")
        if rendered_at != commit[:12]:
            raise SystemExit(f"{report_dir}/report.md was rendered at commit {rendered_at}, the "
                             f"snapshot is of {commit[:12]}: render it again at this commit "
                             "(snakemake --cores all --forcerun render_report report/paper)")
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    written = []
    for table in map(Path, tables):
        target = out / f"{table.stem}.csv"
        write_text(target, read_parquet(table).to_csv(index=False))
        written.append(table)
    if report_dir is not None:
        report_dir = Path(report_dir)
        for path in [*(report_dir / f for f in REPORT_FILES), *sorted(report_dir.glob("*.png"))]:
            shutil.copy2(path, out / path.name)
            written.append(path)
    records = read_benchmarks(benchmarks)
    start, end = run_span(records, written)
    runs = invocations(log_dir)
    per_experiment = cost_summary(records, "experiment")
    ours = config_hash(run_config)
    stamp = {
        "what": what,
        "command": command,
        "commit": commit,
        "dirty": dirty,
        "config_sha256": ours,
        "paper_config": ours == config_hash(effective_config(paper_config, schema)),
        # the arithmetic of E6's training, decided once for every cell of a run
        "e6_precision": run_config.get("e6", {}).get("train", {}).get("precision"),
        "started": start.isoformat(timespec="seconds"),
        "finished": end.isoformat(timespec="seconds"),
        "wall_seconds": round((end - start).total_seconds()),
        "running_seconds": round(running_seconds(runs, start, end)),
        "invocations": len(overlapping(runs, start, end)),
        "job_seconds": {row.experiment: round(row.job_seconds)
                        for row in per_experiment.itertuples()},
        "jobs_benchmarked": int(len(records)),
        # per experiment, the commits and CPUs its stored jobs ran on (a run resumed from the
        # store spans sessions, machines and commits)
        "stored_jobs": stored_provenance(records),
        "machine": machine(),
        "files": sorted(p.name for p in out.iterdir()),
    }
    write_text(out / "stamp.json", json.dumps(stamp, indent=1) + "\n")
    return stamp


def added_keys(stamp_path: str | Path, repo: str | Path = ".",
               paper_config: str = "config.yaml",
               schema: str = "src/entropic_bound/config.schema.yaml") -> list[str] | None:
    """Config keys the schema gained since the snapshot's commit, when that is the only
    difference: the current config read with the schema of the snapshot's commit hashes to
    the stamp's config hash, and read with today's schema it gives every one of those settings
    the same value, so the run's settings are unchanged and the new keys did not exist for it.
    None when a setting changed (to a value the old schema may not even accept) or the old
    schema cannot be read."""
    stamp = json.loads(Path(stamp_path).read_text())
    old = _schema_at(repo, stamp.get("commit", ""), schema)
    if old.returncode:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        old_schema = Path(tmp) / "config.schema.yaml"
        old_schema.write_text(old.stdout)
        try:
            then = effective_config(str(Path(repo, paper_config)), str(old_schema))
        except InvalidConfig:  # today's value is outside the old schema: a changed setting
            return None
    if config_hash(then) != stamp.get("config_sha256"):
        return None
    now = flat_settings(effective_config(str(Path(repo, paper_config)), str(Path(repo, schema))))
    then = flat_settings(then)
    if any(now.get(key) != value for key, value in then.items()):
        return None  # a default changed under an existing key: a changed setting
    return sorted(set(now) - set(then))


def changed_settings(stamp_path: str | Path, repo: str | Path = ".",
                     paper_config: str = "config.yaml",
                     schema: str = "src/entropic_bound/config.schema.yaml") -> list[str] | None:
    """Settings of the snapshot's run that no longer hold: the keys of its effective config
    (``paper_config`` and ``schema`` at the snapshot's commit, checked against the stamp's
    hash) whose current value differs or that no longer exist. Keys added since are not
    counted. None when the snapshot's config cannot be rebuilt."""
    stamp = json.loads(Path(stamp_path).read_text())
    commit = stamp.get("commit", "")
    old = {paper_config: _git(repo, "show", f"{commit}:{paper_config}"),
           schema: _schema_at(repo, commit, schema)}
    if any(shown.returncode for shown in old.values()):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        paths = {name: Path(tmp, Path(name).name) for name in old}
        for name, shown in old.items():
            paths[name].write_text(shown.stdout)
        then = effective_config(str(paths[paper_config]), str(paths[schema]))
    if config_hash(then) != stamp.get("config_sha256"):
        return None
    now = flat_settings(effective_config(str(Path(repo, paper_config)), str(Path(repo, schema))))
    return sorted(key for key, value in flat_settings(then).items() if now.get(key) != value)


def documented_changes(page: str | Path, heading: str = "## Since the snapshot") -> set[str]:
    """The config keys named in backticks in the section of ``page`` that begins with
    ``heading``: the setting changes the published snapshot is known not to reflect."""
    text = Path(page).read_text(encoding="utf-8")
    start = text.find(heading)
    if start < 0:
        return set()
    end = text.find("\n## ", start + len(heading))
    return set(re.findall(r"`([a-z0-9_]+(?:\.[a-z0-9_]+)+)`", text[start:end if end > 0 else None]))


def stale_reasons(stamp_path: str | Path, repo: str | Path = ".",
                  paper_config: str = "config.yaml",
                  schema: str = "src/entropic_bound/config.schema.yaml",
                  require_current_config: bool = True,
                  acknowledged: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Why the snapshot of ``stamp_path`` does not describe the checkout ``repo`` (empty: it
    does): its commit is unknown or not an ancestor of HEAD, it was built from uncommitted
    code, or (when ``require_current_config``) its config hash is not the current config's and
    the difference is more than keys added to the schema since (:func:`added_keys`) and
    settings changed since that are ``acknowledged`` (documented, :func:`documented_changes`:
    the snapshot is then knowingly behind, and the docs say how)."""
    stamp = json.loads(Path(stamp_path).read_text())
    commit = stamp.get("commit", "")
    reasons = []
    if _git(repo, "cat-file", "-e", f"{commit}^{{commit}}").returncode:
        reasons.append(f"commit {commit!r} is not in this repository's history")
    elif _git(repo, "merge-base", "--is-ancestor", commit, "HEAD").returncode:
        reasons.append(f"commit {commit} is not an ancestor of HEAD")
    if stamp.get("dirty"):
        reasons.append("built from a checkout with uncommitted changes")
    current = config_hash(effective_config(str(Path(repo, paper_config)),
                                           str(Path(repo, schema))))
    if (require_current_config and stamp.get("config_sha256") != current
            and added_keys(stamp_path, repo, paper_config, schema) is None):
        changed = changed_settings(stamp_path, repo, paper_config, schema)
        # a documented key covers its own entries: `e6.corpora.linux` covers linux[0].type
        unknown = None if changed is None else sorted(
            key for key in changed
            if not any(key == a or key.startswith((a + ".", a + "[")) for a in acknowledged))
        if unknown is None or unknown:
            undocumented = "" if unknown is None else f" (not documented: {', '.join(unknown)})"
            reasons.append(f"config hash {stamp.get('config_sha256')} != the current "
                           f"{paper_config}'s {current}: the settings changed since"
                           + undocumented)
    return reasons


def _cell(value) -> str:
    return str(value).replace("|", "\\|")


def _stamp_line(snapshot: Path, link: str) -> str:
    """The snapshot's provenance in one sentence. A run resumed from the store ran most of its
    jobs in earlier sessions, on other machines: it says how many, their cost, since when and
    on which CPUs, beside what the finishing machine's Snakemake spent."""
    stamp = json.loads((snapshot / "stamp.json").read_text())
    m = stamp["machine"]
    job_hours = stamp["job_seconds"].get("total", 0) / 3600
    running = f"{stamp['running_seconds'] / 3600:.2f} h of Snakemake running"
    stored = (stamp.get("stored_jobs") or {}).values()
    if entries := sum(e["entries"] for e in stored):
        cpus = ", ".join(sorted({cpu for e in stored for cpu in e["cpus"]}))
        stored_hours = sum(e["job_seconds"] for e in stored) / 3600
        how = (f"resumed from the store: {entries} of its {stamp['jobs_benchmarked']} jobs "
               f"({stored_hours:.2f} job-hours) computed since "
               f"{stamp['started'].replace('T', ' ')} on {cpus}, then {running} on the "
               f"machine that finished it")
    else:
        how = f"{running} over {stamp['invocations']} invocation(s)"
    return (f"Snapshot [`{link}/`]({link}/report.md) (commit "
            f"`{stamp['commit'][:12]}`, finished {stamp['finished'].replace('T', ' ')}; "
            f"{how}, {job_hours:.2f} job-hours benchmarked, on {m['cores']} cores and "
            f"{m['memory_gib']} GiB, torch {m['torch']}).")


def _counts(claims: pd.DataFrame) -> str:
    return ", ".join(f"**{n} {verdict}**" for verdict, n in
                     claims["verdict"].value_counts().items())


def _claims(snapshot: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The snapshot's claims and checks, and apart from them its extensions (this project's
    pre-registered hypotheses on the paper's open problems: E7)."""
    claims = pd.read_csv(snapshot / "claims.csv", keep_default_na=False)
    extension = claims["kind"] == EXTENSION
    return claims[~extension], claims[extension]


def results_markdown(snapshot: str | Path, base: str | Path = ".") -> str:
    """The results page's summary of a published snapshot: what was run, when, on what and for
    how long (its stamp), the verdict counts over every claim and check, and each claim of the
    paper with the published number beside ours (its ``claims.csv``). Its link to the snapshot
    is relative to ``base``, the folder of the page that holds it."""
    snapshot = Path(snapshot)
    claims, extensions = _claims(snapshot)
    lines = [
        _stamp_line(snapshot, Path(os.path.relpath(snapshot, base)).as_posix()),
        "",
        f"Claims of the paper and consistency checks: {_counts(claims)}.",
        "",
        "| claim | where | paper | ours | verdict |",
        "|---|---|---|---|---|",
    ]
    for c in claims[claims["kind"] == CLAIM].itertuples():
        lines.append(f"| {_cell(c.statement)} | {_cell(c.location)} | {_cell(c.published)} "
                     f"| {_cell(c.reproduced)} | {c.verdict} |")
    if not extensions.empty:
        lines += ["", f"Beyond the paper, pre-registered (its open problems): "
                      f"{_counts(extensions)}.", "",
                  "| claim | where | expected | ours | verdict | firmness |",
                  "|---|---|---|---|---|---|"]
        for c in extensions.itertuples():
            lines.append(f"| {_cell(c.statement)} | {_cell(c.location)} | "
                         f"{_cell(c.published)} | {_cell(c.reproduced)} | {c.verdict} | "
                         f"{_cell(c.firmness)} |")
    return "\n".join(lines)


def headline_markdown(snapshot: str | Path, base: str | Path = ".") -> str:
    """The front door's summary of a published snapshot: the verdict counts over the paper's
    claims and one line per claim that is not reproduced (paper against ours), linking to the
    snapshot's report (relative to ``base``, the README's folder)."""
    snapshot = Path(snapshot)
    link = Path(os.path.relpath(snapshot, base)).as_posix()
    claims, extensions = _claims(snapshot)
    paper = claims[claims["kind"] == CLAIM]
    stamp = json.loads((snapshot / "stamp.json").read_text())
    lines = [f"Of the paper's {len(paper)} claims: {_counts(paper)} ([report]({link}/report.md), "
             f"commit `{stamp['commit'][:12]}`). Not reproduced:", ""]
    for c in paper[paper["verdict"] == "not reproduced"].itertuples():
        lines.append(f"- {_cell(c.statement)} ({_cell(c.location)}): paper "
                     f"{_cell(c.published)}, ours {_cell(c.reproduced)}")
    if not extensions.empty:
        lines += ["", f"Beyond the paper, on its open problems (pre-registered): "
                      f"{_counts(extensions)}."]
    return "\n".join(lines)


BLOCKS = {"headline": headline_markdown, "results": results_markdown}


def write_block(page: str | Path, kind: str, snapshot: str | Path) -> None:
    """Replace the ``kind`` block (``headline`` or ``results``) of the Markdown ``page`` with
    that summary of ``snapshot``, its links relative to the page's folder."""
    page = Path(page)
    text = page.read_text()
    begin, end = block_begin(kind), block_end(kind)
    if begin not in text or end not in text:
        raise ValueError(f"{page}: no {kind} block; expected the lines {begin!r} "
                         f"and {end!r} around it")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    write_text(page, f"{head}{begin}\n{BLOCKS[kind](snapshot, page.parent)}\n{end}{tail}")


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write a published snapshot's summaries into "
                                                 "the README's headline block and the results "
                                                 "page's block.")
    parser.add_argument("--readme", required=True, help="the front door (its headline block)")
    parser.add_argument("--results", required=True, help="the results page (its results block)")
    parser.add_argument("snapshot", help="the snapshot folder (report/paper)")
    a = parser.parse_args(argv)
    write_block(a.readme, "headline", a.snapshot)
    write_block(a.results, "results", a.snapshot)


if __name__ == "__main__":
    main()
