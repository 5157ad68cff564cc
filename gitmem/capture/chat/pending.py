"""The staging area: proposals waiting for a person, in ``.git/gitmem/pending/``.

One file per import, ``<snapshot hash>.json`` (0600): the masked chat as it will be stored
as the snapshot, and each proposed item not yet approved or rejected. Nothing here is in
the memory ref, and nothing here is ever pushed. Approving an item moves it into a signed
checkpoint and out of this file; rejecting it removes it; a file whose last item is gone
is deleted with its snapshot, so a rejection leaves nothing behind.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gitmem.capture.chat.audit import Audit
from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.core.items import KINDS, TRUST_CLASSES, Draft, Kind, Trust
from gitmem.store.files import atomic_write

PENDING_DIR = "pending"
SCHEMA = "gitmem/pending/1"
_MIN_PREFIX = 4


@dataclass(frozen=True)
class PendingItem:
    """One proposal: the draft as it will be captured, and what was found about it."""

    id: str
    draft: Draft
    verbatim: bool
    """Its quote was found word for word in its own message."""
    reason: str | None
    """Why the quote did not verify (None when it did, or there is none)."""
    audit: Audit | None = None

    @property
    def trust(self) -> Trust:
        """The trust it will be stored with: inferred unless its quote verified."""
        if self.draft.trust == Trust.VERBATIM and not self.verbatim:
            return Trust.INFERRED
        return self.draft.trust

    @property
    def held(self) -> bool:
        """Audited and not kept: approved only by its id, never by ``--all``."""
        return self.audit is not None and not self.audit.kept

    def to_json(self) -> dict[str, Any]:
        d = self.draft
        return {
            "id": self.id,
            "kind": d.kind,
            "text": d.text,
            "proposed_trust": d.trust,
            "quote": d.quote,
            "extra": d.extra,
            "message": d.message,
            "quote_verified": self.verbatim,
            "quote_reason": self.reason,
            "audit": None if self.audit is None else self.audit.to_json(),
        }

    @classmethod
    def from_json(cls, value: Any, where: str) -> PendingItem:
        """Raises InputError for anything that is not a staged item."""
        try:
            kind, trust = value["kind"], value["proposed_trust"]
            message = value["message"]
            if kind not in KINDS or trust not in TRUST_CLASSES:
                raise ValueError("kind or trust")
            if not isinstance(message, int) or not isinstance(value["extra"], dict):
                raise ValueError("message or extra")
            draft = Draft(
                Kind(kind),
                str(value["text"]),
                Trust(trust),
                None if value["quote"] is None else str(value["quote"]),
                dict(value["extra"]),
                message,
            )
            return cls(
                str(value["id"]),
                draft,
                value["quote_verified"] is True,
                None if value["quote_reason"] is None else str(value["quote_reason"]),
                Audit.from_json(value.get("audit")),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{where} holds an unreadable item; delete the file") from e


@dataclass(frozen=True)
class PendingImport:
    """One import waiting for approval."""

    id: str
    """The SHA-256 of the snapshot: the same export imported again is the same import."""
    session: str
    format: str
    name: str
    source: str
    created: str
    masked: int
    snapshot: str
    items: tuple[PendingItem, ...] = field(default_factory=tuple)

    def without(self, ids: Iterable[str]) -> PendingImport:
        gone = set(ids)
        return replace(self, items=tuple(i for i in self.items if i.id not in gone))

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "import": self.id,
            "session": self.session,
            "format": self.format,
            "name": self.name,
            "source": self.source,
            "created": self.created,
            "masked": self.masked,
            "snapshot": self.snapshot,
            "items": [i.to_json() for i in self.items],
        }


class Staging:
    """The pending folder of one repository."""

    def __init__(self, local_dir: Path) -> None:
        self.dir = local_dir / PENDING_DIR

    def imports(self) -> list[PendingImport]:
        """Every pending import, oldest first.

        Raises:
            InputError: a pending file is unreadable (the sentence names it).
        """
        found = [self._load(path) for path in sorted(self.dir.glob("*.json"))]
        return sorted(found, key=lambda i: (i.created, i.id))

    def items(self) -> Iterator[tuple[PendingImport, PendingItem]]:
        for imported in self.imports():
            for item in imported.items:
                yield imported, item

    def save(self, imported: PendingImport) -> None:
        """Write *imported*, or delete its file when no item is left."""
        path = self.dir / f"{imported.id}.json"
        if not imported.items:
            path.unlink(missing_ok=True)
            return
        data = json.dumps(imported.to_json(), ensure_ascii=False, indent=1, sort_keys=True)
        atomic_write(path, (data + "\n").encode("utf-8"), 0o600)

    def find(self, ids: Iterable[str]) -> list[tuple[PendingImport, PendingItem]]:
        """The pending items *ids* name (full ids or unique prefixes), in the order given.

        Raises:
            InputError: an id names no pending item, or several.
        """
        every = list(self.items())
        chosen: list[tuple[PendingImport, PendingItem]] = []
        for given in ids:
            ident = given.strip().lower()
            matches = [(imp, item) for imp, item in every if item.id.startswith(ident)]
            if len(ident) < _MIN_PREFIX or not matches:
                raise InputError(f"no pending item {given!r}; see `gitmem pending list`")
            if len({item.id for _, item in matches}) > 1:
                raise InputError(f"{given!r} names {len(matches)} pending items; give more of it")
            if matches[0][1].id not in {item.id for _, item in chosen}:
                chosen.append(matches[0])
        return chosen

    def _load(self, path: Path) -> PendingImport:
        where = f"the pending file {path}"
        try:
            value = boundedjson.loads(path.read_text(encoding="utf-8"))
            imported = PendingImport(
                str(value["import"]),
                str(value["session"]),
                str(value["format"]),
                str(value["name"]),
                str(value["source"]),
                str(value["created"]),
                int(value["masked"]),
                str(value["snapshot"]),
            )
            raw_items = value["items"]
            if value.get("schema") != SCHEMA or not isinstance(raw_items, list):
                raise ValueError("schema")
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
            raise InputError(f"{where} is unreadable; delete it to drop its proposals") from e
        items = tuple(PendingItem.from_json(i, where) for i in raw_items)
        return replace(imported, items=items)
