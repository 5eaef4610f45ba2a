"""The sha256 of a file, read in blocks (archives run to hundreds of MB)."""

from __future__ import annotations

import hashlib
import os


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of the file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
