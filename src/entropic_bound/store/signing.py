"""``entropic-bound store keygen | trust | distrust | keys | sign``: make a signing key, list or
remove a trusted key (each a change of ``trusted-keys.txt``, to commit), and sign what the
store holds (:mod:`entropic_bound.store.trust`)."""

from __future__ import annotations

import logging
from pathlib import Path

from entropic_bound.store import keyring, trust
from entropic_bound.store.files import Refused, sha256
from entropic_bound.store.layout import Store

log = logging.getLogger("entropic_bound")


def keygen(name: str | None) -> None:
    """Make this user's signing key (never overwriting one) and print its public line."""
    if trust.load_signer() is not None:
        raise Refused(f"{trust.key_path()}: a signing key exists; remove it first to make "
                      "another")
    signer = trust.make_key(name or "user")
    print(signer.public_line)
    log.info("signing key written to %s (mode 0600, outside the repository); "
             "`entropic-bound store trust` lists its public half in %s", trust.key_path(),
             trust.TRUSTED_KEYS)


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.is_file() else []


def add_trusted(line: str | None) -> None:
    """List a public key (``name:base64``; default this user's own) in trusted-keys.txt and
    accept it for this checkout (the user's own act: :mod:`entropic_bound.store.keyring`)."""
    path = Path(trust.TRUSTED_KEYS)
    if line is None:
        signer = trust.load_signer()
        if signer is None:
            raise Refused("no signing key: make one with `entropic-bound store keygen NAME`")
        line = signer.public_line
    name, _ = trust.parse_public(line, "store trust")
    kept = [x for x in _lines(path) if x.partition(":")[0].strip() != name]
    path.write_text("\n".join([*kept, line.strip()]) + "\n")
    keyring.accept_line(line)
    log.info("%s now lists %s, accepted for this checkout; commit it (a visible change)",
             path, name)


def remove_trusted(name: str) -> None:
    path = Path(trust.TRUSTED_KEYS)
    lines = _lines(path)
    kept = [x for x in lines if x.partition(":")[0].strip() != name]
    if len(kept) == len(lines):
        raise Refused(f"{path}: lists no key named {name}")
    path.write_text("\n".join(kept) + ("\n" if kept else ""))
    log.info("%s no longer trusts %s; commit it (a visible change)", path, name)


def accept_key(name: str | None) -> None:
    """Show the keys the list proposes and the commits that added them; with ``name``, accept
    that one for this checkout."""
    print("\n".join(keyring.accept(name)))
    if name:
        log.info("%s accepted for this checkout (%s)", name, keyring.accepted_path())


def list_keys() -> None:
    found = keyring.state()
    own = trust.load_signer()
    if found.keys is None:
        print(f"no {trust.TRUSTED_KEYS}: the store is unsigned")
    for name in sorted(found.keys or {}):
        print(f"{name}{'  (your own)' if own is not None and own.name == name else ''}")
    for line in keyring.lines(found):
        print(line)
    print(f"your signing key: {trust.key_path() if own else 'none'}")
    print(f"this checkout's accepted keys: {keyring.accepted_path()}")


def sign_store(store: Store, vouch: bool = False) -> None:
    """Sign, with this user's key, what passes its seal, this key has not signed yet, and a
    job of this checkout computed: its seal or digests are the very bytes the job made (their
    sha256 in its note in ``results/jobs``, which only this user's runs can have written: its
    mac, :mod:`entropic_bound.store.notes`; a key alone would sign whatever a pull wrote over
    the job's entry since). With ``vouch``, every entry,
    alias and realisation that passes its seal: the user's word that they reviewed it (``store
    review``). A signature is trust: signing whatever a pull brought in would turn a planted
    entry into a trusted one, and so would signing what a key trusts now (a pull can add keys
    to ``trusted-keys.txt``)."""
    from entropic_bound.store.notes import notes

    signer = trust.load_signer()
    if signer is None:
        raise Refused("no signing key: make one with `entropic-bound store keygen NAME`")
    own = {signer.name: signer.private.public_key()}
    refused: list[str] = []
    made = {(n["key"], n["made"]) for n in notes(existing=False, refused=refused)
            if n.get("fetched") is False and isinstance(n.get("key"), str)
            and isinstance(n.get("made"), str)}
    for line in refused:
        log.warning("not vouched for: %s", line)
    listing = store.listing()
    signed = {"entry": 0, "alias": 0, "realisation": 0}
    unvouched = 0

    def sign_if_vouched(kind: str, key: str) -> None:
        """Sign ``key``'s ``kind`` as it is now where vouched for; a plant at this key (an
        unreadable realisation or .sig) is one line, never the end of the signing."""
        nonlocal unvouched
        try:
            content = trust.content(store, kind, key)
            try:
                if trust.signed_by(store, kind, key, content, own):
                    return
            except Refused:  # an unreadable .sig: signing moves it aside
                pass
            if vouch or (kind != "alias" and (key, sha256(content)) in made):
                trust.sign(store, signer, kind, key, content)  # the bytes judged, not a re-read
                signed[kind] += 1
            else:
                unvouched += 1
        except (Refused, OSError) as err:
            log.error("not signed: %s %s/%s: %s", kind, store, key, err)

    good = set()
    computed = {key for key, _ in made}
    for key in sorted(listing.seals):
        # every byte is read only of what may be signed: planted entries of sparse GBs with
        # right seals would make each `store sign` take hours
        if vouch or key in computed:
            if (reason := store.check_entry(key)) is not None:
                log.error("not signed: %s/%s: %s", store, key, reason)
                continue
            good.add(key)
        sign_if_vouched("entry", key)
    for key, entry in sorted(store.aliases().items()):
        if entry in good:
            sign_if_vouched("alias", key)
    for key in store.realisations():
        sign_if_vouched("realisation", key)
    for line in store.moved:
        log.warning("%s/%s", store, line)
    log.info("signed as %s: %d entries, %d aliases, %d realisations", signer.name,
             signed["entry"], signed["alias"], signed["realisation"])
    if unvouched:
        log.warning("not signed: %d that no job of this checkout computed; review them "
                    "(`entropic-bound store review BASE..HEAD`), then `entropic-bound store "
                    "sign --vouch` signs them", unvouched)
