"""Shared fixtures: a throw-away copy of the workflow that Snakemake runs for real."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW_FILES = ["Snakefile", "config.yaml", "workflow", "profiles", "envs", "src",
                  "report/templates", "requirements.lock"]
QUICK = ["--workflow-profile", "quick"]


def schema_defaults(*section: str) -> dict:
    """The defaults the config schema gives one section (``schema_defaults("e6", "train")``):
    tests build settings from the one place each default is written."""
    import yaml

    node = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text())
    for key in section:
        node = node["properties"][key]
    return {k: v["default"] for k, v in node["properties"].items() if "default" in v}


def copy_workflow(dest: Path) -> Path:
    for name in WORKFLOW_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def snakemake(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "snakemake", *args]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc


def planned_jobs(workdir: Path, *args: str) -> dict[str, int]:
    """Job counts per rule of a dry run (Snakemake's own 'Job stats' table)."""
    out = snakemake(workdir, "-n", *args).stdout
    if "Nothing to be done" in out:
        return {}
    stats = out.split("Job stats:", 1)[1]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", stats, re.M)
            if m.group(1) != "total"}


@pytest.fixture(scope="session")
def quick_run(tmp_path_factory) -> Path:
    """The whole quick DAG, run once by Snakemake for every test that inspects it."""
    work = copy_workflow(tmp_path_factory.mktemp("quick"))
    snakemake(work, *QUICK)
    return work
