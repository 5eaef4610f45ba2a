"""The trust root (entropic_bound.store.keyring): the keys a run trusts are those this checkout
accepted, kept outside it; a pull's list proposes, never widens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import STORE_ARGV as ARGV
from conftest import store_runs as runs
from conftest import store_workdir
from test_store_trust import git, manifest

from entropic_bound.store import job, keyring, trust
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import Store
from entropic_bound.store.signing import add_trusted

# the process's own peak (VmHWM: its address space's, fresh at exec; ru_maxrss would carry
# the forking pytest's peak across the exec)
PEAK_KB = ("int(next(line.split()[1] for line in open('/proc/self/status') "
           "if line.startswith('VmHWM:')))")


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    return store_workdir(tmp_path, monkeypatch)


def publish(workdir: Path, name: str) -> trust.Signer:
    """A publisher's key (not the user's), listed in trusted-keys.txt by hand as a commit
    would, and one entry of the store signed by it alone."""
    publisher = trust.make_key(name, workdir / f"{name}.key")
    with open("trusted-keys.txt", "a") as keys:
        keys.write(publisher.public_line + "\n")
    return publisher


def stored_by(publisher: trust.Signer, store: Store) -> str:
    """The store job's entry, computed once, then signed by ``publisher`` alone."""
    job.run(manifest(store.path), ARGV)
    (key,) = store.listing().seals
    (store.path / f"{key}.sig").unlink()
    trust.sign(store, publisher, "entry", key)
    return key


def test_a_key_a_pull_adds_after_first_use_is_proposed_not_trusted(workdir):
    store = Store(workdir / "store")
    trust.make_key("me")
    add_trusted(None)
    assert set(keyring.trusted()) == {"me"}  # first use: accepted as listed
    publisher = publish(workdir, "mallory")  # the pull
    stored_by(publisher, store)
    found = keyring.state()
    assert set(found.keys) == {"me"} and found.proposed == [
        ("mallory", publisher.public_line.partition(":")[2])]
    (line,) = keyring.lines(found)
    assert line.startswith("trusted-keys.txt proposes the key mallory (")
    assert "entropic-bound store accept mallory" in line
    before = runs()
    job.run(manifest(store.path), ARGV)  # what only the proposed key signed is computed
    assert runs() == before + 1
    shown = keyring.accept("mallory")
    assert shown[0].startswith("accepted: mallory:") and "(added by not in git)" in shown[0]
    assert set(keyring.trusted()) == {"me", "mallory"}


def test_a_changed_key_under_an_accepted_name_is_proposed(workdir):
    trust.make_key("me")
    publish(workdir, "publisher")
    assert "publisher" in keyring.trusted()
    other = trust.make_key("publisher", workdir / "other.key")
    Path("trusted-keys.txt").write_text(other.public_line + "\n")
    found = keyring.state()
    assert "publisher" not in found.keys and found.proposed[0][0] == "publisher"


@pytest.mark.parametrize("text", [
    "# note: keys rotate\r{line}\n",  # a comment that str.splitlines would split
    "{line}\u2028\n",
    "{line} \n",
    "é{line}\n",
    "{line}\n\x1b[8m\n",
])
def test_a_list_of_any_other_form_is_refused_in_one_line(workdir, text):
    me = trust.make_key("me")
    Path("trusted-keys.txt").write_bytes(text.format(line=me.public_line).encode())
    refusal = r"^trusted-keys.txt line \d: .*(expected|is not) NAME:BASE64"
    with pytest.raises(Refused, match=refusal) as err:
        keyring.trusted()
    assert "\n" not in str(err.value) and "\r" not in str(err.value)


def test_your_own_name_under_another_key_is_refused_and_yours_stays_yours(workdir):
    me = trust.make_key("user-abc123")
    mallory = trust.make_key("user-abc123", workdir / "mallory.key")
    publisher = trust.make_key("publisher", workdir / "p.key")
    Path("trusted-keys.txt").write_text(f"{mallory.public_line}\n{publisher.public_line}\n")
    found = keyring.state()
    assert found.refused == ["trusted-keys.txt line 1: user-abc123 is your own key's name with "
                             "another public key (refused)"]
    assert found.keys["user-abc123"].public_bytes_raw() == \
        me.private.public_key().public_bytes_raw()
    assert "publisher" in found.keys


