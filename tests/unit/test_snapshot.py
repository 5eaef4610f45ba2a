"""Published snapshots: what one holds, and the stamp check that flags a stale one."""

import json
import re
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from entropic_bound.plumbing.atomic import write_parquet
from entropic_bound.plumbing.settings import effective_config
from entropic_bound.reporting.costs import LOG_STAMP
from entropic_bound.reporting.snapshot import (
    added_keys,
    block_begin,
    block_end,
    changed_settings,
    config_hash,
    documented_changes,
    headline_markdown,
    results_markdown,
    stale_reasons,
    write_block,
    write_snapshot,
)
from entropic_bound.store import plan as store_plan_of
from entropic_bound.store.notes import write_note

ROOT = Path(__file__).resolve().parents[2]
CONFIG, SCHEMA = "config.yaml", "src/entropic_bound/config.schema.yaml"
BENCH_HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture()
def run(tmp_path):
    """A repository with the real config and schema, and the files of a finished tiny run."""
    (tmp_path / "src/entropic_bound").mkdir(parents=True)
    shutil.copy(ROOT / CONFIG, tmp_path / CONFIG)
    shutil.copy(ROOT / SCHEMA, tmp_path / SCHEMA)
    git(tmp_path, "init", "-q")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "run")
    tables = tmp_path / "results/tables"
    tables.mkdir(parents=True)
    write_parquet(tables / "table4.parquet", pd.DataFrame({"r_star": [1, 2],
                                                           "estimate": [1.0, 2.5]}))
    report = tmp_path / "report/out"
    report.mkdir(parents=True)
    for name in ("report.html", "table4.png"):
        (report / name).write_text(name)
    render(tmp_path)
    bench = tmp_path / "results/benchmarks/train_grid_cells/e3/linear_qk/sharp/r1/s0.tsv"
    bench.parent.mkdir(parents=True)
    bench.write_text(BENCH_HEADER + "120.5\t0:02:00\t400\t0\t0\t0\t0\t0\t0\t118\n")
    # The run's one Snakemake invocation: started before that job, last log line after it.
    started = (datetime.now() - timedelta(seconds=200)).strftime(LOG_STAMP)
    log = tmp_path / f".snakemake/log/{started}.snakemake.log"
    log.parent.mkdir(parents=True)
    log.write_text("...")
    return tmp_path


def render(run):
    """The report's header as render_report writes it, at the checkout's HEAD."""
    head = git(run, "rev-parse", "HEAD")[:12]
    (run / "report/out/report.md").write_text(f"# report\n\n| run | |\n|---|---|\n"
                                              f"| commit | `{head}` |\n")


def snapshot(run, cfg):
    return write_snapshot(run / "report/paper", what="test", command="snakemake", run_config=cfg,
                          tables=[str(run / "results/tables/table4.parquet")],
                          report_dir=run / "report/out", benchmarks=run / "results/benchmarks",
                          repo=run, paper_config=str(run / CONFIG), schema=str(run / SCHEMA),
                          log_dir=run / ".snakemake/log")


