"""Read the store, check every record, replay the ones that hold: the current memory.

The brief verifies every record in full on every run. Writers (capture, lifecycle
commands, the index) may use the local verification cache in ``.git/gitmem/``, keyed by
record address + receipt hash + trust-root digest, so a capture does not re-verify a
thousand signatures it verified before; the bytes are still hashed against their
addresses every time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gitmem.canonical import sha256_hex
from gitmem.integrity import UNTRUSTED_KEY, RecordCheck, check_record
from gitmem.lifecycle import MemoryState, Replayable, replay
from gitmem.model import parse_record
from gitmem.revocation import Revocations, revoked_reason
from gitmem.signers import AllowedSignersFile
from gitmem.store import Store, StoreContents, StoredRecord
from gitmem.types import Sha256Hex

CACHE_FILE = "verified.txt"


@dataclass(frozen=True)
class Loaded:
    contents: StoreContents
    checks: dict[Sha256Hex, RecordCheck]
    state: MemoryState

    def failed(self) -> list[tuple[StoredRecord, RecordCheck]]:
        return [
            (r, self.checks[r.address])
            for r in self.contents.records
            if not self.checks[r.address].ok
        ]


def roots_digest(roots: Sequence[AllowedSignersFile]) -> str:
    """A digest of the trust roots: a cached verdict holds only under the same roots."""
    material = "\n".join(
        f"{root.source}\0{entry.to_line()}" for root in roots for entry in root.entries
    )
    return hashlib.sha256(material.encode()).hexdigest()


def load(
    store: Store,
    roots: Sequence[AllowedSignersFile],
    use_cache: bool = False,
    revoked: Revocations | None = None,
) -> Loaded:
    """Every record checked (in full, or through the cache), the good ones replayed.

    With *revoked*, a record that fails on trust because its key was revoked says so."""
    contents = store.read()
    cache = _Cache(store.local_dir, roots) if use_cache else None
    checks: dict[Sha256Hex, RecordCheck] = {}
    for stored in contents.records:
        check = cache.check(stored) if cache is not None else None
        if check is None:
            check = check_record(stored.address, stored.data, stored.receipt, roots)
            if check.problem == UNTRUSTED_KEY and revoked is not None:
                why = revoked_reason(stored.receipt, revoked)
                if why is not None:
                    check = replace(check, detail=why)
            if cache is not None and check.ok and stored.receipt is not None:
                cache.remember(stored)
        checks[stored.address] = check
    if cache is not None:
        cache.save()
    state = replay(
        Replayable(address, check.record)
        for address, check in checks.items()
        if check.ok and check.record is not None
    )
    return Loaded(contents, checks, state)


class _Cache:
    def __init__(self, local_dir: Path, roots: Sequence[AllowedSignersFile]) -> None:
        self.path = local_dir / CACHE_FILE
        self.roots = roots_digest(roots)
        try:
            self.known = set(self.path.read_text(encoding="utf-8").split())
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
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{CACHE_FILE}.{os.getpid()}")
            tmp.write_text("\n".join(sorted(self.known | self.new)) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # a cache that cannot be written only costs time
