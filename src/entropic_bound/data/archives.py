"""Reading the members of a corpus's archives (protocol §E6, "Corpora"): tar (gzip, xz), zip and
Debian packages with the standard library's readers, members chosen by glob patterns relative to
the archive's top folder (``*`` within one path segment, ``**`` across any number), decoded as
UTF-8 with every change counted, and joined in sorted path order by a newline, so that the same
source always gives the same text. A damaged archive is an error naming it, never a shorter text.
"""

from __future__ import annotations

import gzip
import io
import lzma
import re
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class SourceUnavailable(RuntimeError):
    """This source cannot be used here (no network, package missing); try the next one."""


def glob_regex(pattern: str) -> re.Pattern:
    """Compile a member glob: ``**/`` any folders (or none), ``*`` and ``?`` within a segment."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def member_matcher(patterns: list[str]):
    regexes = [glob_regex(p) for p in patterns]
    return lambda rel: any(r.match(rel) for r in regexes)


def _relative(name: str) -> str:
    """Member path without the archive's top folder (``pkg-1.0/json/a.json`` -> ``json/a.json``)."""
    name = name.removeprefix("./")
    return name.split("/", 1)[1] if "/" in name else name


def decode_text(data: bytes) -> tuple[str, dict[str, int]]:
    """UTF-8 text of ``data`` and what decoding changed: ``replaced``, invalid byte sequences
    turned into U+FFFD (one that was in the bytes already is no replacement); ``nul_dropped``,
    NUL characters removed (a UTF-16 file read as UTF-8 is half NULs); ``crlf``, CRLF line ends
    made LF."""
    text = data.decode("utf-8", errors="replace")
    counts = {"replaced": text.count("\ufffd") - data.count("\ufffd".encode()),
              "nul_dropped": text.count("\x00"), "crlf": text.count("\r\n")}
    return text.replace("\x00", "").replace("\r\n", "\n"), counts


def join_members(members: dict[str, bytes], what: str) -> tuple[str, dict]:
    """The members' texts in path order joined by newlines, with ``members`` (their count) and
    ``decoding`` (the :func:`decode_text` counts summed) for the provenance."""
    if not members:
        raise SourceUnavailable(f"{what}: no member matched")
    texts, decoding = [], {"replaced": 0, "nul_dropped": 0, "crlf": 0}
    for key in sorted(members):
        text, counts = decode_text(members[key])
        texts.append(text)
        decoding = {k: decoding[k] + counts[k] for k in decoding}
    return "\n".join(texts), {"members": len(members), "decoding": decoding}


# ---------------------------------------------------------------- archive readers


def tar_members(fileobj, patterns: list[str], strip_top: bool = True,
                mode: str = "r|*") -> dict[str, bytes]:
    """Members of a (streamed) tar archive whose path matches ``patterns``."""
    match, out = member_matcher(patterns), {}
    with tarfile.open(fileobj=fileobj, mode=mode) as tar:
        for info in tar:
            rel = _relative(info.name) if strip_top else info.name.removeprefix("./")
            if info.isfile() and match(rel):
                out[rel] = tar.extractfile(info).read()
        _drain(tar)
    return out


def _drain(tar: tarfile.TarFile) -> None:
    """Read the compressed stream under ``tar`` to its end. tarfile takes a damaged member
    header for the end of the archive and stops there, so without this a flipped byte gives a
    shorter text and no error; at the real end gzip and xz verify their checksums."""
    while tar.fileobj.read(1 << 20):
        pass


def zip_members(path: Path, patterns: list[str]) -> dict[str, bytes]:
    """Members of a zip (a wheel) whose full path matches ``patterns``."""
    match = member_matcher(patterns)
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist() if match(n)}


def deb_data_tar(path: Path) -> tuple[io.BufferedReader, int, int, str]:
    """Locate the ``data.tar.*`` member of a Debian package (an ``ar`` archive).

    Returns the open file positioned at it, its size, its offset and its compression suffix.
    """
    fh = open(path, "rb")  # noqa: SIM115 - handed to the caller open, positioned at the member
    if fh.read(8) != b"!<arch>\n":
        fh.close()
        raise ValueError(f"{path}: not a Debian package (no ar header)")
    while header := fh.read(60):
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        if name.startswith("data.tar"):
            return fh, size, fh.tell(), name.rsplit(".", 1)[-1]
        fh.seek(size + (size & 1), 1)
    fh.close()
    raise ValueError(f"{path}: no data.tar member")


class _Window(io.RawIOBase):
    """A read-only view of ``size`` bytes of an open file (the ar member), for tarfile."""

    def __init__(self, fh, size: int):
        self.fh, self.left = fh, size

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        n = self.fh.readinto(memoryview(buf)[: min(len(buf), self.left)])
        self.left -= n
        return n


def deb_members(path: Path, patterns: list[str], inner: str | None = None) -> dict[str, bytes]:
    """Members of a .deb's data archive (paths without the leading ``./``); with ``inner``, of
    the tarball at that path inside it, streamed so that only the members are kept in memory."""
    fh, size, _, _ = deb_data_tar(path)
    with fh:
        stream = io.BufferedReader(_Window(fh, size), buffer_size=1 << 20)
        if inner is None:
            return tar_members(stream, patterns, strip_top=False)
        with tarfile.open(fileobj=stream, mode="r|*") as tar:
            for info in tar:
                if info.name.removeprefix("./") == inner:
                    found = tar_members(tar.extractfile(info), patterns)
                    _drain(tar)
                    return found
    raise SourceUnavailable(f"{path.name}: no member {inner}")


@contextmanager
def readable(archive: Path) -> Iterator[None]:
    """Turn a damaged cached archive into an error that names it and says how to recover."""
    try:
        yield
    except (tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, EOFError, zlib.error,
            lzma.LZMAError, ValueError) as err:
        raise ValueError(f"{archive}: corrupt or truncated archive ({err}); delete it to "
                         f"download it again") from err
