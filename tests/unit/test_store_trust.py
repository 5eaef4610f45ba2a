"""Trust you can state (entropic_bound.store.trust): with trusted-keys.txt, an entry, alias or
realisation is used only with a signature by a listed key (or the user's own) that binds it to
its key; signing, keys and the review of a commit range."""

from __future__ import annotations

import base64
import json
import os
import shlex
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import STORE_ARGV as ARGV
from conftest import STORE_OUT as OUT
from conftest import STORE_RECORD as RECORD
from conftest import store_runs as runs
from conftest import store_workdir

from entropic_bound.store import job, keyring, trust
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import Lookup, Store
from entropic_bound.store.manifest import render
from entropic_bound.store.signing import add_trusted, remove_trusted, sign_store


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    return store_workdir(tmp_path, monkeypatch)


def manifest(store: Path, p: int = 1) -> str:
    return render("job", "entry", str(store), "entropic-bound job --out {output.out}", {"p": p},
                  {"code": ["code.py"]}, {"measures": OUT, "record": RECORD})


def tried_first(store: Store, key: str) -> Lookup:
    """What a job tries first for ``key``: its seal, else its alias (Refused where that is
    malformed)."""
    found = store.candidates(key)[0]
    if isinstance(found, Refused):
        raise found
    return found


def other_key(path: Path, name: str) -> trust.Signer:
    return trust.make_key(name, path)


def test_a_key_is_0600_outside_the_repository_and_never_overwritten(workdir):
    signer = trust.make_key("alice")
    assert stat.S_IMODE(trust.key_path().stat().st_mode) == 0o600
    assert trust.load_signer().public_line == signer.public_line
    with pytest.raises(FileExistsError):
        trust.make_key("alice")


def test_without_a_list_the_store_is_unsigned_and_works_as_before(workdir):
    store = workdir / "store"
    assert keyring.trusted() is None
    job.run(manifest(store), ARGV)
    Path(OUT).unlink()
    job.run(manifest(store), ARGV)
    assert runs() == 1 and not trust.key_path().exists()  # no key made for an unsigned store


def test_an_entry_signed_by_an_unlisted_key_is_recomputed_and_signed_again(workdir):
    store = Store(workdir / "store")
    mallory = other_key(workdir / "keys/mallory.key", "mallory")
    job.run(manifest(store.path), ARGV)  # unsigned store: no signature
    (key,) = store.listing().seals
    trust.sign(store, mallory, "entry", key)
    Path("trusted-keys.txt").write_text(other_key(workdir / "keys/bob.key", "bob").public_line
                                        + "\n")
    Path(OUT).unlink()
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 2  # not used: computed
    own = trust.load_signer()  # made at this first store under a list
    assert own is not None
    assert trust.signed_by(store, "entry", key, trust.content(store, "entry", key),
                           keyring.trusted()) == [own.name]
    Path(OUT).unlink()
    assert job.run(manifest(store.path), ARGV) == 0 and runs() == 2  # its own: fetched


def test_a_signature_binds_the_seal_and_an_alias_its_target(workdir):
    store = Store(workdir / "store")
    signer = trust.make_key("alice")
    add_trusted(None)
    keys = keyring.trusted()
    job.run(manifest(store.path, 1), ARGV)
    job.run(manifest(store.path, 2), ARGV)
    first, second = sorted(store.listing().seals)
    assert trust.why_untrusted(store, first, tried_first(store, first), keys) is None
    # a reseal (other bytes under the same key) breaks the signature
    seal = store.path / f"{first}.sha256"
    original = seal.read_bytes()
    seal.write_bytes(original.replace(b"  ", b"  ", 1) + b"")
    (store.path / f"{first}_measures.parquet").write_text("planted")
    from entropic_bound.store.maintenance import seal as reseal

    seal.unlink()
    reseal(store)
    assert "no signature" in trust.why_untrusted(store, first, tried_first(store, first), keys)
    # an alias to another job's signed entry, unsigned or signed for another target, is refused
    store.write_alias("d" * 64, second)
    assert "alias" in trust.why_untrusted(store, "d" * 64, tried_first(store, "d" * 64), keys)
    trust.sign(store, signer, "alias", "d" * 64)
    assert trust.why_untrusted(store, "d" * 64, tried_first(store, "d" * 64), keys) is None
    store.write_alias("d" * 64, first)
    assert "alias" in trust.why_untrusted(store, "d" * 64, tried_first(store, "d" * 64), keys)


