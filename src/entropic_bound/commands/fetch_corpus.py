"""Fetch one E6 corpus: exactly the text the lock pins, or pin it and stop."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--text", "--provenance")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.data.corpora import (
        BadEncoding,
        NoSourceWorked,
        UnsafeFile,
        fetch_corpus,
    )
    from entropic_bound.data.corpus_lock import ChecksumMismatch, PinError, pin_corpus

    p = a.params
    try:
        provenance = fetch_corpus(p["corpus"], p["sources"], a.text, a.provenance,
                                  cache=p["cache"], lock=p["lock"],
                                  max_replaced_fraction=p["max_replaced_fraction"], pin=p["pin"])
        if p["pin"] is None:
            pin_corpus(Path(p["lock"]), provenance)
    except (PinError, ChecksumMismatch, NoSourceWorked, BadEncoding, UnsafeFile) as err:
        # one clear message naming the corpus, what the lock pins and what was found
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(2)
