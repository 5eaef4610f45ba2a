"""Read character vectors out of an R package's lazy-load data base without R.

An installed R package keeps its data sets in ``data/Rdata.rdb`` (the objects) and
``data/Rdata.rdx`` (the index). The index is a gzip-compressed R serialization of a list whose
``variables`` element maps each object name to ``c(offset, length)`` in the ``.rdb`` file; each
blob there is a 4-byte big-endian uncompressed length followed by a zlib stream of the object's
own serialization. Only the XDR serialization format (versions 2 and 3) and the object types that
data sets use (vectors, pairlists, symbols, attributes, references) are decoded; anything else
raises ``ValueError`` naming the type, rather than returning a wrong object.
"""

from __future__ import annotations

import gzip
import struct
import zlib

# SEXP type codes of R's serialize.c
_SYM, _LIST, _CHAR, _LGL, _INT, _REAL, _CPLX, _STR, _VEC, _EXPR, _RAW = (1, 2, 9, 10, 13, 14,
                                                                        15, 16, 19, 20, 24)
_REF, _NIL, _GLOBALENV, _UNBOUND, _MISSING, _BASENS, _EMPTYENV, _BASEENV = (255, 254, 253, 252,
                                                                           251, 250, 242, 241)
_ATTRLIST = 239
NA_STRING = None


class _Reader:
    def __init__(self, buf: bytes):
        if buf[:2] != b"X\n":
            raise ValueError("not an XDR R serialization (expected header 'X\\n')")
        self.buf, self.pos, self.refs = buf, 2, []
        version = self.int()
        self.int(), self.int()  # writer version, minimal reader version
        if version == 3:
            n = self.int()  # length of the native encoding name, then the name
            self.pos += n
        elif version != 2:
            raise ValueError(f"unsupported R serialization version {version}")

    def int(self) -> int:
        (value,) = struct.unpack_from(">i", self.buf, self.pos)
        self.pos += 4
        return value

    def length(self) -> int:
        n = self.int()
        if n == -1:  # long vector: two 32-bit halves
            hi, lo = self.int(), self.int()
            n = (hi << 32) + lo
        return n

    def item(self):
        flags = self.int()
        kind, has_attr, has_tag = flags & 0xFF, bool(flags & 512), bool(flags & 1024)
        if kind == _NIL or kind in (_GLOBALENV, _UNBOUND, _MISSING, _BASENS, _EMPTYENV,
                                    _BASEENV):
            return None
        if kind == _REF:
            index = flags >> 8 or self.int()
            return self.refs[index - 1]
        if kind == _SYM:
            name = self.item()
            self.refs.append(name)
            return name
        if kind in (_LIST, _ATTRLIST):
            out = []
            while kind in (_LIST, _ATTRLIST):
                if has_attr:
                    self.item()
                tag = self.item() if has_tag else None
                out.append((tag, self.item()))
                flags = self.int()
                kind, has_attr, has_tag = flags & 0xFF, bool(flags & 512), bool(flags & 1024)
            if kind != _NIL:
                raise ValueError(f"pairlist ends in SEXP type {kind}, expected NULL")
            return dict(out) if all(t is not None for t, _ in out) else [v for _, v in out]
        if kind == _CHAR:
            n = self.int()
            if n == -1:
                return NA_STRING
            raw = self.buf[self.pos:self.pos + n]
            self.pos += n
            return raw.decode("latin-1" if flags & (1 << 14) else "utf-8", errors="replace")
        if kind in (_LGL, _INT):
            n = self.length()
            value = list(struct.unpack_from(f">{n}i", self.buf, self.pos))
            self.pos += 4 * n
        elif kind == _REAL:
            n = self.length()
            value = list(struct.unpack_from(f">{n}d", self.buf, self.pos))
            self.pos += 8 * n
        elif kind == _CPLX:
            n = self.length()
            self.pos += 16 * n
            value = None
        elif kind == _RAW:
            n = self.length()
            value = self.buf[self.pos:self.pos + n]
            self.pos += n
        elif kind in (_STR, _VEC, _EXPR):
            value = [self.item() for _ in range(self.length())]
        else:
            raise ValueError(f"R object of SEXP type {kind} is not supported by this decoder")
        if has_attr:
            attrs = self.item()
            names = attrs.get("names") if isinstance(attrs, dict) else None
            if kind == _VEC and names:
                return dict(zip(names, value))
        return value


def unserialize(buf: bytes):
    """The Python value of one XDR R serialization (vectors -> lists, named lists -> dicts)."""
    return _Reader(buf).item()


def read_lazyload(rdx: bytes, rdb: bytes) -> dict:
    """Every object of a lazy-load data base, by name, from the bytes of its .rdx and .rdb."""
    index = unserialize(gzip.decompress(rdx) if rdx[:2] == b"\x1f\x8b" else
                        zlib.decompress(rdx[4:]))
    out = {}
    for name, (offset, length) in index["variables"].items():
        blob = rdb[int(offset):int(offset) + int(length)]
        out[name] = unserialize(zlib.decompress(blob[4:]))
    return out
