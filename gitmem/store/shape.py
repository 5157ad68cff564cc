"""What a well-formed store looks like to git: plain refs to commits, plain files.

A hostile push can leave what no gitmem ever writes: a ref under ``refs/gitmem/`` that is
symbolic or points at a tree, a blob or a tag, and tree entries that are symlinks,
executables or submodules. :mod:`gitmem.store.repo` refuses to read such a ref
(:class:`BrokenRef`) and never reads such an entry as content; :mod:`gitmem.store.verify`
reports both as integrity problems, with these names.
"""

from __future__ import annotations

from collections import OrderedDict

import pygit2

from gitmem.core.errors import GitError, IntegrityError

SYMBOLIC_REF = "symbolic ref"
"""A problem of a ref: it names another ref instead of a commit."""
REF_NOT_A_COMMIT = "ref not at a commit"
"""A problem of a ref: it points at a tree, a blob, a tag or a missing object."""
UNKNOWN_REF = "unknown ref"
"""A problem of a ref: a name under ``refs/gitmem/`` gitmem never writes
(:func:`gitmem.store.gitfiles.is_shared_ref`)."""
UNEXPECTED_ENTRY = "unexpected entry"
"""A problem of a path: a symlink, an executable or a submodule where a file belongs."""

_ODD_MODES: dict[int, str] = {
    pygit2.enums.FileMode.LINK: "a symlink",
    pygit2.enums.FileMode.BLOB_EXECUTABLE: "an executable",
    pygit2.enums.FileMode.COMMIT: "a submodule",
}


class BrokenRef(IntegrityError):
    """A ref under ``refs/gitmem/`` that holds no memory gitmem reads: a name it never
    writes, a symbolic ref, or one pointing at a tree, a blob, a tag or nothing. Its
    ``problem`` names which."""

    def __init__(self, ref: str, problem: str, detail: str) -> None:
        super().__init__(f"{ref} {detail}")
        self.ref = ref
        self.problem = problem
        self.detail = detail


def odd_entry(filemode: int) -> str | None:
    """What an entry of *filemode* is when it is not a plain file or a folder ("a
    symlink"), else None. Raises nothing."""
    return _ODD_MODES.get(int(filemode))


def commit_at(repo: pygit2.Repository, ref: str, oid: str) -> pygit2.Commit:
    """The commit *ref* points at.

    Raises:
        BrokenRef: *oid* is a tree, a blob, a tag, or not stored at all.
    """
    try:
        obj = repo.get(oid)
    except (ValueError, pygit2.GitError):
        obj = None
    if obj is None:
        raise BrokenRef(ref, REF_NOT_A_COMMIT, f"points at {oid}, which is not stored")
    if not isinstance(obj, pygit2.Commit):
        kind = type(obj).__name__.lower()
        raise BrokenRef(ref, REF_NOT_A_COMMIT, f"points at {oid}, a {kind}, not a commit")
    return obj


def stored_commit(repo: pygit2.Repository, oid: str) -> pygit2.Commit:
    """The commit *oid* names.

    Raises:
        GitError: *oid* is not a commit stored in *repo*.
    """
    try:
        obj = repo.get(oid)
    except (ValueError, pygit2.GitError) as e:
        raise GitError(f"cannot read commit {oid[:12]}: {e}") from e
    if not isinstance(obj, pygit2.Commit):
        raise GitError(f"{oid[:12]} is not a commit in this repository")
    return obj


def entry_at(tree: pygit2.Tree | None, path: str) -> pygit2.Object | None:
    """The entry of *tree* at *path* (a name, or names joined by ``/``); None when there
    is none (as libgit2 reads a path: ``a/`` is the folder ``a``). Raises nothing."""
    names = path.split("/")
    folder = len(names) > 1 and not names[-1]
    entry: pygit2.Object | None = tree
    for name in names[:-1] if folder else names:
        entry = child(entry if isinstance(entry, pygit2.Tree) else None, name)
    return entry if not folder or isinstance(entry, pygit2.Tree) else None


