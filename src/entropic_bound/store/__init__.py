"""The store: job outputs kept by content key, in the repository or on a shared filesystem, so
a run resumes anywhere and a fresh clone recomputes nothing that is stored.

What it promises:

* **A key says what a result depends on, and nothing else**: the job's command as written,
  its params, the code it executes and the bytes it reads (:mod:`.keys`); an upstream job
  whose rebuilt output is byte-identical changes no key below it (early cutoff).
* **A record is data.** Nothing read from the store is ever executed, opened as a template or
  used as a path: a job's command comes from this checkout's workflow (its manifest,
  :mod:`.manifest`), an entry whose record names another command than the job asking for it
  is set aside, and the audit recomputes from this run's own notes (:mod:`.notes`).
* **Names and files are checked, links never followed**: only ``<64-hex key><declared
  suffix>`` files, seals that list exactly their entry's files, aliases that name a key
  (:mod:`.layout`); every open is ``O_NOFOLLOW`` inside the store's folder and every write is
  unique, ``fsync``-ed and renamed into place (:mod:`.files`).
* **Checked at fetch, copied out**: each file is checked against its seal as it is read, and
  copied to the job's output, so a result never changes with the store afterwards
  (:mod:`.job`).
* **One computation per key** across runs sharing the store (:mod:`.lock`).
* **Met through Snakemake's public interfaces only**: every stored rule's shell command goes
  through ``entropic-bound-store`` (:mod:`.job`), and plans read a dry run through the
  logger plugin interface (:mod:`.plan`); nothing of Snakemake's internals is used.

A store needs the trust you give code: whoever can write it decides what a run fetches
(docs/design.md, "The store").
"""
