"""Read the store, check every record, replay the ones that hold: the current memory.

The brief verifies every record in full on every run. Writers (capture, lifecycle
commands, the index) may use the local verification cache in ``.git/gitmem/``, keyed by
record address + receipt hash + trust-root digest, so a capture does not re-verify a
thousand signatures it verified before; the bytes are still hashed against their
addresses every time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from gitmem.core.canonical import sha256_hex
from gitmem.core.integrity import ItemCheck, RecordCheck, TrustRoots, check_item
from gitmem.core.records import Checkpoint, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import MemoryState, Replayable, replay
from gitmem.store.files import atomic_write
from gitmem.store.repo import Store, StoreContents, StoredRecord

CACHE_FILE = "verified.txt"


@dataclass(frozen=True)
class VerifiedMemory:
    contents: StoreContents
    checks: dict[Sha256Hex, RecordCheck]
    state: MemoryState
    items: dict[Sha256Hex, ItemCheck]
    """The verdict on every item blob a record names (genuine or not)."""

    def failed(self) -> list[tuple[StoredRecord, RecordCheck]]:
        return [
            (r, self.checks[r.address])
            for r in self.contents.records
            if not self.checks[r.address].ok
        ]


def load(store: Store, roots: TrustRoots, use_cache: bool = False) -> VerifiedMemory:
    """Every record checked under *roots* (in full, or through the cache), the good ones
    replayed. Raises GitError when the ref cannot be read."""
    contents = store.read()
    cache = _Cache(store.local_dir, roots) if use_cache else None
    checks: dict[Sha256Hex, RecordCheck] = {}
    for stored in contents.records:
        check = cache.check(stored) if cache is not None else None
        if check is None:
            check = roots.check(stored.address, stored.data, stored.receipt)
            if cache is not None and check.ok and stored.receipt is not None:
                cache.remember(stored)
        checks[stored.address] = check
    if cache is not None:
        cache.save()
    items = {
        address: check_item(address, contents.items.get(address))
        for check in checks.values()
        if isinstance(check.record, Checkpoint)
        for address in check.record.named
    }
    state = replay(
        (
            Replayable(address, check.record)
            for address, check in checks.items()
            if check.ok and check.record is not None
        ),
        {address: c.item for address, c in items.items() if c.item is not None},
    )
    return VerifiedMemory(contents, checks, state, items)


class _Cache:
    def __init__(self, local_dir: Path, roots: TrustRoots) -> None:
        self.path = local_dir / CACHE_FILE
        self.roots = roots.digest()
        try:
            # Unreadable bytes only cost a full check of the records they named.
            self.known = set(self.path.read_text(encoding="utf-8", errors="replace").split())
        except OSError:
            self.known = set()
        self.new: set[str] = set()

    def _key(self, stored: StoredRecord) -> str:
        receipt = hashlib.sha256(stored.receipt or b"").hexdigest()
        return f"{stored.address}:{receipt}:{self.roots}"

    def check(self, stored: StoredRecord) -> RecordCheck | None:
        if stored.receipt is None or self._key(stored) not in self.known:
            return None
        if sha256_hex(stored.data) != stored.address:
            return None  # edited since it was cached: check it in full
        return RecordCheck(
            stored.address, None, "verified earlier (local cache)", parse_record(stored.data)
        )

    def remember(self, stored: StoredRecord) -> None:
        self.new.add(self._key(stored))

    def save(self) -> None:
        if not self.new:
            return
        try:
            text = "\n".join(sorted(self.known | self.new)) + "\n"
            atomic_write(self.path, text.encode("utf-8"), 0o644)
        except OSError:
            pass  # a cache that cannot be written only costs time
