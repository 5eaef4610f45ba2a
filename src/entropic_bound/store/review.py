"""``entropic-bound store review BASE..HEAD``: what a commit range changes in the store, for a
pull request that touches ``store/``: entries added, removed and resealed, with the whole
command each record names (control characters escaped) and the keys whose signatures verify
against the keys BASE trusted, apart from names a signature line only claims; aliases and
realisations; the changes to ``trusted-keys.txt`` (a key the range adds verifies nothing here).
Read from git (``git diff``, ``git show``): nothing is checked out, and nothing read is run."""

from __future__ import annotations

import shlex
import subprocess
from collections import defaultdict

from entropic_bound.store.files import Refused, parse_json
from entropic_bound.store.layout import (
    ALIAS,
    LOCKS,
    REALISATIONS,
    RECORD,
    SEAL,
    SIGNATURES,
    split,
)
from entropic_bound.store.trust import (
    TRUSTED_KEYS,
    parse_public,
    parse_signatures,
    realisation_content,
    verified_signers,
)

COMMAND_SHOWN = 400  # characters of a record's command line, then "..."


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], capture_output=True)
    if proc.returncode:
        raise SystemExit(f"store review: git {' '.join(args)}: "
                         f"{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode(errors="replace")  # names and lines as data: any bytes


def _show(commit: str, path: str) -> str | None:
    proc = subprocess.run(["git", "show", f"{commit}:{path}"], capture_output=True)
    return proc.stdout.decode(errors="replace") if proc.returncode == 0 else None


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _command(record: str | None) -> str:
    """The whole command line a record names, quoted as a shell would need it."""
    if record is None:
        return "(no record)"
    try:
        argv = parse_json(record).get("argv")
    except (ValueError, AttributeError):
        return "(record not JSON)"
    if not (isinstance(argv, list) and argv):
        return "(no command)"
    line = _printable(shlex.join(str(a) for a in argv))
    return line if len(line) <= COMMAND_SHOWN else line[:COMMAND_SHOWN] + "..."


def _keys(commit: str) -> dict[str, object]:
    """The keys ``trusted-keys.txt`` lists at ``commit`` (lines that parse)."""
    keys = {}
    for line in (_show(commit, TRUSTED_KEYS) or "").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                name, public = parse_public(line, TRUSTED_KEYS)
            except Refused:
                continue
            keys[name] = public
    return keys


def _signed(head: str, store: str, key: str, base_keys: dict[str, object]) -> str:
    """Who signs what of ``key`` at ``head``: verified against ``base_keys``, else claimed."""
    found = parse_signatures(_show(head, f"{store}/{key}{SIGNATURES}") or "")
    content = {"entry": _show(head, f"{store}/{key}{SEAL}"),
               "alias": (_show(head, f"{store}/{key}{ALIAS}") or "").strip() or None,
               "realisation": _show(head, f"{store}/{REALISATIONS}/{key}.json")}
    if content["realisation"] is not None:
        try:
            content["realisation"] = realisation_content(
                parse_json(content["realisation"])).decode()
        except (ValueError, RecursionError):  # JSON too deep to write back
            content["realisation"] = None
    verified, claimed = set(), set()
    for kind, name, _ in found:
        text = content.get(kind)
        ok = text is not None and name in verified_signers(
            found, kind, key, text.encode(), base_keys)
        (verified if ok else claimed).add(f"{kind} by {_printable(name)}")
    return (f"  signed: {', '.join(sorted(verified)) or 'by no key BASE trusts'}"
            + (f"; claimed, not verified: {', '.join(sorted(claimed))}" if claimed else ""))


def review(span: str, store: str = "store") -> list[str]:
    """The lines of the review of ``span`` (``BASE..HEAD``)."""
    base, _, head = span.partition("..")
    head = head or "HEAD"
    changes: dict[str, dict[str, str]] = defaultdict(dict)
    base_keys = _keys(base)  # a key the range itself adds vouches for nothing in it
    for line in _git("diff", "--name-status", "--no-renames", base, head, "--",
                     store).splitlines():
        status, _, path = line.partition("\t")
        inside = path[len(store) + 1:]
        name = inside.rsplit("/", 1)[-1]
        if inside.startswith(f"{LOCKS}/"):
            continue  # a run's lock, committed by mistake: never read
        if "/" not in inside and (parts := split(name)) is not None:
            changes[parts[0]][parts[1]] = status
        elif inside.startswith(f"{REALISATIONS}/") and name.endswith(".json"):
            changes[name[:-5]]["realisation"] = status
        else:
            changes[inside]["other"] = status
    lines = []
    for key, what in sorted(changes.items()):
        if "other" in what:
            lines.append(f"{what['other']} {store}/{_printable(key)}: not a store name "
                         "(never read)")
            continue
        seal = what.get(SEAL)
        kind = {"A": "added", "D": "removed", "M": "resealed"}.get(seal or "")
        if kind:
            record = _show(base if seal == "D" else head, f"{store}/{key}{RECORD}")
            lines.append(f"entry {kind}: {key[:12]}  {_command(record)}")
        if ALIAS in what:
            target = (_show(head, f"{store}/{key}{ALIAS}") or "").strip()
            lines.append(f"alias {'removed' if what[ALIAS] == 'D' else 'set'}: {key[:12]} -> "
                         f"{target[:12] or '-'}")
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
    changed = [(line[0], line[1:].partition(":")[0].strip())
               for line in _git("diff", base, head, "--", TRUSTED_KEYS).splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    removed = {name for sign, name in changed if sign == "-"}
    for sign, name in changed:
        if sign == "+" and name in removed:
            what = "replaced the key named"  # a rotation: every signature by the old one fails
        elif sign == "+" and name in base_keys:
            what = "added a second key named"  # refused at every run: a name names one key
        elif sign == "-" and any(s == "+" and n == name for s, n in changed):
            continue
        else:
            what = "added" if sign == "+" else "removed"
        lines.append(f"{TRUSTED_KEYS}: {what} {_printable(name)}")
    counts = defaultdict(int)
    for line in lines:
        counts[line.split(":")[0]] += 1
    lines.append(f"{span}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())
                                         if not k.startswith("  ")) if lines else
                 f"{span}: no change to {store}/ or {TRUSTED_KEYS}")
    return lines