def test_snapshot_holds_the_report_tables_as_csv_and_a_stamp(run):
    cfg = effective_config(str(run / CONFIG), str(run / SCHEMA))
    stamp = snapshot(run, {**cfg, "profile": "x", "overlay": "x"})  # run names are no setting
    out = run / "report/paper"
    assert pd.read_csv(out / "table4.csv")["estimate"].tolist() == [1.0, 2.5]
    assert (out / "report.html").read_text() == "report.html" and (out / "table4.png").exists()
    assert stamp["commit"] == git(run, "rev-parse", "HEAD") and stamp["dirty"] is False
    assert stamp["paper_config"] is True and stamp["config_sha256"] == config_hash(cfg)
    assert stamp["e6_precision"] == cfg["e6"]["train"]["precision"] == "bf16"
    assert stamp["job_seconds"] == {"e3": 120, "total": 120} and stamp["jobs_benchmarked"] == 1
    assert stamp["wall_seconds"] >= 120  # from the first job's start to the newest output
    assert stamp["invocations"] == 1 and 0 < stamp["running_seconds"] <= stamp["wall_seconds"]
    assert stamp["machine"]["cores"] >= 1 and stamp["machine"]["torch"]
    cpuinfo = Path("/proc/cpuinfo")
    models = [line.split(":", 1)[1].strip() for line in
              (cpuinfo.read_text().splitlines() if cpuinfo.exists() else [])
              if line.startswith("model name")]
    # The CPU's model where the system names it (not just "x86_64": sessions differ in CPU).
    assert stamp["machine"]["cpu"] == (models[0] if models else stamp["machine"]["cpu"])
    assert json.loads((out / "stamp.json").read_text()) == stamp
    assert stale_reasons(out / "stamp.json", run) == []
    assert stamp["stored_jobs"] == {}  # the fixture's one job wrote a Snakemake benchmark


def test_a_report_rendered_at_another_commit_is_not_published(run):
    """The header's commit and the stamp's must agree: a report rendered before a later
    commit is refused in one line, and the previous snapshot is left as it was."""
    cfg = effective_config(str(run / CONFIG), str(run / SCHEMA))
    snapshot(run, cfg)
    git(run, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty",
        "-m", "later")
    with pytest.raises(SystemExit, match=r"rendered at commit \w{12}, the snapshot is of \w{12}"):
        snapshot(run, cfg)
    assert (run / "report/paper/stamp.json").exists()


def test_the_stamp_says_where_each_experiments_stored_jobs_ran(run):
    """A run resumed from the store spans commits and machines: per experiment, the stamp
    gives its stored jobs' count, job-seconds, commits and CPUs, from their records."""
    def record(rel, seconds, sha, cpu, capability):
        # a stored job's record, copied from its entry, and its job's note (the wrapper's)
        path = run / "results/benchmarks" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_note({"rule": rel.split("/")[0], "keep": "entry", "argv": [],
                    "outputs": {"record": f"results/benchmarks/{rel}"}}, run / "results/jobs")
        path.write_text(json.dumps({
            "argv": ["entropic-bound", rel.split("/")[0]],
            "s": seconds, "max_rss": 100.0, "cpu_time": seconds,
            "finished": datetime.now().astimezone().strftime("%Y-%m-%dT%H:%M:%S%z"),
            "machine": {"cpu_model": cpu, "aten_cpu_capability": capability},
            "commit": {"sha": sha}}))

    record("train_lm_cells/json/d64/s0.json", 300.0, "a" * 40, "AMD EPYC", "AVX512")
    record("train_lm_cells/json/d128/s0.json", 700.4, "b" * 40, "Intel Xeon", "AVX2")
    record("estimate_e4_data/e3/linear_qk/sharp/r1/s0.json", 20.0, "a" * 40, "AMD EPYC", None)
    stamp = snapshot(run, effective_config(str(run / CONFIG), str(run / SCHEMA)))
    assert stamp["stored_jobs"] == {
        "e4": {"entries": 1, "job_seconds": 20, "commits": ["a" * 12],
               "cpus": ["AMD EPYC (no torch)"]},
        "e6": {"entries": 2, "job_seconds": 1000, "commits": ["a" * 12, "b" * 12],
               "cpus": ["AMD EPYC (AVX512)", "Intel Xeon (AVX2)"]}}
    # the Snakemake benchmark of the fixture's E3 job counts in the job-seconds, not here
    assert stamp["job_seconds"] == {"e6": 1000, "e3": 120, "e4": 20,
                                   "total": 1141}  # 120.5 + 1000.4 + 20
    # The results page says the jobs came from the store, from where, at what cost.
    CLAIMS.to_csv(run / "report/paper/claims.csv", index=False)
    line = results_markdown(run / "report/paper", run).splitlines()[0]
    assert (f"resumed from the store: 3 of its 4 jobs (0.28 job-hours) computed since "
            f"{stamp['started'].replace('T', ' ')} on AMD EPYC (AVX512), AMD EPYC (no torch), "
            f"Intel Xeon (AVX2), then ") in line, line


