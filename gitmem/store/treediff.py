"""What one tree adds to another, reading only the folders that differ.

A store's tree is a handful of folders of 256 fan-out folders each: a sync of one new
checkpoint changes a few of them. ``Tree.diff_to_tree`` (libgit2) reads every tree
object of both sides to say so, which grows with history (~60 ms at 10,000
checkpoints); a folder whose object is the same on both sides holds the same files, so
it is never opened here. The answer is the one that diff gives with its default options:
the files (blobs, symlinks, submodules) of *new* not in *old* as added; a file whose
type changed (a file to a folder, a blob to a symlink) as removed and added; any other
difference (an edit, a mode change, a removal) as something other than an addition.
Within a folder that differs, only the entries whose bytes differ are compared as pygit2
objects; the others are told apart from both trees' raw bytes (:func:`_differing`), each
tree's entries kept for the next comparison (a walk of commits meets each version twice).
:func:`add_paths` makes the one tree edit the store's appends make: paths added, none
replaced.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import pygit2

_TREE = pygit2.enums.FileMode.TREE


class TreeChanges(NamedTuple):
    """What *new* holds that *old* did not, and whether anything else differs."""

    added: list[str]
    """The paths of the files added, sorted as git sorts a diff's paths."""
    other: bool
    """Whether some file was edited, removed, or changed its mode or type."""


def tree_changes(
    old: pygit2.Tree | None,
    new: pygit2.Tree,
    entries: dict[str, pygit2.Object] | None = None,
) -> TreeChanges:
    """The files *new* adds to *old* (None: an empty tree), and whether it does anything
    else; each added file's entry of *new* into *entries* too, when given. Raises
    pygit2.GitError when a tree that differs cannot be read."""
    added: list[str] = []
    other = _compare(old, new, "", added, entries)
    added.sort()
    return TreeChanges(added, other)


def _compare(
    old: pygit2.Tree | None,
    new: pygit2.Tree,
    prefix: str,
    added: list[str],
    entries: dict[str, pygit2.Object] | None,
) -> bool:
    """Whether *new* does anything to *old* but add files (those into *added*). A loop over
    the folders that differ, not a recursion: a pushed tree may nest folders thousands
    deep (git does not stop it), and Python's stack would end the command."""
    other = False
    pending: list[tuple[pygit2.Tree | None, pygit2.Tree, str]] = [(old, new, prefix)]
    while pending:
        old, new, prefix = pending.pop()
        pairs, gone = _pairs(old, new)
        for was, entry in pairs:
            if was is not None and was.id == entry.id and was.filemode == entry.filemode:
                continue  # the same object: the same files under it
            path = prefix + (entry.name or "")
            if was is None:
                _files(entry, path, added, entries)
            elif was.filemode == _TREE and entry.filemode == _TREE:
                pending.append((_tree(was), _tree(entry), path + "/"))
            elif (was.filemode == _TREE) != (entry.filemode == _TREE) or _kind(was) != _kind(entry):
                other |= _holds_files(was)  # the old side removed, the new one added
                _files(entry, path, added, entries)
            else:
                other = True  # the same kind of file, edited or its mode changed
        other = other or any(_holds_files(entry) for entry in gone)
    return other


Pair = tuple[pygit2.Object | None, pygit2.Object]


def _pairs(old: pygit2.Tree | None, new: pygit2.Tree) -> tuple[list[Pair], list[pygit2.Object]]:
    """Each entry of *new* that may differ with *old*'s entry of its name (None: *old* has
    none), and *old*'s entries *new* lacks. Only the entries whose bytes differ when both
    trees' raw bytes say so plainly (:func:`_differing`); else every entry of both."""
    differing = _differing(old, new)
    if differing is not None:
        assert old is not None
        try:
            pairs: list[Pair] = [(old[n] if was else None, new[n]) for n, was in differing[0]]
            return pairs, [old[n] for n in differing[1]]
        except (KeyError, ValueError, pygit2.GitError):
            pass  # a name pygit2 does not look up as it reads it: compared whole below
    before = {entry.name: entry for entry in old or ()}
    whole: list[Pair] = [(before.pop(entry.name or "", None), entry) for entry in new]
    return whole, list(before.values())


def _differing(
    old: pygit2.Tree | None, new: pygit2.Tree
) -> tuple[list[tuple[str, bool]], list[str]] | None:
    """The names of *new*'s entries that are not byte for byte an entry of *old* (mode,
    name and object alike), each with whether *old* has an entry of that name, and the
    names of *old* that *new* lacks, read from both trees' raw bytes: a folder of 256
    holds two or three that differ, and making a pygit2 object and two file-mode enums of
    each of the others cost ~1 µs an entry (a third of a first brief after a clone whose
    history holds a commit a checkpoint). None when the bytes are not plainly a tree's
    entries with unique, plain UTF-8 names (a hostile tree): every entry is compared then."""
    if old is None:
        return None
    before, after = _entries_of(old), _entries_of(new)
    if before is None or after is None:
        return None
    try:
        differ = [
            (name.decode(), name in before.names)
            for record, name in zip(after.listed, after.order, strict=True)
            if record not in before.records
        ]
        return differ, [name.decode() for name in before.names.difference(after.names)]
    except UnicodeDecodeError:
        return None


