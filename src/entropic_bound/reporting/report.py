"""Rendering: parquet tables + the claims table -> Markdown and a self-contained HTML page.

Reads parquet only; never trains or measures. Each paper table is a :class:`Section` built from
the tables present (a section whose tables are absent is skipped). Its figures
(:mod:`entropic_bound.reporting.figures`) are written beside the report (for Snakemake's
``report()``) and embedded as base64 PNG, so the HTML page is one file that makes no request (its
Content-Security-Policy forbids any). The page opens with what was run (paper settings or not,
commit, date, wall time, verdict counts), a table of contents, and links both ways between each
claim and the section holding its evidence.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from entropic_bound.claims.firmness import DRAWS, FIRM_SHARE
from entropic_bound.claims.registry import load_tables
from entropic_bound.claims.rules import CHECK, CLAIM, EXTENSION
from entropic_bound.plumbing.atomic import read_parquet, write_bytes, write_text
from entropic_bound.plumbing.settings import RUN_KEYS, effective_config, flat_settings
from entropic_bound.reporting.sections import SECTIONS, anchor_of


def settings_diff(run: dict, paper: dict) -> pd.DataFrame:
    """One row (setting, this run, paper) per leaf where the effective configs differ; keys
    in only one of them included (shown as "-" on the other side)."""
    ours, theirs = flat_settings(run), flat_settings(paper)
    rows = [{"setting": key, "this run": ours.get(key, "-"), "paper": theirs.get(key, "-")}
            for key in sorted(set(ours) | set(theirs))
            if key.split(".", 1)[0] not in RUN_KEYS and ours.get(key) != theirs.get(key)]
    return pd.DataFrame(rows, columns=["setting", "this run", "paper"]).astype(str)


def git_commit(where: str | Path = ".") -> str:
    """``HEAD``'s short hash, ``+dirty`` when tracked files differ from it; or why not."""
    from entropic_bound.reporting.snapshot import head_commit

    try:
        commit, dirty = head_commit(where)
    except RuntimeError:
        return "not a git checkout"
    return commit[:12] + ("+dirty" if dirty else "")


def stored_line(stored: dict[str, dict], jobs: int) -> str:
    """Where the stored jobs of a run ran, from their records (a run resumed from the store
    ran them in other sessions, on other machines, at other commits)."""
    entries = sum(e["entries"] for e in stored.values())
    if not entries:
        return f"none of its {jobs} jobs came from the store"
    hours = sum(e["job_seconds"] for e in stored.values()) / 3600
    commits = sorted({c for e in stored.values() for c in e["commits"]})
    cpus = ", ".join(sorted({c for e in stored.values() for c in e["cpus"]}))
    return (f"{entries} of its {jobs} jobs come from the store: {hours:.2f} job-hours, run at "
            f"{len(commits)} commit(s) on {cpus} (stamp.json's stored_jobs, per experiment)")


def run_info(benchmarks: str | Path = "results/benchmarks",
             log_dir: str | Path = ".snakemake/log") -> dict[str, str]:
    """What the header says about the run: commit, render date, where its stored jobs ran
    (:func:`stored_line`), the wall time of this machine's Snakemake (that of the invocation
    rendering the page, or of every invocation since the first job when the run was resumed:
    :func:`costs.wall_summary`), and the job-seconds its benchmark files record
    (:mod:`costs`)."""
    from entropic_bound.reporting.costs import (
        first_job_started,
        invocations,
        read_benchmarks,
        stored_provenance,
        wall_summary,
    )

    now = datetime.now()
    records = read_benchmarks(benchmarks)
    return {
        "commit": git_commit(),
        "date": now.strftime("%Y-%m-%d %H:%M"),
        "stored": stored_line(stored_provenance(records), len(records)) if len(records)
        else "no benchmark files",
        "wall": wall_summary(invocations(log_dir), first_job_started(records), now),
        "compute": f"{records['seconds'].sum() / 3600:.2f} h in {len(records)} benchmarked "
                   f"jobs" if len(records) else "no benchmark files",
    }


TEMPLATES = "report/templates"  # relative to the checkout the report is rendered in


