"""The layout of the memory store (storage format v2, docs/storage.md): which paths hold
what, and how a path names the hash of its bytes. Pure apart from reading git objects.

With ``<h>`` the lowercase hex SHA-256 of the stored bytes split as ``<h[:2]>/<h[2:]>``::

    items/<h>.json   checkpoints/<h>.json   events/<h>.json   snapshots/<h>.txt
    receipts/<h>.sig
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from weakref import WeakKeyDictionary

import pygit2

from gitmem.core import receipts
from gitmem.core.canonical import MAX_BYTES, Unread
from gitmem.core.transcript import MAX_SNAPSHOT_BYTES
from gitmem.core.types import Sha256Hex, is_sha256_hex
from gitmem.store.shape import entry_at, odd_entry

RECORD_DIRS = {"checkpoints": "checkpoint", "events": "event"}
RECORD_PATHS = {kind: directory for directory, kind in RECORD_DIRS.items()}
EXTENSIONS = {
    "items": ".json",
    "checkpoints": ".json",
    "events": ".json",
    "snapshots": ".txt",
    "receipts": ".sig",
}

LIMITS = {
    "items": (MAX_BYTES, "an item"),
    "checkpoints": (MAX_BYTES, "a record"),
    "events": (MAX_BYTES, "a record"),
    "snapshots": (MAX_SNAPSHOT_BYTES, "a snapshot"),
    "receipts": (receipts.MAX_BYTES, "a receipt"),
}
"""The most bytes a file under each folder may hold, and what it is called. Any other
path (a stray, a file where a folder belongs) may hold what a record may."""


def content_path(directory: str, digest: Sha256Hex) -> str:
    """The path of stored bytes with hash *digest* under *directory*."""
    return f"{directory}/{digest[:2]}/{digest[2:]}{EXTENSIONS[directory]}"


def parse_path(path: str) -> tuple[str, Sha256Hex] | None:
    """(directory, hash) of a path that fits the layout; None for anything else (a stray).
    Raises nothing."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] not in EXTENSIONS or len(parts[1]) != 2:
        return None
    extension = EXTENSIONS[parts[0]]
    digest = parts[1] + parts[2][: -len(extension)]
    if not parts[2].endswith(extension) or not is_sha256_hex(digest):
        return None
    return parts[0], Sha256Hex(digest)


def receipt_path(digest: str) -> str:
    """Where the receipt of the record with address *digest* is stored."""
    return content_path("receipts", Sha256Hex(digest))


def record_path(kind: str, digest: Sha256Hex) -> str:
    """The path of a record of *kind* (``checkpoint`` or ``event``) with address *digest*."""
    return content_path(RECORD_PATHS[kind], digest)


def limit_of(path: str) -> tuple[int, str]:
    """The most bytes the file at *path* may hold, and what it is called ("a record"), by
    its top folder (:data:`LIMITS`). Raises nothing."""
    return LIMITS.get(path.partition("/")[0], LIMITS["checkpoints"])


def blob_bytes(repo: pygit2.Repository, obj: object, path: str | None) -> bytes | None:
    """The bytes of a git blob found at *path* of the store; None for anything else, or
    for an object git cannot read (corrupt, or its bytes no longer hash to its name: as
    good as absent). A blob whose object header says it is larger than *path* may hold
    (:func:`limit_of`) is not read at all: an :class:`~gitmem.core.canonical.Unread`
    stands in for it, which every check refuses with its size (a pushed blob of 300 MB
    was read whole, ~640 MB of memory, before it was refused). *path* None: a file of the
    repository's own branches (a trust root), read whole as git shows it. Raises
    nothing."""
    if not isinstance(obj, pygit2.Blob):
        return None
    if path is not None:
        return object_bytes(repo, obj.id, path)
    try:
        return bytes(obj.data)
    except (pygit2.GitError, KeyError, ValueError):
        return None


