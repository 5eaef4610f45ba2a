"""The store's folder: which names it holds, what each must contain, and the operations on
whole entries (check, set aside, list what is unused, prune).

The only names the store reads (anything else is never opened, and ``store check`` names it):

* ``<key><suffix>``: a file of entry ``key`` (64 lowercase hex digits), ``suffix`` one of the
  declared :data:`SUFFIXES` (``_<output name><extension>``, Snakemake's naming of a job's
  named outputs);
* ``<key>.sha256``, the **seal**, written last: one ``<sha256>  <key><suffix>`` line per file
  of the entry, every name the entry's own key and a declared suffix, none twice, at least
  one. Files without a valid seal are not an entry (an interrupted writer's): nothing reads
  them;
* ``<key>.alias``: 64 hex digits, the entry that serves ``key`` (entries stored under an older
  key keep their names, so git moves no bytes);
* ``<key>.sig``: signatures that bind the key's entry, alias or realisation to it
  (:mod:`entropic_bound.store.trust`);
* ``realisations/<key>.json``: the digests, by output name, of a cheap job that is not stored
  (the corpora's tokens) as made under ``key``, so a plan can predict the keys below it;
* ``.locks/<key>`` (never committed), ``README.md``, and writers' temporary files
  (:data:`entropic_bound.store.files.TEMPORARY`);
* ``.aside-<random>-<name>``: what stood where the store had to write ``<name>`` and could not
  be written over (:func:`move_aside`); never read, named by every run until deleted.

A link anywhere in the store is refused, never followed (:mod:`entropic_bound.store.files`).
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from entropic_bound.store import files
from entropic_bound.store.files import Refused

KEY = re.compile(r"[0-9a-f]{64}")
SEAL = ".sha256"
ALIAS = ".alias"
SIGNATURES = ".sig"  # the signatures of a key's entry, alias or realisation (store/trust.py)
REALISATIONS = "realisations"
LOCKS = ".locks"
README = "README.md"
QUARANTINE = "results/quarantine/store"  # relative to the workflow's directory
ASIDE = ".aside-"  # the prefix of what a run moved out of a store file's place (never read)
# the outputs of the stored rules, as Snakemake names a named output: _<name><extension>
SUFFIXES = frozenset({"_weights.npz", "_metrics.parquet", "_trajectory.parquet",
                      "_measures.parquet", "_estimates.parquet", "_record.json", "_text.txt",
                      "_provenance.json"})
RECORD = "_record.json"
SMALL = 1 << 16  # bytes: the most a seal, an alias, signatures or a realisation may have


def is_key(text: str) -> bool:
    return KEY.fullmatch(text) is not None


def output_suffix(name: str, path: str) -> str:
    """The entry suffix of a job's output ``name`` written to ``path``; refused where it is
    not declared in :data:`SUFFIXES`."""
    suffix = f"_{name}{PurePosixPath(path).suffix}"
    if suffix not in SUFFIXES:
        raise Refused(f"output {name} ({path}): its store suffix {suffix} is not declared in "
                      "entropic_bound.store.layout.SUFFIXES")
    return suffix


def split(name: str) -> tuple[str, str] | None:
    """``(key, rest)`` of a store file name that starts with a key, else None."""
    if len(name) > 64 and is_key(name[:64]):
        return name[:64], name[64:]
    return None


@dataclass
class Listing:
    """What the store folder holds, by name (nothing read but the folder)."""

    files: dict[str, list[str]] = field(default_factory=dict)  # key -> suffixes present
    seals: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)
    signatures: set[str] = field(default_factory=set)
    unexpected: list[str] = field(default_factory=list)  # "name: why"


@dataclass(frozen=True)
class Lookup:
    """The entry that serves a key, as read once: its name, its seal's bytes and what they
    list (suffix -> sha256), and the alias's bytes where the key is served through one."""

    entry: str
    seal_bytes: bytes
    seal: dict[str, str]
    alias_bytes: bytes | None


@dataclass(frozen=True)
class Problem:
    """An entry that failed its check, and why."""

    key: str
    reason: str

    def line(self, store: str | os.PathLike[str]) -> str:
        return f"{store}/{self.key}: {self.reason}"


