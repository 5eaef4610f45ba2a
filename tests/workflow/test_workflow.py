"""The workflow through Snakemake itself: end-to-end quick DAG, caching, invalidation, config."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from conftest import QUICK, planned_jobs, snakemake


def test_quick_dag_builds_tables_and_report(quick_run):
    t3 = pd.read_parquet(quick_run / "results/tables/table3.parquet")
    sweep = pd.read_parquet(quick_run / "results/tables/table3_sweep.parquet")
    claims = pd.read_parquet(quick_run / "results/tables/claims.parquet")
    assert set(t3["teacher"]) == {"linear_qk", "softmax_qk"}
    assert sorted(t3["r_star"].unique()) == [1, 2]
    floor = 0.05**2 * 8 * 8
    assert t3["noise_floor"].eq(floor).all()
    # Deficiency: below r* the excess is far above the floor (linear teacher, r* = 2, r = 1).
    below = sweep.query("teacher == 'linear_qk' and r_star == 2 and r == 1")["excess_mean"]
    assert float(below.iloc[0]) > 10 * floor
    # Achievability: at and above r* the excess is small against the floor.
    at = sweep.query("teacher == 'softmax_qk' and r_star == 2 and r >= 2")["excess_mean"]
    assert (at.abs() < 0.1 * floor).all()
    assert {"claim", "check", "extension"} == set(claims["kind"])
    # Table 1: the rank-1 excess is positive and tracks the exact Eckart-Young value.
    t1 = pd.read_parquet(quick_run / "results/tables/table1_sweep.parquet").set_index("r")
    assert t1.loc[1, "excess_mean"] == pytest.approx(t1.loc[1, "eckart_young"], rel=0.3)
    assert t1.loc[1, "theorem5_bound"] <= t1.loc[1, "eckart_young"]
    # Table 2: every ladder class and B3 variant on both operators; B0 reaches the floor, B1
    # does not; only the paper's (independent) operator has over-parameterised students.
    t2 = pd.read_parquet(quick_run / "results/tables/table2.parquet")
    assert set(t2["operator"]) == {"independent", "symmetric"}
    primary = t2[t2["primary"]].set_index("class")
    assert set(primary.index) == {"B0", "B1", "B1c", "B2", "B3", "B3_postln", "B3_rscale",
                                  "B3_postln_rscale", "B3_pos", "B3_causal", "B3_pos_readout",
                                  "B3_causal_readout"}
    # the equivariance floor bounds the position-free classes only
    assert (primary.loc[["B1", "B2", "B3"], "achievable_by"] == "bound_equivariance").all()
    assert (primary.loc[["B3_pos", "B3_causal"], "achievable_by"] == "none").all()
    assert (t2["operator"][t2["primary"]] == "independent").all()
    assert abs(primary.loc["B0", "excess_at_r_star"]) < 0.1 * primary.loc["B1", "excess_at_r_star"]
    assert t2.loc[~t2["primary"], "overparam_op_reff"].isna().all()
    # Table 5: three spectra with their teacher energy ranks.
    t5 = pd.read_parquet(quick_run / "results/tables/table5.parquet").set_index("spectrum")
    assert t5.loc["flat", "teacher_reff_energy"] == pytest.approx(4.0, abs=1e-6)
    # Table 4: every estimator scored on both teachers, on the E3 grid and on every
    # robustness setting (E5's three spectra with both teachers, a second size, fresh seeds).
    scores = pd.read_parquet(quick_run / "results/tables/table4_scores.parquet")
    assert set(scores["teacher"]) == {"linear_qk", "softmax_qk"}
    assert {"v_known", "als", "als_nuclear", "realized_mixer", "v_known_weighted",
            "v_known_gd", "combined", "heldout_fit", "heldout_fit_als"} <= set(scores["estimator"])
    assert set(scores["setting"]) == {"e3", "e4_spectra", "e4_size", "e4_fresh_seeds"}
    spectra_rows = scores[(scores["setting"] == "e4_spectra") & (scores["estimator"] == "als")]
    assert sorted(spectra_rows["spectrum"]) == sorted(["sharp", "power_law", "flat"] * 2)
    assert (scores["seconds_per_dataset"] > 0).all()
    # The linear teacher is solved exactly by least squares with V known (protocol §E4).
    linear = scores.set_index(["setting", "teacher", "estimator"]).loc[
        ("e3", "linear_qk", "v_known")]
    assert linear["hits"] == linear["n"] == 2 * 2
    md = (quick_run / "report/out/report.md").read_text()
    html = (quick_run / "report/out/report.html").read_text()
    assert "Table 3" in md and "E3.recovery.linear_qk" in md
    assert html.startswith("<!doctype html>") and "data:image/png;base64," in html
    assert "Appendix B" in md and "E6.predicted_vs_measured.pearson" in md
    # the header tallies the paper's claims, E7's pre-registered ones on a line of their own
    claims = pd.read_parquet(quick_run / "results/tables/claims.parquet")
    tally = {line.split(":")[0]: sum(map(int, re.findall(r"\*\*(\d+) ", line)))
             for line in md.splitlines()[:6] if line.startswith(("Claims", "Beyond"))}
    assert tally == {"Claims of the paper": int((claims["kind"] == "claim").sum()),
                     "Beyond the paper (open problem (iv), pre-registered)": 4}


def test_quick_dag_runs_e6_on_six_real_corpora(quick_run):
    tables = quick_run / "results/tables"
    corpora = pd.read_parquet(tables / "table6_corpora.parquet").set_index("corpus")
    assert sorted(corpora.index) == ["english", "json", "linux", "music", "python",
                                     "shakespeare"]
    assert corpora["text_sha256"].str.fullmatch("[0-9a-f]{64}").all()
    assert (corpora["text_bytes"] > 1_000_000).all() and (corpora["tokens"] > 100_000).all()
    cells = pd.read_parquet(tables / "table6.parquet")
    assert len(cells) == 6 * 2 and (cells["seeds"] == 2).all()  # corpora x d_models, 2 seeds
    assert (cells["val_loss"] < np.log(cells.merge(corpora.reset_index())["vocab_size"])).all()
    stats = pd.read_parquet(tables / "table6_stats.parquet").set_index("stat")
    # The statistic is the Pearson r of the cells' seed means (recomputed here).
    r = np.corrcoef(cells["predicted_rank"], cells["static_reff"])[0, 1]
    assert stats.loc["pearson_predicted_vs_static", "value"] == pytest.approx(r, abs=1e-12)
    assert stats.loc["ridge_full_rank_corpora", "n"] == 6
    # trained to the criterion: every cell's record, and its measures along training
    traj = pd.read_parquet(tables / "table6_trajectory.parquet")
    assert {0, 10, 20} <= set(traj["step"]) and traj["val_loss"].notna().all()
    final = traj[traj["final"]]
    assert final.groupby(["corpus", "d_model", "seed"]).ngroups == 6 * 2 * 2
    assert (final["step"] <= final["stop_step"]).all()
    assert set(final["stop_reason"]) <= {"patience", "max_steps"}
    assert stats.loc["untrained_cells", "n"] == 6 * 2 * 2


def test_editing_attention_measures_reruns_measures_not_lm_training(quick_run):
    jobs = jobs_after_edit(quick_run, "src/entropic_bound/measures/lm.py")
    assert jobs == {"measure_lm_cells": 6 * 2 * 2, "aggregate_table6": 1,
                    "measure_e7_cells": 6 * 2, "aggregate_table7": 1, "evaluate_claims": 1,
                    "audit_store": 1, "render_report": 1, "all": 1}


def test_changing_one_corpus_source_refetches_only_that_corpus(quick_run):
    (quick_run / "json.yaml").write_text(
        "e6:\n  corpora:\n    json:\n"
        "      - {type: files, root: /usr/share/iso-codes/json, members: ['*.json']}\n")
    jobs = planned_jobs(quick_run, *QUICK, "--configfile", "profiles/quick/quick.yaml",
                        "json.yaml")
    assert jobs["fetch_corpus"] == 1 and jobs["train_lm_cells"] == 2 * 2


def test_a_corpus_is_only_its_pinned_text_and_a_relock_is_explicit(run_copy):
    """A corpus whose source list lost the pinned source stops with one line; deleting its
    `corpus:<name>` entry (the explicit re-lock) fetches the new text and stops naming the pin
    and the command that adds it, writing nothing to the lock (no job does: the workflow plans
    from it); once the user runs that command, the next run trains on it. Before, a source that
    moved or fell through changed the corpus, exit 0."""
    import json
    import shlex

    (run_copy / "json.yaml").write_text(
        "e6:\n  corpora:\n    json:\n"
        "      - {type: files, root: /usr/share/iso-codes/json, members: ['*.json']}\n")
    args = (*QUICK, "--configfile", "profiles/quick/quick.yaml", "json.yaml", "--until",
            "fetch_corpus")
    out = snakemake(run_copy, *args, check=False)
    log = (run_copy / "logs/fetch_corpus/json.log").read_text()
    assert out.returncode != 0 and "not among the configured ones" in log, log
    lock_file = run_copy / "corpora.lock.json"
    lock = json.loads(lock_file.read_text())
    old_pin = lock.pop("corpus:json")
    lock_file.write_text(json.dumps(lock))
    relocked = lock_file.read_bytes()
    out = snakemake(run_copy, *args, check=False)
    log = (run_copy / "logs/fetch_corpus/json.log").read_text()
    assert out.returncode != 0 and "has no entry for corpus:json" in log, log
    assert lock_file.read_bytes() == relocked  # named, not written
    add = shlex.split(log.rsplit(": entropic-bound ", 1)[1].splitlines()[0])
    subprocess.run(["entropic-bound", *add], cwd=run_copy, check=True)
    new_pin = json.loads(lock_file.read_text())["corpus:json"]
    assert new_pin["source"] == "files /usr/share/iso-codes/json" != old_pin["source"]
    snakemake(run_copy, *args)
    prov = json.loads((run_copy / "results/corpora/json/provenance.json").read_text())
    assert prov["text_sha256"] == new_pin["text_sha256"] and prov["pin"].startswith("verified")


def test_second_run_has_nothing_to_do(quick_run):
    out = snakemake(quick_run, *QUICK)
    assert "Nothing to be done" in out.stdout + out.stderr


def test_adding_an_r_star_schedules_only_its_cells(quick_run):
    (quick_run / "more.yaml").write_text("e3:\n  r_stars: [1, 2, 3]\n")
    jobs = planned_jobs(quick_run, *QUICK, "--configfile", "profiles/quick/quick.yaml",
                        "more.yaml")
    per_r_star = 2 * 2  # teachers x seeds of the quick profile
    assert jobs == {"make_grid_data": per_r_star, "train_grid_cells": per_r_star,
                    "measure_grid_cells": per_r_star, "aggregate_grid": 1,
                    "estimate_e4_data": per_r_star, "aggregate_table4": 1,  # E4 reuses E3 data
                    "evaluate_claims": 1, "audit_store": 1, "render_report": 1,
                    "all": 1}


def jobs_after_edit(workdir, relpath: str) -> dict[str, int]:
    """Dry-run job counts after appending a blank line to one file (restored afterwards)."""
    path = workdir / relpath
    original = path.read_text()
    try:
        path.write_text(original + "\n")
        return planned_jobs(workdir, *QUICK)
    finally:
        path.write_text(original)


def test_editing_measurement_code_reruns_measures_not_training(quick_run):
    jobs = jobs_after_edit(quick_run, "src/entropic_bound/measures/grid.py")
    assert "train_grid_cells" not in jobs and "make_grid_data" not in jobs
    assert jobs["measure_grid_cells"] == 8 + 3  # E3 (2x2x2) and E5 (3 spectra) datasets
    assert "measure_fixed_cells" not in jobs  # E1/E2 measures live in fixed_measure.py
    assert jobs["aggregate_grid"] == 2 and jobs["render_report"] == 1


def test_editing_the_report_template_reruns_only_the_report(quick_run):
    jobs = jobs_after_edit(quick_run, "report/templates/report.md.j2")
    assert jobs == {"render_report": 1, "all": 1}


@pytest.mark.parametrize("override,named", [
    ("e3:\n  n: 0\n", "['properties']['e3']['properties']['n']"),
    ("e3:\n  teachers: [cubic_qk]\n", "'cubic_qk' is not one of ['linear_qk', 'softmax_qk']"),
    ("e3:\n  r_stars: [40]\n", "config e3.r_stars: r*=40 exceeds e3.d=8")])
def test_bad_config_fails_before_any_job_naming_the_key(quick_run, override, named):
    (quick_run / "bad.yaml").write_text(override)
    out = snakemake(quick_run, "-n", *QUICK, "--configfile",
                    "profiles/quick/quick.yaml", "bad.yaml", check=False)
    assert out.returncode != 0 and "Job stats" not in out.stdout
    assert named in out.stdout + out.stderr


def test_plain_snakemake_applies_the_default_profile(quick_run):
    """`snakemake --cores N`, the command the project is used with, finds profiles/default by
    itself; naming another profile replaces it."""
    out = snakemake(quick_run, "-n", "--cores", "2")
    assert "Using workflow specific profile profiles/default for setting default" in out.stderr
    out = snakemake(quick_run, "-n", *QUICK)
    assert "profile profiles/quick for" in out.stderr and "profiles/default" not in out.stderr


def test_paper_settings_dry_run_lists_the_full_e3_grid(quick_run):
    jobs = planned_jobs(quick_run, "--cores", "2")
    assert jobs["train_grid_cells"] == 2 * 6 * 5 + 3 * 5  # E3 + E5 datasets of config.yaml
    assert jobs["train_fixed_cells"] == 5 + 5 + 5  # E1, E2 and E2's symmetric variant
    assert jobs["train_lm_cells"] == 6 * 3 * 5  # E6 corpora x d_models x seeds


def test_every_rule_a_profile_names_exists(quick_run):
    """A profile's set-resources / set-threads key that names no rule is silently ignored by
    Snakemake (the slurm profile once tuned a 'train_e3_cells' that does not exist)."""
    import yaml

    listed = snakemake(quick_run, "--list-rules").stdout.split()
    named = {}
    for profile in (quick_run / "profiles").glob("*/config.yaml"):
        cfg = yaml.safe_load(profile.read_text())
        for key in ("set-resources", "set-threads"):
            for rule in cfg.get(key) or {}:
                named[rule] = profile.parent.name
    assert named, "no profile sets per-rule resources: the check would be vacuous"
    assert {r: p for r, p in named.items() if r not in listed} == {}


def test_snakemake_report_zip_bundles_every_table_and_figure_with_its_caption(quick_run):
    import zipfile

    out = snakemake(quick_run, *QUICK, "--report", "report.zip")
    assert "ERROR" not in out.stderr  # docutils reports a broken caption but still exits 0
    with zipfile.ZipFile(quick_run / "report.zip") as bundle:
        names = {n.rsplit("/", 1)[-1] for n in bundle.namelist()}
        page = bundle.read("report/report.html").decode()
    tables = {p.with_suffix(".csv").name for p in (quick_run / "results/tables").glob("*.parquet")}
    figures = {p.name for p in (quick_run / "report/out").glob("table*.png")}
    assert len(figures) == 8 and figures <= names  # tables 1-7 and E6's training
    assert tables <= names, tables - names
    # Each figure's own caption (not one caption reused for all) is in the bundle's page.
    captions = [(quick_run / f"workflow/report/figure_{f.removesuffix('.png')}.rst")
                .read_text().split()[:4] for f in sorted(figures)]
    assert len({tuple(c) for c in captions}) == 8
    for words in captions:
        assert " ".join(words) in page, words


def test_training_cells_ask_slurm_for_a_gpu_when_device_is_cuda(quick_run):
    """With device=cuda every training job carries the `gpu` resource, which the SLURM
    executor turns into `--gpus=1`; measurement jobs do not ask for one."""
    from types import SimpleNamespace

    from snakemake_executor_plugin_slurm.utils import set_gres_string

    out = snakemake(quick_run, "-n", "--forceall", *QUICK, "--config", "device=cuda").stdout
    blocks = re.findall(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", out, re.M | re.S)
    gpu = {}
    for rule, body in blocks:
        found = re.search(r"resources: .*?\bgpu=(\d+)", body)
        gpu.setdefault(rule, set()).add(int(found.group(1)) if found else 0)
    for rule in ("train_grid_cells", "train_fixed_cells", "train_lm_cells"):
        assert gpu[rule] == {1}, (rule, gpu[rule])
    assert gpu["measure_grid_cells"] == {0}
    job = SimpleNamespace(resources=SimpleNamespace(gpu=1, get={"gpu": 1}.get))
    assert set_gres_string(job).strip() == "--gpus=1"


def test_editing_the_fetch_code_plans_nothing(quick_run):
    """The text is pinned by its sha256 (a param of the fetch job), so the fetch code is not an
    input: an edit of it plans no job, neither a fetch nor anything downstream."""
    fetch_code = quick_run / "src/entropic_bound/data/corpora.py"
    fetch_code.write_text(fetch_code.read_text() + "\n# an edit that changes no text\n")
    jobs = planned_jobs(quick_run, *QUICK)
    assert not {"fetch_corpus", "tokenize_corpus", "train_lm_cells"} & set(jobs), jobs


def rule_blocks(out: str) -> list[tuple[str, str]]:
    """(rule, text) of each job of a dry run's output (``-p`` adds the shell command)."""
    return re.findall(r"^(?:local)?rule (\w+):\n(.*?)(?=^(?:local)?rule |^Job stats|\Z)", out,
                      re.M | re.S)


