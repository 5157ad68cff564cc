"""One repository and one home, loaded once for a command: the service object of every
writer of memory.

The lifecycle commands use it as it is; a capture's :class:`gitmem.capture.run.Context`
is a workspace with capture's settings, log and ledger. The trust roots are loaded
when it is made; the memory (every record verified, through the local cache, and
replayed) and the signing identity when first used, then kept — a writer that appends
records keeps the memory current with :meth:`Workspace.written` rather than replaying
everything again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from gitmem.core.errors import InputError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Checkpoint
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index import Index, memory_state
from gitmem.lifecycle.replay import ItemState, MemoryState, Replayable, replay
from gitmem.store.keys import Identity, load_identity
from gitmem.store.repo import Entry, Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

HUMAN_SESSION = "human"
BATCH_COMMIT = 100
"""Captures a :meth:`Workspace.batch` writes in one commit of the memory ref."""
MIN_PREFIX = 4


class Holders(NamedTuple):
    """What memory already holds of a capture about to be written."""

    snapshot: Sha256Hex | None
    """The genuine checkpoint of the same session whose source is the same snapshot
    (None: none)."""
    commit_named: bool
    """Whether a genuine checkpoint names the commit already."""
    session_known: bool
    """Whether the session has a genuine checkpoint already."""


class _Batch:
    """Many captures in a row (:meth:`Workspace.batch`): the index as it was when the
    batch began, and what the batch has written since."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.holders: dict[tuple[str, str], Sha256Hex] = {}
        """(session, snapshot) → the first checkpoint the batch wrote for them."""
        self.commits: set[str] = set()
        self.sessions: set[str] = set()
        self.pending: list[Entry] = []
        """What the batch's captures appended since its last commit."""
        self.messages: list[str] = []

    def add(self, address: str, checkpoint: Checkpoint) -> None:
        snapshot = None if checkpoint.source is None else checkpoint.source.snapshot
        if snapshot is not None:
            self.holders.setdefault((checkpoint.session, snapshot), Sha256Hex(address))
        if checkpoint.commit is not None:
            self.commits.add(checkpoint.commit)
        self.sessions.add(checkpoint.session)


