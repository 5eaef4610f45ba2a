"""docs/contributing.md's shortest path for an experiment on existing machinery, taken on a
copy of the workflow: a toy grid experiment, E9, registered once, touches four existing files
(its registry entry, its settings, their schema, the regenerated configuration reference); its
claims, report section, caption and claims test are files of its own. The workflow plans its
jobs and table, the claims and the report find it, and the machine study groups its seeds."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

from conftest import QUICK, ROOT, copy_workflow

ENTRY = '''    Experiment("e9", "grid", ("table9",), "entropic_bound.claims.toy",
               sections="entropic_bound.reporting.toy", training="train-grid"),
'''
CLAIMS = '''"""E9's claims (a toy)."""
from entropic_bound.claims.rules import CHECK, NOT_REPRODUCED, REPRODUCED, Claim


def _floor(table):
    value = float(table["noise_floor"].iloc[0])
    return f"{value:g}", REPRODUCED if value > 0 else NOT_REPRODUCED


CLAIMS = [Claim("E9.noise_floor", "E9", "toy", "a positive noise floor", "> 0", "exact",
                "table9.noise_floor", _floor, CHECK)]
'''
SECTION = '''"""E9's report section (a toy)."""
from entropic_bound.reporting.sections import Section


def section_table9(t):
    return Section("table9", "Table 9 - a toy grid", "E9 on E3's machinery.",
                   [("cells", t["table9"])])
'''


def git(work, *args: str) -> str:
    return subprocess.run(["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout


def test_a_new_experiment_on_existing_machinery_touches_four_existing_files(tmp_path):
    work = copy_workflow(tmp_path / "w")
    shutil.copytree(ROOT / "docs", work / "docs")
    git(work, "init", "-q")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "base")
    src = work / "src/entropic_bound"
    registry = src / "plumbing/experiments.py"  # 1. the registry entry, last of EXPERIMENTS
    text = registry.read_text()
    end = text.index("\n)\n", text.index("EXPERIMENTS: tuple")) + 1
    registry.write_text(text[:end] + ENTRY + text[end:])
    config = (work / "config.yaml").read_text()  # 2. its settings: E5's grid, as E9's
    e5 = re.search(r"^e5:\n(?:  .*\n|\s*\n)+", config, re.M).group(0)
    (work / "config.yaml").write_text(config + e5.replace("e5:", "e9:", 1))
    schema = src / "config.schema.yaml"  # 3. their schema
    schema.write_text(schema.read_text().replace("  e5: *grid\n", "  e5: *grid\n  e9: *grid\n"))
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    reference = subprocess.run([sys.executable, "-m", "entropic_bound.plumbing.config_reference"],
                               cwd=work, env=env, check=True, capture_output=True, text=True)
    (work / "docs/configuration.md").write_text(reference.stdout)  # 4. the reference
    (src / "claims/toy.py").write_text(CLAIMS)  # files of its own
    (src / "reporting/toy.py").write_text(SECTION)
    (work / "workflow/report/figure_table9.rst").write_text("E9's figure.\n")

    changed = {line[3:] for line in git(work, "status", "--porcelain").splitlines()
               if line.startswith(" M")}
    assert changed == {"src/entropic_bound/plumbing/experiments.py", "config.yaml",
                       "src/entropic_bound/config.schema.yaml", "docs/configuration.md"}
    # the copy's library, not the checkout's
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", *QUICK], cwd=work, env=env,
                         check=True, capture_output=True, text=True).stdout
    assert "results/tables/table9.parquet" in out and "results/cells/e9/" in out
    found = subprocess.run([sys.executable, "-c", (
        "import json\n"
        "from entropic_bound.claims.registry import CLAIMS\n"
        "from entropic_bound.reporting.sections import SECTIONS\n"
        "from entropic_bound.audit.machine_study import GROUPS\n"
        "from entropic_bound.plumbing.experiments import TRAINED_EXPERIMENTS\n"
        "print(json.dumps([[c.id for c in CLAIMS if c.experiment == 'E9'],"
        " [k for k, _ in SECTIONS], GROUPS.get('e9'), 'e9' in TRAINED_EXPERIMENTS]))")],
        cwd=work, env=env, check=True, capture_output=True, text=True)
    claims, sections, group, trained = json.loads(found.stdout)
    assert claims == ["E9.noise_floor"] and "table9" in sections
    assert group == ["train-grid", None] and trained
