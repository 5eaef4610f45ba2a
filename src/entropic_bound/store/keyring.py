"""The keys a run trusts belong to the user, not to the pull: as Nix reads
``trusted-public-keys`` from the user's own configuration and SSH keeps ``known_hosts``.

* **The repository proposes.** ``trusted-keys.txt`` in the workflow's directory lists keys:
  ASCII, split on ``\\n`` only, each line ``NAME:BASE64`` (an ed25519 public key), a ``#``
  comment or empty; any other line (a control character such as ``\\r``, a non-ASCII byte),
  a link in its place or more than 64 KiB refuses the whole list in one line.
* **The user accepts.** The keys this checkout accepted are kept outside it, beside the signing
  key (:func:`accepted_path`), one ``NAME:BASE64`` a line: a pull can add to the repository's
  list but never to this file. A run trusts a listed key only where its name *and* public half
  are accepted; a listed key that is not (new, or a changed key under a known name) is
  *proposed*: the run names it in one line, uses nothing that only it signed (those jobs
  compute), and ``entropic-bound store accept NAME`` accepts it after showing the key and the
  commit that added it. A key the list drops is no longer trusted (the list may narrow trust,
  never widen it); once keys were accepted, a list that disappears leaves only the user's own
  key, never an unsigned store.
* **First use.** A checkout with no accepted keys yet accepts those its folder listed *at
  clone time*: the commit git's reflog says the clone checked out (``clone: from ...``); none
  where the folder held no list then (a folder below the checkout's top that a pull added, as
  a profile's ``directory:`` may name). Where git names no clone commit (``git init``, a
  worktree) or outside git (a copy, a tarball), the list as it stands at that first use.
  Each first use is said in one line. A copy of the workflow made by a command (the machine
  study's) carries this checkout's accepted keys (:func:`carry`).
* **Your own key** is trusted by its public half (:func:`entropic_bound.store.trust.load_signer`):
  a listed key under your key's name with another public half is refused in one line, as is a
  name listed twice (both lines); the rest of the list stands.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from entropic_bound.store import files
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import SMALL
from entropic_bound.store.trust import NAME, TRUSTED_KEYS, key_path, load_signer

ACCEPTED = "accepted"  # folder beside the signing key: one file of accepted keys per checkout


def parse_list(data: bytes, where: str = TRUSTED_KEYS) -> list[tuple[int, str, str]]:
    """``(line number, name, base64)`` of each key of a list's bytes (the module's format);
    :class:`Refused` naming the first line that is not of it."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    found = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        bad = any(b > 0x7E or (b < 0x20 and b != 0x09) for b in raw)
        text = raw.decode("ascii", "replace")
        if bad:
            raise Refused(f"{where} line {number}: {ascii(text)[:80]} holds a control or "
                          "non-ASCII character; expected NAME:BASE64 or a # comment")
        if not text.strip() or text.startswith("#"):
            continue
        name, _, encoded = text.partition(":")
        try:
            if not NAME.fullmatch(name):
                raise ValueError("a bad name")
            Ed25519PublicKey.from_public_bytes(base64.b64decode(encoded, validate=True))
        except ValueError as err:
            raise Refused(f"{where} line {number}: {text[:80]!r} is not NAME:BASE64 of an "
                          f"ed25519 public key ({err})") from None
        found.append((number, name, encoded))
    return found


def read_list(workdir: str | os.PathLike[str] = ".") -> bytes | None:
    """The repository's list as bytes (None where there is none); a link, a folder or more
    than :data:`SMALL` bytes in its place is refused."""
    with files.folder(workdir) as top:
        if files.kind(top, TRUSTED_KEYS) is None:
            return None
        try:
            return files.read(top, TRUSTED_KEYS, SMALL)
        except Refused as err:
            raise Refused(f"{TRUSTED_KEYS}: {err}") from None


def accepted_path(workdir: str | os.PathLike[str] = ".") -> Path:
    """Where this checkout's accepted keys are kept: beside the signing key, outside every
    repository, one file per checkout (named by the checkout's resolved path)."""
    where = str(Path(workdir).resolve())
    return key_path().parent / ACCEPTED / f"{hashlib.sha256(where.encode()).hexdigest()[:24]}.txt"