def render_report(table_paths: list[str], claims_path: str, templates: str, markdown_out: str,
                  html_out: str, params: dict, paper_config: str | None = None,
                  schema: str | None = None, captions: str | None = None,
                  machine_study: str | None = None) -> None:
    """Render ``report.md.j2`` and ``report.html.j2`` from ``templates`` (the checkout's
    ``report/templates`` and no other folder: :data:`TEMPLATES`) with one context, in Jinja's
    sandbox (a template reaches no attribute that runs code);
    each section's figure is also written as ``<table>.png`` beside the HTML. Where the run's
    effective settings differ from ``paper_config`` (config.yaml with the ``schema``'s
    defaults), the report lists them at the top. Figure captions are the ones Snakemake's
    ``report()`` shows, read from ``captions``/figure_<table>.rst (one text for both). With
    ``machine_study`` (a published study's folder), a section on it
    (:func:`entropic_bound.reporting.study.study_section`)."""
    from jinja2 import FileSystemLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    from entropic_bound.reporting.study import study_section

    if Path(templates).resolve() != Path(TEMPLATES).resolve():
        raise SystemExit(f"render-report: --templates {templates}: expected {TEMPLATES}, the "
                         "checkout's report templates (no other folder is rendered)")

    tables = load_tables(table_paths)
    sections = [build(tables) for key, build in SECTIONS if key in tables]
    study = study_section(machine_study) if machine_study else None
    if study is not None:
        sections.append(study)
    for sec in sections:
        if sec.figure:
            sec.figure_file = f"{sec.anchor}.png"
            if captions:
                text = Path(captions, f"figure_{sec.anchor}.rst").read_text(encoding="utf-8")
                sec.caption = " ".join(text.split())
            write_bytes(Path(html_out).with_name(sec.figure_file), base64.b64decode(sec.figure))
    everything = read_parquet(claims_path)
    if "machine_firmness" not in everything:  # claims judged without a machine study
        everything["machine_firmness"] = "no machine study"
    everything = everything.assign(
        anchor=everything["column"].map(lambda c: anchor_of(c.split(".", 1)[0])))
    present = {sec.anchor for sec in sections}
    for sec in sections:
        sec.claims = everything[everything["anchor"] == sec.anchor].to_dict("records")
    everything["anchor"] = everything["anchor"].where(everything["anchor"].isin(present), None)
    # the paper's claims and this project's pre-registered ones share the claim tables; each
    # is tallied apart, the consistency checks not at all
    claims = everything[everything["kind"] != CHECK]
    checks = everything[everything["kind"] == CHECK]
    differs = settings_diff(params, effective_config(paper_config, schema) if paper_config
                            else params)
    env = SandboxedEnvironment(loader=FileSystemLoader(templates), undefined=StrictUndefined,
                      autoescape=False, trim_blocks=True, lstrip_blocks=True)
    context = {
        "sections": sections, "claims": claims, "checks": checks,
        "counts": claims[claims["kind"] == CLAIM]["verdict"].value_counts().to_dict(),
        "extension_counts":
            claims[claims["kind"] == EXTENSION]["verdict"].value_counts().to_dict(),
        "params": params,
        "differs": differs, "run": run_info(), "profile": params.get("profile"),
        "firmness_method": FIRMNESS_METHOD,
        "md": lambda f: f.to_markdown(index=False),
        # A wide table scrolls inside its own box instead of pushing the page sideways.
        "html": lambda f: '<div class="scroll">'
                          + f.to_html(index=False, border=0, classes="t", escape=True) + "</div>",
    }
    write_text(markdown_out, env.get_template("report.md.j2").render(**context))
    write_text(html_out, env.get_template("report.html.j2").render(**context))


FIRMNESS_METHOD = (
    f"E1-E5 verdicts rest on seeds: {DRAWS} bootstrap resamples of the seeds (seeded) and each "
    f"seed left out; 'firm' when no seed left out changes the verdict and at least "
    f"{FIRM_SHARE:.0%} of the resamples give it, 'rests on one seed' when leaving out one seed "
    "changes it. App. B's (E6) rest on the six corpora: each corpus left out; 'firm' when none "
    "changes the verdict, 'rests on one corpus' when one does (the detail gives the statistic "
    "with each corpus left out). E7's rest on both: 'firm' when both readings are, else the "
    "first that is not, seeds first.")

STALE_MARK = "STALE REPORT"


def mark_stale(paths: list[str], reason: str) -> None:
    """Put a banner at the top of an existing rendered report saying that the last run failed
    and this page is an earlier run's (called from the Snakefile's ``onerror``). A successful
    run renders the report anew, which removes the banner."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"{STALE_MARK}: the workflow run of {when} failed ({reason}). This report is from "
            f"an earlier run and does not show the current settings or results; fix the failure "
            f"and rerun snakemake.")
    for path in map(Path, paths):
        if not path.exists():
            continue
        page = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            page = page.replace("<body>", f'<body>\n<p class="stale" style="background:#cf222e;'
                                          f'color:#fff;padding:1em"><strong>{text}</strong></p>', 1)
        else:
            page = f"> **{text}**\n\n{page}"
        write_text(path, page)
