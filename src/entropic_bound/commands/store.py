"""Look after the store of job outputs: check, seal, prune, price re-keys, migrate, sign, review.

Check its entries, seal hand-copied ones, list or prune unused ones, price what the working
tree re-keys, adopt an earlier commit's entries; sign it, say whose keys are trusted, review
what a commit range changes in it (a job goes through it by ``entropic-bound-store``)."""

from __future__ import annotations

import argparse
import sys

ACTIONS = {
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
    "keygen": "make your signing key (NAME; kept outside the repository) and print its "
              "public half",
    "trust": "list a public key (NAME:BASE64; default your own) in trusted-keys.txt and "
             "accept it",
    "distrust": "remove the key NAME from trusted-keys.txt",
    "accept": "show the keys trusted-keys.txt proposes (listed, not accepted by you) and the "
              "commit that added each; with NAME, trust that one in this checkout",
    "keys": "the keys this checkout trusts, those proposed or refused, and yours",
    "sign": "sign, with your key, what passes its seal and this checkout computed (--vouch: "
            "all that passes its seal, once you reviewed it)",
    "review": "what a commit range (BASE..HEAD) changes in the store: entries added, removed, "
              "resealed, their commands and signers; trusted-keys.txt",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=list(ACTIONS),
                   help="; ".join(f"{k}: {v}" for k, v in ACTIONS.items()) + ". After --, the "
                        "snakemake options of your run (profile, --config) that define the DAG")
    p.add_argument("what", nargs="?", default=None,
                   help="keygen, distrust, accept: a key's name; trust: NAME:BASE64; review: "
                        "BASE..HEAD")
    p.add_argument("--store", default="store", help="the store folder")
    p.add_argument("--set-aside", default=None, metavar="FOLDER",
                   help="check: move failing entries here")
    p.add_argument("--remove", action="store_true", help="unused: delete them")
    p.add_argument("--vouch", action="store_true",
                   help="sign: also what this checkout did not compute (after reviewing it)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="rekeys: no progress lines (none either where stderr is no terminal)")
    p.add_argument("--from", dest="source", default="HEAD", metavar="COMMIT",
                   help="migrate: the commit whose keys found the entries (default HEAD, for "
                        "an uncommitted change)")


def run(a: argparse.Namespace) -> None:
    import logging

    from entropic_bound import store as st
    from entropic_bound.plumbing.progress import Progress

    log = logging.getLogger("entropic_bound")
    if a.action == "distrust" and a.what is None:
        sys.exit("store distrust: name the key to remove")
    try:
        store = st.Store(a.store)
        if a.action == "seal":
            sealed = st.seal(store)
            log.info("%d entr%s sealed in %s", len(sealed), "y" if len(sealed) == 1 else "ies",
                     a.store)
            return
        if a.action == "check":
            sys.exit(st.check(store, a.set_aside))
        {"keygen": lambda: st.keygen(a.what),
         "trust": lambda: st.add_trusted(a.what),
         "distrust": lambda: st.remove_trusted(a.what),
         "accept": lambda: st.accept_key(a.what),
         "keys": st.list_keys,
         "sign": lambda: st.sign_store(store, a.vouch),
         "review": lambda: print("\n".join(st.review(a.what or "HEAD~1..HEAD", a.store))),
         "rekeys": lambda: st.rekeys(store, a.passthrough,
                                     Progress("store rekeys", a.quiet)),
         "migrate": lambda: st.migrate(store, a.source, a.passthrough),
         "unused": lambda: st.unused(store, a.passthrough, a.remove)}[a.action]()
    except (st.Refused, OSError) as err:
        sys.exit(f"store {a.action}: {err}")
