"""What one tree adds to another, reading only the folders that differ.

A store's tree is a handful of folders of 256 fan-out folders each: a sync of one new
checkpoint changes a few of them. ``Tree.diff_to_tree`` (libgit2) reads every tree
object of both sides to say so, which grows with history (~60 ms at 10,000
checkpoints); a folder whose object is the same on both sides holds the same files, so
it is never opened here. The answer is the one that diff gives with its default options:
the files (blobs, symlinks, submodules) of *new* not in *old* as added; a file whose
type changed (a file to a folder, a blob to a symlink) as removed and added; any other
difference (an edit, a mode change, a removal) as something other than an addition.
:func:`add_paths` makes the one tree edit the store's appends make: paths added, none
replaced.
"""

from __future__ import annotations

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
        before = {entry.name: entry for entry in old or ()}
        for entry in new:
            name = entry.name or ""
            was = before.pop(name, None)
            if was is not None and was.id == entry.id and was.filemode == entry.filemode:
                continue  # the same object: the same files under it
            path = prefix + name
            if was is None:
                _files(entry, path, added, entries)
            elif was.filemode == _TREE and entry.filemode == _TREE:
                pending.append((_tree(was), _tree(entry), path + "/"))
            elif (was.filemode == _TREE) != (entry.filemode == _TREE) or _kind(was) != _kind(entry):
                other |= _holds_files(was)  # the old side removed, the new one added
                _files(entry, path, added, entries)
            else:
                other = True  # the same kind of file, edited or its mode changed
        other = other or any(_holds_files(entry) for entry in before.values())
    return other


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
