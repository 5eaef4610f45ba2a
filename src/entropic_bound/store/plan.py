"""What the store holds of a run, before it runs: every stored job's key predicted, and the
entry that serves it.

A dry run of the whole DAG (``snakemake -n --forceall``) with the logger plugin
``--logger entropic-bound`` (``snakemake_logger_plugin_entropic_bound``, Snakemake's public
logger interface) lists each job whose command goes through the store's wrapper, with its
manifest (:func:`ledger`). Keys are then predicted as a job computes them, except that the
outputs of upstream jobs, not made yet, are predicted: a stored job's by its entry's seal, a
realised job's (the corpora's tokens) by its realisation; where neither exists the key is
unknown until that upstream job runs (:class:`Plan`). Nothing is ever fetched by a
prediction: a job computes its key from the files themselves.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from entropic_bound.store import layout
from entropic_bound.store.command import argv, rule_of_log
from entropic_bound.store.files import Refused
from entropic_bound.store.keyring import trusted
from entropic_bound.store.keys import UnknownInput, file_digest, job_key
from entropic_bound.store.layout import Lookup, Store
from entropic_bound.store.manifest import parse
from entropic_bound.store.trust import content, signed_by, why_untrusted

LEDGER_VARIABLE = "ENTROPIC_BOUND_STORE_LEDGER"  # read by the logger plugin
WRAPPER = ["entropic-bound-store"]


def wrapped(shellcmd: str) -> tuple[dict[str, Any], list[str]] | None:
    """The manifest (with its rule) and command of a job's shell command that goes through the
    wrapper (``entropic-bound-store MANIFEST LOG > LOG 2>&1``, as the workflow writes it);
    None for any other command."""
    try:
        words = shlex.split(shellcmd)
    except ValueError:
        return None
    if words[:1] != WRAPPER or len(words) < 3:
        return None
    manifest = parse(words[1])
    manifest["rule"] = rule_of_log(words[2])
    return manifest, argv(manifest["command"], manifest)


def ledger(snakemake_args: list[str], workdir: str | os.PathLike[str] = ".",
           env: dict[str, str] | None = None, whole: bool = True) -> list[dict[str, Any]]:
    """Each wrapped job of the whole DAG of ``snakemake <snakemake_args>`` (a ``--forceall``
    dry run; ``whole=False``: only the jobs the run would run): ``rule``, ``manifest``,
    ``argv``; one line naming the command on failure."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ledger.jsonl"
        # the logger last: --logger takes several values, and would take targets after it
        cmd = [sys.executable, "-m", "snakemake", "-n", *(["--forceall"] if whole else []),
               *snakemake_args, "--logger", "entropic-bound"]
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                              env={**os.environ, **(env or {}), LEDGER_VARIABLE: str(path)})
        if proc.returncode:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
            raise SystemExit(f"the dry run that plans the store failed ({' '.join(cmd[2:])}):"
                             f"\n{tail}")
        lines = path.read_text().splitlines() if path.exists() else []
    jobs: dict[str, dict[str, Any]] = {}
    for line in lines:
        job = json.loads(line)
        jobs[min(job["manifest"]["outputs"].values())] = job  # a job logged twice: once
    return list(jobs.values())


