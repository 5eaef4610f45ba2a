"""Snakemake's between-workflow cache with content keys, seals, record checks and key locks.

A small extension of Snakemake 9.27 (``snakemake/caching/local.py``), pinned to that series and
installed by :func:`install` while the workflow loads (``workflow/rules/common.smk``), in the
place where Snakemake looks its local cache class up. What it changes:

* **The key** is :func:`entropic_bound.plumbing.store_keys.store_key` of the job (its shell
  command, params, software and the digests of its inputs, upstream outputs by content) instead
  of Snakemake's provenance hash, which chains through every upstream job's hash.
* **Predictions.** A dry run, and the main process of a cluster run that decides which jobs to
  fetch, cannot read upstream outputs that do not exist yet. It predicts them: a stored
  upstream job's output by its entry's seal; another upstream job's output by its
  *realisation*, ``realisations/<key>.json`` in the store, the digests that job's outputs had
  when it last ran under that key (written whenever a run reads them). Where neither exists the
  key is unknown and the dry run says when it will be looked up. A run fetches only by keys
  computed from the files themselves, never by a prediction.
* **Upstream jobs keyed by job.** The outputs of the rules named in :func:`install`'s
  ``keyed_by_job`` (the teacher arrays: their bytes depend on the machine's BLAS kernels) enter
  the keys below them by their job's own key, not their bytes, so those keys are the same on
  every machine (docs/design.md, "The store key").
* **Aliases.** ``<key>.alias`` names the entry that serves ``key`` when the entry keeps an older
  name: ``entropic-bound store migrate`` adopts the entries of an earlier commit's keys after
  a change that moves keys but no result, and they keep their files and names, so git moves no
  bytes.
* **Seals.** An entry exists once its seal (``<entry>.sha256``) is written, last, by the store
  step; an interrupted writer leaves unsealed files no run reads (``store unused`` lists them).
* **Records checked at fetch.** An entry whose record ran a command that writes other outputs
  than this job's (an entry under another job's key) is set aside and the job recomputed.
* **Cluster runs.** Snakemake fetches and stores only in its local executor. With another
  executor the main process routes each job whose entry it finds in the store to its local
  executor, out of any submission group (:func:`extend_dag`), so the job is
  fetched, not submitted; the job steps of the jobs it submits run with ``--cache`` and store
  under the same keys, since a key reads files, not the shape of the DAG. A job whose key
  depends on outputs not yet made when the DAG is planned is submitted, and its job step
  fetches it if it is stored.
* **Key locks.** A job that misses the store takes ``.locks/<key>`` (``flock``) before it runs
  and keeps it until its outputs are sealed; a second run sharing the store waits on that lock
  and then fetches what the first one stored, instead of computing it twice.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import snakemake
from snakemake.caching.local import OutputFileCache
from snakemake.exceptions import CacheMissException, WorkflowError
from snakemake.logging import logger

from entropic_bound.plumbing import job_record
from entropic_bound.plumbing import store as job_store
from entropic_bound.plumbing.store_dag import LEDGER_VARIABLE
from entropic_bound.plumbing.store_keys import file_digest, store_key

if TYPE_CHECKING:
    from snakemake.jobs import Job

SNAKEMAKE_SERIES = "9.27."


class Unknown(Exception):
    """An upstream output that is neither on disk nor predictable: the key waits for it."""


def named_files(files) -> Iterator[tuple[str, str]]:
    """``(name, path)`` of each file of a Snakemake input or output list (a name covers each
    file of a named list; unnamed files are named by their position)."""
    for position, (name, value) in enumerate(files._allitems()):
        for path in [value] if isinstance(value, str) else value:
            yield (name if name is not None else str(position)), path


class ContentKeys:
    """Store keys of the jobs of one DAG, computed from files (``predict=False``) or predicted
    where upstream outputs are yet to be made (``predict=True``)."""

    def __init__(self, cache: StoreCache, keyed_by_job: frozenset[str]):
        self.cache = cache
        self.keyed_by_job = keyed_by_job
        self._keys: dict[tuple[Job, bool], str | None] = {}
        self._digests: dict[tuple[str, int, int], str] = {}

    def digest(self, path: str) -> str:
        st = os.stat(path)
        memo = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
        if memo not in self._digests:
            self._digests[memo] = file_digest(path)
        return self._digests[memo]

    def key(self, job: Job, predict: bool) -> str | None:
        """The job's key; None where an upstream output is unknown (predictions only)."""
        memo = (job, predict)
        if memo not in self._keys:
            try:
                self._keys[memo] = self._key(job, predict)
            except Unknown:
                self._keys[memo] = None
        return self._keys[memo]

    def _key(self, job: Job, predict: bool) -> str:
        producers = {f: dep for dep, files in job.dag.dependencies[job].items() for f in files}
        inputs = []
        for name, path in named_files(job.input):
            upstream = producers.get(path) or self.keyed_producer(job, path)
            if upstream is None:
                if not os.path.exists(path):
                    raise Unknown(path)
                inputs.append((name, self.digest(path)))
            else:
                inputs.append((name, self.upstream_digest(upstream, path, predict)))
        software = b""
        workflow = job.dag.workflow
        if (job.conda_env is not None and not job.rule.cache.omit_software
                and snakemake.settings.types.DeploymentMethod.CONDA
                in workflow.deployment_settings.deployment_method):
            software = job.conda_env.content
        params = {name: value for name, value in job.params._allitems() if name is not None}
        return store_key(job.rule.shellcmd, params, inputs, software)

    def keyed_producer(self, job: Job, path: str) -> Job | None:
        """The job of a rule keyed by job that makes ``path``, where the DAG has none: a cluster
        job step runs a DAG of its own jobs' rules only (Snakemake's allowed rules), in which a
        teacher array, drawn by the main process, has no producer."""
        for name in sorted(self.keyed_by_job):
            rule = job.dag.workflow.get_rule(name)
            if rule.is_producer(path):
                wildcards = rule.get_wildcards(path)
                return _run_apart(job.dag.job_factory.new(rule, job.dag, wildcards_dict=wildcards,
                                                          targetfile=path))
        return None

    def upstream_digest(self, upstream: Job, path: str, predict: bool) -> str:
        """The digest of ``path``, an output of ``upstream``: the file's own where it exists and
        ``upstream`` is not yet to run; else the stored entry's seal or the realisation. An
        output of a rule keyed by job: ``key:`` and the upstream job's key, whatever its bytes."""
        if upstream.rule.name in self.keyed_by_job:
            key = self.key(upstream, predict)
            if key is None:
                raise Unknown(path)
            return f"key:{key}"
        # A dry run "finishes" each job it plans (Snakemake then drops it from needrun), yet
        # its outputs on disk are still the old ones: planned counts as pending.
        dag = upstream.dag
        pending = predict and (dag.needrun(upstream)
                               or (dag.workflow.dryrun and dag.finished(upstream)))
        if not pending and os.path.exists(path):
            if not self.cache.is_stored_rule(upstream) and not dag.workflow.dryrun:
                self.realise(upstream, predict)
            return self.digest(path)
        if not predict:
            raise WorkflowError(f"{path}: the input of a stored job is missing")
        key = self.key(upstream, predict=True)
        if key is None:
            raise Unknown(path)
        if self.cache.is_stored_rule(upstream):
            entry = self.cache.entry(upstream, key)
            if entry is None:
                raise Unknown(path)
            sealed = job_store.read_seal(self.cache.path / f"{entry}{job_store.SEAL}")
            suffix = dict(self.cache.get_outputfiles(upstream))[path]
            return sealed[f"{entry}{suffix}"]
        made = job_store.read_realisation(self.cache.path, key)
        self.cache.log(upstream, key, None, predict, realisation=dict(named_files(upstream.output)))
        name = dict((p, n) for n, p in named_files(upstream.output)).get(path)
        if name not in made:
            raise Unknown(path)
        return made[name]

    def realise(self, job: Job, predict: bool) -> None:
        """Record the digests of ``job``'s outputs under its key (a cheap job, not stored; not
        one keyed by job, whose outputs no key reads)."""
        if job.rule.name in self.keyed_by_job:
            return
        outputs = list(named_files(job.output))
        if not all(os.path.exists(p) for _, p in outputs):
            return
        key = self.key(job, predict)
        if key is not None:
            job_store.write_realisation(self.cache.path, key,
                                        {name: self.digest(p) for name, p in outputs})


