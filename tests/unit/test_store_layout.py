"""The store's folder (entropic_bound.store.layout, .files): seals, aliases, realisations,
check, set-aside, unused and prune; and each attack a writer of store/ could plant: names that
are not the store's, links, seals and aliases that point elsewhere."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

import pytest

from entropic_bound.store.files import Refused
from entropic_bound.store.layout import QUARANTINE, Store
from entropic_bound.store.lock import key_lock
from entropic_bound.store.maintenance import seal

KEY_A, KEY_B = "a" * 64, "b" * 64


def resolve(store: Store, key: str) -> str | None:
    """The entry a job tries first for ``key`` (None: nothing); Refused where it is
    malformed."""
    for found in store.candidates(key):
        if isinstance(found, Refused):
            raise found
        return found.entry
    return None


@pytest.fixture()
def filled(tmp_path):
    root = tmp_path / "store"
    root.mkdir()
    (root / f"{KEY_A}_weights.npz").write_bytes(b"weights of a")
    (root / f"{KEY_A}_record.json").write_text("{}")
    (root / f"{KEY_B}_measures.parquet").write_bytes(b"measures of b")
    return Store(root)


def test_seal_lists_each_files_sha256_and_sealed_entries_are_left_alone(filled):
    assert seal(filled) == [KEY_A, KEY_B]
    assert filled.seal(KEY_A) == {"_record.json": hashlib.sha256(b"{}").hexdigest(),
                                  "_weights.npz": hashlib.sha256(b"weights of a").hexdigest()}
    assert seal(filled) == []
    assert filled.check() == []


def test_an_entry_written_by_a_run_is_0644_and_sealed_last(tmp_path):
    store = Store(tmp_path / "store")
    store.write_entry(KEY_A, {"_weights.npz": b"w", "_record.json": b"{}"})
    assert resolve(store, KEY_A) == KEY_A and store.check_entry(KEY_A) is None
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in store.path.iterdir())
    assert not [p for p in store.path.iterdir() if p.name.startswith(".tmp-")]


def test_unsealed_files_are_no_entry_but_leftovers_and_aliases_resolve(filled):
    filled.write_entry(KEY_A, {"_weights.npz": b"weights of a", "_record.json": b"{}"})
    assert resolve(filled, KEY_A) == KEY_A and resolve(filled, KEY_B) is None
    assert filled.leftovers() == [f"{KEY_B}_measures.parquet"]
    new = "d" * 64
    filled.write_alias(new, KEY_A)
    assert resolve(filled, new) == KEY_A and filled.aliases() == {new: KEY_A}
    assert filled.unused([new]) == []  # the alias keeps its entry in use
    assert filled.unused([KEY_A]) == [f"{new}.alias"]
    filled.prune([KEY_A])
    assert resolve(filled, new) is None
    assert filled.leftovers() == [] and filled.aliases() == {}


def test_a_realisation_is_what_the_job_made_and_read_back(tmp_path):
    """A realisation planted with other digests was kept (and then signed by `store sign` as
    computed here): what the job made now replaces it."""
    store = Store(tmp_path)
    assert store.write_realisation(KEY_A, {"0": "c" * 64}) == "written"
    assert store.write_realisation(KEY_A, {"0": "c" * 64}) == "same"
    assert store.write_realisation(KEY_A, {"0": "d" * 64}) == "replaced"
    assert store.realisation(KEY_A) == {"0": "d" * 64}
    assert store.realisation(KEY_B) == {}


def test_a_flipped_byte_fails_the_check_and_the_entry_is_set_aside_by_name(filled, tmp_path):
    seal(filled)
    path = filled.path / f"{KEY_A}_weights.npz"
    raw = bytearray(path.read_bytes())
    raw[3] ^= 0x01
    path.write_bytes(bytes(raw))
    quarantine = tmp_path / "quarantine"
    problems = filled.check(quarantine)
    assert [p.key for p in problems] == [KEY_A] and "weights.npz has sha256" in problems[0].reason
    assert not list(filled.path.glob(f"{KEY_A}*"))
    assert sorted(p.name for p in quarantine.iterdir()) == sorted(
        [f"{KEY_A}_weights.npz", f"{KEY_A}_record.json", f"{KEY_A}.sha256"])
    assert filled.check() == []


def test_a_planted_bare_seal_sets_nothing_aside(filled, tmp_path):
    """`store/.sha256` used to match every file's glob and move the whole store away."""
    seal(filled)
    (filled.path / ".sha256").write_text("0" * 64 + "  x\n")
    assert filled.check(tmp_path / "q") == []
    assert ".sha256: not a store name (never read)" in filled.listing().unexpected
    assert len(list(filled.path.glob(f"{KEY_A}*"))) == 3