def test_a_link_in_the_lists_place_is_refused(workdir):
    trust.make_key("me")
    Path("elsewhere.txt").write_text(trust.load_signer().public_line + "\n")
    Path("trusted-keys.txt").symlink_to("elsewhere.txt")
    with pytest.raises(Refused, match="trusted-keys.txt: .*link"):
        keyring.trusted()


def test_a_list_removed_after_first_use_leaves_only_your_key(workdir):
    trust.make_key("me")
    publish(workdir, "publisher")
    assert set(keyring.trusted()) == {"me", "publisher"}
    Path("trusted-keys.txt").unlink()
    found = keyring.state()
    assert set(found.keys) == {"me"} and "is gone" in found.refused[0]


def origin_and_clone(tmp_path: Path) -> tuple[trust.Signer, trust.Signer]:
    """An origin repository that lists a publisher's key, cloned into ``clone``; the working
    directory is the origin's, ready for the attacker's commit; the publisher's and the
    attacker's (mallory's) keys."""
    import os

    origin = tmp_path / "origin"
    origin.mkdir()
    os.chdir(origin)
    git("init", "-q")
    publisher = trust.make_key("publisher", tmp_path / "p.key")
    Path("trusted-keys.txt").write_text(publisher.public_line + "\n")
    git("add", "trusted-keys.txt")
    git("commit", "-qm", "published")
    subprocess.run(["git", "clone", "-q", str(origin), str(tmp_path / "clone")], check=True)
    return publisher, trust.make_key("mallory", tmp_path / "m.key")


def test_first_use_accepts_the_keys_listed_at_clone_time(workdir, tmp_path):
    """A clone that pulled a key before its first run: the key is proposed, not accepted."""
    import os

    _, mallory = origin_and_clone(tmp_path)
    with open("trusted-keys.txt", "a") as keys:
        keys.write(mallory.public_line + "\n")
    git("commit", "-qam", "a new key")
    os.chdir(tmp_path / "clone")
    git("pull", "-q", "--ff-only")
    assert "mallory" in Path("trusted-keys.txt").read_text()
    found = keyring.state()
    assert "at clone time (commit" in found.first_use
    assert "publisher" in found.keys and "mallory" not in found.keys
    assert [n for n, _ in found.proposed] == ["mallory"]
    (shown,) = keyring.accept(None)
    assert shown.startswith("proposed: mallory:") and "a new key" in shown


def test_a_forged_note_cannot_make_store_sign_vouch_for_a_plant(workdir, caplog):
    """From the attack review of 730da7b: a note force-committed under results/jobs naming a
    planted entry made the victim's routine `store sign` sign it."""
    import hashlib
    import json

    from entropic_bound.store.notes import write_note
    from entropic_bound.store.signing import sign_store

    caplog.set_level("INFO")
    git("init", "-q")
    store = Store(workdir / "store")
    trust.make_key("me")
    add_trusted(None)
    mallory = trust.make_key("mallory", workdir / "mallory.key")
    planted = stored_by(mallory, store)  # an entry only mallory signed
    seal = (store.path / f"{planted}.sha256").read_bytes()
    forged = {"key": planted, "made": hashlib.sha256(seal).hexdigest(), "fetched": False,
              "argv": ["x"], "outputs": {"a": "results/a"}, "keep": "entry"}
    Path("results/jobs").mkdir(parents=True, exist_ok=True)
    for note in Path("results/jobs").glob("*.json"):
        note.unlink()  # the victim's own note of that job is not there: the plant's is
    Path("results/jobs/f.json").write_text(json.dumps(forged))
    sign_store(store)
    assert "signed as me: 0 entries" in caplog.text
    assert "results/jobs/f.json: a note without this user's mac" in caplog.text
    # a note with a good mac that git tracks (force-added) is refused all the same
    Path("results/jobs/f.json").unlink()
    write_note(forged)
    git("add", "-f", "results/jobs")
    caplog.clear()
    sign_store(store)
    assert "signed as me: 0 entries" in caplog.text and "committed into git" in caplog.text
    assert not trust.signed_by(store, "entry", planted, seal, {"me": trust.load_signer()
                                                               .private.public_key()})


