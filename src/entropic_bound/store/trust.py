"""Trust you can state, as Nix's ``trusted-public-keys``: ed25519 signatures that bind each
entry, alias and realisation of the store to its key.

* **The keys.** :mod:`entropic_bound.store.keyring` says which keys a run trusts: those of
  ``trusted-keys.txt`` (in git) that the user accepted, and the user's own. Where a list
  exists, an entry, alias or realisation without a signature by a trusted key that binds it to
  its key is not used: the job is computed, one line saying why. Without one (and no key ever
  accepted) the store is unsigned, and a run says so in one line at its end.
* **What a signature binds** (:func:`message`): the kind, the key and the content: an entry's
  seal (which names each file's sha256 and the entry's own key), an alias's target entry, a
  realisation's digests. An alias pointing at another job's signed entry is therefore refused:
  the alias itself carries no trusted signature for that target.
* **Signatures** are kept in ``<key>.sig`` in the store, one ``<kind> <signer> <base64>`` line
  each (several signers may sign).
* **Keys.** A writer's private key is kept outside the repository: ``$ENTROPIC_BOUND_SIGNING_KEY``
  or ``~/.config/entropic-bound/signing.key`` (``$XDG_CONFIG_HOME``), mode 0600, made by
  ``entropic-bound store keygen`` (or at a run's first store, with one line saying where).
  A user's own runs sign what they store with it, job steps on a cluster included, and trust it.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from dataclasses import dataclass
from pathlib import Path

from entropic_bound.store import files
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import SIGNATURES, SMALL, Lookup, Store, is_key, move_aside

TRUSTED_KEYS = "trusted-keys.txt"
KEY_VARIABLE = "ENTROPIC_BOUND_SIGNING_KEY"
KINDS = ("entry", "alias", "realisation")
SCHEME = b"entropic-bound store signature 1"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def message(kind: str, key: str, content: bytes) -> bytes:
    """What a signature signs: the scheme, the kind, the key and the content."""
    return b"\0".join([SCHEME, kind.encode(), key.encode(), content])


def key_path() -> Path:
    """Where this user's private signing key lives (outside any repository)."""
    if os.environ.get(KEY_VARIABLE):
        return Path(os.environ[KEY_VARIABLE])
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config) / "entropic-bound" / "signing.key"


def _public_line(name: str, public) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = public.public_bytes(Encoding.Raw, PublicFormat.Raw)
    return f"{name}:{base64.b64encode(raw).decode()}"


@dataclass
class Signer:
    """A private ed25519 key and its name."""

    name: str
    private: object

    @property
    def public_line(self) -> str:
        return _public_line(self.name, self.private.public_key())

    def sign(self, kind: str, key: str, content: bytes) -> str:
        signature = self.private.sign(message(kind, key, content))
        return f"{kind} {self.name} {base64.b64encode(signature).decode()}"


def make_key(name: str, path: Path | None = None) -> Signer:
    """A new signing key named ``name``, written to ``path`` (default :func:`key_path`), 0600;
    an existing key is never overwritten."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    if not NAME.fullmatch(name):
        raise Refused(f"key name {name!r}: letters, digits, '.', '_' and '-' (64 at most)")
    path = path or key_path()
    private = Ed25519PrivateKey.generate()
    seed = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(f"{name}:{base64.b64encode(seed).decode()}\n")
    return Signer(name, private)


def load_signer(path: Path | None = None) -> Signer | None:
    """This user's signing key, or None where there is none."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = path or key_path()
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    name, _, seed = text.partition(":")
    try:
        return Signer(name, Ed25519PrivateKey.from_private_bytes(base64.b64decode(seed)))
    except (ValueError, binascii.Error) as err:
        raise Refused(f"{path}: not a signing key (<name>:<base64 seed>): {err}") from None


def signer_for_store() -> Signer:
    """This user's key, made at first use (one line says where)."""
    signer = load_signer()
    if signer is None:
        name = re.sub(r"[^A-Za-z0-9._-]", "-", os.environ.get("USER") or "user")[:40] or "user"
        signer = make_key(f"{name}-{os.urandom(3).hex()}")
        print(f"store: made your signing key {key_path()} ({signer.public_line}); list it in "
              f"{TRUSTED_KEYS} (entropic-bound store trust) for others to use what you store",
              flush=True)
    return signer


def parse_public(line: str, where: str) -> tuple[str, object]:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    name, _, encoded = line.strip().partition(":")
    try:
        if not NAME.fullmatch(name):
            raise ValueError("a bad name")
        return name, Ed25519PublicKey.from_public_bytes(base64.b64decode(encoded, validate=True))
    except (ValueError, binascii.Error) as err:
        raise Refused(f"{where}: {line.strip()[:80]!r} is not <name>:<base64 ed25519 public key> "
                      f"({err})") from None


