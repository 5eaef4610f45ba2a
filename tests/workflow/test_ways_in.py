"""The ways in users bring. Every Snakemake the package admits runs the workflow right (issue: on
9.0.0-9.1.3 a changed param reran nothing, Snakemake's own bug fixed in 9.1.4, so a table of
other settings passed as the new one; named workflow profiles arrived in 9.19.0). The floor, in
pyproject and the Snakefile's ``min_version`` (tests/unit/test_environment.py), is the oldest
release where both tests below pass (9.19.0; 9.1.3 fails both, 9.18.2 the profile); CI runs
this module and the unit tier under it too, in an environment of its own (``.ci/floor``)."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import ROOT, copy_workflow, snakemake

TARGET = "results/estimates/e1/independent/s0.parquet"
QUICK = ("--workflow-profile", "quick")


def test_a_changed_param_plans_the_rerun(tmp_path):
    work = copy_workflow(tmp_path)
    snakemake(work, *QUICK, "--cores", "1", TARGET)
    assert "Nothing to be done" in snakemake(work, *QUICK, "-n", TARGET).stdout
    changed = snakemake(work, *QUICK, "-n", TARGET, "--config", 'e1={"n": 300}').stdout
    assert re.search(r"params have changed since last execution:\s+\S", changed), changed
    assert re.search(r"^estimate_e1_data\s+1$", changed, re.M), changed


def test_a_named_workflow_profile_plans_the_dag_the_readme_counts(tmp_path):
    """The README's job count of the quick DAG is this dry run's (it said 157 where the DAG
    had 159)."""
    work = copy_workflow(tmp_path)
    out = snakemake(work, *QUICK, "-n").stdout
    total = int(re.search(r"^total\s+(\d+)$", out, re.M).group(1))
    readme = (ROOT / "README.md").read_text()
    assert f"`snakemake --workflow-profile quick` | the whole DAG at small sizes in ~5 min on 2 " \
           f"cores ({total} jobs)" in readme, total


@pytest.mark.skipif(shutil.which("conda") is not None, reason="conda is installed here")
def test_conda_deployment_without_conda_is_one_line_of_the_workflows(tmp_path):
    work = copy_workflow(tmp_path)
    out = snakemake(work, "--sdm", "conda", "-n", TARGET, check=False)
    assert out.returncode != 0
    said = out.stdout + out.stderr
    assert "--sdm conda: no conda on the PATH; install Miniforge" in said, said
    assert "conda info" not in said  # Snakemake's own line never comes


def test_a_report_after_a_partial_run_shows_the_tables_built(tmp_path):
    """`snakemake --report` after Table 1 alone: exit 0 (it stopped at the first table not
    built: "marked for report but does not exist"), Table 1 embedded as CSV (parquet was
    embedded as text/plain, unreadable in the report's viewer), the tables not built left out
    and said so."""
    work = copy_workflow(tmp_path)
    snakemake(work, *QUICK, "--cores", "2", "results/tables/table1.parquet")
    out = snakemake(work, *QUICK, "--report", "report.html")
    assert "targets of a whole run are built; the report shows those" in out.stderr
    html = (work / "report.html").read_text()
    assert "table1.csv" in html and "table1_sweep.csv" in html and "text/csv" in html
    assert "table2.csv" not in html
    assert "Adding table1.csv" in out.stdout + out.stderr
    assert ".parquet (" not in out.stdout + out.stderr  # no table embedded as parquet


def test_the_store_plans_a_run_of_named_targets(tmp_path):
    """`entropic-bound cluster -- OPTIONS TARGET` plans the run of its targets: the plan's dry
    run put --logger (which takes several values) before the options, and a target after it
    was read as a logger ("invalid choice")."""
    from entropic_bound.store.plan import store_plan

    work = copy_workflow(tmp_path)
    plan = store_plan([*QUICK, TARGET], work)
    assert {rule: dict(c) for rule, c in plan.items()} == {"estimate_e1_data": {"computed": 1}}