def read_accepted(workdir: str | os.PathLike[str] = ".") -> set[tuple[str, str]] | None:
    """The ``(name, base64)`` pairs this checkout accepted; None before its first use."""
    path = accepted_path(workdir)
    if not path.is_file():
        return None
    return {(n, k) for _, n, k in parse_list(path.read_bytes(), str(path))}


def write_accepted(workdir: str | os.PathLike[str], pairs: set[tuple[str, str]]) -> None:
    path = accepted_path(workdir)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (f"# keys accepted for {Path(workdir).resolve()} (entropic-bound store accept)\n"
            + "".join(f"{n}:{k}\n" for n, k in sorted(pairs)))
    files.write_outside(path, text.encode())


def _git(workdir: str | os.PathLike[str], *args: str) -> bytes | None:
    """git's output, or None where it fails (not a checkout, no git)."""
    try:
        proc = subprocess.run(["git", "-C", str(workdir), *args], capture_output=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def clone_commit(workdir: str | os.PathLike[str] = ".") -> tuple[str | None, str] | None:
    """Where ``workdir`` lies in a git checkout: the commit a clone first checked out (the
    oldest entry of HEAD's reflog, where it says ``clone: from``; None where git names none:
    ``git init``, a worktree) and the folder's path below the checkout's top (``""`` at the
    top). None outside any checkout."""
    prefix = _git(workdir, "rev-parse", "--show-prefix")
    if prefix is None:
        return None
    log = _git(workdir, "reflog", "show", "--format=%H %gs", "HEAD")
    oldest = (log or b"").strip().splitlines()[-1:] or [b""]
    sha, _, subject = oldest[0].decode("ascii", "replace").partition(" ")
    return (sha if subject.startswith("clone: from") else None,
            prefix.decode("utf-8", "surrogateescape").strip())


def list_at(workdir: str | os.PathLike[str], commit: str, path: str) -> bytes | None:
    """The raw bytes of the list at ``path`` (from the checkout's top) at ``commit`` (``git
    cat-file``: never a filter of the repository's attributes), at most :data:`SMALL` of
    them; None where the commit holds none there."""
    size = _git(workdir, "cat-file", "-s", f"{commit}:{path}")
    if size is None or int(size) > SMALL:
        return None
    return _git(workdir, "cat-file", "blob", f"{commit}:{path}")


def first_use(workdir: str | os.PathLike[str], listed: list[tuple[int, str, str]]
              ) -> tuple[set[tuple[str, str]], str]:
    """What a checkout's first use accepts, and the line that says so (the module's doc): in
    a clone, the list its folder held at clone time (none where it held none: a folder a pull
    added, or a profile's ``directory:`` below the checkout, accepts nothing); in a checkout
    git names no clone commit of, or outside git (a copy, a tarball), the list as it stands."""
    where = clone_commit(workdir)
    if where is not None and where[0] is not None:
        commit, prefix = where
        data = list_at(workdir, commit, prefix + TRUSTED_KEYS)
        if data is None:
            return set(), (f"first use of this checkout: {prefix + TRUSTED_KEYS} did not exist "
                           f"at clone time (commit {commit[:12]}): no key accepted")
        found = {(n, k) for _, n, k in parse_list(data, f"{TRUSTED_KEYS} at {commit}")}
        return found, (f"first use of this checkout: accepted the {len(found)} keys "
                       f"{TRUSTED_KEYS} listed at clone time (commit {commit[:12]})")
    found = {(n, k) for _, n, k in listed}
    return found, (f"first use of this checkout: accepted the {len(found)} keys {TRUSTED_KEYS} "
                   "lists now (" + ("git names no clone commit" if where else "not a git "
                                    "checkout") + ")")


def added_by(workdir: str | os.PathLike[str], encoded: str) -> str:
    """The commit that last changed whether the list holds ``encoded`` (its addition, while it
    is listed), in words; "not in git" where git cannot tell."""
    out = _git(workdir, "log", "-1", "--no-textconv", "--format=%H %an <%ae> %ad: %s",
               "--date=short", f"-S{encoded}", "--", TRUSTED_KEYS)
    text = (out or b"").decode("utf-8", "replace").strip()
    return files.shown(text) if text else "not in git"


@dataclass
class TrustState:
    """What a run trusts (``keys``: name -> public key; None for an unsigned store), what the
    list proposes that the user has not accepted, what it lists that is refused, and what
    this first use accepted."""

    keys: dict[str, object] | None
    proposed: list[tuple[str, str]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    first_use: str | None = None


def public_key(encoded: str) -> object:
    """The ed25519 public key of a base64 text that :func:`parse_list` accepted."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(base64.b64decode(encoded))


def state(workdir: str | os.PathLike[str] = ".") -> TrustState:
    """The trust of a run in ``workdir`` (the module's doc); the first use of a checkout
    writes its accepted keys."""
    data = read_list(workdir)
    listed = parse_list(data) if data is not None else []
    own = load_signer()
    own_encoded = own.public_line.partition(":")[2] if own is not None else None
    accepted = read_accepted(workdir)
    first = None
    if accepted is None and data is not None:
        accepted, first = first_use(workdir, listed)
        write_accepted(workdir, accepted)
        first += f"; kept in {accepted_path(workdir)}"
    if data is None and not accepted:
        return TrustState(None)
    names = [n for _, n, _ in listed]
    keys: dict[str, object] = {}
    result = TrustState(keys, first_use=first)
    for number, name, encoded in listed:
        if names.count(name) > 1:
            result.refused.append(f"{TRUSTED_KEYS} line {number}: the name {name} is listed "
                                  "more than once; a name names one key (refused)")
        elif own is not None and name == own.name and encoded != own_encoded:
            result.refused.append(f"{TRUSTED_KEYS} line {number}: {name} is your own key's "
                                  "name with another public key (refused)")
        elif (name, encoded) in accepted:
            keys[name] = public_key(encoded)
        elif encoded != own_encoded:
            result.proposed.append((name, encoded))
    if data is None:
        result.refused.append(f"{TRUSTED_KEYS} is gone; this checkout had accepted "
                              f"{len(accepted)} keys: only your own key is trusted")
    if own is not None:
        keys[own.name] = own.private.public_key()
    return result


def trusted(workdir: str | os.PathLike[str] = ".") -> dict[str, object] | None:
    """Name -> public key of every key a run in ``workdir`` trusts (:func:`state`); None for an
    unsigned store (no list, and none ever accepted)."""
    return state(workdir).keys


def lines(found: TrustState) -> list[str]:
    """What a run says of its trust, one line each."""
    said = [found.first_use] if found.first_use else []
    said += found.refused
    said += [f"{TRUSTED_KEYS} proposes the key {name} ({encoded}), which you have not "
             f"accepted: nothing only it signed is used (`entropic-bound store accept {name}` "
             "shows it and the commit that added it)" for name, encoded in found.proposed]
    return said


def accept(name: str | None, workdir: str | os.PathLike[str] = ".") -> list[str]:
    """Accept the proposed key ``name`` (None: list the proposed keys, accepting none): the
    lines that show each key and the commit that added it."""
    found = state(workdir)
    shown = []
    for key_name, encoded in found.proposed:
        if name not in (None, key_name):
            continue
        verb = "accepted" if name else "proposed"
        shown.append(f"{verb}: {key_name}:{encoded} (added by {added_by(workdir, encoded)})")
    if name is None:
        return shown or ["no proposed key: every key the list holds is accepted"]
    if not shown:
        raise Refused(f"{TRUSTED_KEYS} proposes no key named {name}")
    pairs = read_accepted(workdir) or set()
    write_accepted(workdir, {p for p in pairs if p[0] != name}
                   | {(n, k) for n, k in found.proposed if n == name})
    return shown


def carry(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> None:
    """Make ``dest`` (a copy of this workflow, e.g. the machine study's work folder) accept
    exactly the keys ``source`` trusts: its first use would otherwise accept what its list
    holds now."""
    found = state(source)
    listed = {(n, k) for _, n, k in parse_list(read_list(source) or b"")}
    write_accepted(dest, (read_accepted(source) or set()) & listed if found.keys is not None
                   else set())


def accept_line(line: str, workdir: str | os.PathLike[str] = ".") -> None:
    """Accept ``NAME:BASE64`` as the user's own act (``store trust`` lists and accepts)."""
    ((_, name, encoded),) = parse_list(line.strip().encode(), "store trust")
    pairs = read_accepted(workdir) or set()
    write_accepted(workdir, {p for p in pairs if p[0] != name} | {(name, encoded)})

