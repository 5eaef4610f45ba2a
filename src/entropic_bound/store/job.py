"""``entropic-bound-store MANIFEST LOG``: one job through the store, as ccache wraps a
compiler.

Every stored rule's shell command goes through this wrapper (``workflow/rules/common.smk``),
which knows the exact command and the job's outputs from its manifest
(:mod:`entropic_bound.store.manifest`) and meets Snakemake through nothing but the shell
command Snakemake runs. For a job the store keeps (``keep: entry``):

1. the key, from the manifest and the inputs' bytes as they are now
   (:func:`entropic_bound.store.keys.job_key`);
2. a **hit**: the entry that serves the key (itself or its alias's target) is read file by
   file, each checked against its seal as it is read, its record's command compared with this
   job's command, and copied to the job's outputs (a copy, so that a result never changes
   with a shared store afterwards). An entry that fails any of these is set aside to
   ``results/quarantine/store`` with one line, and the job computed;
3. a **miss**: the key's lock (:mod:`entropic_bound.store.lock`), a second look, then the
   command, run as its argument list (no shell), and its outputs stored and sealed under the
   key.

A hit imports neither numpy nor torch. ``keep: realisation`` runs the command and records its
outputs' digests for plans; ``keep: note`` only runs it. Every job leaves its note
(:mod:`entropic_bound.store.notes`). Nothing read from the store is ever executed or used as a
path. Where the workflow lists trusted keys, an entry is used only with a trusted signature
that binds it to its key, and what a job stores is signed with this user's key
(:mod:`entropic_bound.store.trust`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

from entropic_bound.store import files, layout
from entropic_bound.store.command import argv, rule_of_log
from entropic_bound.store.files import Refused, sha256, write_outside
from entropic_bound.store.keyring import trusted
from entropic_bound.store.keys import file_digest, job_key
from entropic_bound.store.layout import RECORD, Lookup, Store
from entropic_bound.store.lock import key_lock
from entropic_bound.store.manifest import parse
from entropic_bound.store.notes import write_note
from entropic_bound.store.trust import (
    realisation_content,
    sign,
    signed_by,
    signer_if_any,
    why_untrusted,
)

# set by `entropic-bound cluster`'s local pass (store/cluster.py): a job only fetches, and a
# miss is one line, not a computation on the machine that submits the others
FETCH_ONLY = "ENTROPIC_BOUND_STORE_FETCH_ONLY"


def say(line: str) -> None:
    print(f"store: {line}", file=sys.stderr, flush=True)


# code digests of this checkout, by file identity: every job of a run imports the same modules,
# and parsing them (an AST walk each) was most of a hit's time
DIGESTS = "results/jobs/code-digests"


def digest_input(path: str) -> str:
    """An input's digest (:func:`entropic_bound.store.keys.file_digest`); a ``.py`` file's is
    kept under :data:`DIGESTS` by its path, inode, size and modification and change times, so
    an unchanged module is parsed once per run, not once per job."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise Refused(f"{path}: the input of a stored job is missing") from None
    if not path.endswith(".py"):
        return file_digest(path)
    identity = f"{os.path.abspath(path)}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0" \
               f"{st.st_ctime_ns}"
    memo = Path(DIGESTS) / sha256(identity.encode())
    try:
        digest = memo.read_text()
        if digest.startswith("py:") and len(digest) == 67:
            return digest
    except OSError:
        pass
    digest = file_digest(path)
    with suppress(Refused, OSError):  # a memo not kept costs a parse next time, not the job
        write_outside(memo, digest.encode())
    return digest


def first_difference(ours: list[str], theirs: list[object]) -> str:
    """Where a record's ``theirs`` (a list of anything: it is data) first differs from this
    job's command line ``ours``."""
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            if not isinstance(b, str):
                return f"argument {i} is a {type(b).__name__}, this job's {a[:60]!r}"
            # both shown around their first differing character: two long values that differ
            # late would otherwise show as two equal beginnings
            at = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            start = max(0, at - 20)
            cut = "..." if start else ""
            return (f"argument {i} is {cut}{b[start:start + 60]!r} (from character {start}), "
                    f"this job's {cut}{a[start:start + 60]!r}")
    return f"{len(theirs)} arguments, this job's {len(ours)}"


# What a job does after a refusal that is not its last candidate's.
ALIAS_NEXT = "its alias tried next"


def refuse(refused: list[str], reason: str, then: str) -> None:
    """Say why something in the store was not used, and what the job does ``then``, once a
    job: a fetch under the key's lock meets what the fetch before it met, where the same
    reason may come with another ``then`` (a candidate before it is gone)."""
    if not any(line.startswith(f"{reason}; ") for line in refused):
        refused.append(f"{reason}; {then}")
        say(refused[-1])