def test_the_review_sees_past_attributes_a_split_line_and_a_name_collision(workdir):
    """From the attack review of 730da7b: `trusted-keys.txt -diff` in a root .gitattributes
    hid the list from the review; a `# note...\\r<name>:<key>` line showed as a comment while
    runs trusted the key; a key under the victim's own name; a note force-added; a name git
    quotes printed quoted."""
    from entropic_bound.store.review import review

    git("init", "-q")
    me = trust.make_key("user-abc123")
    add_trusted(None)
    git("add", "trusted-keys.txt")
    git("commit", "-qm", "base")
    mallory = trust.make_key("user-abc123", workdir / "mallory.key")
    Path(".gitattributes").write_text("trusted-keys.txt -diff\n")
    Path("trusted-keys.txt").write_bytes(
        f"{me.public_line}\n# note: keys rotate\r{mallory.public_line}\n".encode())
    Path("results/jobs").mkdir(parents=True)
    Path("results/jobs/n.json").write_text("{}")
    Path("store").mkdir()
    Path("store/\u00e9.sha256").write_text("x")
    git("add", "-f", ".gitattributes", "trusted-keys.txt", "results/jobs/n.json", "store")
    git("commit", "-qm", "attack")
    lines = review("HEAD~1..HEAD")
    assert lines[0].startswith("attributes A: .gitattributes (git's attributes can hide")
    assert any(line.startswith("trusted-keys.txt: every run refuses it: trusted-keys.txt line "
                               "2: '# note: keys rotate\\ruser-abc123:") for line in lines), lines
    assert "force-added A: results/jobs/n.json (results/ and logs/ are ignored by git; a run " \
           "reads what lies there, and refuses to start while git tracks any)" in lines
    assert "A store/\u00e9.sha256: not a store name (never read)" in lines
    # the same key on a line of its own: a collision with your own key's name
    Path("trusted-keys.txt").write_text(f"{me.public_line}\n{mallory.public_line}\n")
    git("commit", "-qam", "collision")
    assert "trusted-keys.txt: added a second key named user-abc123: every run refuses both" \
        in review("HEAD~1..HEAD")
    git("checkout", "-q", "HEAD~1")  # the \r line: every run refuses the list
    with pytest.raises(Refused, match="line 2: .*control or non-ASCII character"):
        keyring.trusted()


