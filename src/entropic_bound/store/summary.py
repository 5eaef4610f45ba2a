"""The store's lines at the end of a run (the Snakefile's ``onsuccess`` and ``onerror``): each
entry a job refused (set aside and recomputed, one line each: a job's own output goes to its
log), how many stored jobs this run fetched and computed, and how many fetched entries other
software computed (their numbers may differ from a recomputation here by rounding)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from entropic_bound.store.files import parse_json, shown
from entropic_bound.store.layout import RECORD
from entropic_bound.store.notes import NOTES, note_path, notes


def end_of_run(since: float, root: str | os.PathLike[str] = NOTES) -> list[str]:
    """The lines for the stored jobs whose notes were written after ``since`` (epoch s)."""
    from entropic_bound.plumbing.job_record import other_versions, versions

    ours = versions()
    fetched = computed = unstored = 0
    other: Counter[str] = Counter()
    refused: list[str] = []
    for note in notes(root):
        if note.get("keep") != "entry" or note_path(note["outputs"], root).stat().st_mtime < since:
            continue
        refused += [f"store: {line}" for line in note.get("refused") or []]
        if not note.get("fetched"):
            computed += bool(note.get("entry"))
            unstored += not note.get("entry")  # the store could not keep it (said at the job)
            continue
        fetched += 1
        record = next((p for n, p in note["outputs"].items()
                       if f"_{n}{Path(p).suffix}" == RECORD), None)
        try:
            read = parse_json(Path(record).read_text()) if record else {}
        except (OSError, ValueError):
            continue
        theirs = other_versions(read, ours) if isinstance(read, dict) else {}
        if theirs:
            other[", ".join(f"{k} {shown(v)[:40]}" for k, v in sorted(theirs.items()))] += 1
    if not fetched + computed + unstored:
        return []
    from entropic_bound.store.keyring import trusted
    from entropic_bound.store.trust import TRUSTED_KEYS

    if trusted() is None:
        refused.append(f"store: unsigned: this workflow lists no trusted keys ({TRUSTED_KEYS}), "
                       "so whoever can write the store decides what this run fetched "
                       "(docs/running.md, \"A store you share\")")
    lines = [*refused, f"store: {fetched} stored jobs fetched, {computed} computed and stored"
             + (f", {unstored} computed and not stored" if unstored else "")]
    if other:
        mine = ", ".join(f"{k} {v}" for k, v in ours.items())
        which = "; ".join(f"{n} with {v}" for v, n in other.most_common())
        lines.append(f"store: {sum(other.values())} of the {fetched} entries fetched were "
                     f"computed with other software than this run's ({mine}): {which}. Their "
                     "numbers may differ from a recomputation here by rounding; "
                     "`entropic-bound audit` recomputes and compares.")
    return lines


def start_lines(store: str | os.PathLike[str]) -> list[str]:
    """The keys this run trusts, then what the store holds that no run reads, one line each
    (the Snakefile's ``onstart``): names that are not the store's, links, unsealed files and
    dangling seals or aliases. Only names are listed and seals parsed: nothing else is read."""
    from entropic_bound.store import keyring
    from entropic_bound.store.files import Refused, shown
    from entropic_bound.store.layout import Store
    from entropic_bound.store.trust import TRUSTED_KEYS

    found = Store(store)
    try:
        trust = keyring.state()
        # who this run trusts, named every run, and each key a pull proposed: what a pull
        # changed shows here, not only in `store review`
        said = [f"store: {line}" for line in keyring.lines(trust)]
        if trust.keys is not None:
            said.append(f"store: entries are used where signed by one of: "
                        f"{', '.join(shown(name) for name in sorted(trust.keys))} (the keys of "
                        f"{TRUSTED_KEYS} this checkout accepted, and your own)")
        return (said + [f"store: {store}/{line}" for line in found.listing().unexpected]
                + [f"store: {store}/{shown(name)}: unsealed or dangling (never read)"
                   for name in found.leftovers()])
    except (Refused, OSError) as err:
        return [f"store: {store}: {err}"]