def test_aliases_that_name_a_path_are_refused(filled, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    for target in ("../", "../elsewhere/X", f"../{KEY_A}", ""):
        (filled.path / f"{'e' * 64}.alias").write_text(target + "\n")
        with pytest.raises(Refused, match="is not a key"):
            resolve(filled, "e" * 64)


def test_empty_seals_and_seals_naming_other_files_are_refused(filled, tmp_path):
    (tmp_path / "x").write_text("secret")
    seal_path = filled.path / f"{KEY_A}.sha256"
    digest = hashlib.sha256(b"secret").hexdigest()
    for text in ("", "\n", f"{digest}  ../x\n", f"{digest}  {KEY_B}_measures.parquet\n",
                 f"{digest}  {KEY_A}_weights.npz\n{digest}  {KEY_A}_weights.npz\n",
                 f"{digest}  {KEY_A}.evil\n"):
        seal_path.write_text(text)
        with pytest.raises(Refused, match=f"{KEY_A}.sha256"):
            resolve(filled, KEY_A)
        assert filled.check_entry(KEY_A) is not None


def test_links_in_the_store_are_refused_never_followed(filled, tmp_path):
    outside = tmp_path / "outside.npz"
    outside.write_bytes(b"weights of a")
    seal(filled)
    weights = filled.path / f"{KEY_A}_weights.npz"
    weights.unlink()
    weights.symlink_to(outside)
    assert "is a link" in filled.check_entry(KEY_A)
    (filled.path / "realisations").mkdir()
    (filled.path / "realisations" / f"{KEY_B}.json").symlink_to(tmp_path / "outside.npz")
    with pytest.raises(Refused, match="is a link"):
        filled.realisation(KEY_B)
    assert {line.split(":")[0] for line in filled.listing().unexpected} == {
        f"{KEY_A}_weights.npz", f"realisations/{KEY_B}.json"}
    filled.check(tmp_path / "q")
    assert outside.read_bytes() == b"weights of a"  # never moved, never written


def test_a_write_replaces_a_planted_link_and_never_writes_through_it(tmp_path):
    canary = tmp_path / "canary"
    canary.write_text("untouched")
    store = Store(tmp_path / "store")
    store.path.mkdir()
    (store.path / f"{KEY_A}_record.json").symlink_to(canary)
    (store.path / f"{KEY_A}.sha256").symlink_to(canary)
    store.write_entry(KEY_A, {"_record.json": b"{}"})
    assert canary.read_text() == "untouched"
    assert not (store.path / f"{KEY_A}_record.json").is_symlink()
    assert store.check_entry(KEY_A) is None


def test_a_planted_lock_link_or_locks_folder_link_is_removed_never_followed(tmp_path, capsys):
    canary = tmp_path / "canary"
    canary.write_text("untouched")
    store = tmp_path / "store"
    (store / ".locks").mkdir(parents=True)
    (store / ".locks" / KEY_A).symlink_to(canary)
    with key_lock(store, KEY_A):
        assert (store / ".locks" / KEY_A).is_file() and not (store / ".locks" / KEY_A).is_symlink()
    (store / ".locks" / KEY_A).unlink()
    (store / ".locks").rmdir()
    (store / ".locks").symlink_to(tmp_path)
    with key_lock(store, KEY_A):
        assert not (store / ".locks").is_symlink()
    assert canary.read_text() == "untouched" and not (tmp_path / KEY_A).exists()
    err = capsys.readouterr().err
    assert f"{KEY_A}: a link, removed" in err and ".locks: a link, removed" in err
    __import__("shutil").rmtree(store / ".locks")
    (store / ".locks").write_text("committed by mistake")  # left locking off for good
    with key_lock(store, KEY_A, []):
        assert (store / ".locks" / KEY_A).is_file()
    assert ".locks: a file, removed" in capsys.readouterr().err
    __import__("shutil").rmtree(store / ".locks")
    __import__("os").mkfifo(store / ".locks")  # every miss computed without a lock
    with key_lock(store, KEY_A, []):
        assert (store / ".locks" / KEY_A).is_file()
    (store / ".locks" / KEY_A).unlink()
    (store / ".locks" / KEY_A).mkdir()  # no unlink removes it: said as removed, then failed
    with key_lock(store, KEY_A, []):
        assert (store / ".locks" / KEY_A).is_file()
    err = capsys.readouterr().err
    assert ".locks: a pipe or device, removed" in err
    assert f"{KEY_A}: a folder, moved aside to" in err


def test_the_quarantine_is_relative_to_the_workflow():
    assert not Path(QUARANTINE).is_absolute()


def test_a_plan_of_another_commit_keys_its_jobs_by_that_commits_code(tmp_path, monkeypatch):
    """store migrate plans an earlier commit in a worktree: its jobs' code must be read
    there. Read from the working tree instead, the old keys equalled the new ones and a change
    of E6's training code adopted none of the 90 entries it should have."""
    from entropic_bound.store.plan import Plan

    old, new = tmp_path / "old", tmp_path / "new"
    for tree, value in ((old, 1), (new, 2)):
        (tree / "src").mkdir(parents=True)
        (tree / "src/train.py").write_text(f"STEP = {value}\n")
    job = {"manifest": {"rule": "train", "keep": "entry", "store": "store", "command": "train",
                        "params": {}, "inputs": {"code": ["src/train.py"]},
                        "outputs": {"out": "results/out.npz"}}}
    monkeypatch.chdir(new)
    here, there = Plan([job]).key(job), Plan([job], tree=old).key(job)
    assert here and there and here != there
    (old / "src/train.py").write_text("STEP = 2\n")
    assert Plan([job], tree=old).key(job) == here  # the same code: the same key