def test_a_stale_snapshot_is_flagged(run):
    cfg = effective_config(str(run / CONFIG), str(run / SCHEMA))
    snapshot(run, cfg)
    stamp_path = run / "report/paper/stamp.json"
    # Later commits keep it valid while the config is unchanged.
    (run / "notes.txt").write_text("later work")
    git(run, "add", "notes.txt")
    git(run, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "later")
    assert stale_reasons(stamp_path, run) == []
    # A changed setting makes the published numbers stale.
    config = run / CONFIG
    config.write_text(config.read_text().replace("sigma: 0.05", "sigma: 0.1", 1))
    assert any("config hash" in r for r in stale_reasons(stamp_path, run))
    assert stale_reasons(stamp_path, run, require_current_config=False) == []
    # A key the schema gained since, at its default, leaves the run's settings as they were...
    config.write_text(config.read_text().replace("sigma: 0.1", "sigma: 0.05", 1))
    schema = run / SCHEMA
    text = schema.read_text()
    schema.write_text(text.replace("  device:\n", "  new_key: {type: integer, default: 7}\n"
                                                  "  device:\n", 1))
    assert "new_key" in schema.read_text() and stale_reasons(stamp_path, run) == []
    assert added_keys(stamp_path, run) == ["new_key"]
    # ... but a changed default of an existing key is a changed setting.
    schema.write_text(text.replace("default: 1500,", "default: 1400,", 1))  # e3 sweep_steps
    assert text != schema.read_text() and added_keys(stamp_path, run) is None
    assert any("config hash" in r for r in stale_reasons(stamp_path, run))
    # So is a value the snapshot's schema does not even accept (an enum entry added since).
    schema.write_text(text.replace("enum: [auto, cpu, cuda]", "enum: [auto, cpu, cuda, mps]", 1))
    config.write_text(config.read_text() + "device: mps\n")
    assert added_keys(stamp_path, run) is None and changed_settings(stamp_path, run) == ["device"]
    assert any("config hash" in r for r in stale_reasons(stamp_path, run))
    config.write_text(config.read_text().replace("device: mps\n", ""))
    schema.write_text(text.replace("default: 1500,", "default: 1400,", 1))
    # A changed setting the results page documents leaves the snapshot knowingly behind...
    changed = ["e3.train.sweep_steps", "e5.train.sweep_steps"]  # one YAML anchor, two keys
    assert changed_settings(stamp_path, run) == changed
    page = run / "results.md"
    page.write_text("# Results\n\n## Since the snapshot\n\n- `e3.train.sweep_steps` and "
                    "`e5.train.sweep_steps` are 1400 now.\n\n## Older\n\n`e3.sigma`\n")
    assert documented_changes(page) == set(changed)
    assert stale_reasons(stamp_path, run, acknowledged=documented_changes(page)) == []
    # ... and one it does not is named
    assert any("not documented: e5.train.sweep_steps" in r
               for r in stale_reasons(stamp_path, run, acknowledged={"e3.train.sweep_steps"}))
    # A commit that is not in the history.
    stamp = json.loads(stamp_path.read_text())
    stamp_path.write_text(json.dumps({**stamp, "commit": "0" * 40}))
    assert any("not in this repository's history" in r
               for r in stale_reasons(stamp_path, run, require_current_config=False))


