"""Add entries to the corpus lock file: the pins and checksums a fetch named as missing."""

from __future__ import annotations

import argparse
import json
import re
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("lock", help="the lock file (corpora.lock.json)")
    p.add_argument("--add", required=True, metavar="JSON",
                   help="the entries to add, as the fetch printed them: an object of url or "
                        "archive -> sha256 and corpus:<name> -> pin")


def run(a: argparse.Namespace) -> None:
    from pathlib import Path

    from entropic_bound.data.corpus_lock import PIN_FIELDS, PIN_KEY, pin_line, record_lock

    try:
        entries = json.loads(a.add)
    except ValueError as err:
        sys.exit(f"--add: not JSON ({err}); expected the object the fetch printed")
    if not isinstance(entries, dict) or not entries:
        sys.exit("--add: expected a non-empty object of url or archive -> sha256, "
                 "corpus:<name> -> pin")
    for key, value in entries.items():
        is_pin = key.startswith(PIN_KEY.format(""))
        ok = (isinstance(value, dict) and set(value) == set(PIN_FIELDS) if is_pin
              else isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None)
        if not ok:
            sys.exit(f"--add: entry {key!r} is not a " + (
                f"corpus pin (an object of {', '.join(PIN_FIELDS)})" if is_pin
                else "sha256 (64 lowercase hex digits)"))
    for key, value in sorted(entries.items()):
        record_lock(Path(a.lock), key, value)
        print(f"{a.lock}: {key}: " + (pin_line(value) if isinstance(value, dict)
                                      else f"sha256 {value}"))
