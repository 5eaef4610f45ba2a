"""Read the objects of an R package's lazy-load data base without R.

An installed R package keeps its data sets in ``data/Rdata.rdb`` (the objects) and
``data/Rdata.rdx`` (the index). The index is a compressed R serialization of a list whose
``variables`` element maps each object name to ``c(offset, length)`` in the ``.rdb`` file; each
blob there is a 4-byte big-endian uncompressed length followed by a zlib stream of the object's
own serialization. This module walks that index; decoding each serialization is the job of the
maintained ``rdata`` package (PyPI), which raises on formats it does not know.
"""

from __future__ import annotations

import gzip
import warnings
import zlib
from typing import Any

import numpy as np


def unserialize(buf: bytes) -> Any:
    """The Python value of one R serialization; a character vector becomes a list of str with
    None for NA."""
    import rdata

    if buf[:2] not in (b"X\n", b"A\n", b"B\n"):
        raise ValueError("not an R serialization (expected an 'X', 'A' or 'B' header)")
    with warnings.catch_warnings():
        # The blobs carry no RDS/RDA magic; rdata warns that it assumes RDS, which they are.
        warnings.filterwarnings("ignore", message="Unknown file type")
        value = rdata.conversion.convert(rdata.parser.parse_data(buf))
    if isinstance(value, np.ndarray) and value.dtype.kind in "OU":
        return [None if v is None else str(v) for v in value.tolist()]
    return value


def read_lazyload(rdx: bytes, rdb: bytes) -> dict[str, Any]:
    """Every object of a lazy-load data base, by name, from the bytes of its .rdx and .rdb."""
    index = unserialize(gzip.decompress(rdx) if rdx[:2] == b"\x1f\x8b" else
                        zlib.decompress(rdx[4:]))
    out = {}
    for name, (offset, length) in index["variables"].items():
        blob = rdb[int(offset):int(offset) + int(length)]
        out[str(name)] = unserialize(zlib.decompress(blob[4:]))
    return out