def test_trusting_and_distrusting_a_key_edits_the_list(workdir):
    trust.make_key("alice")
    add_trusted(None)
    bob = other_key(workdir / "keys/bob.key", "bob")
    add_trusted(bob.public_line)
    assert sorted(keyring.trusted()) == ["alice", "bob"]
    remove_trusted("bob")
    assert sorted(keyring.trusted()) == ["alice"]
    with pytest.raises(Refused, match="lists no key named carol"):
        remove_trusted("carol")
    with pytest.raises(Refused, match="not <name>:<base64"):
        add_trusted("eve:not-base64!")


def test_sign_signs_only_what_passes_its_seal_and_someone_vouches_for(workdir):
    """`store sign` signed every entry that passed its seal: after a pull that planted an
    unsigned (or untrusted) entry, it made the planted entry trusted. It now signs what a
    trusted key signed or this checkout computed; the rest only with --vouch; never what
    fails its seal."""
    store = Store(workdir / "store")
    made = []
    for p in (1, 2, 3):  # one output path: each job's note replaces the last one's
        job.run(manifest(store.path, p), ARGV)
        made.append(next(k for k in store.listing().seals if k not in made))
    planted, flipped, computed = made  # only the last job's note is this checkout's
    (store.path / f"{flipped}_measures.parquet").write_text("flipped")
    trust.make_key("publisher")
    keys = {"publisher": trust.load_signer().private.public_key()}

    def untrusted(key: str) -> bool:
        return trust.why_untrusted(store, key, tried_first(store, key), keys) is not None

    sign_store(store)
    assert [untrusted(k) for k in made] == [True, True, False]
    sign_store(store, vouch=True)
    assert [untrusted(k) for k in made] == [False, True, False]


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                        "PATH": "/usr/bin:/bin"})


def test_the_review_of_a_commit_range_lists_entries_commands_and_signers(workdir):
    from entropic_bound.store.review import review

    git("init", "-q")
    Path("README").write_text("x")
    git("add", "README")
    git("commit", "-qm", "base")
    store = Store(workdir / "store")
    trust.make_key("alice")
    add_trusted(None)
    git("add", "trusted-keys.txt")
    git("commit", "-qm", "alice's key")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    # a line that claims a trusted name but was made with another key, and an unlisted name
    forged = base64.b64encode(b"\1" * 64).decode()
    with open(store.path / f"{key}.sig", "a") as sig:
        sig.write(f"entry entropic-bound-paper-2026-12 {forged}\nentry mallory {forged}\n")
    git("add", "store")
    git("commit", "-qm", "an entry")
    lines = review("HEAD~1..HEAD")
    assert f"entry added: {key[:12]}  {shlex.join(ARGV)}" in lines, lines
    assert ("  signed: entry by alice; claimed, not verified: entry by "
            "entropic-bound-paper-2026-12, entry by mallory") in lines, lines
    # a key added in the reviewed range verifies nothing in it
    assert "  signed: by no key BASE trusts; claimed, not verified: entry by alice, entry by " \
           "entropic-bound-paper-2026-12, entry by mallory" in review("HEAD~2..HEAD")
    assert any(line.startswith("trusted-keys.txt: added alice (") and line.endswith(
        "proposed, trusted by no checkout until it is accepted") for line in review("HEAD~2..HEAD"))
    assert json.loads((store.path / f"{next(iter(store.listing().seals))}_record.json")
                      .read_text())["argv"] == ARGV


def test_a_seal_swapped_after_it_was_read_changes_nothing_fetched(workdir, monkeypatch):
    """The seal is read once: its signature and the digests the data must have come from the
    same bytes. A writer who swaps in a forged seal and forged data after the check (a race on
    a shared folder) gets the forged data refused against the honest seal."""
    store = Store(workdir / "store")
    trust.make_key("alice")
    add_trusted(None)
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    forged = b"forged"
    candidates = Store.candidates

    def racing(self, k):
        found = candidates(self, k)
        (self.path / f"{k}_measures.parquet").write_bytes(forged)
        seal = (self.path / f"{k}.sha256").read_text()
        (self.path / f"{k}.sha256").write_text(seal.replace(
            seal.split("  ")[0], __import__("hashlib").sha256(forged).hexdigest(), 1))
        return found

    monkeypatch.setattr(Store, "candidates", racing)
    Path(OUT).unlink()
    job.run(manifest(store.path), ARGV)
    assert Path(OUT).read_text() == "result" and runs() == 2  # refused, computed


def test_what_a_run_stores_is_signed_as_written_not_as_read_back(workdir, monkeypatch):
    """A writer who replaces the seal right after the run writes it cannot have the run's key
    sign the forged one: the run signs the bytes it wrote."""
    from entropic_bound.store import files

    store = Store(workdir / "store")
    trust.make_key("alice")
    add_trusted(None)
    write = files.write

    def replaced(parent, name, data):
        write(parent, name, data)
        if name.endswith(".sha256"):
            write(parent, name, data.replace(data[:64], b"0" * 64, 1))

    monkeypatch.setattr(files, "write", replaced)
    job.run(manifest(store.path), ARGV)
    monkeypatch.setattr(files, "write", write)
    (key,) = store.listing().seals
    assert "no signature" in trust.why_untrusted(store, key, tried_first(store, key),
                                                 keyring.trusted())