def test_republishing_a_tracked_snapshot_is_clean_but_other_edits_are_not(run):
    cfg = effective_config(str(run / CONFIG), str(run / SCHEMA))
    snapshot(run, cfg)
    git(run, "add", "report/paper")
    git(run, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "publish")
    # Snakemake removes the snapshot rule's output folder before the job runs.
    shutil.rmtree(run / "report/paper")
    render(run)  # at the publishing commit (--forcerun render_report)
    assert snapshot(run, cfg)["dirty"] is False
    (run / CONFIG).write_text((run / CONFIG).read_text() + "\n# an uncommitted edit\n")
    assert snapshot(run, cfg)["dirty"] is True


def test_a_snapshot_of_a_run_with_other_settings_says_so(run):
    cfg = effective_config(str(run / CONFIG), str(run / SCHEMA))
    cfg["e3"] = {**cfg["e3"], "n": 256}
    assert snapshot(run, cfg)["paper_config"] is False


CLAIMS = pd.DataFrame({
    "id": ["E1.noise_floor", "E1.excess_r1", "E2.excess.B3", "E3.recovery"],
    "kind": ["check", "claim", "claim", "claim"],
    "location": ["App. C.1", "Table 1", "Table 2", "Section 6"],
    "statement": ["noise floor", "excess at r = 1", "B3 excess at r*", "|excess| small"],
    "published": ["1.28", "28.5", "51.9", "holds"],
    "reproduced": ["1.28", "39.37", "81.79", ""],
    "verdict": ["reproduced", "reproduced", "not reproduced", "not run"]})
# a pre-registered claim beyond the paper (E7's kind): tallied apart from the paper's
EXTENSIONS = pd.DataFrame({
    "id": ["E7.depth_helps"], "kind": ["extension"], "location": ["Section 8 (iv)"],
    "statement": ["deeper is better"], "published": ["expected"], "reproduced": ["1.39 > 1.33"],
    "verdict": ["partly"], "firmness": ["firm"]})


def test_the_readme_block_gives_the_stamp_the_verdicts_and_every_claim(run):
    stamp = snapshot(run, effective_config(str(run / CONFIG), str(run / SCHEMA)))
    pd.concat([CLAIMS, EXTENSIONS]).to_csv(run / "report/paper/claims.csv", index=False)
    text = results_markdown(run / "report/paper", run)
    assert f"commit `{stamp['commit'][:12]}`" in text and "1 invocation(s)" in text
    assert ("Claims of the paper and consistency checks: **2 reproduced**, **1 not "
            "reproduced**, **1 not run**.") in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1:4] == ["| excess at r = 1 | Table 1 | 28.5 | 39.37 | reproduced |",
                         "| B3 excess at r* | Table 2 | 51.9 | 81.79 | not reproduced |",
                         "| \\|excess\\| small | Section 6 | holds |  | not run |"]
    # the extension in a table of its own, with its firmness, counted apart
    assert "Beyond the paper, pre-registered (its open problems): **1 partly**." in text
    assert rows[4:] == ["| claim | where | expected | ours | verdict | firmness |",
                        "| deeper is better | Section 8 (iv) | expected | 1.39 > 1.33 | partly "
                        "| firm |"]
    page = run / "docs/results.md"
    page.parent.mkdir()
    page.write_text(f"# x\n\n{block_begin('results')}\nold\n{block_end('results')}\n\n## next\n")
    write_block(page, "results", run / "report/paper")
    begin, end = block_begin("results"), block_end("results")
    # the link is relative to the page's own folder
    block = results_markdown(run / "report/paper", page.parent)
    assert page.read_text() == f"# x\n\n{begin}\n{block}\n{end}\n\n## next\n"
    assert "](../report/paper/report.md)" in page.read_text()
    page.write_text("# no block\n")
    with pytest.raises(ValueError, match="no results block"):
        write_block(page, "results", run / "report/paper")