def test_every_stored_job_keys_the_import_closure_of_the_command_it_runs(quick_run):
    """From Snakemake's own view of the DAG: each stored job's manifest (the wrapper's first
    word) lists as its `code` exactly the modules `entropic-bound <command>` executes, which its
    store key reads, so no edit can leave a stale entry."""
    from entropic_bound.store.closure import command_sources
    from entropic_bound.store.plan import wrapped

    out = snakemake(quick_run, "-n", "--forceall", "-p", *QUICK).stdout
    checked = set()
    for rule, body in rule_blocks(out):
        shell = next((line.split(": ", 1)[1] for line in body.splitlines()
                      if line.startswith("Shell command: entropic-bound-store ")), None)
        if shell is None:
            continue
        manifest, argv = wrapped(shell)
        # the fetch's text is pinned by its sha256, which keys everything downstream instead
        expected = [] if rule == "fetch_corpus" else command_sources(argv[1])
        assert manifest["inputs"].get("code", []) == expected, rule
        checked.add(rule)
    assert len(checked) == 12  # every rule whose params are **stored(...)


def test_an_edit_reruns_exactly_the_rules_that_execute_the_edited_file(quick_run):
    """Each rule's `code` param is the digest of its command's import closure; Snakemake's
    params trigger compares it. Editing a module shared by some commands invalidates (reason
    "Params have changed") only jobs of rules whose command imports it, and every such rule
    reruns (below an invalidated job, for its inputs' sake); the rest not at all."""
    from entropic_bound.store.closure import command_sources

    edited = "src/entropic_bound/measures/spectra.py"
    path = quick_run / edited
    original = path.read_text()
    try:
        path.write_text(original + "\n")
        out = snakemake(quick_run, "-n", "-p", *QUICK).stdout
        commands = {rule: re.search(r"entropic-bound ([a-z0-9-]+) ", body).group(1)
                    for rule, body in rule_blocks(
                        snakemake(quick_run, "-n", "--forceall", "-p", *QUICK).stdout)
                    if re.search(r"entropic-bound ([a-z0-9-]+) ", body)}
    finally:
        path.write_text(original)
    planned = {rule for rule, _ in rule_blocks(out)}
    # a job below an invalidated one shows that reason instead (its inputs will be remade)
    invalidated = {rule for rule, body in rule_blocks(out)
                   if "Params have changed since last execution" in body}
    expected = {rule for rule, command in commands.items()
                if rule != "fetch_corpus" and edited in command_sources(command)}
    assert invalidated <= expected <= planned
    assert {"measure_grid_cells", "estimate_e4_data", "train_lm_cells"} <= invalidated
    assert not {"make_grid_data", "train_grid_cells", "train_fixed_cells"} & planned


def test_memory_is_declared_from_the_dataset_size(quick_run):
    """No rule declared mem_mb, so `--resources mem_mb=N` could not keep a
    large config within a machine. A dataset's jobs now declare it from n, T and d."""
    def train_mem(n: int) -> set[int]:
        out = snakemake(quick_run, "-n", "--forceall", *QUICK, "--config",
                        f'e3={{"n": {n}}}').stdout
        blocks = re.findall(r"^rule train_grid_cells:\n(.*?)(?=^\S|\Z)", out, re.M | re.S)
        return {int(re.search(r"mem_mb=(\d+)", b).group(1)) for b in blocks
                if "exp=e3" in b}

    # the quick grid's T = d = 8: 512 bytes a sample block, 12 x that per sample over a base
    small, large = train_mem(256), train_mem(300_000)
    assert max(small) < 900 and min(large) == 800 + int(12 * 300_000 * 512 / 2**20)
