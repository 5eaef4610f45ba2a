"""The store of job outputs: check its entries, seal new ones, list or prune unused ones."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["check", "seal", "unused"],
                   help="check: every sealed entry against its sha256 (exit 1 on a failure); "
                        "seal: write the sha256 of entries not yet sealed (before a commit); "
                        "unused: entries no job of the current DAG uses (--remove deletes "
                        "them and leftover tmp folders); after --, the snakemake options of "
                        "your run (profile, --config) that define the DAG")
    p.add_argument("--store", default="store", help="the store folder")
    p.add_argument("--set-aside", default=None, metavar="FOLDER",
                   help="check: move failing entries here (the workflow's start uses "
                        "results/quarantine/store)")
    p.add_argument("--remove", action="store_true", help="unused: delete them")


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
    else:
        from entropic_bound.plumbing.store_dag import used_keys

        keys = store.unused(a.store, used_keys(a.passthrough))
        sizes = {k: sum(f.stat().st_size for f in files)
                 for k, files in store.entries(a.store).items() if k in set(keys)}
        for key in keys:
            print(f"{key}  {sizes[key] / 1e6:.2f} MB")
        leftovers = store.leftovers(a.store)
        for path in leftovers:
            print(f"{path.name}  (leftover)")
        total = sum(sizes.values()) / 1e6
        if a.remove:
            freed = store.prune(a.store, keys)
            log.info("removed %d unused entries and %d leftovers: %.2f MB", len(keys),
                     len(leftovers), freed / 1e6)
        else:
            log.info("%d unused entries (%.2f MB) and %d leftovers; --remove deletes them",
                     len(keys), total, len(leftovers))