class Plan:
    """Predicted keys and entries of the wrapped jobs of one DAG (the module's doc)."""

    def __init__(self, jobs: list[dict[str, Any]], store: str | os.PathLike[str] | None = None,
                 tree: str | os.PathLike[str] = "."):
        """``store``: the folder the jobs' manifests name where None; ``tree``: the checkout
        whose files (code, settings) the jobs read, where no job makes them (another commit's,
        for ``store migrate``; its results are this folder's)."""
        self.jobs, self.tree = jobs, Path(tree)
        named = {job["manifest"]["store"] for job in jobs}
        self.store = Store(store if store is not None or len(named) != 1 else named.pop())
        self.maker = {path: job for job in jobs
                      for path in job["manifest"]["outputs"].values()}
        self._keys: dict[str, str | None] = {}
        self._digests: dict[str, str] = {}
        self._usable: dict[str, Lookup | None] = {}  # key -> what usably serves it
        self.keys = trusted()  # the workflow's trusted keys (None: an unsigned store)

    def digest(self, path: str) -> str:
        """A predicted input digest (:class:`UnknownInput` where it cannot be known)."""
        job = self.maker.get(path)
        if job is None:
            if path not in self._digests:
                read = self.tree / path if (self.tree / path).is_file() else Path(path)
                if not read.is_file():
                    raise UnknownInput(path)
                self._digests[path] = file_digest(read)
            return self._digests[path]
        key = self.key(job)
        if key is None:
            raise UnknownInput(path)
        outputs = job["manifest"]["outputs"]
        name = next(n for n, p in outputs.items() if p == path)
        if job["manifest"]["keep"] == "entry":
            entry = self.entry(job)
            if entry is None:
                raise UnknownInput(path)
            found = self._usable[key].seal.get(layout.output_suffix(name, path))
        else:
            try:
                made = self.store.realisation(key)
                trusted = not made or self.keys is None or signed_by(
                    self.store, "realisation", key, content(self.store, "realisation", key),
                    self.keys)
            except (Refused, OSError):  # a plant in its place predicts nothing either
                raise UnknownInput(path) from None
            if not trusted:
                raise UnknownInput(path)  # an unsigned realisation predicts nothing
            found = made.get(name)
        if found is None:
            raise UnknownInput(path)
        return found

    def key(self, job: dict[str, Any]) -> str | None:
        """The job's predicted key; None where an upstream output is unknown."""
        first = min(job["manifest"]["outputs"].values())
        if first not in self._keys:
            self._keys[first] = None  # a cycle reads as unknown
            with contextlib.suppress(UnknownInput):
                self._keys[first] = job_key(job["manifest"], self.digest)
        return self._keys[first]

    def entry(self, job: dict[str, Any]) -> str | None:
        """The entry that serves the job's predicted key, where its files pass their seal and,
        with trusted keys, a trusted signature binds it (None: not stored, or one the job would
        not use)."""
        key = self.key(job)
        if key is None:
            return None
        if key not in self._usable:
            self._usable[key] = self._lookup(key)
        found = self._usable[key]
        return None if found is None else found.entry

    def _lookup(self, key: str) -> Lookup | None:
        """What serves ``key`` as a job would take it (:func:`entropic_bound.store.job.fetch`):
        the first candidate, read once, whose signature and files pass; else None."""
        try:
            candidates = self.store.candidates(key)
        except (Refused, OSError):
            return None
        for found in candidates:
            try:
                if isinstance(found, Refused) or (self.keys is not None and why_untrusted(
                        self.store, key, found, self.keys) is not None):
                    continue
                self.store.verify_files(found.entry, found.seal)
            except (Refused, OSError):
                continue
            return found
        return None

    def stored_jobs(self) -> list[dict[str, Any]]:
        return [job for job in self.jobs if job["manifest"]["keep"] == "entry"]

    def in_use(self) -> set[str]:
        """Every key the DAG asks for (stored and realised jobs) and the entries serving
        them."""
        used = set()
        for job in self.jobs:
            used |= {self.key(job), self.entry(job) if job["manifest"]["keep"] == "entry"
                     else None}
        return {name for name in used if name}


def lookups(snakemake_args: list[str], workdir: str | os.PathLike[str] = ".",
            env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One line per stored job of the whole DAG of ``snakemake <snakemake_args>``: ``rule``,
    ``output`` (its first), ``key`` (None: unknown until its upstream jobs run) and ``entry``
    (None: not stored)."""
    jobs = ledger(snakemake_args, workdir, env)
    cwd = os.getcwd()
    os.chdir(workdir)  # the jobs' paths are relative to the workflow's directory
    try:
        plan = Plan(jobs)
        return [{"rule": job["rule"], "output": min(job["manifest"]["outputs"].values()),
                 "key": plan.key(job), "entry": plan.entry(job)} for job in plan.stored_jobs()]
    finally:
        os.chdir(cwd)


def store_plan(snakemake_args: list[str], workdir: str | os.PathLike[str] = "."
               ) -> dict[str, Counter]:
    """Per stored rule, how many of the jobs ``snakemake -n <snakemake_args>`` plans would
    be ``fetched`` from the store and how many ``computed`` (an
    unknown key counts as computed; add ``--forceall`` to ask about every job of the DAG)."""
    jobs = ledger(snakemake_args, workdir, whole=False)
    cwd = os.getcwd()
    os.chdir(workdir)  # the jobs' paths are relative to the workflow's directory
    try:
        plan = Plan(jobs)
        counts: dict[str, Counter] = {}
        for job in plan.stored_jobs():
            kind = "fetched" if plan.entry(job) else "computed"
            counts.setdefault(job["rule"], Counter())[kind] += 1
    finally:
        os.chdir(cwd)
    return counts


def hits(snakemake_args: list[str], workdir: str | os.PathLike[str] = ".") -> list[str]:
    """The first output of each stored job that ``snakemake <snakemake_args>`` would run and
    the store serves (its predicted key's entry passes its seal and, with trusted keys, its
    signature): the targets a fetch-only pass makes."""
    jobs = ledger(snakemake_args, workdir, whole=False)
    cwd = os.getcwd()
    os.chdir(workdir)  # the jobs' paths are relative to the workflow's directory
    try:
        plan = Plan(jobs)
        return sorted(min(job["manifest"]["outputs"].values()) for job in plan.stored_jobs()
                      if plan.entry(job))
    finally:
        os.chdir(cwd)
