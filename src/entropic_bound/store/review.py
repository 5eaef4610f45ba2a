"""``entropic-bound store review BASE..HEAD``: what a commit range changes that a run reads,
for a pull request that touches ``store/``: entries added, removed and resealed, with the whole
command each record names (control characters escaped) and the keys whose signatures verify
against the keys BASE trusted, apart from names a signature line only claims; aliases and
realisations; every change to ``trusted-keys.txt`` (keys added, removed, replaced, a line every
run refuses, a list turned into a link); any ``.gitattributes`` at any depth; any file
force-added under ``results/`` (ignored by git, read by runs: notes, outputs).

Review sees what the run sees: the trees are compared by git's plumbing (``git diff-tree -r
-z``) and files read as git's objects (``git cat-file``), never through the repository's
attributes (a ``-diff`` or a filter would hide or rewrite a change); each file's size is asked
before any byte is read and at most :data:`READ` bytes are read of it. Names are printed
escaped. Nothing is checked out, and nothing read is run."""

from __future__ import annotations

import shlex
import subprocess
from collections import defaultdict
from dataclasses import dataclass

from entropic_bound.store.files import Refused, parse_json
from entropic_bound.store.keyring import parse_list, public_key
from entropic_bound.store.layout import (
    ALIAS,
    LOCKS,
    REALISATIONS,
    RECORD,
    SEAL,
    SIGNATURES,
    SMALL,
    is_key,
    split,
)
from entropic_bound.store.trust import (
    TRUSTED_KEYS,
    parse_signatures,
    realisation_content,
    verified_signers,
)

COMMAND_SHOWN = 400  # characters of a record's command line, then "..."
READ = 1 << 20  # bytes: the most read of any one file (a record; seals and keys: SMALL)
LINK = "120000"  # git's mode of a symbolic link


