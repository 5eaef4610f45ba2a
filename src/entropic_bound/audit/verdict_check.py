"""The verdict check: every claim judged again with some of its evidence substituted (a
recomputed entry's files in place of the stored ones), by the same rules, on tables built by
the same functions as the workflow's (:mod:`entropic_bound.claims.evidence`).

A recomputed entry that agrees within the machine tolerance may still move a verdict that
sits at a threshold; this says whether it does, per claim."""

from __future__ import annotations

from pathlib import Path

from entropic_bound.claims.registry import CLAIMS, evaluate_claims


def substituted(paths: dict, substitute: dict[str, str]) -> dict:
    """The evidence's keyword arguments (:func:`entropic_bound.claims.evidence.evidence`) with
    every file that is a key of ``substitute`` replaced by its value."""
    def swap(value):
        if isinstance(value, list):
            return [substitute.get(p, p) for p in value]
        if isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
            return {k: swap(v) for k, v in value.items()}
        return value
    return {name: swap(value) for name, value in paths.items()}


def verdicts(paths: dict) -> dict[str, str]:
    """Claim id -> its verdict, judged on the tables built from the evidence ``paths``: every
    claim whose table the evidence builds."""
    from entropic_bound.claims.evidence import evidence

    built = {table: ev.build(ev.frames) for table, ev in evidence(**paths).items()}
    claims = [c for c in CLAIMS if c.table in built]
    judged = evaluate_claims(built, claims)
    return dict(zip(judged["id"], judged["verdict"]))


def moved(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The claims whose verdict differs, as ``id: before -> after``."""
    return [f"{cid}: {v} -> {after.get(cid, 'absent')}" for cid, v in before.items()
            if after.get(cid) != v]


def checker(paths: dict, workdir: str | Path = ".", notes: str | Path | None = None):
    """The audit's verdict check (:data:`entropic_bound.audit.entries.VerdictCheck`) on the
    evidence ``paths``: the recomputed entry's outputs in place of the stored ones, every
    noted job of this run that reads them (its measure) rerun on them
    (:mod:`entropic_bound.audit.downstream`), and every claim judged again against its
    verdict on the stored evidence."""
    from entropic_bound.audit.downstream import readers, rerun
    from entropic_bound.audit.entries import TRAINING_COMMANDS, job_environment
    from entropic_bound.store import NOTES

    root = NOTES if notes is None else notes
    before = verdicts(paths)

    def check(argv: list[str], recomputed: dict[str, str], scratch: Path) -> tuple[str, int]:
        substitute = dict(recomputed)
        found = readers(recomputed, made_by=argv, root=root)
        if not found and argv[1] in TRAINING_COMMANDS:  # its measure's note is missing
            return f"not checked: no noted job of this run reads its outputs ({root})", 0
        try:
            for n, reader in enumerate(found):
                substitute.update(rerun(reader, recomputed, scratch / str(n), workdir,
                                        job_environment({})))
        except RuntimeError as err:
            return f"not checked: {err}", 0
        changed = moved(before, verdicts(substituted(paths, substitute)))
        if changed:
            return f"MOVED {len(changed)} of {len(before)}: " + "; ".join(changed), len(changed)
        return f"{len(before)} of {len(before)} verdicts held", 0

    return check
