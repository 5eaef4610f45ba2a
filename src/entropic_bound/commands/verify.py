"""Check every cached file of a run and every entry of the store; list what is missing."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default="results", help="folder to check")
    p.add_argument("--store", default="store",
                   help="the store to check as well (skipped where the folder does not exist)")
    p.add_argument("--remove", action="store_true",
                   help="delete the corrupt files and set corrupt store entries aside")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.verify import verify

    found = verify(a.root, remove=a.remove, store_dir=a.store)
    if found and not a.remove:
        sys.exit(1)
