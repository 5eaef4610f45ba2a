"""What a writer of store/ can plant, against a clean copy of the workflow given the quick
run's store: records rewritten to run another subcommand (the report's renderer with
templates committed under store/, the verifier that deletes a folder), naming paths outside
results/, resealed so that only the command can tell. A record is data: the run and its audit
complete, no planted command runs, nothing is written where a record says, and each planted
entry is set aside in one line and its job computed."""

from __future__ import annotations

import json
import re

import pandas as pd
from conftest import QUICK, copy_workflow, snakemake

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
    out = snakemake(work, *QUICK)
    text = out.stdout + out.stderr
    assert not marker.exists(), "a planted template ran"
    assert sorted(p.name for p in outside.iterdir()) == ["canary.txt"]
    assert canary.read_text() == "untouched"
    refused = set(re.findall(r"store: entry \S+/(\w{64}) set aside to results/quarantine/store "
                             r"and recomputed: its record ran another command", text))
    assert refused == {k for k in planted if k != "m"}, text[-3000:]
    assert all((work / "results/quarantine/store" / f"{k}_record.json").exists()
               for k in refused)
    audit = pd.read_parquet(work / "results/tables/audit.parquet")
    assert len(audit) and audit["ok"].all() and audit["recomputed"].all()
    # what the run computed in their place is its own job's, stored under the same key
    for key in refused:
        assert json.loads((store.path / f"{key}_record.json").read_text())["argv"] != planted[key]
    assert Store(store.path).check() == []
