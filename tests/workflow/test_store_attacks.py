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