def test_the_headline_block_counts_the_claims_and_names_each_one_not_reproduced(run):
    stamp = snapshot(run, effective_config(str(run / CONFIG), str(run / SCHEMA)))
    checks = pd.DataFrame({**{k: ["-"] for k in CLAIMS.columns}, "kind": ["check"],
                           "verdict": ["not reproduced"]})
    pd.concat([CLAIMS, checks, EXTENSIONS]).to_csv(run / "report/paper/claims.csv",
                                                   index=False)
    text = headline_markdown(run / "report/paper", run)
    # the extension is not one of the paper's claims: a line of its own
    assert text.splitlines()[-1] == (
        "Beyond the paper, on its open problems (pre-registered): **1 partly**.")
    assert text.splitlines()[0] == (
        "Of the paper's 3 claims: **1 reproduced**, **1 not reproduced**, **1 not run** "
        f"([report](report/paper/report.md), commit `{stamp['commit'][:12]}`). Not reproduced:")
    # a failing consistency check is not a claim of the paper
    assert [line for line in text.splitlines() if line.startswith("- ")] == [
        "- B3 excess at r* (Table 2): paper 51.9, ours 81.79"]


PUBLISHED = sorted(ROOT.glob("report/**/stamp.json"))


@pytest.mark.parametrize("stamp", PUBLISHED, ids=lambda p: str(p.parent.relative_to(ROOT)))
def test_published_snapshots_describe_this_repository(stamp):
    """report/paper must match the current commit history and config.yaml; a partial snapshot
    (report/partial/...) records a restricted run, so only its commit is checked."""
    if git(ROOT, "rev-parse", "--is-shallow-repository") == "true":
        pytest.skip("a shallow clone has no history to find the snapshot's commit in")
    paper = stamp.parent == ROOT / "report/paper"
    assert stale_reasons(stamp, ROOT, require_current_config=paper,
                         acknowledged=documented_changes(ROOT / "docs/results.md")) == []


def test_the_paper_snapshot_is_published():
    if not (ROOT / "report/paper/stamp.json").exists():
        pytest.skip("report/paper not published yet: it needs one complete run at the "
                    "paper's settings")
    stamp = json.loads((ROOT / "report/paper/stamp.json").read_text())
    assert stamp["paper_config"] and {"report.html", "report.md", "claims.csv"} <= set(
        stamp["files"])
    # The report's header names the stamp's commit and where its stored jobs ran.
    report = (ROOT / "report/paper/report.md").read_text()
    assert f"| commit | `{stamp['commit'][:12]}` |" in report
    stored = sum(e["entries"] for e in stamp["stored_jobs"].values())
    assert re.search(rf"^\| stored jobs \| {stored} of its {stamp['jobs_benchmarked']} jobs come "
                     r"from the store", report, re.M)
    # every claim carries its firmness
    claims = pd.read_csv(ROOT / "report/paper/claims.csv", keep_default_na=False)
    judged = claims[claims["verdict"] != "not run"]
    assert judged["firmness"].isin(["firm", "rests on one seed", "rests on one corpus",
                                    "not firm"]).all()
    # The front door and the results page show this snapshot, not an older one.
    for page, kind, summary in (("README.md", "headline", headline_markdown),
                                ("docs/results.md", "results", results_markdown)):
        text = (ROOT / page).read_text()
        block = summary(ROOT / "report/paper", (ROOT / page).parent)
        assert f"{block_begin(kind)}\n{block}\n{block_end(kind)}" in text, page


def test_the_paper_snapshot_is_wholly_in_the_store():
    """At the commit that publishes report/paper from the store, a dry run of every job of the
    paper's DAG fetches each training, measure and estimator job and computes none."""
    stamp_path = ROOT / "report/paper/stamp.json"
    if not stamp_path.exists() or "stored_jobs" not in json.loads(stamp_path.read_text()):
        pytest.skip("report/paper was not published from the store")
    plan = store_plan_of.store_plan(["--forceall"], ROOT)
    computed = {rule: counts["computed"] for rule, counts in plan.items() if counts["computed"]}
    assert plan and computed == {}, f"jobs the store lacks, per rule: {computed}"