def parse_signatures(text: str) -> list[tuple[str, str, bytes]]:
    """``(kind, signer, signature)`` of each well-formed line of a ``<key>.sig`` text (the
    file is at most :data:`SMALL` bytes)."""
    found = []
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) == 3 and parts[0] in KINDS and NAME.fullmatch(parts[1]):
            try:
                found.append((parts[0], parts[1], base64.b64decode(parts[2], validate=True)))
            except (ValueError, binascii.Error):
                continue
    return found


def signatures(store: Store, key: str) -> list[tuple[str, str, bytes]]:
    """:func:`parse_signatures` of ``<key>.sig`` (the file at most
    :data:`entropic_bound.store.layout.SMALL`)."""
    try:
        with files.folder(store.path) as top:
            text = files.read(top, f"{key}{SIGNATURES}", SMALL).decode("ascii", "replace")
    except FileNotFoundError:
        return []
    return parse_signatures(text)


def verified_signers(found: list[tuple[str, str, bytes]], kind: str, key: str, content: bytes,
                     keys: dict[str, object]) -> list[str]:
    """The signers among ``keys`` whose signature in ``found`` binds ``content`` to ``key`` as
    ``kind``. Every line by a listed name is checked: a cap would let lines planted before a
    good one hide it for good, and a ``.sig`` of at most :data:`SMALL` bytes holds at most
    about 600 lines (tens of ms of checking)."""
    from cryptography.exceptions import InvalidSignature

    good = []
    for found_kind, name, signature in found:
        if found_kind != kind or name not in keys:
            continue
        try:
            keys[name].verify(signature, message(kind, key, content))
            good.append(name)
        except InvalidSignature:
            continue
    return good


def signed_by(store: Store, kind: str, key: str, content: bytes,
              keys: dict[str, object]) -> list[str]:
    """The trusted signers whose signature binds ``content`` to ``key`` as ``kind``."""
    return verified_signers(signatures(store, key), kind, key, content, keys)


def realisation_content(digests: dict[str, str]) -> bytes:
    """What a signature of a realisation binds: its digests as sorted JSON."""
    import json

    return json.dumps(digests, sort_keys=True).encode()


def content(store: Store, kind: str, key: str) -> bytes:
    """What a signature of ``kind`` on ``key`` binds, read from the store now (for signing
    what is already there, and for plans; a fetch checks the bytes it read itself)."""
    if kind == "entry":
        return store.seal_bytes(key)
    if kind == "alias":
        return store.alias_bytes(key)
    return realisation_content(store.realisation(key))


def why_untrusted(store: Store, key: str, found: Lookup, keys: dict[str, object]) -> str | None:
    """Why ``found`` (what serves ``key``, as read once) is not to be used under ``keys``, or
    None where a trusted signature binds each link: the alias to its target, the entry to the
    exact seal bytes that were read."""
    links = [("entry", found.entry, found.seal_bytes)]
    if found.alias_bytes is not None:
        links.insert(0, ("alias", key, found.alias_bytes))
    for kind, name, data in links:
        try:
            if not signed_by(store, kind, name, data, keys):
                return (f"{kind} {name} carries no signature by a key of {TRUSTED_KEYS} that "
                        "binds it to its key")
        except Refused as err:
            return str(err)
    return None


def sign(store: Store, signer: Signer, kind: str, key: str, data: bytes | None = None) -> None:
    """Add ``signer``'s signature of ``key``'s ``kind`` to ``<key>.sig`` (kept once; nothing
    written where it is there already): of ``data`` where given (what this process wrote,
    never a second read of the file), else of what the store holds now. A ``.sig`` no reader
    accepts (a folder, a pipe, a file past :data:`SMALL`) is moved aside
    (:func:`entropic_bound.store.layout.move_aside`, said in ``store.moved``) and a new one
    written: left in place, it would keep the key unsigned for good."""
    if not is_key(key) or kind not in KINDS:
        raise Refused(f"sign {kind} {key[:80]!r}: a kind and a key are expected")
    line = signer.sign(kind, key, content(store, kind, key) if data is None else data)
    try:
        held = [f"{k} {n} {base64.b64encode(s).decode()}" for k, n, s in signatures(store, key)]
    except Refused:
        held = None
    if held is not None and line in held:
        return  # ed25519 signs deterministically: the same line is the same signature
    kept = [h for h in held or [] if not h.startswith(f"{kind} {signer.name} ")]
    with files.folder(store.path) as top:
        if held is None:
            store.moved.append(f"{key}{SIGNATURES} (unreadable) moved aside to "
                               f"{move_aside(top, f'{key}{SIGNATURES}')}")
        files.write(top, f"{key}{SIGNATURES}", ("\n".join([*kept, line]) + "\n").encode())


def signer_if_any(keys: dict[str, object] | None) -> Signer | None:
    """Who signs what this process stores: this user's key, made at first use where the
    workflow lists trusted keys, else only where it exists already (an unsigned store)."""
    return signer_for_store() if keys is not None else load_signer()
