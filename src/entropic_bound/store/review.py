"""``entropic-bound store review BASE..HEAD``: what a commit range changes in the store, for a
pull request that touches ``store/``: entries added, removed and resealed, with the command
each record names and the keys that sign each; aliases and realisations; the changes to
``trusted-keys.txt``. Read from git (``git diff``, ``git show``): nothing is checked out, and
nothing read is run."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict

from entropic_bound.store.layout import (
    ALIAS,
    LOCKS,
    REALISATIONS,
    RECORD,
    SEAL,
    SIGNATURES,
    split,
)
from entropic_bound.store.trust import TRUSTED_KEYS


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"store review: git {' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout


def _show(commit: str, path: str) -> str | None:
    proc = subprocess.run(["git", "show", f"{commit}:{path}"], capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def review(span: str, store: str = "store") -> list[str]:
    """The lines of the review of ``span`` (``BASE..HEAD``)."""
    base, _, head = span.partition("..")
    head = head or "HEAD"
    changes: dict[str, dict[str, str]] = defaultdict(dict)
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
            lines.append(f"{what['other']} {store}/{key}: not a store name (never read)")
            continue
        seal = what.get(SEAL)
        kind = {"A": "added", "D": "removed", "M": "resealed"}.get(seal or "")
        if kind:
            record = _show(base if seal == "D" else head, f"{store}/{key}{RECORD}")
            try:
                argv = json.loads(record or "{}").get("argv") or []
            except ValueError:
                argv = ["(record not JSON)"]
            command = " ".join(str(a) for a in argv[1:2]) + " " + " ".join(
                str(a) for a in argv if str(a).startswith("results/"))[:160]
            lines.append(f"entry {kind}: {key[:12]}  {command.strip() or '(no record)'}")
        if ALIAS in what:
            target = (_show(head, f"{store}/{key}{ALIAS}") or "").strip()
            lines.append(f"alias {'removed' if what[ALIAS] == 'D' else 'set'}: {key[:12]} -> "
                         f"{target[:12] or '-'}")
        if "realisation" in what:
            lines.append(f"realisation {what['realisation']}: {key[:12]}")
        if SIGNATURES in what or kind in ("added", "resealed"):
            sig = _show(head, f"{store}/{key}{SIGNATURES}") or ""
            signers = sorted({f"{p[0]} by {p[1]}" for p in (x.split(" ") for x in
                                                           sig.splitlines()) if len(p) == 3})
            lines.append(f"  signed: {', '.join(signers) or 'by no one'}")
    trusted = _git("diff", base, head, "--", TRUSTED_KEYS)
    for line in trusted.splitlines():
        if line[:1] in "+-" and not line.startswith(("+++", "---")):
            lines.append(f"{TRUSTED_KEYS}: {'added' if line[0] == '+' else 'removed'} "
                         f"{line[1:].partition(':')[0]}")
    counts = defaultdict(int)
    for line in lines:
        counts[line.split(":")[0]] += 1
    lines.append(f"{span}: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())
                                         if not k.startswith("  ")) if lines else
                 f"{span}: no change to {store}/ or {TRUSTED_KEYS}")
    return lines
