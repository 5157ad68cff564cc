"""Git I/O for the memory store, and nothing else.

Everything shared lives under one ref, ``refs/gitmem/memory``: a chain of commits
whose trees only ever gain paths (a purge is the one deliberate rewrite). Layout
(storage format v2, docs/storage.md), with ``<h>`` the lowercase hex SHA-256 of the
stored bytes split as ``<h[:2]>/<h[2:]>``::

    items/<h>.json   checkpoints/<h>.json   events/<h>.json   snapshots/<h>.txt
    receipts/<h>.sig

This module reads and writes bytes at those paths. It never decides whether the
bytes are genuine: the pure checks in :mod:`gitmem.core.integrity` do that, on the
exact bytes read here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import pygit2

from gitmem.core.errors import GitError, NegativeResult
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.store.gitfiles import MEMORY_REF as MEMORY_REF
from gitmem.store.gitfiles import REFS_PREFIX as REFS_PREFIX
from gitmem.store.gitfiles import RELEASES_REF as RELEASES_REF
from gitmem.store.gitfiles import TRACKING_PREFIX as TRACKING_PREFIX
from gitmem.store.gitfiles import is_shared_ref as is_shared_ref
from gitmem.store.layout import (
    EXTENSIONS,
    RECORD_DIRS,
    blob_bytes,
    content_path,
    plain_file_bytes,
    receipt_path,
    walk_content,
)
from gitmem.store.shape import SYMBOLIC_REF, UNKNOWN_REF, BrokenRef, Paths, commit_at, entry_at
from gitmem.store.treediff import add_paths, tree_changes

# The memory ref's trees fan out by 256 (``items/ab/``): ~10 KB each, over libgit2's
# default 4 KB limit for caching a tree, so every path lookup read and parsed the same
# top trees again (a third of a warm brief's own work). Trees of up to 1 MB are kept.
pygit2.settings.cache_object_limit(pygit2.enums.ObjectType.TREE, 1 << 20)
# What a process holds of the object database is bounded whatever the store's size.
# libgit2 keeps parsed objects up to 256 MB, and maps a pack into memory in windows of
# 1 GB, keeping up to 8 GB of them mapped; every page it touched counts as the process's
# own. A first brief after a clone of 50,000 checkpoints held ~300 MB of the two (a
# fan-out folder of items is ~70 KB there, and each version of it is another object).
# Cached objects: 32 MB (every top tree of a warm brief fits many times over); windows of
# 4 MB, 64 MB of them mapped at a time (the least recently used let go first).
pygit2.settings.cache_max_size(32 << 20)
pygit2.settings.mwindow_size = 4 << 20
pygit2.settings.mwindow_mapped_limit = 64 << 20

_MAX_ATTEMPTS = 50
UNKNOWN_DETAIL = f"is not a ref gitmem writes (it writes {MEMORY_REF} and {RELEASES_REF} only)"


class _Moved(Exception):
    """The ref no longer holds the value a compare-and-swap expected."""


class Entry(NamedTuple):
    """Bytes to add at a path of the store."""

    path: str
    data: bytes


class StoredRecord(NamedTuple):
    """A record as found in the store: its address, its bytes and its receipt (if any).

    ``address`` is the hash its path claims; nothing here says the bytes match it.
    """

    type: str
    address: Sha256Hex
    path: str
    data: bytes
    receipt: bytes | None


class StoreContents(NamedTuple):
    """Everything read from one tip of the memory ref."""

    tip: GitOid | None
    records: tuple[StoredRecord, ...]
    items: Mapping[Sha256Hex, bytes]
    """Item blobs by the address their path claims (unchecked)."""
    snapshots: frozenset[Sha256Hex]
    receipts: frozenset[Sha256Hex]
    strays: tuple[str, ...]
    """Paths that do not fit the layout (a wrong name, a file where none belongs)."""
    odd_entries: tuple[tuple[str, str], ...] = ()
    """(path, what it is) for entries of the layout's names that are not plain files:
    a symlink, an executable, a submodule. They are not read as records."""


class Store:
    """The memory store of one repository."""

    def __init__(self, repo: pygit2.Repository, ref: str = MEMORY_REF) -> None:
        self.repo = repo
        self.ref = ref

    @classmethod
    def discover(cls, start: str | Path = ".") -> Store:
        """Open the repository containing *start*.

        Raises:
            GitError: *start* is not inside a git repository.
        """
        found = pygit2.discover_repository(str(start))
        if found is None:
            raise GitError(f"not a git repository (or any parent): {Path(start).resolve()}")
        try:
            return cls(pygit2.Repository(found))
        except pygit2.GitError as e:
            raise GitError(f"cannot open the git repository at {found}: {e}") from e

    def at(self, ref: str) -> Store:
        """The same repository, reading and writing *ref* instead."""
        return Store(self.repo, ref)

    # -- places -----------------------------------------------------------------

    @property
    def common_dir(self) -> Path:
        """The git directory shared by every worktree (where refs and objects live)."""
        gitdir = Path(self.repo.path)
        pointer = gitdir / "commondir"
        if pointer.is_file():
            return (gitdir / pointer.read_text().strip()).resolve()
        return gitdir

    @property
    def local_dir(self) -> Path:
        """``.git/gitmem/``: local, rebuildable state that is never pushed."""
        return self.common_dir / "gitmem"

    def head_commit(self) -> GitOid | None:
        """The commit HEAD points at, or None on an unborn branch."""
        if self.repo.head_is_unborn:
            return None
        try:
            return GitOid(str(self.repo.head.target))
        except pygit2.GitError:
            return None

    def head_blob(self, path: str) -> bytes | None:
        """The bytes of *path* as committed in HEAD (None when absent)."""
        head = self.head_commit()
        return None if head is None else self.blob_at(head, path)

    def blob_at(self, commit: GitOid, path: str) -> bytes | None:
        """The bytes of *path* as committed in *commit* (None when absent or not a file)."""
        try:
            obj = self.repo.revparse_single(f"{commit}:{path}")
        except (KeyError, ValueError, pygit2.GitError):
            return None
        return blob_bytes(self.repo, obj, None)

    def resolve(self, rev: str) -> GitOid | None:
        """The commit *rev* names (a branch, a remote branch, a ref, a sha), or None when
        it names none. Raises nothing."""
        try:
            obj = self.repo.revparse_single(rev)
            commit = obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            return None
        return GitOid(str(commit.id))

    # -- reading ----------------------------------------------------------------

    def count(self, directory: str) -> int:
        """How many entries the tip's tree holds under *directory* (no bytes read).

        Raises:
            GitError: the ref points at something that is not a commit.
        """
        top = self._top(directory)
        return 0 if top is None else sum(len(fan) for fan in top if isinstance(fan, pygit2.Tree))

    def addresses(self, directory: str) -> frozenset[Sha256Hex]:
        """The addresses under *directory* in the tip's tree, by name alone (no bytes read;
        misfits left out). Raises GitError when the ref is not at a commit."""
        top = self._top(directory)
        walked = () if top is None else walk_content(top, directory, [], [])
        return frozenset(digest for digest, _ in walked)

    def _top(self, directory: str) -> pygit2.Tree | None:
        top = self._at_tip(directory)
        return top if isinstance(top, pygit2.Tree) else None

    def _at_tip(self, path: str) -> pygit2.Object | None:
        tip = self.tip()
        if tip is None:
            return None
        return entry_at(self._commit(tip).tree, path)

    def tip(self) -> GitOid | None:
        """The commit the memory ref points at, or None when nothing was stored yet.

        Raises:
            GitError: the ref cannot be read.
            BrokenRef: the ref is symbolic (it names another ref, not a commit).
        """
        try:
            ref = self.repo.references.get(self.ref)
        except (pygit2.GitError, ValueError) as e:
            raise GitError(f"cannot read {self.ref}: {e}") from e
        if ref is None:
            return None
        if ref.type == pygit2.enums.ReferenceType.SYMBOLIC:
            raise BrokenRef(self.ref, SYMBOLIC_REF, f"is a symbolic ref to {ref.target}")
        return GitOid(str(ref.target))

    def refs(self, prefix: str = REFS_PREFIX) -> list[str]:
        """The names of every ref under *prefix*, sorted.

        Raises:
            GitError: the refs cannot be listed.
        """
        try:
            return sorted(name for name in self.repo.references if name.startswith(prefix))
        except pygit2.GitError as e:
            raise GitError(f"cannot list {prefix}*: {e}") from e

    def shared_tip(self) -> GitOid | None:
        """:meth:`tip`, of a ref a reader may take as memory: a plain ref to a commit, and
        under ``refs/gitmem/`` a name gitmem writes (:func:`is_shared_ref`).

        Raises:
            GitError: the ref cannot be read.
            BrokenRef: the ref is symbolic, points at something that is not a stored
                commit, or is a name under ``refs/gitmem/`` gitmem never writes (in that
                order: a junk name says first what it points at).
        """
        tip = self.tip()
        if tip is not None:
            self._commit(tip)
        if self.ref.startswith(REFS_PREFIX) and not is_shared_ref(self.ref):
            raise BrokenRef(self.ref, UNKNOWN_REF, UNKNOWN_DETAIL)
        return tip

    def shared_refs(self) -> list[str]:
        """The refs gitmem writes under ``refs/gitmem/`` that this repository holds
        (:func:`~gitmem.store.gitfiles.is_shared_ref`), sorted: what is exchanged,
        pushed and backed up. Any other name there is junk, listed by :meth:`refs` for
        the readers that report it.

        Raises:
            GitError: the refs cannot be listed.
        """
        return [name for name in self.refs() if is_shared_ref(name)]

    def is_ancestor(self, older: GitOid, newer: GitOid) -> bool:
        """True when *older* is *newer* or one of its ancestors (both must be stored).

        Raises:
            GitError: either commit is not in the object database.
        """
        if older == newer:
            return True
        try:
            return bool(self.repo.descendant_of(pygit2.Oid(hex=newer), pygit2.Oid(hex=older)))
        except (KeyError, ValueError, pygit2.GitError) as e:
            raise GitError(f"cannot compare commits {older[:12]} and {newer[:12]}: {e}") from e

    def descends(self, older: GitOid, newer: GitOid) -> bool:
        """:meth:`is_ancestor`, False when either commit is gone. Raises nothing."""
        try:
            return self.is_ancestor(older, newer)
        except GitError:
            return False

    def read(self) -> StoreContents:
        """Read every record with its receipt, and every item blob, from the tip of the ref.

        Raises:
            BrokenRef: the ref is symbolic or points at something that is not a commit.
        """
        contents, items = self.read_deferred()
        return contents._replace(items=items())

    def read_deferred(self) -> tuple[StoreContents, Callable[[], dict[Sha256Hex, bytes]]]:
        """:meth:`read`, with the item blobs read only when the second value is called
        (their contents' ``items`` is empty): a rebuild reads them while a child checks
        the records.

        Raises:
            BrokenRef: the ref is symbolic or points at something that is not a commit.
        """
        tip = self.tip()
        if tip is None:
            return StoreContents(None, (), {}, frozenset(), frozenset(), ()), dict
        tree = self._commit(tip).tree
        strays: list[str] = []
        odd: list[tuple[str, str]] = []
        found: dict[str, dict[Sha256Hex, pygit2.Blob]] = {d: {} for d in EXTENSIONS}
        for top in tree:
            name = top.name or ""
            if name not in EXTENSIONS or not isinstance(top, pygit2.Tree):
                strays.append(name)
                continue
            found[name] = dict(walk_content(top, name, strays, odd))
        receipts = found["receipts"]
        records = [
            StoredRecord(
                type=kind,
                address=digest,
                path=content_path(directory, digest),
                data=data,
                receipt=blob_bytes(self.repo, receipts.get(digest), receipt_path(digest)),
            )
            for directory, kind in RECORD_DIRS.items()
            for digest, blob in found[directory].items()
            if (data := blob_bytes(self.repo, blob, directory)) is not None
        ]
        contents = StoreContents(
            tip=tip,
            records=tuple(records),
            items={},
            snapshots=frozenset(found["snapshots"]),
            receipts=frozenset(receipts),
            strays=tuple(strays),
            odd_entries=tuple(odd),
        )

        def items() -> dict[Sha256Hex, bytes]:
            return {
                digest: data
                for digest, blob in found["items"].items()
                if (data := blob_bytes(self.repo, blob, "items")) is not None
            }

        return contents, items

    def added_since(self, old: GitOid, tip: GitOid | None = None) -> list[str] | None:
        """The paths *tip*'s tree (default: the ref's tip) holds that *old*'s did not,
        when the ref only added paths since *old*; None when it did anything else (a
        rewrite, a removal, an edit) or *old* is not behind the tip. Raises nothing."""
        found = self.additions_since(old, tip)
        return None if found is None else list(found)

    def additions_since(
        self, old: GitOid, tip: GitOid | None = None
    ) -> dict[str, pygit2.Object] | None:
        """:meth:`added_since`, each path (in its order) with its entry of *tip*'s tree:
        a caller that reads what was added looks no path up again. Raises nothing."""
        if tip is None:
            tip = self.tip() if self._has_ref() else None
        if tip is None or self.repo.get(old) is None:
            return None
        entries: dict[str, pygit2.Object] = {}
        try:
            if not self.is_ancestor(old, tip):
                return None
            changes = tree_changes(self._commit(old).tree, self._commit(tip).tree, entries)
        except (GitError, pygit2.GitError):
            return None
        return None if changes.other else {path: entries[path] for path in changes.added}

    def read_paths(self, paths: Iterable[str], tip: GitOid | None = None) -> dict[str, bytes]:
        """The bytes at each of *paths* in the tree of *tip* (default: the ref's tip); a
        path that is no file is left out. Raises GitError when the ref points at something
        that is not a commit."""
        tip = tip or self.tip()
        if tip is None:
            return {}
        at = Paths(self._commit(tip).tree)
        found: dict[str, bytes] = {}
        for path in paths:
            data = plain_file_bytes(self.repo, at(path), path)
            if data is not None:
                found[path] = data
        return found

    def _has_ref(self) -> bool:
        try:
            return self.repo.references.get(self.ref) is not None
        except pygit2.GitError:
            return False

    def read_snapshot(self, digest: Sha256Hex) -> bytes | None:
        """The stored bytes of a snapshot (unchecked; compare their hash yourself)."""
        return self.read_path(content_path("snapshots", digest))

    def read_path(self, path: str) -> bytes | None:
        """The bytes at *path* in the tip tree, or None."""
        return plain_file_bytes(self.repo, self._at_tip(path), path)

    # -- writing ----------------------------------------------------------------

    def append(self, entries: Sequence[Entry], message: str, author: str) -> GitOid:
        """Add *entries* to the store in one commit and move the ref to it.

        Objects are written first; the ref moves by compare-and-swap, with a
        reflog entry, and the whole tree is rebuilt on the new tip whenever another
        writer won the race. Paths that already exist are left as they are.

        Raises:
            NegativeResult: the ref kept moving under us for every attempt.
            GitError: git refused to write.
        """
        for attempt in range(_MAX_ATTEMPTS):
            tip = self.tip()
            commit = self.commit_onto(tip, entries, message, author)
            if commit == tip or self.compare_and_swap(tip, commit, message):
                return commit
            # Lost the race, or the winner holds the ref's lock: back off, rebuild.
            import random  # only when a writer lost a race

            time.sleep(random.uniform(0.001, 0.005) * min(attempt + 1, 10))
        raise NegativeResult(
            f"{self.ref} kept moving or stayed locked; gave up after {_MAX_ATTEMPTS} attempts "
            f"(a stale {self.common_dir / self.ref}.lock left by a crash can be removed)"
        )

    def commit_onto(
        self, parent: GitOid | None, entries: Sequence[Entry], message: str, author: str
    ) -> GitOid:
        """A commit whose tree is *parent*'s plus *entries* (existing paths left as they
        are), with *parent* as its parent; *parent* itself when *entries* add nothing. The
        ref does not move: the caller swaps it.

        Raises:
            GitError: *parent* is not a commit, or git refused to write.
        """
        try:
            blobs = [(e.path, self.repo.create_blob(e.data)) for e in entries]
            base = None if parent is None else self._commit(parent)
            tree = add_paths(self.repo, None if base is None else base.tree, blobs)
            if base is not None and tree == base.tree_id:
                return GitOid(str(base.id))
            signature = git_signature(author)
            parents = [] if base is None else [base.id]
            oid = self.repo.create_commit(None, signature, signature, message, tree, parents)
        except pygit2.GitError as e:
            raise GitError(f"cannot write objects: {e}") from e
        return GitOid(str(oid))

    def compare_and_swap(self, old: GitOid | None, new: GitOid, message: str) -> bool:
        """Move the ref from *old* (None: it must not exist yet) to *new*, with a reflog
        entry. False, changing nothing, when the ref is not at *old* any more or another
        writer holds its lock. Never forced: the caller decides what *new* may be.

        The check and the write happen under the ref's lock (a libgit2 transaction), so
        two writers can never both succeed from the same *old*, creation included.
        Raises nothing: every failure is a False.
        """
        self._ensure_reflog()
        if not hasattr(self.repo, "transaction"):
            return self._compare_and_swap_with_git(old, new, message)
        try:
            with self.repo.transaction() as txn:
                txn.lock_ref(self.ref)
                current = self.repo.references.get(self.ref)
                if (None if current is None else str(current.target)) != old:
                    raise _Moved
                # The reflog names git's configured identity, as any other ref update does.
                txn.set_target(self.ref, new, message=message)
        except (_Moved, pygit2.GitError, OSError, ValueError):
            return False
        return True

    def _compare_and_swap_with_git(self, old: GitOid | None, new: GitOid, message: str) -> bool:
        # pygit2 before 1.19 has no transactions, and libgit2's create-if-absent checks
        # before it locks; `git update-ref REF NEW OLD` (zeros: must not exist) is atomic.
        import subprocess  # only on old pygit2, and not on the hooks' import path

        expected = old or "0" * len(new)
        command = ["git", "--git-dir", str(self.common_dir), "update-ref", "-m", message]
        done = subprocess.run(
            [*command, self.ref, new, expected],
            capture_output=True,
            check=False,
        )
        return done.returncode == 0

    def _ensure_reflog(self) -> None:
        # git and libgit2 only log refs outside refs/heads when the log file exists.
        log = self.common_dir / "logs" / self.ref
        if not log.exists():
            log.parent.mkdir(parents=True, exist_ok=True)
            log.touch()

    def _commit(self, oid: GitOid) -> pygit2.Commit:
        return commit_at(self.repo, self.ref, oid)


def git_signature(author: str) -> pygit2.Signature:
    """The author and committer of memory commits: a principal as a git identity."""
    email = author if "@" in author else f"{author}@gitmem.invalid"
    return pygit2.Signature(author, email)