def move_aside(folder: int, name: str) -> str:
    """Rename whatever is at ``name`` in ``folder`` (a descriptor) to a name of its own in the
    same folder, ``.aside-<random>-<name>``, and return that name: where the store must write
    a file that something unreadable holds the place of (a folder, which no file can be
    renamed over; a pipe; a file past the size a reader accepts), planted to keep a key from
    ever being stored or signed. Within its folder, because a rename elsewhere fails for a
    store on another filesystem than ``results/`` or a folder of another user's; nothing is
    deleted, every run names it until someone does (:meth:`Store.listing`)."""
    aside = f"{ASIDE}{secrets.token_hex(4)}-{name}"
    os.rename(name, aside, src_dir_fd=folder, dst_dir_fd=folder)
    return aside


def make_room(folder: int, name: str, moved: list[str]) -> None:
    """Make room to write the file ``name`` in ``folder``: a folder in its place is moved
    aside (:func:`move_aside`, its new name appended to ``moved``); a file, a link or a pipe
    is replaced by the rename itself."""
    if files.kind(folder, name) == "folder":
        moved.append(f"{files.shown(name)} (a folder) moved aside to "
                     f"{files.shown(move_aside(folder, name))}")


class Store:
    """The store folder at ``path`` (module doc)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.moved: list[str] = []  # what this object's writes moved aside, one line each

    def __str__(self) -> str:
        return str(self.path)

    def listing(self) -> Listing:
        found = Listing()
        if not self.path.is_dir():
            return found
        with files.folder(self.path) as top:
            for name in sorted(os.listdir(top)):
                what = files.kind(top, name)
                parts = split(name)
                if what == "link":
                    found.unexpected.append(f"{files.shown(name)}: is a link (refused, never "
                                            "followed)")
                elif ((name in (REALISATIONS, LOCKS) and what == "folder")
                      or (name == README and what == "file")
                      or (name.startswith(files.TEMPORARY) and what == "file")):
                    continue
                elif name.startswith(ASIDE):
                    found.unexpected.append(f"{files.shown(name)}: moved aside by a run (it "
                                            "stood where the store writes a file; never read)")
                elif what != "file" or parts is None:
                    found.unexpected.append(f"{files.shown(name)}: not a store name (never "
                                            "read)")
                elif parts[1] == SEAL:
                    found.seals.add(parts[0])
                elif parts[1] == ALIAS:
                    found.aliases.add(parts[0])
                elif parts[1] == SIGNATURES:
                    found.signatures.add(parts[0])
                elif parts[1] in SUFFIXES:
                    found.files.setdefault(parts[0], []).append(parts[1])
                else:
                    found.unexpected.append(f"{files.shown(name)}: an undeclared suffix "
                                            "(never read)")
            for sub in (REALISATIONS, LOCKS):
                if files.kind(top, sub) != "folder":
                    continue
                fd = files.subfolder(top, sub)
                try:
                    for name in sorted(os.listdir(fd)):
                        if files.kind(fd, name) != "file":
                            found.unexpected.append(f"{sub}/{files.shown(name)}: not a "
                                                    "regular file (refused)")
                finally:
                    os.close(fd)
        return found

    # seals and entries

    def seal_bytes(self, key: str) -> bytes:
        """The bytes of entry ``key``'s seal, read once (at most :data:`SMALL`)."""
        with files.folder(self.path) as top:
            return files.read(top, f"{key}{SEAL}", SMALL)

    @staticmethod
    def parse_seal(key: str, data: bytes) -> dict[str, str]:
        """Suffix -> sha256 of entry ``key``'s files, from its seal's bytes; :class:`Refused`
        for a seal that is empty or names anything but the entry's own declared files."""
        listed: dict[str, str] = {}
        for line in data.decode("utf-8", "replace").splitlines():
            digest, _, name = line.partition("  ")
            parts = split(name)
            if (not is_key(digest) or parts is None or parts[0] != key
                    or parts[1] not in SUFFIXES or parts[1] in listed):
                raise Refused(f"{key}{SEAL}: the line {line[:100]!r} is not "
                              f"'<sha256>  {key}<declared suffix>' (once each)")
            listed[parts[1]] = digest
        if not listed:
            raise Refused(f"{key}{SEAL}: empty; a seal lists every file of its entry")
        return listed

    def seal(self, key: str) -> dict[str, str]:
        """:meth:`parse_seal` of entry ``key``'s seal as it is now."""
        return self.parse_seal(key, self.seal_bytes(key))

    def read_verified(self, key: str, suffix: str, digest: str,
                      largest: int = files.LARGEST) -> bytes:
        """The bytes of entry ``key``'s file ``suffix``, checked against ``digest`` (its
        seal's) as read; :class:`Refused` where they differ. Hashed as a stream first, so that
        a file planted in its place (a sparse one of GBs) is refused without being held in
        memory; the bytes kept are then read once and checked again (a file swapped between
        the two reads is refused too)."""
        with files.folder(self.path) as top:
            self._check_digest(key, suffix, digest,
                               files.file_sha256(top, f"{key}{suffix}", largest))
            data = files.read(top, f"{key}{suffix}", largest)
        self._check_digest(key, suffix, digest, files.sha256(data))
        return data

    @staticmethod
    def _check_digest(key: str, suffix: str, digest: str, actual: str) -> None:
        if actual != digest:
            raise Refused(f"{key}{suffix} has sha256 {actual[:12]}..., its seal says "
                          f"{digest[:12]}...")

    def verify_files(self, key: str, seal: dict[str, str]) -> None:
        """Hash each file of entry ``key`` against ``seal`` (suffix -> sha256), a stream at a
        time; raises :class:`Refused` or FileNotFoundError at the first that fails."""
        with files.folder(self.path) as top:
            for suffix, digest in sorted(seal.items()):
                self._check_digest(key, suffix, digest, files.file_sha256(top, f"{key}{suffix}"))

    def check_entry(self, key: str) -> str | None:
        """Why entry ``key`` fails (its seal, a file), or None when every file matches."""
        try:
            self.verify_files(key, self.seal(key))
        except FileNotFoundError as err:
            return f"{os.path.basename(err.filename or '') or 'a file'} is missing"
        except Refused as err:
            return str(err)
        return None

    def is_sealed(self, key: str) -> bool:
        """Whether ``key`` has a seal that names its own files (the files not yet read)."""
        try:
            self.seal(key)
        except (FileNotFoundError, Refused):
            return False
        return True

    def alias_bytes(self, key: str) -> bytes:
        """The bytes of alias ``key``, read once (FileNotFoundError where there is none)."""
        with files.folder(self.path) as top:
            return files.read(top, f"{key}{ALIAS}", SMALL).strip()

    @staticmethod
    def parse_alias(key: str, data: bytes) -> str:
        text = data.decode("utf-8", "replace")
        if not is_key(text):
            raise Refused(f"{key}{ALIAS}: {text[:80]!r} is not a key (64 hex digits)")
        return text

    def alias(self, key: str) -> str | None:
        """The entry alias ``key`` names; None where there is no alias; :class:`Refused`
        where it names anything but a key."""
        try:
            return self.parse_alias(key, self.alias_bytes(key))
        except FileNotFoundError:
            return None

    def candidates(self, key: str) -> list[Lookup | Refused]:
        """Everything that could serve ``key``, in the order a job tries them: its own seal,
        then its alias and the target's seal; each read once, or the :class:`Refused` saying
        why it cannot serve. The alias is tried where the seal fails (a junk seal planted
        beside a good alias must not force a recompute)."""
        if not is_key(key):
            raise Refused(f"{key[:80]!r} is not a key (64 hex digits)")
        found: list[Lookup | Refused] = []
        for read in (self._by_seal, self._by_alias):
            try:
                found.append(read(key))
            except FileNotFoundError:
                pass
            except Refused as err:
                found.append(err)
            except OSError as err:
                found.append(Refused(str(err)))
        return found

    def _by_seal(self, key: str) -> Lookup:
        data = self.seal_bytes(key)
        return Lookup(key, data, self.parse_seal(key, data), None)

    def _by_alias(self, key: str) -> Lookup:
        alias = self.alias_bytes(key)
        entry = self.parse_alias(key, alias)
        data = self.seal_bytes(entry)
        return Lookup(entry, data, self.parse_seal(entry, data), alias)

    def aliases(self) -> dict[str, str]:
        """Key -> the entry it names, for every alias with a valid target name."""
        found = {}
        for key in sorted(self.listing().aliases):
            try:
                target = self.alias(key)
            except Refused:
                continue
            if target is not None:
                found[key] = target
        return found

    def write_entry(self, key: str, contents: dict[str, bytes]) -> bytes:
        """Store entry ``key``: each suffix's bytes, durably, then its seal (last); returns the
        seal's bytes as written (to sign those, never a second read of the file)."""
        if not is_key(key) or not contents or not set(contents) <= SUFFIXES:
            raise Refused(f"entry {key[:80]!r}: a key and declared suffixes are expected")
        with files.folder(self.path, create=True) as top:
            for suffix, data in sorted(contents.items()):
                make_room(top, f"{key}{suffix}", self.moved)
                files.write(top, f"{key}{suffix}", data)
            seal = "".join(f"{files.sha256(data)}  {key}{suffix}\n"
                           for suffix, data in sorted(contents.items())).encode()
            make_room(top, f"{key}{SEAL}", self.moved)
            files.write(top, f"{key}{SEAL}", seal)
        return seal

    def write_alias(self, key: str, entry: str) -> None:
        if not (is_key(key) and is_key(entry)):
            raise Refused(f"alias {key[:80]!r} -> {entry[:80]!r}: two keys are expected")
        with files.folder(self.path, create=True) as top:
            make_room(top, f"{key}{ALIAS}", self.moved)
            files.write(top, f"{key}{ALIAS}", f"{entry}\n".encode())

    # realisations

    def realisation(self, key: str) -> dict[str, str]:
        """Output name -> sha256 of the cheap job realised under ``key`` ({} if none or not a
        flat object of hex digests)."""
        try:
            with files.folder(self.path) as top:
                fd = files.subfolder(top, REALISATIONS)
                try:
                    made = files.parse_json(files.read(fd, f"{key}.json", SMALL))
                finally:
                    os.close(fd)
        except (FileNotFoundError, ValueError):
            return {}
        if not (isinstance(made, dict) and all(isinstance(v, str) and is_key(v)
                                               for v in made.values())):
            raise Refused(f"{REALISATIONS}/{key}.json: expected output name -> sha256")
        return made

    def write_realisation(self, key: str, digests: dict[str, str]) -> str:
        """Record what a cheap job made under ``key``: ``same`` where the store already holds
        these digests, ``written`` where it held none, ``replaced`` where it held others
        (planted, or made by other code): what the job made is the record (nothing is ever
        fetched by a prediction)."""
        if not is_key(key):
            raise Refused(f"realisation {key[:80]!r}: a key is expected")
        text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
        with files.folder(self.path, create=True) as top:
            if files.kind(top, REALISATIONS) not in (None, "folder"):
                self.moved.append(f"{REALISATIONS} (not a folder) moved aside to "
                                  f"{move_aside(top, REALISATIONS)}")
            fd = files.subfolder(top, REALISATIONS, create=True)
            try:
                if files.kind(fd, f"{key}.json") is not None:
                    try:
                        held = files.parse_json(files.read(fd, f"{key}.json", SMALL))
                    except (Refused, OSError, ValueError):
                        held = None
                    if held == digests:
                        return "same"
                    make_room(fd, f"{key}.json", self.moved)
                    files.write(fd, f"{key}.json", text.encode())
                    return "replaced"
                files.write(fd, f"{key}.json", text.encode())
                return "written"
            finally:
                os.close(fd)

    def realisations(self) -> list[str]:
        folder = self.path / REALISATIONS
        if not folder.is_dir() or folder.is_symlink():
            return []
        return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json")
                      and is_key(n[:-5]))

    # whole-store operations

    def check(self, quarantine: str | os.PathLike[str] | None = None) -> list[Problem]:
        """Verify every sealed entry against its seal; move each failing one (the files its
        seal and the declared suffixes name) into ``quarantine`` where one is given. An alias
        that names no key is a problem too (left in place: no job uses it)."""
        problems = []
        listing = self.listing()
        for key in sorted(listing.aliases):
            try:
                self.alias(key)
            except (Refused, OSError) as err:
                problems.append(Problem(f"{key}{ALIAS}", str(err)))
        for key in sorted(listing.seals):
            reason = self.check_entry(key)
            if reason is None:
                continue
            if quarantine is not None:
                try:
                    self.set_aside(key, Path(quarantine))
                except (Refused, OSError) as err:  # the check goes on to the next entry
                    reason += f" (not set aside: {err})"
            problems.append(Problem(key, reason))
        return problems

    def set_aside(self, key: str, quarantine: Path) -> None:
        """Move entry ``key``'s files (by name: the key and each declared suffix, its seal,
        its signatures unless the key's alias still needs them) out of the store into
        ``quarantine``; links and other names are never touched. (A junk seal planted beside
        a signed alias would otherwise take the alias's signature with it.) Where the store is
        on another filesystem than ``quarantine``, they are renamed aside in the store's own
        folder instead (:func:`move_aside`): a copy would turn planted sparse files into GBs."""
        if not is_key(key):
            raise Refused(f"{key[:80]!r} is not a key")
        quarantine.mkdir(parents=True, exist_ok=True)
        with files.folder(self.path) as top, files.folder(quarantine) as aside:
            kept = {SIGNATURES} if files.kind(top, f"{key}{ALIAS}") is not None else set()
            for suffix in sorted(SUFFIXES | {SEAL, SIGNATURES} - kept):
                name = f"{key}{suffix}"
                if files.kind(top, name) != "file":
                    continue
                try:
                    files.move(top, name, aside)
                except OSError as err:
                    if err.errno != errno.EXDEV:
                        raise
                    move_aside(top, name)

    def unused(self, used: Iterable[str]) -> list[str]:
        """Entries, aliases and realisations that serve no key in ``used``."""
        keep = set(used)
        aliases = self.aliases()
        served = {entry for key, entry in aliases.items() if key in keep}
        listing = self.listing()
        return sorted([key for key in listing.seals if key not in keep | served]
                      + [f"{key}{ALIAS}" for key in aliases if key not in keep]
                      + [f"{REALISATIONS}/{key}.json" for key in self.realisations()
                         if key not in keep])

    def leftovers(self) -> list[str]:
        """What no run reads: unsealed files, seals that fail to parse, aliases whose entry is
        gone, writers' temporary files."""
        listing = self.listing()
        sealed = {key for key in listing.seals if self.is_sealed(key)}
        aliases = self.aliases()
        found = [f"{key}{suffix}" for key, suffixes in listing.files.items()
                 if key not in sealed for suffix in suffixes]
        found += [f"{key}{SEAL}" for key in listing.seals - sealed]
        found += [f"{key}{ALIAS}" for key in listing.aliases
                  if aliases.get(key) not in sealed]
        if self.path.is_dir():
            found += [n for n in os.listdir(self.path) if n.startswith(files.TEMPORARY)]
        return sorted(found)

    def prune(self, names: Iterable[str]) -> int:
        """Remove the entries, aliases and realisations ``names`` (as :meth:`unused` names
        them) and every leftover; returns the bytes freed."""
        freed = self._remove(names)
        return freed + self._remove(self.leftovers())  # aliases left dangling go too

    def _remove(self, names: Iterable[str]) -> int:
        freed = 0
        with files.folder(self.path) as top:
            for name in names:
                if name.startswith(f"{REALISATIONS}/"):
                    fd = files.subfolder(top, REALISATIONS)
                    try:
                        freed += files.remove(fd, name.split("/", 1)[1])
                    finally:
                        os.close(fd)
                elif is_key(name):
                    for suffix in sorted(SUFFIXES | {SEAL, SIGNATURES}):
                        freed += files.remove(top, f"{name}{suffix}")
                elif "/" not in name:
                    freed += files.remove(top, name)
        return freed
