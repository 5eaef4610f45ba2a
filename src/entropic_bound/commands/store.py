"""The store of job outputs: check its entries, seal hand-copied ones, list or prune unused ones,
price what the working tree re-keys, adopt the entries of an earlier commit's keys."""

from __future__ import annotations

import argparse
import sys

ACTIONS = {
    "check": "every sealed entry against its sha256 (exit 1 on a failure)",
    "seal": "seal entries copied in by hand (a run seals what it stores)",
    "unused": "entries no job of the current DAG uses, and leftovers (--remove deletes them)",
    "rekeys": "per experiment, the stored entries the working tree no longer finds (their "
              "jobs would be recomputed), with their job-hours from the records; run before a "
              "commit that touches code a stored job runs",
    "migrate": "adopt, by an alias under the working tree's key, the entry that served each "
               "stored job of the DAG at commit --from (after --: Snakemake's options), where "
               "its seal holds and its record names the job; for a change that moves keys but "
               "no result (a key definition, the record's code): trains nothing",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=list(ACTIONS),
                   help="; ".join(f"{k}: {v}" for k, v in ACTIONS.items()) + ". After --, the "
                        "snakemake options of your run (profile, --config) that define the DAG")
    p.add_argument("--store", default="store", help="the store folder")
    p.add_argument("--set-aside", default=None, metavar="FOLDER",
                   help="check: move failing entries here (the workflow's start uses "
                        "results/quarantine/store)")
    p.add_argument("--remove", action="store_true", help="unused: delete them")
    p.add_argument("--from", dest="source", default="HEAD", metavar="COMMIT",
                   help="migrate: the commit whose keys found the entries (default HEAD, for "
                        "an uncommitted change)")


def rekeys(store_dir: str, snakemake_args: list[str]) -> None:
    """Print, per experiment, the DAG's stored jobs that the store serves, those to compute,
    those unknown until their upstream jobs run, and the entries no job finds any more (an
    entry whose record writes the outputs of a job whose key is unknown is not counted as
    re-keyed: it may still be that job's)."""
    import json
    from collections import defaultdict
    from pathlib import Path

    from entropic_bound.plumbing import store
    from entropic_bound.plumbing.experiments import experiment_of, experiment_of_record
    from entropic_bound.plumbing.store_dag import in_use, lookups

    found = lookups(snakemake_args)
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in found:
        exp = experiment_of(r["rule"], Path(r["output"]).parts)
        kind = "fetched" if r["entry"] else ("unknown" if r["key"] is None else "to compute")
        rows[exp][kind] += 1
    waiting = {r["output"] for r in found if r["key"] is None}
    entries = store.entries(store_dir)
    rekeyed = []
    for key in (k for k in store.unused(store_dir, in_use(found)) if k in entries):
        path = next((f for f in entries[key] if f.name.endswith("_record.json")), None)
        record = json.loads(path.read_text()) if path else {}
        argv = record.get("argv", [])
        if waiting & set(argv):
            continue  # perhaps the entry of a job whose key is not known yet
        rekeyed.append(key)
        exp = experiment_of_record(argv[argv.index("--record") + 1]) if "--record" in argv \
            else "other"
        rows[exp]["re-keyed"] += 1
        rows[exp]["re-keyed job-hours"] += record.get("s", 0) / 3600
    columns = ["fetched", "to compute", "unknown", "re-keyed", "re-keyed job-hours"]
    total = {c: sum(r[c] for r in rows.values()) for c in columns}

    def line(name: str, counts: dict[str, float]) -> str:
        return f"{name:<11}" + "".join(f"{counts[c]:>20.2f}" if "hours" in c
                                       else f"{int(counts[c]):>20}" for c in columns)

    print(f"{'experiment':<11}" + "".join(f"{c:>20}" for c in columns))
    for exp in sorted(rows):
        print(line(exp, rows[exp]))
    print(line("all", total))
    print(f"{len(rekeyed)} of {len(entries)} entries re-keyed "
          f"({total['re-keyed job-hours']:.2f} job-hours), {int(total['unknown'])} jobs unknown "
          "until their upstream jobs run (their keys read outputs no run has made yet)")


