"""``entropic-bound store check | seal | unused | rekeys``: the store's housekeeping."""

from __future__ import annotations

import logging
import os
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from entropic_bound.plumbing.experiments import experiment_of, experiment_of_record
from entropic_bound.store import files
from entropic_bound.store.layout import SEAL, Store, make_room
from entropic_bound.store.plan import Plan, ledger
from entropic_bound.store.records import record_of

log = logging.getLogger("entropic_bound")


def seal(store: Store) -> list[str]:
    """Seal every unsealed entry (files copied in by hand); returns their keys. An entry that
    cannot be sealed (a file past the size a store file may have, a folder where its seal goes
    that cannot be moved aside) is one line; the others are sealed all the same."""
    listing = store.listing()
    done = []
    with files.folder(store.path) as top:
        for key, suffixes in sorted(listing.files.items()):
            if key in listing.seals:
                continue
            try:
                lines = "".join(f"{files.file_sha256(top, f'{key}{s}')}  {key}{s}\n"
                                for s in sorted(suffixes))
                make_room(top, f"{key}{SEAL}", store.moved)
                files.write(top, f"{key}{SEAL}", lines.encode())
            except (files.Refused, OSError) as err:
                log.error("not sealed: %s/%s: %s", store, key, err)
                continue
            done.append(key)
    for line in store.moved:
        log.warning("%s/%s", store, line)
    return done


def check(store: Store, set_aside: str | None) -> int:
    """Check every sealed entry and name every file that is not the store's; 1 on a failure."""
    listing = store.listing()
    for line in listing.unexpected:
        log.error("%s/%s", store, line)
    problems = store.check(set_aside)
    for problem in problems:
        log.error("%s%s", problem.line(store), f" (moved to {set_aside})" if set_aside else "")
    log.info("%d entries checked in %s, %d failed, %d names refused", len(listing.seals),
             store, len(problems), len(listing.unexpected))
    return 1 if problems or listing.unexpected else 0


def rekeys(store: Store, snakemake_args: list[str],
           progress: Callable[[str], None] = lambda step: None) -> None:
    """Print, per experiment, the DAG's stored jobs that the store serves, those to compute,
    those unknown until their upstream jobs run, and the entries no job finds any more (an
    entry whose record writes the outputs of a job whose key is unknown is not counted as
    re-keyed: it may still be that job's; nor is one of an experiment the DAG plans no job
    of, which is counted on a line of its own); ``progress`` hears each step."""
    progress("a dry run of the whole DAG (snakemake -n --forceall)")
    plan = Plan(ledger(snakemake_args), store.path)
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    waiting = set()
    jobs = plan.stored_jobs()
    for done, job in enumerate(jobs):
        if done % 100 == 0:
            progress(f"predicting keys and entries: {done} of {len(jobs)} stored jobs")
        outputs = job["manifest"]["outputs"]
        exp = experiment_of(job["rule"], list(Path(min(outputs.values())).parts))
        key = plan.key(job)
        kind = "fetched" if plan.entry(job) else ("unknown" if key is None else "to compute")
        rows[exp][kind] += 1
        if key is None:
            waiting |= set(outputs.values())
    progress("the entries no job finds, by their signed records")
    listing = store.listing()
    rekeyed, refused = [], []
    planned, outside = set(rows), Counter()
    for name in store.unused(plan.in_use()):
        if name not in listing.seals:
            continue
        record = record_of(store, name, plan.keys, refused)
        if not record:
            continue  # unsigned, or not a record: no job of this checkout's was it
        argv = record.get("argv") if isinstance(record.get("argv"), list) else []
        if waiting & set(map(str, argv)):
            continue  # perhaps the entry of a job whose key is not known yet
        exp = (experiment_of_record(str(argv[argv.index("--record") + 1]))
               if "--record" in argv[:-1] else "other")
        if exp not in planned:
            # no job of its experiment is in this DAG (an experiment outside the default run,
            # or targets naming others): nothing here looks for it, so nothing re-keyed it
            outside[exp] += 1
            continue
        rekeyed.append(name)
        rows[exp]["re-keyed"] += 1
        rows[exp]["re-keyed job-hours"] += record.get("s", 0) / 3600
    for line in refused:
        log.warning("%s", line)
    columns = ["fetched", "to compute", "unknown", "re-keyed", "re-keyed job-hours"]
    total = {c: sum(r[c] for r in rows.values()) for c in columns}

    def line(name: str, counts: dict[str, float]) -> str:
        return f"{name:<11}" + "".join(f"{counts[c]:>20.2f}" if "hours" in c
                                       else f"{int(counts[c]):>20}" for c in columns)

    print(f"{'experiment':<11}" + "".join(f"{c:>20}" for c in columns))
    for exp in sorted(rows):
        print(line(exp, rows[exp]))
    print(line("all", total))
    print(f"{len(rekeyed)} of {len(listing.seals)} entries re-keyed "
          f"({total['re-keyed job-hours']:.2f} job-hours), {int(total['unknown'])} jobs unknown "
          "until their upstream jobs run (their keys read outputs no run has made yet)")
    if outside:
        print(f"{sum(outside.values())} entries of experiments this DAG plans no job of, not "
              "judged (" + ", ".join(f"{e}: {n}" for e, n in sorted(outside.items()))
              + "); name their targets or config to judge them")


def unused(store: Store, snakemake_args: list[str], remove: bool) -> None:
    """List (``remove``: delete) what no job of the DAG uses, and the leftovers. Nothing is
    removed while a job's key is unknown (an upstream output not made yet, or a realisation
    missing, unsigned or planted over): what serves that job cannot be told from the unused."""
    plan = Plan(ledger(snakemake_args), store.path)
    names = store.unused(plan.in_use())
    unknown = sum(plan.key(job) is None for job in plan.jobs)
    listing = store.listing()

    def size(name: str) -> int:
        suffixes = listing.files.get(name, [])
        return sum(os.stat(store.path / f"{name}{s}", follow_symlinks=False).st_size
                   for s in suffixes)

    sizes = {name: size(name) for name in names}
    for name in names:
        print(f"{name}  {sizes[name] / 1e6:.2f} MB")
    leftovers = store.leftovers()
    for name in leftovers:
        print(f"{name}  (leftover)")
    if remove and unknown:
        raise files.Refused(f"{unknown} jobs' keys are unknown until their upstream jobs run "
                            "(or a realisation in the store is missing, unsigned or "
                            "malformed): run the workflow first; nothing removed")
    if remove:
        freed = store.prune(names)
        log.info("removed %d unused entries and %d leftovers: %.2f MB", len(names),
                 len(leftovers), freed / 1e6)
    else:
        log.info("%d unused entries (%.2f MB) and %d leftovers; --remove deletes them",
                 len(names), sum(sizes.values()) / 1e6, len(leftovers))