def fetch(store: Store, key: str, manifest: dict[str, Any], argv: list[str],
          refused: list[str], keys: dict[str, object] | None) -> str | None:
    """Copy the entry that serves ``key`` to the job's outputs; its name, or None on a miss.
    What could serve it is tried in turn (its own seal, then its alias): one that is
    malformed or that no trusted signature binds to ``key`` (with trusted ``keys``) is passed
    over; an entry that fails its seal or whose record names another command is set aside.
    Each refusal is said once and appended to ``refused`` (the note keeps it for the end of
    the run)."""
    computed = f"{manifest['rule']} computed"
    try:
        candidates = store.candidates(key)
    except (Refused, OSError) as err:
        refuse(refused, f"{store}/{err}", computed)
        return None
    aside: set[str] = set()  # entries this fetch set aside (an alias may name the same)
    for i, found in enumerate(candidates):
        then = computed if i == len(candidates) - 1 else ALIAS_NEXT
        if isinstance(found, Refused):
            refuse(refused, f"{store}/{found}", then)
            continue
        if found.entry in aside:
            continue
        if keys is not None and (reason := why_untrusted(store, key, found, keys)) is not None:
            refuse(refused, f"key {key} not fetched from {store}: {reason}", then)
            continue
        contents = _verified_contents(store, found, manifest, argv, refused, then)
        if contents is None:
            aside.add(found.entry)
        else:
            for name, path in manifest["outputs"].items():
                write_outside(path, contents[name])
            return found.entry
    return None


def _verified_contents(store: Store, found: Lookup, manifest: dict[str, Any], argv: list[str],
                       refused: list[str], then: str) -> dict[str, bytes] | None:
    """The job's outputs as the entry ``found`` holds them, each checked against the seal as
    read, the workflow's pins and the record's command; None, the entry set aside, where any
    check fails (said with what the job does ``then``)."""
    entry, seal = found.entry, found.seal
    try:
        suffixes = {name: layout.output_suffix(name, path)
                    for name, path in manifest["outputs"].items()}
        if set(seal) != set(suffixes.values()):
            raise Refused(f"its seal lists {sorted(seal)}, the job's outputs are "
                          f"{sorted(suffixes.values())}")
        contents = {name: store.read_verified(entry, suffix, seal[suffix])
                    for name, suffix in suffixes.items()}
        for name, pinned in (manifest.get("expect") or {}).items():
            if sha256(contents[name]) != pinned:
                raise Refused(f"its {name} has sha256 {sha256(contents[name])[:12]}..., the "
                              f"workflow pins {pinned[:12]}...")
        record_name = next((n for n, s in suffixes.items() if s == RECORD), None)
        if record_name is not None:
            record = files.parse_json(contents[record_name])
            recorded = record.get("argv") if isinstance(record, dict) else None
            if recorded != argv:
                raise Refused("its record ran another command than this job's ("
                              + (first_difference(argv, recorded) if isinstance(recorded, list)
                                 else "no argv") + "): an entry under another job's key")
    except (Refused, OSError, ValueError) as err:
        try:
            store.set_aside(entry, Path(layout.QUARANTINE))
            what = f"entry {store}/{entry} set aside to {layout.QUARANTINE}"
        except (Refused, OSError) as failed:  # the job computes either way
            what = f"entry {store}/{entry} not used (not set aside: {failed})"
        refuse(refused, f"{what}: {_reason(err)}", then)
        return None
    return contents


def _reason(err: Exception) -> str:
    """An error as one line: a missing file named as such, not as an errno."""
    if isinstance(err, FileNotFoundError):
        return f"{Path(err.filename or '?').name} is missing"
    return str(err)


@contextmanager
def locked(store: Store, key: str, notices: list[str]) -> Iterator[None]:
    """The key's lock, or, where the store's lock folder cannot serve (a planted folder or
    file in its place), the job without it, said in one line (and in ``notices``, for the end
    of the run): a lock spares work, it never decides a result."""
    with ExitStack() as stack:
        try:
            stack.enter_context(key_lock(store.path, key, notices))
        except (Refused, OSError) as err:
            notices.append(f"{store}: no lock for key {key[:12]} ({err}); computing without it")
            say(notices[-1])
        yield


def keep_entry(store: Store, key: str, manifest: dict[str, Any],
               keys: dict[str, object] | None) -> bytes | None:
    """Store the job's outputs under ``key``, sealed, and sign the seal's bytes as written;
    those bytes, or None (one line) where the store cannot keep it: the job's outputs stand
    either way."""
    try:
        seal = store.write_entry(key, {layout.output_suffix(name, path): Path(path).read_bytes()
                                       for name, path in manifest["outputs"].items()})
    except (Refused, OSError) as err:
        say(f"key {key[:12]}: computed, not stored ({err})")
        return None
    say(f"stored under key {key[:12]}")
    sign_made(store, keys, "entry", key, seal)
    return seal