def test_the_review_reads_a_bounded_part_of_a_gigabyte_record(workdir):
    """A 1.5 GB record of spaces (1.5 MB in git) took 3.1 GB of the review's memory."""
    git("init", "-q")
    Path("README").write_text("x")
    git("add", "README")
    git("commit", "-qm", "base")
    key = "cd" * 32
    Path("store").mkdir()
    with open(f"store/{key}_record.json", "wb") as fh:
        for _ in range(1500):
            fh.write(b" " * 1_000_000)
    Path(f"store/{key}.sha256").write_text(f"{'0' * 64}  {key}_record.json\n")
    git("add", "store")
    git("commit", "-qm", "a big record")
    Path(f"store/{key}_record.json").unlink()  # only git's object remains
    code = ("import json\n"
            "from entropic_bound.store.review import review\n"
            "lines = review('HEAD~1..HEAD')\n"
            f"print(json.dumps([lines, {PEAK_KB}]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    lines, peak_kb = json.loads(out.stdout)
    assert f"entry added: {key[:12]}  (no record, or one past 1 MiB: not read)" in lines
    assert peak_kb < 200_000, f"peak memory {peak_kb / 1024:.0f} MB"


def test_a_refusal_shows_two_commands_where_they_first_differ():
    from entropic_bound.store.job import first_difference

    ours = ["entropic-bound", "--params", '{"a": 1, ' + "x" * 100 + ', "n": 300}']
    theirs = ["entropic-bound", "--params", '{"a": 1, ' + "x" * 100 + ', "n": 400}']
    line = first_difference(ours, theirs)
    assert "400" in line and "300" in line and "(from character" in line, line


def test_store_check_names_an_alias_that_is_not_a_key(workdir):
    from entropic_bound.store.maintenance import check

    store = Store(workdir / "store")
    store.path.mkdir()
    (store.path / f"{'ef' * 32}.alias").write_text("../src\n")
    assert check(store, None) == 1
    (problem,) = store.check()
    assert problem.key.endswith(".alias") and "is not a key" in problem.reason


def test_a_folder_a_pull_added_below_a_clone_accepts_no_key_at_first_use(workdir, tmp_path):
    """From the second attack review: a profile's `directory: w` made every run work in a
    folder the pull added, with a list of its own, whose first use accepted it as it stood."""
    import os

    publisher, mallory = origin_and_clone(tmp_path)
    Path("w").mkdir()
    Path("w/trusted-keys.txt").write_text(f"{publisher.public_line}\n{mallory.public_line}\n")
    git("add", "w")
    git("commit", "-qm", "a working folder")
    os.chdir(tmp_path / "clone")
    git("pull", "-q", "--ff-only")
    found = keyring.state("w")
    assert "w/trusted-keys.txt did not exist at clone time" in found.first_use
    assert set(found.keys) == {trust.load_signer().name} if trust.load_signer() else not found.keys
    assert sorted(n for n, _ in found.proposed) == ["mallory", "publisher"]


def test_a_copy_of_the_workflow_carries_the_keys_its_checkout_trusts(workdir, tmp_path):
    """From the second attack review: the machine study's copy of the workflow accepted, at
    its first use, whatever its copied list held."""
    trust.make_key("me")
    publish(workdir, "publisher")
    assert set(keyring.trusted()) == {"me", "publisher"}
    publish(workdir, "mallory")  # the pull: proposed here
    assert "mallory" not in keyring.trusted()
    copy = tmp_path / "study"
    copy.mkdir()
    Path(copy / "trusted-keys.txt").write_text(Path("trusted-keys.txt").read_text())
    keyring.carry(".", copy)
    assert set(keyring.trusted(copy)) == {"me", "publisher"}


def test_the_review_escapes_every_name_flags_links_and_reads_signatures_once(workdir):
    """From the second attack review: realisation names printed raw (terminal escapes hid the
    lines above them); a `results` link and links elsewhere unseen; a .sig of hundreds of
    lines checked once per line (minutes per entry)."""
    import base64
    import os
    import time

    from entropic_bound.store.review import review

    (workdir / "repo").mkdir()
    os.chdir(workdir / "repo")
    git("init", "-q")
    Path("README").write_text("x")
    git("add", "README")
    git("commit", "-qm", "base")
    Path("store/realisations").mkdir(parents=True)
    Path("store/realisations/\x1b[H\x1b[J.json").write_text("{}")
    Path("results").symlink_to("report")
    Path("docs").symlink_to("/etc")
    key = "ab" * 32
    Path(f"store/{key}.sha256").write_text(f"{'0' * 64}  {key}_record.json\n")
    junk = base64.b64encode(b"\1" * 64).decode()
    Path(f"store/{key}.sig").write_text(
        "".join(f"entry entropic-bound-paper-2026-12 {junk}\n" for _ in range(500)))
    git("add", "-f", "store", "results", "docs")
    git("commit", "-qm", "attack")
    start = time.perf_counter()
    lines = review("HEAD~1..HEAD")
    assert time.perf_counter() - start < 10
    assert not any("\x1b" in line for line in lines), lines
    assert any(line.startswith("A store/realisations/\\x1b[H") for line in lines), lines
    assert any(line.startswith("force-added A: results (") for line in lines), lines
    assert "link A: docs (git checks it out as a link: what reads it reads its target)" in lines