def _git(*args: str) -> bytes:
    proc = subprocess.run(["git", *args], capture_output=True)
    if proc.returncode:
        raise SystemExit(f"store review: git {' '.join(args)}: "
                         f"{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def _read(commit: str, path: str, largest: int = SMALL) -> str | None:
    """The text of ``path`` at ``commit`` as git stores it (None where it is not a file
    there, or larger than ``largest``: its size is asked first)."""
    where = f"{commit}:{path}"
    # one line "<sha> <type> <size>" (or "<name> missing"): the size before any byte
    check = subprocess.run(["git", "cat-file", "--batch-check"], input=where.encode() + b"\n",
                           capture_output=True).stdout.split()
    if len(check) != 3 or check[1] != b"blob" or int(check[2]) > largest:
        return None
    return _git("cat-file", "blob", check[0].decode()).decode(errors="replace")


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@dataclass
class Change:
    """One path the range changes: git's modes and status, the path (undecodable bytes kept
    as surrogates, printed escaped)."""

    old_mode: str
    new_mode: str
    status: str
    path: str


def changes(base: str, head: str) -> list[Change]:
    """Every file the range changes (``git diff-tree -r -z --no-renames``)."""
    out = _git("diff-tree", "-r", "-z", "--no-renames", base, head).split(b"\0")
    found = []
    for meta, path in zip(out[0::2], out[1::2]):
        if not meta.startswith(b":"):
            continue
        old_mode, new_mode, _, _, status = meta[1:].decode().split(" ")
        found.append(Change(old_mode, new_mode, status[:1],
                            path.decode("utf-8", "surrogateescape")))
    return found


def _command(record: str | None) -> str:
    """The whole command line a record names, quoted as a shell would need it."""
    if record is None:
        return "(no record, or one past 1 MiB: not read)"
    try:
        argv = parse_json(record).get("argv")
    except (ValueError, AttributeError, RecursionError):
        return "(record not JSON)"
    if not (isinstance(argv, list) and argv):
        return "(no command)"
    line = _printable(shlex.join(str(a) for a in argv))
    return line if len(line) <= COMMAND_SHOWN else line[:COMMAND_SHOWN] + "..."


def _list(commit: str) -> tuple[list[tuple[str, str]], str | None]:
    """``(name, base64)`` of each key ``trusted-keys.txt`` lists at ``commit``, and why every
    run would refuse it (None where it parses)."""
    text = _read(commit, TRUSTED_KEYS)
    if text is None:
        return [], None
    try:
        listed = parse_list(text.encode(errors="surrogateescape"))
    except Refused as err:
        return [], str(err)
    return [(name, encoded) for _, name, encoded in listed], None


def _verifiers(encoded: dict[str, str]) -> dict[str, object]:
    return {name: public_key(key) for name, key in encoded.items()}


def _signed(head: str, store: str, key: str, base_keys: dict[str, object]) -> str:
    """Who signs what of ``key`` at ``head``: verified against ``base_keys``, else claimed."""
    found = parse_signatures(_read(head, f"{store}/{key}{SIGNATURES}") or "")
    content = {"entry": _read(head, f"{store}/{key}{SEAL}"),
               "alias": (_read(head, f"{store}/{key}{ALIAS}") or "").strip() or None,
               "realisation": _read(head, f"{store}/{REALISATIONS}/{key}.json")}
    if content["realisation"] is not None:
        try:
            content["realisation"] = realisation_content(
                parse_json(content["realisation"])).decode()
        except (ValueError, RecursionError):  # JSON too deep to write back
            content["realisation"] = None
    # each kind's good signers once: a .sig of hundreds of lines is checked in one pass
    good = {kind: set(verified_signers(found, kind, key, text.encode(), base_keys))
            for kind, text in content.items() if text is not None}
    verified, claimed = set(), set()
    for kind, name, _ in found:
        (verified if name in good.get(kind, ()) else claimed).add(
            f"{kind} by {_printable(name)}")
    return (f"  signed: {', '.join(sorted(verified)) or 'by no key BASE trusts'}"
            + (f"; claimed, not verified: {', '.join(sorted(claimed))}" if claimed else ""))


def _trust_lines(base: str, head: str, change: Change) -> list[str]:
    """What the range does to the list: a link, a list every run refuses, keys added,
    removed or replaced, comments."""
    if change.new_mode == LINK:
        return [f"{TRUSTED_KEYS}: now a link (mode {LINK}): every run refuses it"]
    if change.status == "D":
        return [f"{TRUSTED_KEYS}: removed: a checkout that accepted keys trusts only its own "
                "key; a fresh clone's store is unsigned"]
    old = dict(_list(base)[0])
    pairs, refused = _list(head)
    if refused is not None:
        return [f"{TRUSTED_KEYS}: every run refuses it: {_printable(refused)}"]
    new = dict(pairs)
    lines = []
    for name in sorted(old.keys() | new.keys()):
        if [n for n, _ in pairs].count(name) > 1:
            lines.append(f"{TRUSTED_KEYS}: added a second key named {name}: every run "
                         "refuses both")
        elif name not in new:
            lines.append(f"{TRUSTED_KEYS}: removed {name}")
        elif name not in old:
            lines.append(f"{TRUSTED_KEYS}: added {name} ({new[name]}): proposed, trusted by "
                         "no checkout until it is accepted")
        elif old[name] != new[name]:
            lines.append(f"{TRUSTED_KEYS}: replaced the key named {name} ({new[name]}): "
                         "proposed, trusted by no checkout until it is accepted")
    if change.old_mode != change.new_mode and change.status == "M":
        lines.append(f"{TRUSTED_KEYS}: mode {change.old_mode} -> {change.new_mode}")
    return lines or [f"{TRUSTED_KEYS}: comments or order changed, no key"]


def review(span: str, store: str = "store") -> list[str]:
    """The lines of the review of ``span`` (``BASE..HEAD``)."""
    base, _, head = span.partition("..")
    head = head or "HEAD"
    entries: dict[str, dict[str, str]] = defaultdict(dict)
    base_keys = _verifiers(dict(_list(base)[0]))  # a key the range adds vouches for nothing in it
    lines = []
    for change in changes(base, head):
        path, shown = change.path, _printable(change.path)
        name = path.rsplit("/", 1)[-1]
        if path == TRUSTED_KEYS:
            lines += _trust_lines(base, head, change)
        elif name == ".gitattributes":
            lines.append(f"attributes {change.status}: {shown} (git's attributes can hide or "
                         "rewrite a file in `git diff`; this review reads git's objects)")
        elif path == "results" or path.startswith(("results/", "logs/")) or path == "logs":
            lines.append(f"force-added {change.status}: {shown} (results/ and logs/ are "
                         "ignored by git; a run reads what lies there, and refuses to start "
                         "while git tracks any)")
        elif change.new_mode == LINK and not path.startswith(f"{store}/"):
            lines.append(f"link {change.status}: {shown} (git checks it out as a link: what "
                         "reads it reads its target)")
        elif path.startswith(f"{store}/"):
            inside = path[len(store) + 1:]
            if inside.startswith(f"{LOCKS}/"):
                continue  # a run's lock, committed by mistake: never read
            if change.new_mode == LINK:
                lines.append(f"{change.status} {shown}: a link (never read)")
            elif "/" not in inside and (parts := split(name)) is not None:
                entries[parts[0]][parts[1]] = change.status
            elif (inside == f"{REALISATIONS}/{name}" and name.endswith(".json")
                  and is_key(name[:-5])):
                entries[name[:-5]]["realisation"] = change.status
            else:
                lines.append(f"{change.status} {shown}: not a store name (never read)")
    for key, what in sorted(entries.items()):
        seal = what.get(SEAL)
        kind = {"A": "added", "D": "removed", "M": "resealed"}.get(seal or "")
        if kind:
            record = _read(base if seal == "D" else head, f"{store}/{key}{RECORD}", READ)
            lines.append(f"entry {kind}: {key[:12]}  {_command(record)}")
        if ALIAS in what:
            target = (_read(head, f"{store}/{key}{ALIAS}") or "").strip()
            lines.append(f"alias {'removed' if what[ALIAS] == 'D' else 'set'}: {key[:12]} -> "
                         f"{_printable(target[:12]) or '-'}")
        if "realisation" in what:
            lines.append(f"realisation {what['realisation']}: {key[:12]}")
        files_only = sorted(n for n in what if n not in (SEAL, ALIAS, SIGNATURES,
                                                           "realisation"))
        if files_only and not kind:
            lines.append(f"entry files changed, seal not: {key[:12]} "
                         f"({', '.join(map(_printable, files_only))}; every fetch refuses it)")
        if SIGNATURES in what and not (kind or ALIAS in what or "realisation" in what):
            lines.append(f"signatures changed: {key[:12]}")
        if SIGNATURES in what or kind in ("added", "resealed"):
            lines.append(_signed(head, store, key, base_keys))
    counts: dict[str, int] = defaultdict(int)
    for line in lines:
        if not line.startswith("  "):
            counts[line.split(":")[0]] += 1
    lines.append(f"{span}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
                 if lines else f"{span}: no change to {store}/, {TRUSTED_KEYS}, "
                               ".gitattributes or results/")
    return lines