def child(folder: pygit2.Tree | None, name: str) -> pygit2.Object | None:
    """The entry of *folder* named *name*; None when there is none. Raises nothing.

    Found by bisection over the entries by their place (``folder[i]``), in the order git
    keeps them, never by name: pygit2's lookup by name (``folder[name]``, ``name in
    folder``, ``folder / name``) keeps a reference to the name it is handed for good (it
    never releases the path it encodes the name through), so a command that looks up
    every path of history (an index built on demand after a clone of 10,000 checkpoints)
    held every name it asked for, ~120 bytes each, and the memory pages they sat in.
    """
    if folder is None or not name or "/" in name:
        return None
    try:
        key = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return None  # no name git holds
    # Git sorts a folder's entries by name, a folder's name as if it ended in "/" (a file
    # "a.b" before a folder "a"): *name* is where a file of that name sorts, else a folder.
    for wanted in (key, key + b"/"):
        low, high = 0, len(folder)
        while low < high:
            middle = (low + high) // 2
            if _sort_key(folder[middle]) < wanted:
                low = middle + 1
            else:
                high = middle
        if low < len(folder) and (entry := folder[low]).raw_name == key:
            return entry
    return None


def by_name(folder: pygit2.Tree | None) -> dict[bytes, pygit2.Object]:
    """*folder*'s entries by name (none without a folder), each read once: for a name
    with no ``/``, what :func:`child` finds (the first entry of that name in git's
    order). For a caller that asks for many names of one folder: each :func:`child`
    reads about eight entries of it. Raises nothing."""
    named: dict[bytes, pygit2.Object] = {}
    for entry in folder or ():
        named.setdefault(entry.raw_name or b"", entry)
    return named


def counterpart(
    folder: pygit2.Tree | None, named: dict[bytes, pygit2.Object], entry: pygit2.Object
) -> pygit2.Object | None:
    """The entry of *folder* (its entries by name: *named*, :func:`by_name`) named as
    *entry* of another folder is: from the table, or, for an empty name or one holding a
    ``/`` (which no table entry answers as a lookup does), looked up as a path, as
    :func:`entry_at` reads it. Raises nothing."""
    raw = entry.raw_name or b""
    if raw and b"/" not in raw:
        return named.get(raw)
    return entry_at(folder, entry.name or "")


def _sort_key(entry: pygit2.Object) -> bytes:
    """What git sorts a tree's entry by: its name, and "/" after a folder's (an entry
    whose mode says folder, which libgit2 makes a :class:`pygit2.Tree` of: asking its
    mode makes an enum, which costs more than the rest of a lookup)."""
    name = entry.raw_name or b""
    return name + b"/" if isinstance(entry, pygit2.Tree) else name


class Paths:
    """The entries of one tree looked up by path, each folder read once.

    libgit2 caches a tree object only up to a size (1 MB here, :mod:`gitmem.store.repo`),
    and :func:`entry_at` reads every folder on the way down: a fan-out folder a hostile
    push filled with 100,000 names (~7 MB) was read and parsed again for every path
    looked up in it, so a sync or a brief that looked up each of its paths took hours.
    Here a folder, once read, answers every name in it by a binary search. At most
    :data:`FOLDERS_KEPT` folders are kept (the least recently used let go first), so what
    a lookup holds is bounded by a few folders, however many paths are asked for; a
    caller that asks in path order reads each folder once.
    """

    def __init__(self, tree: pygit2.Tree | None) -> None:
        self._tree = tree
        self._folders: OrderedDict[str, pygit2.Tree | None] = OrderedDict()

    def __call__(self, path: str) -> pygit2.Object | None:
        """The entry at *path* (names joined by ``/``); None when there is none. Raises
        nothing."""
        folder, _, name = path.rpartition("/")
        return child(self.folder(folder), name)

    def folder(self, path: str) -> pygit2.Tree | None:
        """The folder at *path* (names joined by ``/``); None when there is none. Raises
        nothing."""
        return self._folder(path) if path else self._tree

    def _folder(self, path: str) -> pygit2.Tree | None:
        """The folder at *path*, walked down to from the root (a loop: a pushed tree may
        nest folders thousands deep), keeping each folder on the way."""
        if path in self._folders:
            self._folders.move_to_end(path)
            return self._folders[path]
        folder, walked = self._tree, ""
        for name in path.split("/"):
            walked = f"{walked}/{name}" if walked else name
            if walked in self._folders:
                folder = self._folders[walked]
                continue
            entry = child(folder, name)
            folder = entry if isinstance(entry, pygit2.Tree) else None
            self._folders[walked] = folder
            if len(self._folders) > FOLDERS_KEPT:
                self._folders.popitem(last=False)
        return folder


FOLDERS_KEPT = 16
"""The folders a :class:`Paths` keeps read: the tops of the layout and a few fan-outs."""
