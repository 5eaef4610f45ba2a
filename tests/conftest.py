"""Shared fixtures and helpers: a throw-away copy of the workflow that Snakemake runs for real.

Tests are tiered by folder: ``unit/`` (the library on constructed inputs, a few minutes), then
``workflow/`` (Snakemake on the quick DAG), ``browser/`` (the report in headless Chromium) and
``cluster/`` (SLURM's real daemons on loopback). Every test outside ``unit/`` is marked
``slow``, so ``-m "not slow"`` runs the fast tier alone.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from entropic_bound.audit.machine_study import WORKFLOW_FILES

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--workflow-profile", "quick"]
# An empty store: the jobs that a test needs to read a file it planted run instead of being
# fetched from the quick run's store (which holds every training, measure and estimator job).
# Snakemake's --config takes every word after it: put it after the targets.
EMPTY_STORE = ["--config", "store=results/empty-store"]
FAST_TIER = Path(__file__).resolve().parent / "unit"
# One stored job for the store's tests: it counts its runs in runs.txt and writes its two
# outputs, its record naming its argv (what entropic-bound's commands record)
STORE_JOB = ("import json, sys; open('runs.txt', 'a').write('x');"
             "open(sys.argv[1], 'w').write('result');"
             "json.dump({'argv': ['entropic-bound', *sys.argv[1:]]}, open(sys.argv[2], 'w'))")
STORE_OUT, STORE_RECORD = "results/out.parquet", "results/benchmarks/job/out.json"
STORE_ARGV = ["entropic-bound", STORE_OUT, STORE_RECORD]


@pytest.fixture(scope="session", autouse=True)
def signing_key_of_the_tests(tmp_path_factory):
    """The key the tests' runs sign what they store with (store/trust.py): a throw-away one,
    never the user's own in ~/.config; set for every Snakemake the tests start."""
    import os

    from entropic_bound.store.trust import KEY_VARIABLE

    before = os.environ.get(KEY_VARIABLE)
    os.environ[KEY_VARIABLE] = str(tmp_path_factory.mktemp("keys") / "signing.key")
    yield
    if before is None:
        del os.environ[KEY_VARIABLE]
    else:
        os.environ[KEY_VARIABLE] = before


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if FAST_TIER not in item.path.parents:
            item.add_marker(pytest.mark.slow)


def schema_defaults(*section: str) -> dict:
    """The defaults the config schema gives one section: tests build settings from the one
    place each default is written (entropic_bound.plumbing.settings.schema_defaults)."""
    from entropic_bound.plumbing.settings import schema_defaults as defaults

    return defaults(*section, schema=ROOT / "src/entropic_bound/config.schema.yaml")


def tiny_e6_cell(root: Path, steps: int = 10) -> Path:
    """A trained E6 cell in ``root``: ``c.npz`` (its weights, float32), ``c.metrics.parquet``,
    ``c.traj.parquet``, its corpus's ``meta.json`` and ``text.txt`` (a text in its vocabulary),
    trained for ``steps`` steps on a tiny repetitive corpus."""
    import hashlib
    import json

    from entropic_bound.data.tokens import tokenize_corpus
    from entropic_bound.models.lm import LMShape
    from entropic_bound.plumbing.settings import schema_defaults
    from entropic_bound.training.lm import TrainConfig, train_lm

    body = "the cat sat on the mat and then ran off. " * 300
    (root / "corpus.txt").write_text(body)
    (root / "prov.json").write_text(json.dumps(
        {"text_sha256": hashlib.sha256(body.encode()).hexdigest()}))
    tokenize_corpus(str(root / "corpus.txt"), str(root / "prov.json"), str(root / "tok.npz"),
                    str(root / "meta.json"), max_chars=20_000, val_fraction=0.2)
    shape = LMShape(**{**schema_defaults("e6", "model"), "context": 16})
    cfg = TrainConfig(**{**schema_defaults("e6", "train"), "max_steps": steps, "batch": 4,
                         "eval_every": steps, "select_windows": 4, "eval_windows": 4,
                         "precision": "fp32"})
    train_lm(str(root / "tok.npz"), str(root / "meta.json"), str(root / "c.npz"),
             str(root / "c.metrics.parquet"), str(root / "c.traj.parquet"), corpus="tiny",
             d_model=16, seed=0, shape=shape, cfg=cfg)
    (root / "text.txt").write_text(body[:2000])
    return root


def store_workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as the working directory of :data:`STORE_JOB`, which the store's job
    wrapper runs in place of its command; a signing key of its own (none made yet)."""
    from entropic_bound.store import job, trust

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(trust.KEY_VARIABLE, str(tmp_path / "keys/mine.key"))
    (tmp_path / "results/benchmarks/job").mkdir(parents=True)
    (tmp_path / "code.py").write_text("x = 1\n")
    monkeypatch.setattr(job, "compute", lambda argv: subprocess.call(
        [sys.executable, "-c", STORE_JOB, *argv[1:]]))
    return tmp_path


def store_runs() -> int:
    """How often :data:`STORE_JOB` ran in the working directory."""
    return len(Path("runs.txt").read_text()) if Path("runs.txt").exists() else 0


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


@pytest.fixture()
def run_copy(quick_run, tmp_path):
    """A copy of the finished quick run with Snakemake's metadata (mtimes kept; the download
    cache, which no job of these tests reads, left out). Its results are plain files, not links
    into the quick run's store (a test that flips a byte must not reach the shared store);
    the copy has its own copy of that store."""
    dest = tmp_path / "copy"
    shutil.copytree(quick_run, dest, symlinks=False, ignore=shutil.ignore_patterns("downloads"))
    return dest


def flip_value_byte(path, column: str = "excess") -> float:
    """Flip one bit inside the stored bytes of the column's first value, as a disk fault would;
    return what plain pyarrow (no verification) now reads there."""
    value = pq.read_table(path).column(column)[0].as_py()
    raw = bytearray(path.read_bytes())
    at = raw.find(struct.pack("<d", value))
    assert at > 0, "value bytes not found verbatim"
    raw[at + 6] ^= 0x08  # an exponent bit: the number halves or doubles
    path.write_bytes(bytes(raw))
    return pq.read_table(path).column(column)[0].as_py()
