"""The store of job outputs: run one job through it, check its entries, seal hand-copied ones,
list or prune unused ones, price what the working tree re-keys, adopt an earlier commit's
entries."""

from __future__ import annotations

import argparse
import sys

ACTIONS = {
    "run": "run one job through the store (MANIFEST -- COMMAND; every stored rule's shell "
           "command is this): fetch its entry, or compute and store it",
    "check": "every sealed entry against its seal, and every name that is not the store's "
             "(exit 1 on a failure)",
    "seal": "seal entries copied in by hand (a run seals what it stores)",
    "unused": "entries no job of the current DAG uses, and leftovers (--remove deletes them)",
    "rekeys": "per experiment, the stored entries the working tree no longer finds (their "
              "jobs would be recomputed), with their job-hours from the records; run before a "
              "commit that touches code a stored job runs",
    "migrate": "adopt, by an alias under the working tree's key, the entry that served each "
               "stored job of the DAG at commit --from (after --: Snakemake's options), where "
               "its seal holds and its record ran the job's command: trains nothing",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=list(ACTIONS),
                   help="; ".join(f"{k}: {v}" for k, v in ACTIONS.items()) + ". After --, the "
                        "snakemake options of your run (profile, --config) that define the DAG")
    p.add_argument("manifest", nargs="?", default=None,
                   help="run: the job's manifest (JSON, written by the workflow)")
    p.add_argument("--store", default="store", help="the store folder")
    p.add_argument("--set-aside", default=None, metavar="FOLDER",
                   help="check: move failing entries here")
    p.add_argument("--remove", action="store_true", help="unused: delete them")
    p.add_argument("--from", dest="source", default="HEAD", metavar="COMMIT",
                   help="migrate: the commit whose keys found the entries (default HEAD, for "
                        "an uncommitted change)")


def run(a: argparse.Namespace) -> None:
    import logging

    from entropic_bound.store.files import Refused
    from entropic_bound.store.layout import Store

    log = logging.getLogger("entropic_bound")
    try:
        if a.action == "run":
            from entropic_bound.store.job import run as run_job

            if a.manifest is None:
                sys.exit("store run: the job's manifest is missing (MANIFEST -- COMMAND)")
            sys.exit(run_job(a.manifest, a.passthrough))
        store = Store(a.store)
        if a.action == "seal":
            from entropic_bound.store.maintenance import seal

            sealed = seal(store)
            log.info("%d entr%s sealed in %s", len(sealed), "y" if len(sealed) == 1 else "ies",
                     a.store)
        elif a.action == "check":
            from entropic_bound.store.maintenance import check

            sys.exit(check(store, a.set_aside))
        elif a.action == "rekeys":
            from entropic_bound.store.maintenance import rekeys

            rekeys(store, a.passthrough)
        elif a.action == "migrate":
            from entropic_bound.store.migration import migrate

            migrate(store, a.source, a.passthrough)
        else:
            from entropic_bound.store.maintenance import unused

            unused(store, a.passthrough, a.remove)
    except (Refused, OSError) as err:
        sys.exit(f"store {a.action}: {err}")