Record = tuple[bytes, bytes, bytes]
"""An entry's mode, name and object id, as the tree's bytes hold them."""


class _Entries(NamedTuple):
    listed: list[Record]
    """The entries, in the tree's order."""
    order: list[bytes]
    """Each entry's name, in the same order."""
    records: frozenset[Record]
    names: frozenset[bytes]


def _entries_of(tree: pygit2.Tree) -> _Entries | None:
    """*tree*'s entries as its raw bytes hold them, remembered for the next comparison (a
    walk of commits compares each folder's version with the next one); None when they are
    not plainly a tree's (:func:`_differing`)."""
    key = tree.id.raw
    if key in _READ:
        return _READ[key]
    patterns = _ENTRY.get(len(key))
    read: _Entries | None = None
    if patterns is not None:
        data = tree.read_raw()
        entry, whole = patterns
        if whole.fullmatch(data):
            listed = entry.findall(data)
            order = [name for _, name, _ in listed]
            names = frozenset(order)
            odd = b"/" in b"\0".join(order) or b"." in names or b".." in names
            if len(names) == len(order) and not odd:
                read = _Entries(listed, order, frozenset(listed), names)
    if len(_READ) >= _KEPT:
        del _READ[next(iter(_READ))]
    _READ[key] = read
    return read


_READ: dict[bytes, _Entries | None] = {}
_KEPT = 64
"""Trees whose entries are remembered (the newest read): ~20 KB each for a folder of 256."""

_ENTRY = {
    size: (
        re.compile(rb"([0-7]{1,7}) ([^\0]+)\0(.{%d})" % size, re.DOTALL),
        re.compile(rb"(?:[0-7]{1,7} [^\0]+\0.{%d})*" % size, re.DOTALL),
    )
    for size in (20, 32)
}
"""A tree entry's raw bytes (mode, name, object id), and a tree's, for object ids of
SHA-1 and of SHA-256."""


def _kind(entry: pygit2.Object) -> int:
    """The type part of a file's mode (a blob, a symlink, a submodule), as git compares
    it to tell a type change from an edit."""
    return int(entry.filemode) & 0o170000


def _tree(entry: pygit2.Object) -> pygit2.Tree:
    return entry if isinstance(entry, pygit2.Tree) else entry.peel(pygit2.Tree)


def _files(
    entry: pygit2.Object, path: str, added: list[str], entries: dict[str, pygit2.Object] | None
) -> None:
    """Every file at or under *entry* (at *path*) into *added* (and *entries*). A loop,
    not a recursion: a pushed tree may nest folders thousands deep (git does not stop
    it), and Python's stack would end the command."""
    pending = [(entry, path)]
    while pending:
        entry, path = pending.pop()
        if entry.filemode != _TREE:
            added.append(path)
            if entries is not None:
                entries[path] = entry
            continue
        pending += [(child, f"{path}/{child.name}") for child in reversed(list(_tree(entry)))]


def _holds_files(entry: pygit2.Object) -> bool:
    """Whether removing *entry* removes a file (an empty folder holds none); a loop, as
    :func:`_files` is."""
    pending = [entry]
    while pending:
        entry = pending.pop()
        if entry.filemode != _TREE:
            return True
        pending += _tree(entry)
    return False


def add_paths(
    repo: pygit2.Repository, base: pygit2.Tree | None, blobs: Sequence[tuple[str, pygit2.Oid]]
) -> pygit2.Oid:
    """A tree equal to *base* plus *blobs* (path, blob), written; existing paths are
    never replaced, and a file where a folder belongs is left for verify to report.
    Raises pygit2.GitError when git refuses to write."""
    groups: dict[str, list[tuple[str, pygit2.Oid]]] = {}
    files: list[tuple[str, pygit2.Oid]] = []
    for path, oid in blobs:
        head, sep, rest = path.partition("/")
        if sep:
            groups.setdefault(head, []).append((rest, oid))
        else:
            files.append((head, oid))
    builder = repo.TreeBuilder() if base is None else repo.TreeBuilder(base)
    for name, oid in files:
        if builder.get(name) is None:
            builder.insert(name, oid, pygit2.enums.FileMode.BLOB)
    for name, children in groups.items():
        existing = builder.get(name)
        subtree = existing if isinstance(existing, pygit2.Tree) else None
        if existing is not None and subtree is None:
            continue  # a file sits where a folder belongs; leave it for verify to report
        builder.insert(name, add_paths(repo, subtree, children), pygit2.enums.FileMode.TREE)
    return builder.write()
