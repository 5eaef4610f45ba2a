"""A stored job's record read as data, for plans, ``store rekeys``, ``store migrate`` and the
machine study (a fetch copies the record as a file of the entry; what a job ran is its note's).

A record is read only where a trusted key signed its entry (where the workflow lists keys:
:mod:`entropic_bound.store.keyring`), at most :data:`LARGEST` bytes of it (its size asked
before any byte is read, then hashed against its seal as a stream), and each field a reader
uses is checked for its type and range (:func:`checked`): a record of any other form is one
line naming the entry and the field, never a traceback.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import datetime

from entropic_bound.store import files
from entropic_bound.store.files import Refused
from entropic_bound.store.keyring import trusted
from entropic_bound.store.layout import RECORD, Store
from entropic_bound.store.trust import signed_by

LARGEST = 1 << 20  # bytes: a record is a few KB (its command, machine and software)
NUMBERS = ("s", "cpu_time", "max_rss")  # seconds, seconds, MB
FINISHED = "%Y-%m-%dT%H:%M:%S%z"


def checked(record: object) -> dict:
    """``record`` where each field a reader uses has its type and range (``argv``: a list of
    strings; ``s``, ``cpu_time``, ``max_rss``: finite numbers >= 0; ``machine``, ``software``,
    ``commit``: objects (or null) whose values are strings, numbers, lists of strings or objects;
    ``finished``: a time as the records write it); :class:`Refused` naming the first that is
    not."""
    if not isinstance(record, dict):
        raise Refused("a record is a JSON object")
    argv = record.get("argv")
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)):
        raise Refused("argv: expected a list of strings")
    for name in NUMBERS:
        value = record.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or value < 0:
            shown = files.shown(str(value))[:40]
            raise Refused(f"{name}: expected a finite number >= 0, not {shown}")
    for name in ("machine", "software", "commit"):
        value = record.get(name) or {}  # null where the job ran outside a git checkout
        if not isinstance(value, dict) or not all(
                isinstance(v, str | int | float | dict | type(None))
                or (isinstance(v, list) and all(isinstance(x, str) for x in v))
                for v in value.values()):
            raise Refused(f"{name}: expected an object of strings, numbers and lists of strings")
    machine = record.get("machine") or {}
    if not (isinstance(machine.get("cpu_flags", []), list)
            and isinstance(machine.get("kernel_env", {}), dict)
            and all(isinstance(v, str) for v in machine.get("kernel_env", {}).values())):
        raise Refused("machine: expected cpu_flags a list of strings, kernel_env an object of "
                      "strings")
    if "finished" in record:
        try:  # a time in the local zone, as the costs read it
            datetime.strptime(str(record["finished"]), FINISHED).astimezone()
        except (ValueError, OverflowError):
            raise Refused(f"finished: expected a time as {FINISHED}") from None
    return record


def record_of(store: Store, entry: str, keys: dict[str, object] | None,
              refused: list[str] | None = None) -> dict:
    """The entry's record (the module's doc); {} where it has none, its entry carries no
    signature by ``keys`` (None: an unsigned store), or it fails its seal, its size or
    :func:`checked` (one line in ``refused``, where given)."""
    try:
        seal_bytes = store.seal_bytes(entry)
        if keys is not None and not signed_by(store, "entry", entry, seal_bytes, keys):
            raise Refused("no signature by a trusted key")
        seal = store.parse_seal(entry, seal_bytes)
        if RECORD not in seal:
            return {}
        data = store.read_verified(entry, RECORD, seal[RECORD], largest=LARGEST)
        return checked(files.parse_json(data))
    except (OSError, ValueError, RecursionError, Refused) as err:
        if refused is not None:
            refused.append(f"{store}/{entry[:12]}: record not read: {files.shown(str(err))[:200]}")
        return {}


def signed_records(store: Store, command: str) -> Iterator[tuple[str, dict, dict[str, str]]]:
    """Each sealed entry of ``store`` whose record a key this checkout trusts signed (every
    entry where it trusts none: an unsigned store) and ran ``entropic-bound <command>``: its
    name, its record (:func:`record_of`) and its seal (suffix -> sha256)."""
    keys = trusted()
    for entry in sorted(store.listing().seals):
        record = record_of(store, entry, keys)
        if record.get("argv", [])[1:2] != [command]:
            continue
        try:
            yield entry, record, store.seal(entry)
        except (OSError, Refused):
            continue
