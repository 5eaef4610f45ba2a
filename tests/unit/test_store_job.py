"""One job through the store (entropic_bound.store.job): a miss computes and stores, a hit
fetches a checked copy without running anything, and an entry that fails its seal or whose
record names another command is set aside and the job computed; a planted record never runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import STORE_ARGV as ARGV
from conftest import STORE_OUT as OUT
from conftest import STORE_RECORD as RECORD
from conftest import store_runs as runs
from conftest import store_workdir

from entropic_bound.store import job
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import Store
from entropic_bound.store.manifest import render


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    return store_workdir(tmp_path, monkeypatch)


def manifest(store: Path, params: dict | None = None) -> str:
    return render("job", "entry", str(store), "entropic-bound job --out {output.out}",
                  params or {"p": 1}, {"code": ["code.py"]},
                  {"measures": OUT, "record": RECORD})


def test_a_miss_computes_and_stores_and_a_hit_fetches_a_copy_without_running(workdir):
    store = workdir / "store"
    assert job.run(manifest(store), ARGV) == 0 and runs() == 1
    (key,) = Store(store).listing().seals
    assert Store(store).check_entry(key) is None
    Path(OUT).unlink()
    assert job.run(manifest(store), ARGV) == 0 and runs() == 1
    assert Path(OUT).read_text() == "result" and not Path(OUT).is_symlink()
    note = json.loads(next(Path("results/jobs").glob("*.json")).read_text())
    assert note["fetched"] and note["entry"] == key and note["argv"] == ARGV
    assert job.run(manifest(store, {"p": 2}), ARGV) == 0 and runs() == 2  # another key


def test_a_conda_job_shares_the_plain_jobs_key_and_entry(workdir, monkeypatch, capsys):
    """Under ``--sdm conda`` the job's environment sets ENTROPIC_BOUND_CONDA_ENV (the env file's
    variable) and the workflow ENTROPIC_BOUND_ROOT: the key is the plain job's (the issue: a
    conda run keyed the environment's files and fetched nothing of the store)."""
    store = workdir / "store"
    with monkeypatch.context() as conda:
        conda.setenv("ENTROPIC_BOUND_CONDA_ENV", "1")
        conda.setenv("ENTROPIC_BOUND_ROOT", str(Path(__file__).resolve().parents[2]))
        assert job.run(manifest(store), ARGV) == 0 and runs() == 1
        conda_key = json.loads(next(Path("results/jobs").glob("*.json")).read_text())["key"]
    assert conda_key == job.job_key(json.loads(manifest(store)), job.digest_input)
    Path(OUT).unlink()
    assert job.run(manifest(store), ARGV) == 0 and runs() == 1  # the plain run fetches it
    assert "fetched job from entry" in capsys.readouterr().err


def test_a_fetch_only_job_fetches_a_hit_and_refuses_to_compute_a_miss(workdir, monkeypatch):
    """`entropic-bound cluster`'s local pass (store/cluster.py): nothing computes there."""
    store = workdir / "store"
    assert job.run(manifest(store), ARGV) == 0 and runs() == 1
    Path(OUT).unlink()
    monkeypatch.setenv(job.FETCH_ONLY, "1")
    assert job.run(manifest(store), ARGV) == 0 and runs() == 1 and Path(OUT).exists()
    with pytest.raises(Refused, match="is not stored .* a fetch-only pass computes nothing"):
        job.run(manifest(store, {"p": 2}), ARGV)
    assert runs() == 1


def test_an_entry_whose_record_names_another_command_is_set_aside_and_never_run(workdir):
    """A record is data: one rewritten to run another subcommand (the audit used to run it)
    is refused at fetch, and the job computes its own result."""
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    planted = {"argv": ["entropic-bound", "render-report", "--templates", "store/evil",
                        "--markdown", OUT, "--markdown", "/tmp/elsewhere"]}
    record = json.dumps(planted).encode()
    store.write_entry(key, {"_measures.parquet": b"planted", "_record.json": record})
    Path(OUT).unlink()
    assert job.run(manifest(store.path), ARGV) == 0
    assert runs() == 2 and Path(OUT).read_text() == "result"
    assert (workdir / "results/quarantine/store" / f"{key}_record.json").read_bytes() == record
    assert json.loads(Path(RECORD).read_text())["argv"] == ARGV


def test_a_corrupt_entry_is_set_aside_at_fetch_and_recomputed(workdir, capsys):
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    (store.path / f"{key}_measures.parquet").write_text("resulT")
    Path(OUT).unlink()
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 2
    err = capsys.readouterr().err
    assert f"/{key} set aside to results/quarantine/store: " in err and "; job computed" in err
    assert store.check_entry(key) is None  # stored again, whole


