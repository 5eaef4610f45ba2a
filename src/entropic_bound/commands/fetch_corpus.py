"""Fetch one E6 corpus: exactly the text the lock pins, or name what the lock must add and stop."""

from __future__ import annotations

import argparse
import logging
import sys

from entropic_bound.commands._args import add_paths

OPTIONS = ("params", "record")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--text", "--provenance")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.data.corpora import (
        BadEncoding,
        NoSourceWorked,
        UnsafeFile,
        fetch_corpus,
    )
    from entropic_bound.data.corpus_lock import (
        BadLockEntry,
        ChecksumMismatch,
        LockFile,
        PinError,
        Unlocked,
        check_complete,
    )

    p = a.params
    try:
        lock = LockFile(p["lock"])
        provenance = fetch_corpus(p["corpus"], p["sources"], a.text, a.provenance,
                                  cache=p["cache"], lock=lock,
                                  max_replaced_fraction=p["max_replaced_fraction"], pin=p["pin"])
        check_complete(lock, p["corpus"], provenance, pinned=p["pin"] is not None)
    except (PinError, Unlocked, BadLockEntry, ChecksumMismatch, NoSourceWorked, BadEncoding,
            UnsafeFile) as err:
        # one clear message naming the corpus, what the lock pins and what was found
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(2)