class Workspace:
    """A store and a home, with the trust roots, memory and identity they give."""

    def __init__(
        self,
        store: Store,
        home: Path,
        *,
        roots: TrustRoots | None = None,
        identity: Identity | None = None,
    ) -> None:
        """*roots* and *identity* default to the ones *home* (and *store*) hold. Raises
        nothing."""
        self.home = home
        self.roots = load_trust_roots(home, store) if roots is None else roots
        # Fetched memory is read with the local (verified); the next write merges it.
        self.store = with_fetched(store, self.roots)
        self._identity = identity
        self._memory: MemoryState | None = None
        self._current: MemoryState | None = None
        self._batch: _Batch | None = None

    @property
    def identity(self) -> Identity:
        """Who signs.

        Raises:
            SigningKeyError: no key yet (``gitmem init`` was never run), or an unusable one.
        """
        if self._identity is None:
            self._identity = load_identity(self.home)
        if self._identity.repository is None and self.roots.repository is not None:
            # Its records name the repository they are written for.
            self._identity = replace(self._identity, repository=self.roots.repository)
        return self._identity

    def memory(self) -> MemoryState:
        """The replayed memory, from the index (brought up to date first).

        Raises:
            GitError: the memory ref cannot be read.
        """
        if self._memory is None:
            self._memory = memory_state(self.store, self.roots)
        return self._memory

    def matching(self, prefix: str) -> MemoryState:
        """The replayed memory with only the items whose id starts with *prefix* (what
        finding one item needs, not every item history ever held); all of it when it is
        loaded already.

        Raises:
            GitError: the memory ref cannot be read.
        """
        if self._memory is not None:
            return self._memory
        return memory_state(self.store, self.roots, prefix=prefix)

    def current(self) -> MemoryState:
        """The current items only (open and not aged out): all a capture carries, matches
        new items against and ages, without decoding every item history ever held.

        Raises:
            GitError: the memory ref cannot be read.
        """
        if self._memory is not None:
            return self._memory
        if self._current is None:
            self._current = memory_state(self.store, self.roots, current_only=True)
        return self._current

    def sighted_in(self, session: str) -> bool:
        """Whether some item was sighted in *session*, without loading every item's
        state when none is loaded yet.

        Raises:
            GitError: the memory ref cannot be read.
        """
        if self._memory is not None:
            return any(
                s.session == session
                for state in self._memory.items.values()
                for s in state.sightings
            )
        with Index.open(self.store, self.roots) as index:
            return index.sighted_in(session)

    def holding(
        self, snapshot: str, commit: str | None, session: str
    ) -> tuple[MemoryState, Holders]:
        """The current memory (:meth:`current`) and what it holds of a capture already
        (:class:`Holders`), from one opening of the index (in a :meth:`batch`, from the
        index as it began and what the batch wrote since).

        Raises:
            GitError: the memory ref cannot be read.
        """
        if self._batch is not None:
            return self.current(), self._held(self._batch.index, snapshot, commit, session)
        with Index.open(self.store, self.roots) as index:
            if self._memory is None and self._current is None:
                self._current = index.state(current_only=True)
            held = self._held(index, snapshot, commit, session)
        return self.current(), held

    def _held(self, index: Index, snapshot: str, commit: str | None, session: str) -> Holders:
        batch = self._batch or _Batch(index)
        holder = index.checkpoint_of(snapshot=snapshot, session=session)
        return Holders(
            batch.holders.get((session, snapshot)) if holder is None else Sha256Hex(holder),
            commit is not None
            and (commit in batch.commits or index.checkpoint_of(commit=commit) is not None),
            session in batch.sessions or index.checkpoint_of(session=session) is not None,
        )

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many captures in a row (``gitmem import``) at a cost that does not grow with
        the store: the index is read when the batch begins and brought up to date once
        when it ends, never between captures; meanwhile the current items are kept in
        memory (:meth:`written`) and :meth:`holding` answers from the index as it began
        and what the batch wrote.

        Raises:
            GitError: the memory ref cannot be read.
        """
        index = Index.open(self.store, self.roots)
        if self._memory is None and self._current is None:
            self._current = index.state(current_only=True)
        self._batch = _Batch(index)
        try:
            yield
        finally:
            try:
                self._commit_batch()  # what the captures so far wrote is kept, come what may
            finally:
                self._batch = None
                index.close()
        Index.open(self.store, self.roots).close()  # one update for the whole batch

    def append(self, entries: Sequence[Entry], message: str, author: str) -> None:
        """Append *entries* to the store (a capture's records, items and snapshot); in a
        :meth:`batch`, with the next :data:`BATCH_COMMIT` captures' in one commit: each
        commit writes the store's fan-out folders it touches anew, and one for a
        hundred captures writes each once rather than a hundred times.

        Raises:
            NegativeResult: the ref kept moving under us.
            GitError: git refused to write.
        """
        if self._batch is None:
            self.store.append(entries, message=message, author=author)
            return
        self._batch.pending += entries
        self._batch.messages.append(message)
        if len(self._batch.messages) >= BATCH_COMMIT:
            self._commit_batch(author)

    def _commit_batch(self, author: str | None = None) -> None:
        batch = self._batch
        if batch is None or not batch.messages:
            return
        said = [m.strip().splitlines()[0] for m in batch.messages if m.strip()]
        message = f"gitmem: {len(batch.messages)} captures\n\n" + "\n".join(said) + "\n"
        who = author or self.identity.principal
        self.store.append(batch.pending, message=message, author=who)
        batch.pending, batch.messages = [], []

    @property
    def batching(self) -> bool:
        """Whether captures are written as one batch (:meth:`batch`)."""
        return self._batch is not None

    def written(self, records: Sequence[Replayable]) -> None:
        """Keep the loaded memory current with *records* just appended, without replaying
        it all (nothing to do before it is loaded); the current items stay only the
        current ones, so that a long batch does not carry every item it ever wrote.
        Raises nothing."""
        for state in (self._memory, self._current):
            if state is not None:
                replay(records, onto=state)
        if self._current is not None:
            gone = [a for a, s in self._current.items.items() if not s.current]
            for address in gone:
                del self._current.items[address]
        if self._batch is not None:
            for entry in records:
                if isinstance(entry.record, Checkpoint):
                    self._batch.add(entry.address, entry.record)

    def item(self, prefix: str) -> ItemState:
        """The one item whose id starts with *prefix*.

        Raises:
            InputError: too short, unknown, or ambiguous.
            GitError: the memory ref cannot be read.
        """
        if len(prefix) < MIN_PREFIX or not all(c in "0123456789abcdef" for c in prefix):
            raise InputError(f"item id {prefix!r}: give at least {MIN_PREFIX} hex characters")
        memory = self.matching(prefix)
        found = memory.find(prefix)
        if not found:
            purged = memory.find_purged(prefix)
            if len(purged) == 1:
                address, mark = purged[0]
                raise InputError(f"item {address[:8]} is {mark.label}: nothing of it is left")
            raise InputError(f"no item {prefix} in this repository's memory")
        if len(found) > 1:
            ids = ", ".join(s.id[:12] for s in found[:5])
            raise InputError(f"item id {prefix} is ambiguous ({ids}…): give more characters")
        return found[0]

    def write(
        self,
        name: str,
        state: ItemState,
        extra: dict[str, Any],
        session: str = HUMAN_SESSION,
        snapshot: bytes | None = None,
    ) -> str:
        """Seal and append one event about *state*'s item now, keeping the loaded memory
        current; its address.

        Raises:
            SigningKeyError: no key to sign with.
            GitError, NegativeResult: the store could not be written.
        """
        sealed = write_event(
            self.store, self.identity, name, state.id, session, datetime.now(UTC), extra, snapshot
        )
        self.written([Replayable(sealed.address, sealed.record)])
        return sealed.address