def test_a_corrupt_entry_beside_a_good_alias_is_set_aside_and_the_alias_serves(workdir, capsys):
    store = workdir / "store"
    job.run(manifest(store), ARGV)
    (entry,) = Store(store).listing().seals
    key = job.job_key(json.loads(manifest(store, {"p": 2})), job.digest_input)
    Store(store).write_alias(key, entry)
    Store(store).write_entry(key, {"_measures.parquet": b"x", "_record.json": b"{}"})
    (store / f"{key}_measures.parquet").write_text("y")  # fails the seal just written
    Path(OUT).unlink()
    capsys.readouterr()
    assert job.run(manifest(store, {"p": 2}), ARGV) == 0 and runs() == 1  # fetched
    err = capsys.readouterr().err
    assert f"/{key} set aside to results/quarantine/store: " in err
    assert "; its alias tried next" in err and "job computed" not in err
    assert f"fetched job from entry {entry[:12]} (key {key[:12]})" in err


def test_an_alias_to_an_entry_of_other_outputs_is_refused(workdir):
    store = Store(workdir / "store")
    other = "f" * 64
    store.write_entry(other, {"_weights.npz": b"w", "_record.json": b'{"argv": []}'})
    key = job.job_key(json.loads(manifest(store.path)), job.digest_input)
    store.write_alias(key, other)
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 1


def test_a_failing_command_stores_nothing(workdir, monkeypatch):
    monkeypatch.setattr(job, "compute", lambda argv: 3)
    assert job.run(manifest(workdir / "store"), ARGV) == 3
    assert Store(workdir / "store").listing().seals == set()


def test_the_report_renders_no_templates_but_the_checkouts(tmp_path, monkeypatch):
    """A template is code: render-report refuses any folder but report/templates."""
    from entropic_bound.reporting.report import render_report

    monkeypatch.chdir(tmp_path)
    (tmp_path / "store/evil").mkdir(parents=True)
    with pytest.raises(SystemExit, match="expected report/templates"):
        render_report([], "claims.parquet", "store/evil", "out.md", "out.html", {})


def test_a_junk_seal_beside_a_good_alias_falls_back_to_the_alias_said_once(workdir, capsys):
    """One junk `<key>.sha256` planted beside a key's alias forced a recompute (the seal was
    preferred and its failure ended the lookup), and each refusal was said twice (the fetch
    before the key's lock and the one under it). The alias now serves; the junk is named
    once."""
    store = workdir / "store"
    job.run(manifest(store), ARGV)
    (entry,) = Store(store).listing().seals
    key = job.job_key(json.loads(manifest(store, {"p": 2})), job.digest_input)
    Store(store).write_alias(key, entry)
    (store / f"{key}.sha256").write_text("garbage\n")
    Path(OUT).unlink()
    capsys.readouterr()
    assert job.run(manifest(store, {"p": 2}), ARGV) == 0 and runs() == 1  # fetched
    err = capsys.readouterr().err
    assert err.count("is not '<sha256>") == 1 and "its alias tried next" in err
    assert f"fetched job from entry {entry[:12]} (key {key[:12]})" in err
    # with the alias gone too, the job computes, naming the junk once
    (store / f"{key}.alias").unlink()
    Path(OUT).unlink()
    assert job.run(manifest(store, {"p": 2}), ARGV) == 0 and runs() == 2
    err = capsys.readouterr().err
    assert err.count("is not '<sha256>") == 1 and "job computed" in err


def test_planted_run_state_neither_writes_outside_nor_fails_a_job(workdir):
    """From an attacker's review: the run's liveness file planted as a link had its target
    truncated (a write outside the checkout), as a folder it crashed the run's start; a note
    of another shape crashed every run's end; the code-digest memo planted as a file failed
    every stored job."""
    from entropic_bound.plumbing import run_lock
    from entropic_bound.store.notes import notes

    precious = workdir / "precious.txt"
    precious.write_text("precious data")
    (workdir / ".snakemake").mkdir()
    (workdir / run_lock.LIVENESS).symlink_to(precious)
    with pytest.raises(SystemExit, match="entropic-bound.run: cannot hold this run's liveness"):
        run_lock.hold(workdir)
    assert precious.read_text() == "precious data"
    (workdir / run_lock.LIVENESS).unlink()
    (workdir / run_lock.LIVENESS).mkdir()
    with pytest.raises(SystemExit, match="expected a regular file there"):
        run_lock.hold(workdir)
    Path("results/jobs").mkdir(parents=True)
    Path("results/jobs/zz1.json").write_text(json.dumps(
        {"argv": ["x"], "outputs": {"a": 5}, "keep": "entry", "fetched": True}))
    assert notes() == [] and notes(existing=False) == []
    Path(job.DIGESTS).write_text("a file where the memo folder goes")
    assert job.run(manifest(workdir / "store"), ARGV) == 0 and runs() == 1
