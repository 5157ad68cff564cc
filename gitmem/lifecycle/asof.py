"""The index of the memory as it stood at one commit of its ref.

The local index (:mod:`gitmem.lifecycle.index`) follows the ref's tip and is kept
for it; memory as of an earlier moment is built apart from it, in memory, from that
commit's tree, by the same code: every record verified under the reader's trust roots
(today's: trust is decided by the reader, now), every item checked, the history up to
that commit replayed. The local file is never touched, so the next ordinary brief costs
what it did.
"""

from __future__ import annotations

from gitmem.core.integrity import TrustRoots
from gitmem.lifecycle.index import INDEX_VERSION, Index
from gitmem.lifecycle.index_build import rebuild
from gitmem.lifecycle.index_file import connect
from gitmem.store.asof import PinnedStore
from gitmem.store.repo import Store


def open_index(store: Store, roots: TrustRoots) -> Index:
    """The index of *store*: the local, up-to-date one for a store at its tip, or
    one built in memory for a :class:`PinnedStore` (memory as of a moment). The caller
    closes it.

    Raises:
        GitError: the memory ref cannot be read.
    """
    if not isinstance(store, PinnedStore):
        return Index.open(store, roots)
    connection = connect(":memory:")
    rebuild(connection, store, roots, f"{INDEX_VERSION}\n{store.ref}@{store.pinned}")
    return Index(connection, rebuilt=True)