def test_fifos_huge_files_and_folders_in_the_store_are_refused_at_once(workdir):

    store = Store(workdir / "store")
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    seal = store.path / f"{key}.sha256"
    seal.unlink()
    os.mkfifo(seal)  # opening it for reading used to block the job forever
    with pytest.raises(Refused, match="not a regular file"):
        tried_first(store, key)
    seal.unlink()
    with open(seal, "wb") as fh:  # 200 GB, sparse: read whole, it was a MemoryError
        fh.truncate(200 << 30)
    with pytest.raises(Refused, match="bytes, more than"):
        tried_first(store, key)
    assert any("unsealed" not in x for x in store.leftovers())  # listed, never read whole
    seal.unlink()
    seal.mkdir()
    with pytest.raises(Refused, match="not a regular file"):
        tried_first(store, key)
    Path(OUT).unlink()
    assert job.run(manifest(store.path), ARGV) == 0 and Path(OUT).read_text() == "result"


def test_a_job_stands_when_the_store_cannot_keep_or_lock_it(workdir, capsys):
    """A store the job cannot lock or write (here a file where the store's folder goes) costs
    the store the entry, not the job its result."""
    store = Store(workdir / "store")
    store.path.write_text("not a folder")
    assert job.run(manifest(store.path), ARGV) == 0 and Path(OUT).read_text() == "result"
    err = capsys.readouterr().err
    assert "computing without it" in err and "computed, not stored" in err
    from entropic_bound.store.summary import end_of_run

    # the run's last line said "1 computed and stored" of a job the store could not keep
    assert "store: 0 stored jobs fetched, 0 computed and stored, 1 computed and not stored" \
        in end_of_run(0.0)


def test_names_are_printed_on_one_line_whatever_they_hold(workdir):
    store = Store(workdir / "store")
    store.path.mkdir()
    (store.path / "x\nstore: 84 stored jobs fetched\x1b[8m").write_text("")
    (line,) = store.listing().unexpected
    assert "\n" not in line and "\x1b" not in line and "not a store name" in line


def test_every_run_names_the_keys_it_trusts(workdir):
    """A key that a pull added to trusted-keys.txt was trusted without a word at the run;
    the run's first store line now names every key it trusts (none where the store is
    unsigned)."""
    from entropic_bound.store.summary import start_lines

    store = Store(workdir / "store")
    store.path.mkdir()
    assert not [line for line in start_lines(store.path) if "signed by" in line]
    trust.make_key("alice")
    add_trusted(None)
    mallory = trust.make_key("mallory", workdir / "mallory.key")
    add_trusted(mallory.public_line)
    (line,) = [line for line in start_lines(store.path) if "signed by" in line]
    assert "alice, mallory (the keys of trusted-keys.txt this checkout accepted" in line


def test_the_review_names_what_an_attacker_changed_around_a_seal(workdir):
    """From an attacker's review: a file of an entry changed under its unchanged seal and a
    `.sig`-only change showed nothing (or a bare line); a `.sig` with a non-UTF-8 byte crashed
    the review; a second key under a published name showed as an ordinary addition."""
    from entropic_bound.store.review import review

    git("init", "-q")
    store = Store(workdir / "store")
    trust.make_key("alice")
    add_trusted(None)
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    git("add", "store", "trusted-keys.txt")
    git("commit", "-qm", "base")
    (store.path / f"{key}_measures.parquet").write_text("tampered")
    with open(store.path / f"{key}.sig", "ab") as sig:
        sig.write(b"entry mallory \xff\n")
    mallory = trust.make_key("alice", workdir / "mallory.key")
    with open("trusted-keys.txt", "a") as keys:
        keys.write(mallory.public_line + "\n")
    git("add", "store", "trusted-keys.txt")
    git("commit", "-qm", "attack")
    lines = review("HEAD~1..HEAD")
    assert f"entry files changed, seal not: {key[:12]} (_measures.parquet; every fetch " \
           "refuses it)" in lines, lines
    assert f"signatures changed: {key[:12]}" in lines
    assert "trusted-keys.txt: added a second key named alice: every run refuses both" in lines
    found = keyring.state()
    assert found.refused == [f"trusted-keys.txt line {n}: the name alice is listed more than "
                             "once; a name names one key (refused)" for n in (1, 2)]
    assert found.keys["alice"].public_bytes_raw() == trust.load_signer().private.public_key() \
        .public_bytes_raw()