def entries_at(source: str, store_dir: str, snakemake_args: list[str]) -> dict[str, str]:
    """Output -> the entry that served its stored job at commit ``source``: a dry run of that
    commit's workflow and library (a git worktree, its ``src`` first on the path) over this
    store."""
    import os
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from entropic_bound.plumbing.store_dag import lookups

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), source],
                       check=True)
        try:
            linked = tree / store_dir
            if linked.is_dir():
                shutil.rmtree(linked)
            linked.parent.mkdir(parents=True, exist_ok=True)
            linked.symlink_to(Path(store_dir).resolve())
            found = lookups(snakemake_args, tree,
                            {"PYTHONPATH": os.pathsep.join([str(tree / "src"),
                                                            os.environ.get("PYTHONPATH", "")])})
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], check=True)
    return {r["output"]: r["entry"] for r in found if r["entry"]}


def migrate(store_dir: str, source: str, snakemake_args: list[str]) -> None:
    """Alias each stored job's key in the working tree to the entry that served the job at
    ``source``, where the tree's key finds no entry, the entry's seal holds and its record
    writes the job's output; in rounds, since a job's key reads its upstream entry's seal. A
    key that reads a cheap job's outputs (tokens) needs their realisation under the cheap job's
    new key: written from the files where a run of the working tree made them."""
    import json
    from pathlib import Path

    from entropic_bound.plumbing import store
    from entropic_bound.plumbing.store_dag import ledger, stored
    from entropic_bound.plumbing.store_keys import file_digest

    before = entries_at(source, store_dir, snakemake_args)
    adopted, realised, refused = 0, 0, {}
    while True:
        found = ledger(snakemake_args)
        progress = 0
        for r in found:
            files = r.get("realisation")
            if (files and r["key"] and not store.read_realisation(store_dir, r["key"])
                    and all(Path(p).is_file() for p in files.values())):
                store.write_realisation(store_dir, r["key"], {name: file_digest(p)
                                                              for name, p in files.items()})
                realised += 1
                progress += 1
        for r in stored(found):
            if r["entry"] or not r["key"] or r["output"] not in before or r["output"] in refused:
                continue
            entry = before[r["output"]]
            reason = store.check_entry(store_dir, entry)
            records = list(Path(store_dir).glob(f"{entry}*_record.json"))
            if reason is None and records and r["output"] not in json.loads(
                    records[0].read_text())["argv"]:
                reason = "its record writes other outputs"
            if reason is None:
                store.write_alias(store_dir, r["key"], entry)
                adopted += 1
                progress += 1
            else:
                refused[r["output"]] = f"{store_dir}/{entry}*: {reason}"
        if not progress:
            break
    for output, line in sorted(refused.items()):
        print(f"not migrated: {output}: {line}")
    unknown = [r["output"] for r in stored(found) if r["key"] is None]
    print(f"{adopted} entries adopted under the working tree's keys (from {source}), "
          f"{realised} realisations written from files, {len(refused)} refused; "
          f"{len(unknown)} jobs whose keys wait for cheap upstream outputs no run of this tree "
          f"has made (make them, e.g. snakemake --until <their rule>, then migrate again)")


def run(a: argparse.Namespace) -> None:
    import logging

    from entropic_bound.plumbing import store

    log = logging.getLogger("entropic_bound")
    if a.action == "seal":
        sealed = store.seal(a.store)
        log.info("%d entr%s sealed in %s", len(sealed), "y" if len(sealed) == 1 else "ies",
                 a.store)
    elif a.action == "check":
        problems = store.check(a.store, a.set_aside)
        for problem in problems:
            log.error("%s%s", problem.line(a.store),
                      f" (moved to {a.set_aside})" if a.set_aside else "")
        log.info("%d entries checked in %s, %d failed", len(store.entries(a.store)) +
                 len(problems) * bool(a.set_aside), a.store, len(problems))
        if problems:
            sys.exit(1)
    elif a.action == "rekeys":
        rekeys(a.store, a.passthrough)
    elif a.action == "migrate":
        migrate(a.store, a.source, a.passthrough)
    else:
        from entropic_bound.plumbing.store_dag import used_keys

        names = store.unused(a.store, used_keys(a.passthrough))
        files = store.entries(a.store)
        sizes = {k: sum(f.stat().st_size for f in files.get(k, [])) for k in names}
        for name in names:
            print(f"{name}  {sizes[name] / 1e6:.2f} MB")
        leftovers = store.leftovers(a.store)
        for path in leftovers:
            print(f"{path.name}  (leftover)")
        total = sum(sizes.values()) / 1e6
        if a.remove:
            freed = store.prune(a.store, names)
            log.info("removed %d unused entries and %d leftovers: %.2f MB", len(names),
                     len(leftovers), freed / 1e6)
        else:
            log.info("%d unused entries (%.2f MB) and %d leftovers; --remove deletes them",
                     len(names), total, len(leftovers))
