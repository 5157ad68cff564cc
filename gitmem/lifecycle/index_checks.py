"""The verdicts the index keeps: each record checked under the reader's roots, each
item blob a checkpoint names checked once however many name it, and the genuine items
read back. Used by :mod:`gitmem.lifecycle.index_build` when it fills or advances the
index; every function takes the open transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError
from gitmem.core.integrity import ItemCheck, RecordCheck, TrustRoots, check_item
from gitmem.core.items import Item, parse_item
from gitmem.core.records import Checkpoint, record_time
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import Replayable
from gitmem.store.repo import StoredRecord

RecordVerdict = tuple[str | None, str, bool]
"""A record's check without its parsed record: (problem, detail, whether it parses)."""


def verdict_of(roots: TrustRoots) -> Callable[[StoredRecord], RecordVerdict]:
    """The verdict on one record under *roots*: pure, and small to send back, so a forked
    child can work them out (:class:`~gitmem.store.parallel.Background`) while the caller
    parses the records itself (and need not check their canonical form again: the
    verdict says whether they parse)."""

    def verdict(stored: StoredRecord) -> RecordVerdict:
        check = roots.check(stored.address, stored.data, stored.receipt, stored.type)
        return check.problem, check.detail, check.record is not None

    return verdict


def verify_into(
    db: sqlite3.Connection,
    stored: Iterable[StoredRecord],
    roots: TrustRoots,
    items: ItemChecks | None = None,
    checks: Sequence[RecordCheck] | None = None,
) -> list[Replayable]:
    """Check *stored* records, keep their verdicts and the verdicts on the items their
    checkpoints name (each blob checked once, however many checkpoints name it, by
    *items*: the index's blobs by default); the ones that hold, to replay."""
    good: list[Replayable] = []
    items = ItemChecks(db, None) if items is None else items
    named: dict[Sha256Hex, tuple[str, bool]] = {}  # address -> (checkpoint naming it, genuine)
    rows: list[tuple[object, ...]] = []
    stored = list(stored)
    if checks is None:
        checks = [roots.check(r.address, r.data, r.receipt, r.type) for r in stored]
    for record, check in zip(stored, checks, strict=True):
        parsed = check.record
        created = "" if parsed is None else record_time(parsed)
        source = parsed.source if isinstance(parsed, Checkpoint) else None
        rows.append(
            (
                record.address,
                record.type,
                created,
                record.data,
                check.problem,
                check.detail,
                None if source is None else source.snapshot,
                parsed.commit if isinstance(parsed, Checkpoint) else None,
                parsed.session if isinstance(parsed, Checkpoint) else None,
                None if parsed is None else parsed.writer,
                None if parsed is None else parsed.key,
                len(parsed.named) if isinstance(parsed, Checkpoint) else None,
            )
        )
        if isinstance(parsed, Checkpoint):
            # one row per item: a genuine checkpoint's naming wins over a failed one's, or
            # an edited blob both name would go unreported (failed_items skips rows of
            # failed records) and its item would silently vanish
            if check.ok:
                named.update(dict.fromkeys(parsed.named, (record.address, True)))
            else:
                for address in parsed.named:
                    named.setdefault(address, (record.address, False))
        if check.ok and parsed is not None:
            good.append(Replayable(record.address, parsed))
    db.executemany(
        "INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
    )
    verdicts = {a: items.verdict(a) for a in named}  # each blob checked once
    for verb, genuine in (("REPLACE", True), ("IGNORE", False)):
        db.executemany(
            f"INSERT OR {verb} INTO named VALUES (?, ?, ?, ?)",
            [
                (a, verdicts[a].problem, verdicts[a].detail, by)
                for a, (by, ok) in named.items()
                if ok is genuine
            ],
        )
    return good


class ItemChecks:
    """The verdict on each item blob, checked once: from *blobs* when given (a rebuild
    has them all in hand), else from the index's blobs table."""

    def __init__(self, db: sqlite3.Connection, blobs: Mapping[Sha256Hex, bytes] | None) -> None:
        self._db, self._blobs = db, blobs
        self._verdicts: dict[Sha256Hex, ItemCheck] = {}

    def verdict(self, address: Sha256Hex) -> ItemCheck:
        if address not in self._verdicts:
            if self._blobs is not None:
                data = self._blobs.get(address)
            else:
                row = self._db.execute(
                    "SELECT data FROM blobs WHERE address = ?", (address,)
                ).fetchone()
                data = None if row is None else row[0]
            self._verdicts[address] = check_item(address, data)
        return self._verdicts[address]

    def known(self, verdicts: Mapping[Sha256Hex, ItemCheck]) -> None:
        """Take verdicts reached elsewhere (the same :func:`check_item`, run ahead)."""
        self._verdicts.update(verdicts)


def genuine_items(
    db: sqlite3.Connection, addresses: Iterable[str] | None = None
) -> dict[Sha256Hex, Item]:
    """The item blobs that hash to an address a record names."""
    if addresses is None:
        rows = db.execute(
            "SELECT b.address, b.data FROM blobs b JOIN named n USING (address) "
            "WHERE n.problem IS NULL"
        ).fetchall()
    else:
        rows = [
            row
            for a in set(addresses)
            for row in db.execute("SELECT address, data FROM blobs WHERE address = ?", (a,))
        ]
    items: dict[Sha256Hex, Item] = {}
    for address, data in rows:
        if sha256_hex(data) == address:
            try:
                items[Sha256Hex(address)] = parse_item(data)
            except FormatError:
                continue
    return items


def keep_orphans(db: sqlite3.Connection, stored: Iterable[str]) -> None:
    """Bring the orphans table up to date after *stored* item blobs went in: those no
    record names join it, and those a record now names leave it. The cost is that of the
    new blobs and the orphans, never of history."""
    db.execute(
        "DELETE FROM orphans WHERE EXISTS (SELECT 1 FROM named n WHERE n.address = orphans.address)"
    )
    db.executemany(
        "INSERT OR IGNORE INTO orphans SELECT ? WHERE NOT EXISTS "
        "(SELECT 1 FROM named WHERE address = ?)",
        [(a, a) for a in stored],
    )
