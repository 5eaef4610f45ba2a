"""What a writer of store/ can plant, against a clean copy of the workflow given the quick
run's store: records rewritten to run another subcommand (the report's renderer with
templates committed under store/, the verifier that deletes a folder), naming paths outside
results/, resealed so that only the command can tell. A record is data: the run and its audit
complete, no planted command runs, nothing is written where a record says, and each planted
entry is set aside in one line and its job computed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
from conftest import QUICK, copy_workflow, snakemake

from entropic_bound.store import trust
from entropic_bound.store.layout import Store
from entropic_bound.store.maintenance import seal

PAYLOAD = "{{ cycler.__init__.__globals__.os.system('touch {marker}') }}"


def test_planted_records_never_run_and_write_nowhere(quick_run, tmp_path):
    work = copy_workflow(tmp_path / "w")
    outside = tmp_path / "outside"
    outside.mkdir()
    canary = outside / "canary.txt"
    canary.write_text("untouched")
    marker = tmp_path / "MARKER"
    store = Store(work / "results/store")
    import shutil

    shutil.copytree(quick_run / "results/store", store.path)
    templates = store.path / "evil"  # never read: not a store name
    templates.mkdir()
    for name in ("report.md.j2", "report.html.j2"):
        (templates / name).write_text(PAYLOAD.format(marker=marker))
    # every E1 and E2 training entry and one measure: the audit draws from these experiments
    planted = {}
    for key in sorted(store.listing().seals):
        record_path = store.path / f"{key}_record.json"
        record = json.loads(record_path.read_text())
        argv = record["argv"]
        if argv[1] == "train-fixed" or (argv[1] == "measure-grid" and not planted.get("m")):
            outputs = [a for a in argv if a.startswith("results/")]
            if argv[1] == "train-fixed":
                record["argv"] = ["entropic-bound", "render-report", "--templates",
                                  str(templates), *[x for o in outputs
                                                    for x in ("--markdown", o)],
                                  "--markdown", str(outside / "report.md"), "--html",
                                  str(outside / "report.html")]
            else:
                record["argv"] = ["entropic-bound", "verify", "--root", str(outside),
                                  "--remove", *outputs]
                planted["m"] = key
            record_path.write_text(json.dumps(record))
            (store.path / f"{key}.sha256").unlink()
            planted[key] = record["argv"]
    seal(store)
    signer = trust.load_signer()  # the tests' key, which made the quick run's entries
    for key in planted:
        if key != "m":
            trust.sign(store, signer, "entry", key)  # only the record can tell
    out = snakemake(work, *QUICK)
    text = out.stdout + out.stderr
    assert not marker.exists(), "a planted template ran"
    assert sorted(p.name for p in outside.iterdir()) == ["canary.txt"]
    assert canary.read_text() == "untouched"
    refused = set(re.findall(r"store: entry \S+/(\w{64}) set aside to results/quarantine/store: "
                             r"its record ran another command", text))
    assert refused == {k for k in planted if k != "m"}, text[-3000:]
    assert all((work / "results/quarantine/store" / f"{k}_record.json").exists()
               for k in refused)
    audit = pd.read_parquet(work / "results/tables/audit.parquet")
    assert len(audit) and audit["ok"].all() and audit["recomputed"].all()
    # what the run computed in their place is its own job's, stored under the same key
    for key in refused:
        assert json.loads((store.path / f"{key}_record.json").read_text())["argv"] != planted[key]
    assert Store(store.path).check() == []


def digests(folder: Path) -> dict[str, str]:
    import hashlib

    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()
            and not {"results", "logs", ".snakemake", "store", "report"} & set(
                p.relative_to(folder).parts[:1])}


def test_planted_names_links_and_seals_are_refused_one_line_each(quick_run, tmp_path):
    """Each thing a writer of store/ could plant to reach outside it or to be read unsealed:
    a bare .sha256, aliases to ../ and ../elsewhere, an empty seal, a seal naming ../x, links
    in store/ and realisations/, an unsealed _metrics.parquet, links as a lock and as a
    temporary file. The run and its audit complete, the workflow's files and a canary folder
    beside the copy keep their bytes, and each planted thing is named in one line."""
    import shutil

    work = copy_workflow(tmp_path / "w")
    canary = tmp_path / "canary"
    (canary / "elsewhere").mkdir(parents=True)
    (canary / "elsewhere/X").write_text("outside")
    (canary / "x").write_text("outside")
    root = work / "results/store"
    shutil.copytree(quick_run / "results/store", root)
    store = Store(root)
    measures = [k for k in sorted(store.listing().seals) if json.loads(
        (root / f"{k}_record.json").read_text())["argv"][1] == "measure-grid"][:5]
    assert len(measures) == 5
    a, b, c, d, e = measures
    (root / ".sha256").write_text(f"{'0' * 64}  x\n")
    for key, target in ((a, "../"), (b, "../../../canary/elsewhere/X")):
        (root / f"{key}.sha256").unlink()
        (root / f"{key}.alias").write_text(target + "\n")
    (root / f"{c}.sha256").write_text("")
    (root / f"{d}.sha256").write_text(f"{'1' * 64}  ../../../canary/x\n")
    record = root / f"{e}_record.json"
    (canary / "record.json").write_bytes(record.read_bytes())  # the sealed bytes, outside
    record.unlink()
    record.symlink_to(canary / "record.json")
    (root / "realisations" / f"{'9' * 64}.json").symlink_to(canary / "x")
    (root / f"{'8' * 64}_metrics.parquet").write_bytes(b"unsealed")
    (root / ".locks").mkdir(exist_ok=True)
    (root / ".locks" / c).unlink(missing_ok=True)  # the quick run's own lock file
    (root / ".locks" / c).symlink_to(canary / "x")
    (root / ".tmp-0123456789abcdef").symlink_to(canary / "x")
    before, outside = digests(work), digests(canary)
    out = snakemake(work, *QUICK)
    text = out.stdout + out.stderr
    lines = {
        ".sha256": r"store: \S+/\.sha256: not a store name",
        "alias ../": rf"store: \S+/{a}\.alias: '\.\./' is not a key",
        "alias elsewhere": rf"store: \S+/{b}\.alias: '\.\./\.\./\.\./canary/elsewhere/X' is not",
        "empty seal": rf"store: \S+/{c}\.sha256: empty",
        "seal ../x": rf"store: \S+/{d}\.sha256: the line .*\.\./\.\./\.\./canary/x",
        "link in store": rf"store: entry \S+/{e} set aside .* is a link",
        "link in realisations": rf"store: \S+/realisations/{'9' * 64}\.json: not a regular file",
        "unsealed metrics": rf"store: \S+/{'8' * 64}_metrics\.parquet: unsealed",
        "lock link": rf"store: \S+/\.locks/{c}: a link, removed",
        "temporary link": r"store: \S+/\.tmp-0123456789abcdef: unsealed or dangling",
    }
    missing = [what for what, pattern in lines.items() if not re.search(pattern, text)]
    assert missing == [], text[-4000:]
    assert digests(work) == before and digests(canary) == outside
    assert (canary / "x").read_text() == "outside"
    audit = pd.read_parquet(work / "results/tables/audit.parquet")
    assert len(audit) and audit["ok"].all()


def git_in(folder: Path, *args: str) -> str:
    import subprocess

    return subprocess.run(["git", "-C", str(folder), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], check=True, capture_output=True,
                          text=True).stdout


def test_a_pull_cannot_widen_the_trust_of_a_clone_that_ran(quick_run, tmp_path):
    """From the attack review of 730da7b, on a clone that had run once: a pull brings an E1
    estimate entry swapped for another seed's, resealed and signed by a key listed under the
    victim's own key name, a new key beside it, and a root .gitattributes that hid the list
    from `store review`. The review shows the list's change; the run's first store lines name
    the refused and the proposed key; the swapped entry is not used (the job computes the
    genuine estimate). Then the same key behind a `#...\\r` comment: every job refuses the
    list in one line and nothing is used."""
    import shutil

    origin = copy_workflow(tmp_path / "origin")
    shutil.copytree(quick_run / "results/store", origin / "qstore",
                    ignore=shutil.ignore_patterns(".locks"))
    git_in(origin, "init", "-q")
    git_in(origin, "add", "-A", "-f", ".")
    git_in(origin, "commit", "-qm", "published")
    victim = tmp_path / "victim"
    git_in(tmp_path, "clone", "-q", str(origin), str(victim))
    target = "results/estimates/e1/independent/s0.parquet"
    args = [*QUICK, "--cores", "1", target, "--config", "store=qstore"]
    snakemake(victim, *args)
    genuine = pd.read_parquet(victim / target)

    # the attacker, with commit access to origin
    store = Store(origin / "qstore")
    records = {k: json.loads((store.path / f"{k}_record.json").read_text())["argv"]
               for k in store.listing().seals}
    (entry,) = [k for k, argv in records.items() if target in argv]
    (other,) = [k for k, argv in records.items()
                if target.replace("s0", "s1") in argv]
    shutil.copy(store.path / f"{other}_estimates.parquet",
                store.path / f"{entry}_estimates.parquet")
    for sig in (f"{entry}.sha256", f"{entry}.sig"):
        (store.path / sig).unlink()
    seal(store)
    own = trust.load_signer()  # the victim's key (the tests' key signed the quick store)
    mallory = trust.make_key(own.name, tmp_path / "mallory.key")
    helper = trust.make_key("helper", tmp_path / "helper.key")
    trust.sign(store, mallory, "entry", entry)
    (origin / ".gitattributes").write_text("trusted-keys.txt -diff\n")
    with open(origin / "trusted-keys.txt", "a") as keys:
        keys.write(f"{mallory.public_line}\n{helper.public_line}\n")
    git_in(origin, "add", "-A", ".")
    git_in(origin, "commit", "-qm", "keys rotate")

    git_in(victim, "pull", "-q", "--ff-only")
    review = subprocess_out(victim, "store", "review", "HEAD@{1}..HEAD", "--store", "qstore")
    assert "attributes A: .gitattributes" in review
    assert f"trusted-keys.txt: added {own.name} (" in review
    assert "trusted-keys.txt: added helper (" in review
    assert f"entry resealed: {entry[:12]}" in review
    (victim / target).unlink()
    out = snakemake(victim, *args)
    store_lines = [line for line in out.stderr.splitlines() if line.startswith("store: ")]
    assert re.fullmatch(rf"store: trusted-keys.txt line \d+: {own.name} is your own key's name "
                        "with another public key \\(refused\\)", store_lines[0]), store_lines
    assert store_lines[1].startswith("store: trusted-keys.txt proposes the key helper (")
    assert f"{entry}" in out.stderr and "carries no signature" in out.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(victim / target), genuine)

    text = (origin / "trusted-keys.txt").read_text().replace(
        f"\n{mallory.public_line}", f"\n# note: keys rotate\r{mallory.public_line}")
    (origin / "trusted-keys.txt").write_text(text)
    git_in(origin, "commit", "-qam", "a comment")
    git_in(victim, "pull", "-q", "--ff-only")
    (victim / target).unlink()
    out = snakemake(victim, *args, check=False)
    assert out.returncode != 0 and not (victim / target).exists()
    assert re.search(r"trusted-keys.txt line \d+: '# note: keys rotate\\r", out.stderr), \
        out.stderr[-3000:]


def subprocess_out(workdir: Path, *args: str) -> str:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "entropic_bound.cli", *args], cwd=workdir,
                          check=True, capture_output=True, text=True).stdout


def test_a_run_refuses_to_start_while_git_tracks_an_output(tmp_path):
    """From the second attack review: a pull put a link in results/'s place (or force-added an
    output), and the run read it as its own, no store or review involved."""
    work = copy_workflow(tmp_path / "w")
    git_in(work, "init", "-q")
    (work / "results/estimates/e1/independent").mkdir(parents=True)
    (work / "results/estimates/e1/independent/s0.parquet").write_text("planted")
    git_in(work, "add", "-f", "results/estimates/e1/independent/s0.parquet")
    out = snakemake(work, "-n", *QUICK, check=False)
    assert out.returncode != 0
    assert ("git tracks 1 file(s) under results/ or logs/ "
            "('results/estimates/e1/independent/s0.parquet'...)") in out.stdout + out.stderr
