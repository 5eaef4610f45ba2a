"""How the store touches files: by bare name inside the store's own folder, never through a link.

Everything under ``store/`` is untrusted input (a team's git, a cluster's shared filesystem):
a name read from a file is never joined into a path, and every open here is relative to a
descriptor of the folder it belongs to (``dir_fd``) with ``O_NOFOLLOW``, then checked to be a
regular file (``fstat``). A link, a folder or a device where a file is expected is refused with
:class:`Refused`, naming it.

Writes are durable and unique: a temporary file made with ``O_EXCL`` under a random name in the
same folder, written, ``fsync``-ed, given mode 0644 (the store is committed as it is), renamed
over its target, and the folder ``fsync``-ed, so that after a crash or power loss a reader sees
the old file or the whole new one, never an empty or partial one, and a planted link at a
predictable temporary name is never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import BinaryIO

FILE_MODE = 0o644
TEMPORARY = ".tmp-"  # the prefix of a writer's temporary files (never read as store content)
# O_NONBLOCK: a FIFO planted where a file is expected opens at once (and is refused), never
# blocking the reader
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
LARGEST = 1 << 32  # bytes: no output of a stored job comes near (the largest is tens of MB)
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Refused(Exception):
    """A store file or folder that is not what it must be (a link, not a regular file, a bad
    name or content); the message names it and says what is expected."""


@contextmanager
def folder(path: str | os.PathLike[str], create: bool = False) -> Iterator[int]:
    """A descriptor of the folder ``path``, refused where it is a link or not a folder."""
    if create:
        os.makedirs(path, exist_ok=True)
    try:
        fd = os.open(path, _FOLDER)
    except FileNotFoundError:
        raise
    except OSError as err:  # ELOOP (a link) or ENOTDIR
        raise Refused(f"{path}: is a link or not a folder; expected a folder") from err
    try:
        yield fd
    finally:
        os.close(fd)


def subfolder(parent: int, name: str, create: bool = False) -> int:
    """A descriptor of the folder ``name`` inside ``parent`` (the caller closes it), refused
    where it is a link or not a folder."""
    if create:
        with suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=parent)
    try:
        return os.open(name, _FOLDER, dir_fd=parent)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise Refused(f"{name}/: is a link or not a folder; expected a folder") from err


def kind(parent: int, name: str) -> str | None:
    """``file``, ``folder``, ``link`` or ``other`` for ``name`` in ``parent`` (by ``lstat``:
    a link is never followed); None where nothing has that name."""
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return "link"
    if stat.S_ISREG(st.st_mode):
        return "file"
    return "folder" if stat.S_ISDIR(st.st_mode) else "other"


def shown(name: str) -> str:
    """A name read from a folder, fit to print on one line (control characters escaped)."""
    return name if name.isprintable() else ascii(name)


@contextmanager
def _regular(parent: int, name: str, largest: int) -> Iterator[tuple[BinaryIO, int]]:
    """The regular file ``name`` in ``parent``, open for reading, and its size, at most
    ``largest`` bytes; :class:`Refused` for a link, a FIFO or anything else that is not a
    regular file, or a larger file; FileNotFoundError where it is missing."""
    try:
        fd = os.open(name, _READ, dir_fd=parent)
    except FileNotFoundError:
        raise
    except OSError as err:  # ELOOP: a link
        raise Refused(f"{shown(name)}: is a link; expected a regular file") from err
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise Refused(f"{shown(name)}: is not a regular file")
    with os.fdopen(fd, "rb") as fh:
        if st.st_size > largest:
            raise Refused(f"{shown(name)}: {st.st_size} bytes, more than the {largest} such a "
                          "file may have")
        os.set_blocking(fh.fileno(), True)
        yield fh, st.st_size


def _grew(name: str) -> Refused:
    # the store replaces files by rename, never in place: one that grows is not its writer's
    return Refused(f"{shown(name)}: grew while it was read")


def read(parent: int, name: str, largest: int = LARGEST) -> bytes:
    """The bytes of the regular file ``name`` in ``parent``, at most ``largest`` of them
    (refused as :func:`_regular` says); no more memory than its size is asked for."""
    with _regular(parent, name, largest) as (fh, size):
        data = fh.read(size + 1)
    if len(data) > size:
        raise _grew(name)
    return data


def file_sha256(parent: int, name: str, largest: int = LARGEST) -> str:
    """The sha256 of the regular file ``name`` in ``parent`` (refused as :func:`_regular`
    says), read a MiB at a time: judging a planted file never holds it in memory (a sparse
    one of GBs costs its reading time, not its size in memory)."""
    digest, read_so_far = hashlib.sha256(), 0
    with _regular(parent, name, largest) as (fh, size):
        while chunk := fh.read(1 << 20):
            read_so_far += len(chunk)
            if read_so_far > size:
                raise _grew(name)
            digest.update(chunk)
    return digest.hexdigest()


def parse_json(data: str | bytes) -> object:
    """JSON read from untrusted bytes: ValueError for anything else, nesting too deep for the
    parser included (``[[[...`` of a few KB raises RecursionError in :func:`json.loads`)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write(parent: int, name: str, data: bytes) -> None:
    """Write ``name`` in ``parent`` whole and durably (the module's doc)."""
    for _ in range(16):
        temporary = f"{TEMPORARY}{secrets.token_hex(8)}"
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o600, dir_fd=parent)
            break
        except FileExistsError:
            continue
    else:
        raise Refused(f"{name}: no unique temporary name in 16 tries")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), FILE_MODE)
        os.rename(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary, dir_fd=parent)
        raise
    os.fsync(parent)


def move(src: int, name: str, dst: int) -> str:
    """Rename ``name`` from folder ``src`` to folder ``dst`` (descriptors), under its own
    name where that is free there, else ``<name>.<random>`` (what is there already stays);
    its name in ``dst``. Never a copy: a planted sparse file of GBs would become GBs of disk
    and memory (OSError EXDEV where the folders are on different filesystems)."""
    target = name if kind(dst, name) is None else f"{name}.{secrets.token_hex(4)}"
    os.rename(name, target, src_dir_fd=src, dst_dir_fd=dst)
    return target


def write_outside(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``path`` (a file of this run's own, e.g. a fetched output under results/) whole
    and durably, by :func:`write` in its folder."""
    head, name = os.path.split(os.fspath(path))
    os.makedirs(head or ".", exist_ok=True)
    fd = os.open(head or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if kind(fd, name) == "link":  # an output of this run is a file, never a link
            os.unlink(name, dir_fd=fd)
        write(fd, name, data)
    finally:
        os.close(fd)


def remove(parent: int, name: str) -> int:
    """Remove ``name`` (a file or a link, never followed) from ``parent``; its size, 0 where
    it was gone. A folder under that name is left (its contents were never the store's to
    judge; ``store check`` names it)."""
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            return 0
        os.unlink(name, dir_fd=parent)
    except FileNotFoundError:
        return 0
    return st.st_size


def unusable(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot serve as a store folder this user writes (one phrase), or None;
    nothing is created."""
    target = os.path.abspath(path)
    if os.path.lexists(target):
        if not os.path.isdir(target):
            return "is a file; expected a folder (the store)"
        return None if os.access(target, os.W_OK) else ("the folder is not writeable; expected "
                                                          "a folder this user can write")
    parent = os.path.dirname(target)
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        return "cannot be made; expected a folder this user can create and write"
    return None
