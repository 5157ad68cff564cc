"""``gitmem import --format intoto FILE``: memory-item envelopes back into the store.

Every envelope is checked (:func:`gitmem.core.intoto.check.check_envelope`: DSSE
signature by a trusted exporter, subject digests against the bytes it brings, the
SSHSIG receipt of its checkpoint and of each event); a record or snapshot a line only
names (another line carries it) must be in the file or the store. Only then is anything
written: the item blobs,
records, receipts and snapshots at their own addresses, in one append to the memory
ref — the store's one write path. One envelope that does not hold refuses the whole
file, and the error names its line. Lines that are other attestations (another
predicate, another payload type) are skipped, as in-toto bundles ask of consumers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import GitmemError, InputError
from gitmem.core.intoto.check import Checked, CheckedItem, carried, check_envelope
from gitmem.core.intoto.dsse import Envelope, parse_envelope
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import content_path, receipt_path, record_path
from gitmem.store.repo import Entry, Store
from gitmem.store.roots import load_trust_roots

T = TypeVar("T")


class Imported(NamedTuple):
    items: int
    records: int
    snapshots: int
    skipped: int
    """Lines that are other attestations."""
    untrusted: int
    """Records brought whose signer no trust root of this reader vouches for (stored,
    as sync stores them; shown degraded until their key is trusted)."""
    written: bool
    """False when the store held all of it already."""


def import_attestations(store: Store, home: Path, path: Path) -> Imported:
    """Check every envelope of the bundle at *path*, then store what they bring.

    Raises:
        InputError: the file cannot be read, a line is not a DSSE envelope, or no line
            is a memory-item attestation (exit 2).
        TrustError: an envelope signed by a key no root trusts for its exporter (exit 3).
        IntegrityError: a signature, digest, receipt or snapshot that does not hold
            (exit 3). Nothing is written in any of these cases.
        GitError, NegativeResult: the store could not be written.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from e
    roots = load_trust_roots(home, store)
    lines: list[tuple[int, Envelope]] = []
    known: dict[str, bytes] = {}
    named: set[str] = set()
    for number, line in enumerate(data.split(b"\n"), 1):
        if line.strip():
            envelope = _at_line(path, number, parse_envelope, line)
            brought, pointed = carried(envelope)
            known.update(brought)
            named |= pointed
            lines.append((number, envelope))
    known.update(_stored(store, named - set(known)))
    checked: list[tuple[int, CheckedItem]] = []
    records: Checked = {}
    skipped = 0
    for number, envelope in lines:
        found = _at_line(path, number, check_envelope, envelope, roots, known, records)
        if found is None:
            skipped += 1
        else:
            checked.append((number, found))
    if not checked:
        raise InputError(f"{path} holds no gitmem memory-item attestation")
    entries = _entries(checked)
    tip = store.tip()
    commit = store.append(
        entries, message=f"gitmem: import {len(checked)} item(s) from {path.name}", author="gitmem"
    )
    each = {r.address: r for r in records.values()}
    return Imported(
        items=len({c.address for _, c in checked}),
        records=len(each),
        snapshots=sum(1 for e in entries if e.path.startswith("snapshots/")),
        skipped=skipped,
        untrusted=sum(1 for r in each.values() if not r.trusted),
        written=commit != tip,
    )


def _entries(checked: list[tuple[int, CheckedItem]]) -> list[Entry]:
    """What to append: snapshots, then items, then records and receipts (each once)."""
    found: dict[str, bytes] = {}
    for _, item in checked:
        for digest, data in item.snapshots.items():
            found[content_path("snapshots", Sha256Hex(digest))] = data
    for _, item in checked:
        found[content_path("items", item.address)] = item.data
    for _, item in checked:
        for record in item.records:
            found[record_path(record.record.type, record.address)] = record.data
            found[receipt_path(record.address)] = record.receipt
    return [Entry(p, d) for p, d in found.items()]


def _stored(store: Store, digests: Iterable[str]) -> dict[str, bytes]:
    """The bytes this store holds for *digests* (records and snapshots), where they hash
    to them: what a line that only names them may rely on."""
    wanted = [Sha256Hex(d) for d in digests]
    paths = {
        path: digest
        for digest in wanted
        for path in (
            record_path("checkpoint", digest),
            record_path("event", digest),
            content_path("snapshots", digest),
        )
    }
    found = store.read_paths(paths)
    return {paths[p]: data for p, data in found.items() if sha256_hex(data) == paths[p]}


def _at_line(path: Path, number: int, check: Callable[..., T], *args: Any) -> T:
    """*check*(*args*), its error saying which line of *path* it was about."""
    try:
        return check(*args)
    except GitmemError as e:
        raise type(e)(f"{path} line {number}: {e}") from e