def sign_made(store: Store, keys: dict[str, object] | None, kind: str, key: str,
              made: bytes) -> None:
    """Sign what this job made (``made``: the seal it wrote, the digests it realised) with
    this user's key where there is one and no key it trusts signed these bytes already (a
    fresh clone's run must leave the published signatures as they are); a failure is one
    line: what is stored stands, unsigned (``store sign`` signs it later, by the note's
    digest of ``made``)."""
    try:
        signer = signer_if_any(keys)
        if signer is None:
            return
        trusting = {**(keys or {}), signer.name: signer.private.public_key()}
        try:
            if signed_by(store, kind, key, made, trusting):
                return
        except Refused:  # an unreadable .sig: signing moves it aside
            pass
        sign(store, signer, kind, key, made)
    except (Refused, OSError) as err:
        say(f"{kind} of key {key[:12]} kept, not signed ({err})")


def say_moved(store: Store, refused: list[str]) -> None:
    """Say what the job's writes moved out of a store file's place (a plant), each once, and
    keep it for the end of the run."""
    for line in store.moved:
        refused.append(f"{store}/{line}")
        say(refused[-1])
    store.moved.clear()


def compute(argv: list[str]) -> int:
    """Run the job's command as an argument list, its output to this process's."""
    return subprocess.call(argv)


def run(manifest_text: str, argv: list[str], rule: str | None = None) -> int:
    """The job of ``manifest_text`` (of the rule ``rule`` where its manifest names none) whose
    command is ``argv`` (module doc); its exit code."""
    manifest = parse(manifest_text)
    manifest["rule"] = rule or manifest["rule"]
    if not argv or not manifest["rule"]:
        raise Refused("the job's command and rule are expected")
    keep = manifest["keep"]
    key = job_key(manifest, digest_input)
    keys = trusted()
    # the BLAS threads Snakemake gave the job: the audit recomputes it with the same count
    note = {"rule": manifest["rule"], "keep": keep, "key": key, "entry": None,
            "fetched": False, "argv": argv, "inputs": manifest["inputs"],
            "outputs": manifest["outputs"], "refused": [],
            "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS")}
    if keep == "entry":
        store = Store(manifest["store"])
        entry = fetch(store, key, manifest, argv, note["refused"], keys)
        if entry is None:
            with locked(store, key, note["refused"]):
                entry = fetch(store, key, manifest, argv, note["refused"], keys)
                if entry is None and os.environ.get(FETCH_ONLY):
                    raise Refused(f"key {key[:12]} of {manifest['rule']} is not stored (or not "
                                  "usable here): a fetch-only pass computes nothing")
                if entry is None:
                    say(f"key {key[:12]} not stored: computing {manifest['rule']}")
                    start = time.time()
                    code = compute(argv)
                    if code:
                        return code
                    seal = keep_entry(store, key, manifest, keys)
                    if seal is not None:  # `store sign` signs these bytes, no others
                        note.update(entry=key, made=sha256(seal))
                    say_moved(store, note["refused"])
                    say(f"computed in {time.time() - start:.1f} s")
                    write_note(note)
                    return 0
        say(f"fetched {manifest['rule']} from entry {entry[:12]} (key {key[:12]})")
        note.update(entry=entry, fetched=True)
        write_note(note)
        return 0
    if keep == "note" and os.environ.get(FETCH_ONLY):
        raise Refused(f"{manifest['rule']} keeps nothing in the store: a fetch-only pass "
                      "computes nothing")
    code = compute(argv)
    if code:
        return code
    if keep == "realisation":
        store = Store(manifest["store"])
        made = {name: file_digest(path) for name, path in manifest["outputs"].items()}
        signed = realisation_content(made)
        try:
            kept = store.write_realisation(key, made)
        except (Refused, OSError) as err:
            say(f"realisation of key {key[:12]} not kept: {err}")
        else:
            if kept == "replaced":
                say(f"realisation of key {key[:12]} held other digests than this job made: "
                    "replaced by the job's")
            # signed even where the store held the same digests: a writer who planted them
            # unsigned must not keep the realisation from ever being signed
            sign_made(store, keys, "realisation", key, signed)
            note["made"] = sha256(signed)
        say_moved(store, note["refused"])
    write_note(note)
    return 0


def main(args: list[str] | None = None) -> None:
    """``entropic-bound-store MANIFEST LOG``: every stored rule's shell command, which runs
    the command its manifest renders (:func:`entropic_bound.store.command.argv`) for the rule
    its log names. Its own console script, not a subcommand of ``entropic-bound``: a hit then
    imports neither numpy nor the command dispatcher."""
    args = sys.argv[1:] if args is None else args
    if len(args) != 2:
        sys.exit("usage: entropic-bound-store MANIFEST LOG (the workflow writes it)")
    try:
        manifest = parse(args[0])
        sys.exit(run(args[0], argv(manifest["command"], manifest), rule_of_log(args[1])))
    except (Refused, OSError) as err:
        sys.exit(f"store: {err}")
