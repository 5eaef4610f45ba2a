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

**Its front door.** Code outside the store imports what this package exports, never its
submodules: ``from entropic_bound.store import Store, read_notes``. Every stored job's
wrapper imports this package, so the exports load lazily (PEP 562): a fetch imports only the
submodules it uses.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# exported name -> (submodule, its name there); no name is a submodule's (an imported
# submodule is an attribute of its package and would shadow the export)
_EXPORTS = {
    # the store and its layout
    "Store": ("layout", "Store"), "QUARANTINE": ("layout", "QUARANTINE"),
    "ALIAS": ("layout", "ALIAS"), "LOCKS": ("layout", "LOCKS"),
    "Refused": ("files", "Refused"), "store_unusable": ("files", "unusable"),
    # a job's note (this checkout's workflow speaking) and its manifest
    "NOTES": ("notes", "NOTES"), "read_notes": ("notes", "notes"),
    "note_path": ("notes", "note_path"), "write_note": ("notes", "write_note"),
    "tracked": ("notes", "tracked"),
    "render_manifest": ("manifest", "render"),
    # the code part of a key
    "closure_digest": ("closure", "closure_digest"),
    "command_sources": ("closure", "command_sources"),
    "command_imports": ("closure", "command_imports"),
    # trust, records read as data, plans
    "trusted": ("keyring", "trusted"), "carry": ("keyring", "carry"),
    "record_of": ("records", "record_of"), "signed_records": ("records", "signed_records"),
    "check_record": ("records", "checked"), "RECORD_LARGEST": ("records", "LARGEST"),
    "wrapped": ("plan", "wrapped"),
    # a cluster run's local pass of the stored jobs
    "fetch_pass": ("cluster", "fetch_pass"),
    # a run's store lines
    "start_lines": ("summary", "start_lines"), "end_of_run": ("summary", "end_of_run"),
    # `entropic-bound store ACTION`
    "keygen": ("signing", "keygen"), "add_trusted": ("signing", "add_trusted"),
    "remove_trusted": ("signing", "remove_trusted"), "accept_key": ("signing", "accept_key"),
    "list_keys": ("signing", "list_keys"), "sign_store": ("signing", "sign_store"),
    "review": ("review", "review"), "seal": ("maintenance", "seal"),
    "check": ("maintenance", "check"), "rekeys": ("maintenance", "rekeys"),
    "unused": ("maintenance", "unused"), "migrate": ("migration", "migrate"),
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value  # the next access is a plain lookup
    return value
