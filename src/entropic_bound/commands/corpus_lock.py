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


# what the lock holds: a corpus's pin, a cached archive's path, a url
KEY = re.compile(r"corpus:[A-Za-z0-9_]+|archive:[A-Za-z0-9_.=+/-]+|https?://[!-~]+")


def run(a: argparse.Namespace) -> None:
    from pathlib import Path

    from entropic_bound.data.corpus_lock import (
        PIN_FIELDS,
        PIN_KEY,
        SHA256,
        is_pin,
        pin_line,
        read_lock,
        record_lock,
    )

    try:
        entries = json.loads(a.add)
    except ValueError as err:
        sys.exit(f"--add: not JSON ({err}); expected the object the fetch printed")
    if not isinstance(entries, dict) or not entries:
        sys.exit("--add: expected a non-empty object of url or archive -> sha256, "
                 "corpus:<name> -> pin")
    for key, value in entries.items():
        if not KEY.fullmatch(key) or "/../" in f"/{key}/" or key.endswith("/.."):
            sys.exit(f"--add: {key[:80]!r} is not a lock entry's name (corpus:<name>, "
                     "archive:<path in the download cache>, or a url)")
        is_pin_key = key.startswith(PIN_KEY.format(""))
        if not (is_pin(value) if is_pin_key
                else isinstance(value, str) and SHA256.fullmatch(value) is not None):
            sys.exit(f"--add: entry {key!r} is not a " + (
                f"corpus pin (an object of {', '.join(PIN_FIELDS)}: texts, a sha256, a byte "
                "count)" if is_pin_key else "sha256 (64 lowercase hex digits)"))
    held = read_lock(Path(a.lock))
    for key, value in sorted(entries.items()):
        record_lock(Path(a.lock), key, value)
        what = pin_line(value) if isinstance(value, dict) else f"sha256 {value}"
        replaced = " (replaces the entry it held: a re-lock)" if key in held and \
            held[key] != value else ""
        print(f"{a.lock}: {key}: {what}{replaced}")
