"""What a writer of store/ plants beside good entries (from an attacker's review): each plant
below once signed bytes the victim never made, kept a key from ever being stored or signed,
took a signature with it, crashed a job or said a refusal twice. A store signed by the
victim's own key, listed in trusted-keys.txt."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import STORE_ARGV as ARGV
from conftest import STORE_OUT as OUT
from conftest import STORE_RECORD as RECORD
from conftest import store_runs as runs
from conftest import store_workdir

from entropic_bound.store import job, keyring, trust
from entropic_bound.store.layout import QUARANTINE, Store
from entropic_bound.store.manifest import render
from entropic_bound.store.plan import Plan
from entropic_bound.store.signing import add_trusted, sign_store


def victim(tmp_path, monkeypatch) -> Path:
    """The store's working directory with the victim's own key, listed in trusted-keys.txt."""
    store_workdir(tmp_path, monkeypatch)
    trust.make_key("victim")
    add_trusted(None)
    return tmp_path


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    return victim(tmp_path, monkeypatch)


def manifest(store: Path, p: int = 1, keep: str = "entry") -> str:
    return render("job", keep, str(store), "entropic-bound job --out {output.out}", {"p": p},
                  {"code": ["code.py"]}, {"measures": OUT, "record": RECORD})


def key_of(text: str) -> str:
    return job.job_key(json.loads(text), job.digest_input)


def entry_and_signed_alias(workdir: Path) -> tuple[Store, str, str]:
    """The store after one job (p=1), with an alias, signed, from the key of the job p=2 to
    its entry: ``(store, entry, that key)``."""
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (entry,) = store.listing().seals
    key = key_of(manifest(store.path, 2))
    store.write_alias(key, entry)
    trust.sign(store, trust.load_signer(), "alias", key)
    return store, entry, key


def rerun(store: Path, p: int = 1) -> int:
    """The job again, its output gone; its exit code."""
    Path(OUT).unlink(missing_ok=True)
    return job.run(manifest(store, p), ARGV)


def test_store_sign_signs_only_the_bytes_the_job_made_not_a_plant_over_them(workdir, capsys):
    """`store sign` signed an entry a job of this checkout computed by its key alone: a pull
    that rewrote the entry (self-consistent seal, the job's argv in its record) got signed
    and fetched. It now signs only the seal whose sha256 the job's note holds."""
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    (store.path / f"{key}.sig").unlink()  # as if signing had failed at the job
    store.write_entry(key, {"_measures.parquet": b"PLANTED",
                            "_record.json": json.dumps({"argv": ARGV}).encode()})
    sign_store(store)
    assert rerun(store.path) == 0 and Path(OUT).read_text() == "result" and runs() == 2
    assert "carries no signature" in capsys.readouterr().err
    # what the job made (stored again by the rerun) is signed; then fetched
    sign_store(store)
    assert rerun(store.path) == 0 and runs() == 2


@pytest.mark.parametrize("planted", ["{key}.sig", "{key}.sha256", "{key}_measures.parquet"])
def test_a_folder_planted_at_a_name_the_store_writes_is_moved_aside(workdir, planted, capsys):
    """A folder where the seal, the signatures or an entry file goes made every run compute
    and never store or sign (no file can be renamed over a folder): more than deleting the
    entry does. It is moved aside in its folder (a rename elsewhere fails across filesystems
    or for another user's folder), said, named by every run's listing, the entry stored and
    signed, and fetched next."""
    store = Store(workdir / "store")
    key = key_of(manifest(store.path))
    name = planted.format(key=key)
    (store.path / name).mkdir(parents=True)
    (store.path / name / "x").write_text("kept")
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 1
    err = capsys.readouterr().err
    assert "not stored (" not in err and re.search(rf"{name} \(.*\) moved aside to .aside-", err)
    (aside,) = store.path.glob(f".aside-*-{name}")
    assert (aside / "x").read_text() == "kept"  # nothing deleted
    assert any(line.startswith(aside.name) for line in store.listing().unexpected)
    assert rerun(store.path) == 0 and runs() == 1


def test_an_unreadable_signature_file_is_moved_aside_and_the_entry_signed(workdir):
    store = Store(workdir / "store")
    key = key_of(manifest(store.path))
    store.path.mkdir()
    (store.path / f"{key}.sig").write_bytes(b"x" * 70_000)  # past what a reader accepts
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 1
    assert len(list(store.path.glob(f".aside-*-{key}.sig"))) == 1
    assert rerun(store.path) == 0 and runs() == 1


def test_junk_lines_before_a_signature_hide_nothing(workdir):
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    sig = store.path / f"{key}.sig"
    sig.write_text("junk\n" * 200 + sig.read_text())
    assert rerun(store.path) == 0 and runs() == 1


def test_a_junk_seal_beside_a_signed_alias_leaves_the_alias_its_signature(workdir):
    """`store check` moved a junk seal's key's signatures with it: the alias beside it lost
    its signature for good (a migration's key is shredded after use)."""
    store, entry, key = entry_and_signed_alias(workdir)
    (store.path / f"{key}.sha256").write_text("garbage\n")
    assert [p.key for p in store.check(QUARANTINE)] == [key]
    assert (store.path / f"{key}.sig").exists() and not (store.path / f"{key}.sha256").exists()
    assert rerun(store.path, 2) == 0 and runs() == 1  # fetched through the alias


def test_a_plan_takes_what_a_job_takes_past_a_junk_seal(workdir):
    """A plan looked at a key's first candidate only: a junk seal beside a good alias read as
    'to compute' where the job fetched through the alias."""
    store, entry, key = entry_and_signed_alias(workdir)
    assert Plan([], store.path)._lookup(key).entry == entry
    (store.path / f"{key}.sha256").write_text("garbage\n")
    assert Plan([], store.path)._lookup(key).entry == entry
    (store.path / f"{entry}_measures.parquet").write_text("flipped")
    assert Plan([], store.path)._lookup(key) is None


def test_a_refusal_is_said_once_when_the_next_candidate_is_gone(workdir, capsys):
    """A junk seal beside a signed alias whose entry fails: the first fetch sets the entry
    aside, and the fetch under the lock met the junk seal again as the last candidate; the
    same reason with another ending was said twice."""
    store, entry, key = entry_and_signed_alias(workdir)
    (store.path / f"{key}.sha256").write_text("garbage\n")
    (store.path / f"{entry}_measures.parquet").write_text("flipped")
    capsys.readouterr()
    assert rerun(store.path, 2) == 0 and runs() == 2
    err = capsys.readouterr().err
    assert err.count("the line 'garbage'") == 1 and err.count("set aside") == 1


def test_an_alias_to_its_own_key_is_set_aside_once(workdir, capsys):
    """In an unsigned store, an alias naming its own key made a failing entry set aside twice,
    the second time as 'missing'."""
    Path(trust.TRUSTED_KEYS).unlink()
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    store.write_alias(key, key)
    (store.path / f"{key}_measures.parquet").write_text("flipped")
    capsys.readouterr()
    assert rerun(store.path) == 0 and runs() == 2
    err = capsys.readouterr().err
    assert err.count("set aside") == 1 and "is missing" not in err


@pytest.mark.parametrize("record", [b"[" * 100_000, b'{"argv": ["entropic-bound", 5]}',
                                    b'{"argv": [null, {"a": 1}]}'])
def test_a_record_of_any_shape_is_refused_in_one_line(workdir, record, capsys):
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    seal = store.write_entry(key, {"_measures.parquet": b"result", "_record.json": record})
    trust.sign(store, trust.load_signer(), "entry", key, seal)
    capsys.readouterr()
    assert rerun(store.path) == 0 and runs() == 2
    assert "set aside" in capsys.readouterr().err


def test_a_deeply_nested_realisation_neither_fails_the_job_nor_a_plan(workdir, capsys):
    store = Store(workdir / "store")
    text = manifest(store.path, keep="realisation")
    key = key_of(text)
    (store.path / "realisations").mkdir(parents=True)
    (store.path / "realisations" / f"{key}.json").write_text("[" * 2000)
    assert store.realisation(key) == {}
    assert job.run(text, ARGV) == 0
    assert "replaced by the job's" in capsys.readouterr().err
    assert set(store.realisation(key)) == {"measures", "record"}


def test_digests_planted_unsigned_ahead_of_the_job_get_signed(workdir):
    """A writer who planted the very digests a realisation job makes, unsigned, kept it from
    ever being signed (the job signed only what it wrote); plans below it predicted nothing."""
    store = Store(workdir / "store")
    text = manifest(store.path, keep="realisation")
    key = key_of(text)
    job.run(text, ARGV)
    made = store.realisation(key)
    (store.path / f"{key}.sig").unlink()
    assert store.write_realisation(key, made) == "same"
    job.run(text, ARGV)
    content = trust.content(store, "realisation", key)
    assert trust.signed_by(store, "realisation", key, content, keyring.trusted()) == ["victim"]


def test_prune_passes_over_a_folder_it_did_not_make(workdir):
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (store.path / ".tmp-evil").mkdir()
    (store.path / ".tmp-evil" / "x").write_text("kept")
    assert store.prune([]) == 0
    assert (store.path / ".tmp-evil" / "x").read_text() == "kept"
    assert any(".tmp-evil" in line for line in store.listing().unexpected)


def test_signature_lines_planted_before_a_good_one_hide_nothing(workdir):
    """Only the first 64 lines under a listed name were checked: 64 junk ones in front of
    the victim's own kept the key from being fetched or signed again, for good (and a plan
    below an unsigned realisation then let `store unused --remove` delete good entries).
    Every line is checked; a .sig full of them costs milliseconds."""
    import base64
    import time

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    sig = store.path / f"{key}.sig"
    junk = f"entry victim {base64.b64encode(bytes(64)).decode()}\n"
    sig.write_text(junk * 64 + sig.read_text())
    assert rerun(store.path) == 0 and runs() == 1
    sig.write_text(junk * (65_000 // len(junk)) + sig.read_text()[-200:])
    start = time.perf_counter()
    content = trust.content(store, "entry", key)
    assert trust.signed_by(store, "entry", key, content, keyring.trusted()) == ["victim"]
    print(f"{65_000 // len(junk)} planted lines checked in {time.perf_counter() - start:.3f} s")


def test_an_entry_set_aside_across_filesystems_stays_in_its_folder_and_the_job_computes(
        workdir, monkeypatch, capsys):
    """A store on another filesystem than results/ (a cluster's shared one): the rename into
    the quarantine failed with EXDEV out of the job's error handling, so a flipped byte failed
    the job on every run. A copy instead would turn planted sparse files into GBs of disk and
    memory: the files are renamed aside in the store's folder."""
    import errno
    import os

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    (store.path / f"{key}_measures.parquet").write_text("flipped")
    rename = os.rename

    def across(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
        if src_dir_fd is not None and src_dir_fd != dst_dir_fd:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return rename(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    monkeypatch.setattr(os, "rename", across)
    assert rerun(store.path) == 0 and runs() == 2
    (aside,) = store.path.glob(f".aside-*-{key}_measures.parquet")
    assert aside.read_text() == "flipped" and list(Path(QUARANTINE).glob("*")) == []
    assert store.check_entry(key) is None  # stored again, whole


def test_a_name_taken_in_the_quarantine_is_kept_and_the_entry_set_aside_beside(workdir):
    """A folder in the quarantine under an entry's seal name (raced in by an earlier set-aside)
    made every later set-aside of that entry fail, and the job with it."""
    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    Path(QUARANTINE, f"{key}.sha256").mkdir(parents=True)
    Path(QUARANTINE, f"{key}_record.json").write_text("set aside before")
    (store.path / f"{key}_measures.parquet").write_text("flipped")
    assert rerun(store.path) == 0 and runs() == 2
    assert Path(QUARANTINE, f"{key}_record.json").read_text() == "set aside before"
    assert len(list(Path(QUARANTINE).glob(f"{key}.sha256.*"))) == 1


@pytest.mark.parametrize("plant", ["folder", "pipe", "large"])
def test_store_sign_goes_on_past_a_plant_at_another_key(workdir, plant, caplog):
    import os

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    (store.path / f"{key}.sig").unlink()
    other = "0" * 64
    store.write_entry(other, {"_measures.parquet": b"x"})
    sig = store.path / f"{other}.sig"
    {"folder": sig.mkdir, "pipe": lambda: os.mkfifo(sig),
     "large": lambda: sig.write_bytes(b"x" * 70_000)}[plant]()
    sign_store(store)
    content = trust.content(store, "entry", key)
    assert trust.signed_by(store, "entry", key, content, keyring.trusted()) == ["victim"]
    assert "not signed: 1 that no job of this checkout computed" in caplog.text  # the plant


@pytest.mark.parametrize("plant", ["realisations as a file", "a folder", "not digests"])
def test_a_plan_reads_a_planted_realisation_as_unknown(workdir, plant):
    """A realisation planted as a folder, of another shape, or a file in the realisations
    folder's place ended plans (rekeys, unused, migrate) with an error."""
    from entropic_bound.store.keys import UnknownInput

    store = Store(workdir / "store")
    text = manifest(store.path, keep="realisation")
    realised = {"manifest": json.loads(text)}
    key = Plan([realised], store.path).key(realised)
    folder = store.path / "realisations"
    store.path.mkdir()
    if plant == "realisations as a file":
        folder.write_text("x")
    elif plant == "a folder":
        (folder / f"{key}.json").mkdir(parents=True)
    else:
        folder.mkdir()
        (folder / f"{key}.json").write_text('{"measures": 1}')
    with pytest.raises(UnknownInput):
        Plan([realised], store.path).digest(OUT)
    assert job.run(text, ARGV) == 0  # the job puts its own in place, and says so
    assert Plan([realised], store.path).digest(OUT) == store.realisation(key)["measures"]


def test_verify_leaves_the_quarantine_alone_and_names_any_unreadable_file(tmp_path):
    """verify walked the quarantine (anyone's bytes, set aside from the store) and crashed on
    a file no reader expected; --remove would have deleted what was kept there to look at."""
    from entropic_bound import verify

    root = tmp_path / "results"
    (root / "quarantine/store").mkdir(parents=True)
    (root / "quarantine/store/x_weights.npz").write_bytes(b"garbage")
    (root / "data").mkdir()
    (root / "data/a.npz").write_bytes(b"garbage")
    os_cwd = Path.cwd()
    try:
        import os

        os.chdir(tmp_path)
        found = list(verify.corrupt_files(Path("results")))
    finally:
        os.chdir(os_cwd)
    assert [p.as_posix() for p, _ in found] == ["results/data/a.npz"]


def test_unused_removes_nothing_while_a_jobs_key_is_unknown(workdir, monkeypatch):
    """With a realisation planted over (or unsigned), the keys below it are unknown, so their
    good entries read as unused: `store unused --remove` deleted them."""
    from entropic_bound.store import maintenance
    from entropic_bound.store.files import Refused

    store = Store(workdir / "store")
    realised = {"manifest": json.loads(manifest(store.path, keep="realisation"))}
    below = {"manifest": json.loads(render(
        "below", "entry", str(store.path), "entropic-bound below", {}, {"tokens": [OUT]},
        {"measures": "results/below.parquet"}))}
    job.run(manifest(store.path), ARGV)  # an entry no job of this DAG names
    (store.path / "realisations").mkdir()
    key = Plan([realised], store.path).key(realised)
    (store.path / "realisations" / f"{key}.json").write_text('{"measures": 1}')
    monkeypatch.setattr(maintenance, "ledger", lambda args: [realised, below])
    before = sorted(p.name for p in store.path.iterdir())
    with pytest.raises(Refused, match="1 jobs' keys are unknown"):
        maintenance.unused(store, [], remove=True)
    assert sorted(p.name for p in store.path.iterdir()) == before


def test_a_sparse_file_planted_in_an_entry_is_refused_without_holding_it(workdir):
    """Every file a check or fetch judged was read whole into memory first: a sparse file of
    GBs (no disk) cost its size in memory on every node that looked at it."""
    import tracemalloc

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    with open(store.path / f"{key}_measures.parquet", "wb") as fh:
        fh.truncate(256 << 20)
    tracemalloc.start()
    try:
        assert "has sha256" in store.check_entry(key)
        assert rerun(store.path) == 0 and runs() == 2
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20, f"{peak / 2**20:.0f} MiB held to refuse a 256 MiB file"


def test_store_sign_reads_no_byte_of_an_entry_it_may_not_sign(workdir, monkeypatch):
    """Entries planted with right seals over sparse GBs made every `store sign` hash them all
    (hours at 100 keys), though only --vouch could sign them."""
    from entropic_bound.store import files

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (mine,) = store.listing().seals
    planted = "0" * 64
    with open(store.path / f"{planted}_weights.npz", "wb") as fh:
        fh.truncate(64 << 20)
    digest = files.sha256(bytes(64 << 20))
    (store.path / f"{planted}.sha256").write_text(f"{digest}  {planted}_weights.npz\n")
    hashed = []
    file_sha256 = files.file_sha256
    monkeypatch.setattr(files, "file_sha256",
                        lambda top, name, *a: hashed.append(name) or file_sha256(top, name, *a))
    sign_store(store)
    assert hashed and not any(name.startswith(planted) for name in hashed)
    assert all(name.startswith(mine) for name in hashed)


def test_store_check_goes_on_past_an_entry_it_cannot_set_aside(workdir, monkeypatch):
    """One entry that could not be set aside ended `store check --set-aside` and `verify
    --remove` (a traceback), every entry after it unchecked."""
    store = Store(workdir / "store")
    for p in (1, 2):
        job.run(manifest(store.path, p), ARGV)
    keys = sorted(store.listing().seals)
    for key in keys:
        (store.path / f"{key}_measures.parquet").write_text("flipped")
    set_aside = Store.set_aside

    def refusing(self, key, quarantine):
        if key == keys[0]:
            raise OSError(13, "Permission denied")
        return set_aside(self, key, quarantine)

    monkeypatch.setattr(Store, "set_aside", refusing)
    problems = store.check(QUARANTINE)
    assert [p.key for p in problems] == keys
    assert "not set aside: [Errno 13] Permission denied" in problems[0].reason
    assert not (store.path / f"{keys[1]}.sha256").exists()  # the next one was set aside


def test_store_seal_seals_what_it_can_past_a_plant(workdir, caplog):
    from entropic_bound.store import files
    from entropic_bound.store.maintenance import seal

    store = Store(workdir / "store")
    store.path.mkdir()
    good, blocked = "b" * 64, "a" * 64
    (store.path / f"{good}_text.txt").write_text("copied by hand")
    (store.path / f"{blocked}_text.txt").write_text("x")
    (store.path / f"{blocked}.sha256").mkdir()  # a folder where its seal goes
    huge = "c" * 64
    with open(store.path / f"{huge}_weights.npz", "wb") as fh:  # sparse, past LARGEST
        fh.truncate(files.LARGEST + 1)
    assert seal(store) == [blocked, good]
    assert store.check_entry(good) is None and store.check_entry(blocked) is None
    assert "moved aside to .aside-" in caplog.text and f"not sealed: {store}/{huge}" in caplog.text


def test_a_realisation_a_listed_key_signed_is_left_as_it_is(workdir):
    """Signing a realisation whose digests the store already held (so that plants cannot keep
    it unsigned) made every fresh clone's run add its user's line to the published .sig files:
    a run that fetches must change no file in git. Signed by a listed key, it is left alone."""
    store = Store(workdir / "store")
    text = manifest(store.path, keep="realisation")
    key = key_of(text)
    publisher = trust.make_key("publisher", workdir / "keys/publisher.key")
    add_trusted(publisher.public_line)
    job.run(text, ARGV)  # the victim's key signs what it made
    (store.path / f"{key}.sig").unlink()
    trust.sign(store, publisher, "realisation", key)
    published = (store.path / f"{key}.sig").read_bytes()
    assert job.run(text, ARGV) == 0
    assert (store.path / f"{key}.sig").read_bytes() == published