def object_bytes(repo: pygit2.Repository, oid: str | pygit2.Oid, path: str) -> bytes | None:
    """:func:`blob_bytes` of the object named *oid*, read from the object database
    without making a :class:`pygit2.Blob` of it (a third of the cost of reading a small
    record: what a helper of ``verify`` does for each blob it is sent). None when *oid*
    names no object, or one that is not a blob. Raises nothing."""
    return bounded_bytes(repo, oid, limit_of(path))


def bounded_bytes(
    repo: pygit2.Repository, oid: str | pygit2.Oid, limit: tuple[int, str]
) -> bytes | None:
    """:func:`object_bytes` of a blob that may hold at most *limit* (bytes, what it is
    called: an entry of :data:`LIMITS`), for a walk that reads tens of thousands of one
    kind: its header (type, size) is read first, and an :class:`Unread` stands in for a
    larger one. ~1 µs a read less than working the limit out of each path (90,000 reads
    in a 10,000-checkpoint ``verify``). Raises nothing."""
    try:
        if _HASHED_HERE[0]:
            for backend in _backends(repo):
                try:
                    header = backend.read_header(oid)
                except KeyError:  # not in this one (a pack, the loose objects)
                    continue
                return _bounded(header, backend.read, oid, limit)
        odb = repo.odb
        return _bounded(odb.read_header(oid), odb.read, oid, limit)
    except (pygit2.GitError, KeyError, ValueError):
        return None


def _bounded(
    header: tuple[int, int],
    read: Callable[[str | pygit2.Oid], tuple[int, bytes]],
    oid: str | pygit2.Oid,
    limit: tuple[int, str],
) -> bytes | None:
    """The object's bytes, read with *read*, when its *header* (type, size) says it is a
    blob no larger than *limit*; an :class:`Unread` for a larger one."""
    kind, size = header
    if kind != _BLOB:
        return None
    if size > limit[0]:
        return Unread(size, *limit)
    return read(oid)[1]


_BLOB = int(pygit2.enums.ObjectType.BLOB)


def _backends(repo: pygit2.Repository) -> tuple[pygit2.OdbBackend, ...]:
    """The object database's backends (packs, loose objects, alternates), asked of pygit2
    once for each repository: it makes new wrappers of them each time, and never frees
    them (two objects a read, ~4 MB of a 10,000-checkpoint verify). The repository asked
    last is answered without a lookup by it (a walk reads ~90,000 blobs of one)."""
    if _LAST_ASKED and _LAST_ASKED[0][0]() is repo:
        return _LAST_ASKED[0][1]
    found = _BACKENDS.get(repo)
    if found is None:
        found = _BACKENDS[repo] = tuple(repo.odb.backends)
    _LAST_ASKED[:] = [(weakref.ref(repo), found)]
    return found


_BACKENDS: WeakKeyDictionary[pygit2.Repository, tuple[pygit2.OdbBackend, ...]]
_BACKENDS = WeakKeyDictionary()
_LAST_ASKED: list[tuple[weakref.ref[pygit2.Repository], tuple[pygit2.OdbBackend, ...]]] = []
"""A weak reference to the repository :func:`_backends` answered last, and its answer."""

_HASHED_HERE = [False]
"""Whether a :func:`hashed_here` block runs (this process's, and a helper's forked in it)."""


@contextmanager
def hashed_here() -> Iterator[None]:
    """Objects read in the block without libgit2 hashing each one again (its SHA-1 of
    every object it inflates; git itself reads objects without it): for a walk of the
    store that hashes each blob it reads to the SHA-256 its path names (a receipt: its
    signature over those bytes), so that a changed object is still caught, as edited.
    ~8 µs of the ~30 µs of reading a packed record, ~3% of a whole ``verify``. The
    setting is the process's (a helper forked meanwhile inherits it), on again after
    the block. Raises what the block raises."""
    pygit2.settings.enable_strict_hash_verification(False)
    _HASHED_HERE[0] = True
    try:
        yield
    finally:
        _HASHED_HERE[0] = False
        pygit2.settings.enable_strict_hash_verification(True)


