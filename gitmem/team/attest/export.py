"""``gitmem export``: chosen items as signed in-toto statements, one DSSE envelope per
item, as JSON Lines (an in-toto bundle, ``.intoto.jsonl``).

The items and what is said of each come from :mod:`gitmem.brief.attest` (the reader's
brief, verified as the brief verifies); the statements from :mod:`gitmem.core.intoto`;
the signature is this user's gitmem key, over DSSE's pre-authentication encoding, with
the key's OpenSSH fingerprint as keyid. What several items share — a checkpoint, an
event, a snapshot — travels once per file, in the first envelope that names it; later
ones name it by digest (each keeps its own receipts, and its item).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from gitmem.brief.attest import Selection, chosen_items
from gitmem.core.errors import InputError
from gitmem.core.intoto.dsse import sign_envelope
from gitmem.core.intoto.memory import Exporter, MemoryItem, Stored, memory_item_statement
from gitmem.core.intoto.scai import scai_statement
from gitmem.core.intoto.statement import PAYLOAD_TYPE, payload_of
from gitmem.core.records import format_time
from gitmem.store.files import atomic_write
from gitmem.store.keys import load_identity
from gitmem.store.repo import Store

INTOTO = "intoto"
SCAI = "scai"
FORMATS = (INTOTO, SCAI)


class Exported(NamedTuple):
    items: int
    skipped: tuple[str, ...]
    """One sentence per chosen item that could not travel."""
    data: bytes
    """The bundle: one envelope per line."""


def export_memory(
    store: Store,
    home: Path,
    fmt: str,
    selection: Selection,
    output: Path | None = None,
    world_check: bool = True,
) -> Exported:
    """The chosen items as a bundle of signed statements in *fmt* (``intoto`` or
    ``scai``), written to *output* when given (whole or not at all).

    Raises:
        InputError: an unknown format, no selection, an unknown or ambiguous id, or a
            ``since`` that names no moment of this repository.
        SigningKeyError: no key to sign with (``gitmem init`` was never run).
        GitError: the memory ref cannot be read.
        OSError: *output* cannot be written.
    """
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}; known: {', '.join(FORMATS)}")
    identity = load_identity(home)
    chosen = chosen_items(store, home, selection, world_check)
    exporter = Exporter(
        identity.principal, identity.signer.public_key.fingerprint(), format_time(datetime.now(UTC))
    )
    sent: set[str] = set()
    lines: list[bytes] = []
    for item in chosen.items:
        if fmt == INTOTO:
            value = memory_item_statement(_once(item, sent), exporter)
        else:
            value = scai_statement(item, exporter)
        envelope = sign_envelope(PAYLOAD_TYPE, payload_of(value), identity.signer)
        lines.append(envelope.line())
    data = b"".join(lines)
    if output is not None:
        atomic_write(output, data, 0o644, dir_mode=0o755)
    return Exported(len(lines), chosen.skipped, data)


def _once(item: MemoryItem, sent: set[str]) -> MemoryItem:
    """*item* with the bytes of each record and snapshot an earlier envelope of the file
    already carries left out (named by digest all the same); its receipts stay in it."""

    def once(stored: Stored) -> Stored:
        if stored.digest in sent:
            return stored._replace(data=None)
        sent.add(stored.digest)
        return stored

    checkpoint = item.checkpoint._replace(record=once(item.checkpoint.record))
    events = tuple(
        e._replace(signed=e.signed._replace(record=once(e.signed.record))) for e in item.events
    )
    snapshots = tuple(once(s) for s in item.snapshots)
    return item._replace(checkpoint=checkpoint, events=events, snapshots=snapshots)