def _run_apart(coroutine):
    """Run a coroutine to its end from code that an event loop is already running (Snakemake
    calls the cache's methods inside its loop): in a thread with a loop of its own."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class StoreCache(OutputFileCache):
    """Snakemake's local output cache with content keys (the module's docstring)."""

    # set by install(), before Snakemake makes its cache
    workflow = None
    keyed_by_job: frozenset[str] = frozenset()
    label = "store"  # the store folder as the config names it, for messages

    def __init__(self):
        super().__init__()
        self.keys = ContentKeys(self, self.keyed_by_job)
        self._locks: dict[str, int] = {}
        self.ledger = os.environ.get(LEDGER_VARIABLE)
        self.failing: set[str] = set()  # entries a dry run found failing their seals
        self.versions = job_record.versions()
        self.fetched = 0  # entries this process fetched, and those from other software:
        self.other_software: Counter[str] = Counter()  # "numpy 2.3.0, ..." -> how many
        if self.workflow is not None and self.workflow.is_main_process:
            self.check_store(dry=self.workflow.dryrun)

    def check_store(self, dry: bool) -> None:
        """Before any job is planned: every sealed entry against its seal, and the links under
        results/ into entries that are gone. A run sets a failing entry aside to the quarantine
        folder (so it is recomputed, never read) and removes those links (Snakemake cannot stat
        them); a dry run changes no file: it says what the run would do, and plans the failing
        entries' jobs as computed."""
        for problem in job_store.check(self.path, None if dry else job_store.QUARANTINE):
            self.failing.add(problem.key)
            verb = "would be set aside to" if dry else "set aside to"
            logger.warning(f"store entry {verb} {job_store.QUARANTINE} and recomputed: "
                           + problem.line(self.label))
        gone = job_store.dangling_links("results", self.path)
        if gone:
            if not dry:
                for link in gone:
                    link.unlink()
            logger.warning(
                f"{len(gone)} results/ link(s) to store entries that are gone "
                f"{'would be ' if dry else ''}removed (first: {gone[0]}); add --forcerun with "
                "them to rebuild them where their tables exist")

    def is_stored_rule(self, job: Job) -> bool:
        return bool(job.rule.cache and job.rule.cache.output
                    and job.dag.workflow.workflow_settings.cache is not None)

    def entry(self, job: Job, key: str) -> str | None:
        """The sealed entry that serves ``key`` (itself or its alias's target), not one that a
        dry run found failing its seal."""
        entry = job_store.resolve(self.path, key)
        return None if entry in self.failing else entry

    def record_mismatch(self, job: Job, entry: str) -> str | None:
        """Why entry's record belongs to another job (its command wrote other outputs), or
        None when it names every output of ``job``."""
        records = [ext for _, ext in self.get_outputfiles(job) if ext.endswith("_record.json")]
        if not records:
            return None
        argv = json.loads((self.path / f"{entry}{records[0]}").read_text())["argv"]
        missing = [str(f) for f in job.output if str(f) not in argv]
        if missing:
            outputs = [a for a in argv if a.startswith("results/")]
            return (f"its record writes {', '.join(outputs[-3:])}, not {missing[0]} "
                    f"(an entry under another job's key)")
        return None

    def log(self, job: Job, key: str | None, entry: str | None, predict: bool,
            realisation: dict[str, str] | None = None) -> None:
        """A lookup, to the ledger (``plumbing.store_dag``): a stored job's, or the realisation
        of a cheap job (its outputs by name) that a prediction read."""
        if self.ledger:
            line = {"rule": job.rule.name, "output": str(job.output[0]), "key": key,
                    "entry": entry, "predicted": predict}
            if realisation is not None:
                line["realisation"] = realisation
            with open(self.ledger, "a") as fh:
                fh.write(json.dumps(line) + "\n")

    async def get_outputfiles_and_cachefiles(self, job: Job):
        key = self.keys.key(job, predict=False)
        entry = self.entry(job, key) or key
        return [(Path(out), self.path / f"{entry}{ext}") for out, ext in self.get_outputfiles(job)]

    async def exists(self, job: Job) -> bool:
        return self.stored(job)

    def stored(self, job: Job) -> bool:
        """Whether the job's entry is in the store, by a prediction where upstream outputs are
        yet to be made (a dry run, and the main process routing a cluster run's jobs)."""
        key = self.keys.key(job, predict=True)
        entry = None if key is None else self.entry(job, key)
        self.log(job, key, entry, predict=True)
        if key is None:
            logger.info(f"Output file {job.output[0]} will be looked up in the store once its "
                        "upstream jobs have run (its key depends on their outputs).")
        return entry is not None

    async def fetch(self, job: Job) -> None:
        """Link the job's outputs from its sealed entry, after its record is checked; on a miss,
        take the key's lock (waiting for another run that computes it) and look again."""
        key = self.keys.key(job, predict=False)
        if self._fetch(job, key):
            return
        self._lock(key)
        if self._fetch(job, key):
            self._unlock(key)
            return
        raise CacheMissException(f"Job {job} not yet stored.")

    def _fetch(self, job: Job, key: str) -> bool:
        entry = self.entry(job, key)
        self.log(job, key, entry, predict=False)
        if entry is None:
            return False
        if (reason := self.record_mismatch(job, entry)) is not None:
            logger.warning(f"store entry set aside to {job_store.QUARANTINE} and recomputed: "
                           f"{self.path}/{entry}*: {reason}")
            job_store.set_aside(self.path, entry, Path(job_store.QUARANTINE))
            return False
        for out, ext in self.get_outputfiles(job):
            cachefile = self.path / f"{entry}{ext}"
            logger.debug(f"Output file {out} exists as {cachefile} in the cache.")
            self.check_readable(cachefile)
            self.symlink(cachefile, Path(out))
            if ext.endswith("_record.json"):
                self.note_software(json.loads(cachefile.read_text()))
        return True

    def note_software(self, record: dict) -> None:
        """Count a fetched entry, and the versions its record names where they are not ours."""
        self.fetched += 1
        other = job_record.other_versions(record, self.versions)
        if other:
            self.other_software[", ".join(f"{k} {v}" for k, v in sorted(other.items()))] += 1

    def software_line(self) -> str | None:
        """One line: how many fetched entries other software computed, and which versions
        (None when every one names this run's versions)."""
        if not self.other_software:
            return None
        ours = ", ".join(f"{k} {v}" for k, v in self.versions.items())
        which = "; ".join(f"{n} with {versions}" for versions, n in
                          self.other_software.most_common())
        return (f"{sum(self.other_software.values())} of the {self.fetched} entries fetched from "
                f"the store were computed with other software than this run's ({ours}): "
                f"{which}. Their numbers may differ from a recomputation here by rounding; "
                "`entropic-bound audit` recomputes and compares.")

    async def store(self, job: Job) -> None:
        """Move the outputs into the store under the job's key, then seal the entry (last), then
        release the key's lock."""
        key = self.keys.key(job, predict=False)
        try:
            await super().store(job)
            job_store.seal_entry(self.path, key)
        finally:
            self._unlock(key)

    def _lock(self, key: str) -> None:
        locks = self.path / ".locks"
        locks.mkdir(exist_ok=True)
        fd = os.open(locks / key, os.O_CREAT | os.O_RDWR, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.info(f"waiting for another run that computes store key {key[:12]}...")
            fcntl.flock(fd, fcntl.LOCK_EX)
        self._locks[key] = fd

    def _unlock(self, key: str) -> None:
        fd = self._locks.pop(key, None)
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the flock


FETCH_IN_MAIN: set = set()  # jobs the main process of a cluster run fetches itself


def extend_dag() -> None:
    """Two additions to Snakemake's DAG, both for executors other than the local one.

    * With a remote executor, every job whose entry the main process finds in the store
      becomes a local job outside any group (Snakemake's local executor then fetches it);
      decided when Snakemake forms its groups, once the jobs that need to run are known.
    * When a cheap job that a stored job reads finishes, the process that ran or submitted it
      records its realisation: the main process, or a group's job step on a cluster node, in
      whose DAG the job and its reader both are. The job step that runs one job in a DAG of
      its own (every job of a group is run so) cannot, yet a dry run in another clone needs
      the realisation to predict keys."""
    from snakemake.dag import DAG
    from snakemake.jobs import Job

    group, is_local = Job.group, Job.is_local
    update_groups, finish = DAG.update_groups, DAG.finish

    def routed_update_groups(dag) -> None:
        workflow, cache = dag.workflow, dag.workflow.output_file_cache
        if not workflow.local_exec and workflow.is_main_process and isinstance(cache,
                                                                                 StoreCache):
            FETCH_IN_MAIN.update(job for job in dag.needrun_jobs()
                                 if cache.is_stored_rule(job) and cache.stored(job))
        update_groups(dag)

    async def realising_finish(dag, job, *args, **kwargs):
        await finish(dag, job, *args, **kwargs)
        cache = dag.workflow.output_file_cache
        if isinstance(cache, StoreCache) and not dag.workflow.dryrun:  # a job really made
            for done in (list(job) if job.is_group() else [job]):
                readers = dag.depending[done]
                if not cache.is_stored_rule(done) and any(map(cache.is_stored_rule, readers)):
                    cache.keys.realise(done, predict=False)

    Job.group = property(lambda job: None if job in FETCH_IN_MAIN else group.fget(job),
                         group.fset)
    Job.is_local = property(lambda job: job in FETCH_IN_MAIN or is_local.fget(job))
    DAG.update_groups = routed_update_groups
    DAG.finish = realising_finish


def say_other_software(workflow) -> None:
    """At the end of a run (the Snakefile's onsuccess and onerror): the one line of
    :meth:`StoreCache.software_line`, where there is one."""
    cache = workflow.output_file_cache
    if isinstance(cache, StoreCache) and (line := cache.software_line()):
        logger.warning(line)


def install(store: str, workflow, keyed_by_job: frozenset[str] = frozenset()) -> None:
    """Make Snakemake's ``workflow`` use :class:`StoreCache` as its local between-workflow
    cache, in ``store``; the outputs of the rules ``keyed_by_job`` enter the keys below them by
    their job's key. Refuses another Snakemake series in one line: the extension overrides
    methods of 9.27's cache and reads its job and DAG attributes."""
    import snakemake.workflow

    if not snakemake.__version__.startswith(SNAKEMAKE_SERIES):
        raise WorkflowError(
            f"the store extends Snakemake {SNAKEMAKE_SERIES}x (plumbing/store_cache.py); this "
            f"is Snakemake {snakemake.__version__}: install requirements.lock")
    if os.path.exists(store) and not os.path.isdir(store):
        raise WorkflowError(f"config store={store}: is a file; expected a folder (the store)")
    try:
        os.makedirs(store, exist_ok=True)
    except OSError as e:
        raise WorkflowError(f"config store={store}: cannot be made ({e.strerror}); expected a "
                            "folder this user can create and write") from None
    if not os.access(store, os.W_OK):
        raise WorkflowError(f"config store={store}: the folder is not writeable; expected a "
                            "folder this user can write")
    StoreCache.workflow, StoreCache.label = workflow, store
    StoreCache.keyed_by_job = frozenset(keyed_by_job)
    if snakemake.workflow.LocalOutputFileCache is not StoreCache:  # once per process
        snakemake.workflow.LocalOutputFileCache = StoreCache
        extend_dag()