def plain_file(entry: object) -> pygit2.Blob | None:
    """The tree entry *entry* when it is a plain file; None for a symlink, an
    executable, a folder, a submodule or nothing. Raises nothing."""
    if not isinstance(entry, pygit2.Blob) or entry.filemode != _PLAIN_MODE:
        return None
    return entry


def plain_file_bytes(repo: pygit2.Repository, entry: object, path: str) -> bytes | None:
    """The bytes of a tree entry at *path* that is a plain file (:func:`blob_bytes`);
    None for a symlink, an executable, a folder, a submodule, or an object git cannot
    read. Raises nothing."""
    return blob_bytes(repo, plain_file(entry), path)


def walk_content(
    top: pygit2.Tree, directory: str, strays: list[str], odd: list[tuple[str, str]]
) -> Iterator[tuple[Sha256Hex, pygit2.Blob]]:
    """Yield (digest, blob) under one top-level folder; collect misfits in *strays* and
    entries that are not plain files (symlinks, executables, submodules) in *odd*.

    A blob's bytes are read only when asked for: snapshots can be large, and most
    callers never need them. A leaf's name is checked by one pattern (the rest of its
    hex digest, then the folder's extension: ~100,000 leaves at 10,000 checkpoints),
    and a path is spelled out only for a misfit.
    """
    extension = EXTENSIONS[directory]
    leaf_names = _leaf_names(directory)
    for fan in top:
        fan_name = fan.name or ""
        if not isinstance(fan, pygit2.Tree) or len(fan_name) != 2:
            strays.append(f"{directory}/{fan_name}")
            continue
        hex_fan = not fan_name.strip(_HEX)  # both of its two characters
        for leaf in fan:
            leaf_name = leaf.name or ""
            mode = leaf.filemode
            if mode != _PLAIN_MODE and (odd_kind := odd_entry(mode)) is not None:
                odd.append((f"{directory}/{fan_name}/{leaf_name}", odd_kind))
            elif hex_fan and isinstance(leaf, pygit2.Blob) and leaf_names.fullmatch(leaf_name):
                yield Sha256Hex(fan_name + leaf_name[: -len(extension)]), leaf
            else:
                strays.append(f"{directory}/{fan_name}/{leaf_name}")


_PLAIN_MODE = int(pygit2.enums.FileMode.BLOB)
_HEX = "0123456789abcdef"


def _leaf_names(directory: str) -> re.Pattern[str]:
    """The name of a leaf under *directory* whose fan-out folder's name is hex: the other
    62 hex digits of its SHA-256, then the folder's extension. Compiled when first asked
    (not by every command that imports the layout: a warm brief never walks a folder)."""
    found = _LEAF_NAMES.get(directory)
    if found is None:
        found = _LEAF_NAMES[directory] = re.compile(
            "[0-9a-f]{62}" + re.escape(EXTENSIONS[directory])
        )
    return found


_LEAF_NAMES: dict[str, re.Pattern[str]] = {}


def misfit(path: str) -> str:
    """The misfit :func:`walk_content` names for *path* under a layout folder: a fan-out
    name that is not two characters, a folder where a file belongs, or the path. Raises
    nothing."""
    parts = path.split("/")
    if len(parts) == 2 or len(parts[1]) != 2:
        return "/".join(parts[:2])
    return "/".join(parts[:3])


def holds_record(repo: pygit2.Repository, tree: pygit2.Tree | None, address: Sha256Hex) -> bool:
    """Whether *tree* holds a record at *address* as a plain file whose object git can
    find (its header is read, never its bytes). Raises nothing."""
    for directory in RECORD_DIRS:
        entry = entry_at(tree, content_path(directory, address))
        if not isinstance(entry, pygit2.Blob) or odd_entry(entry.filemode) is not None:
            continue
        try:
            repo.odb.read_header(entry.id)
        except (pygit2.GitError, KeyError, ValueError):
            continue
        return True
    return False
