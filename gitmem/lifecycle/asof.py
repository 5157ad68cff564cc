"""The read model of the memory as it stood at one commit of its ref.

The local read model (:mod:`gitmem.lifecycle.memory`) follows the ref's tip and is kept
for it; memory as of an earlier moment is built apart from it, in memory, from that
commit's tree, by the same code: every record verified under the reader's trust roots
(today's: trust is decided by the reader, now), every item checked, the history up to
that commit replayed. The local file is never touched, so the next ordinary brief costs
what it did.
"""

from __future__ import annotations

from gitmem.core.integrity import TrustRoots
from gitmem.lifecycle.memory import MODEL_VERSION, Memory
from gitmem.lifecycle.model_build import rebuild
from gitmem.lifecycle.model_file import connect
from gitmem.store.asof import PinnedStore
from gitmem.store.repo import Store


def open_memory(store: Store, roots: TrustRoots) -> Memory:
    """The read model of *store*: the local, up-to-date one for a store at its tip, or
    one built in memory for a :class:`PinnedStore` (memory as of a moment). The caller
    closes it.

    Raises:
        GitError: the memory ref cannot be read.
    """
    if not isinstance(store, PinnedStore):
        return Memory.open(store, roots)
    connection = connect(":memory:")
    rebuild(connection, store, roots, f"{MODEL_VERSION}\n{store.ref}@{store.pinned}")
    return Memory(connection, rebuilt=True)
