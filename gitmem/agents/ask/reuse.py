"""Outcome records, reused: an identical ask within the window reuses the record of
the first instead of writing another.

Two asks are identical when their **reuse key** is: the SHA-256 of the (masked) question,
the mode and the model (a digest of the backend's command line, or of its endpoint and
model name), every passage the ask would read (each excerpt's and each
widened candidate's kind, path, snapshot id and lines) and which of those sources differ
now from their snapshots. So an edit, a commit, a new memory item that retrieval finds
or another model makes a new ask; an unrelated change does not.

The record is found through a local lookup file (``.git/gitmem/ask/index.json``: key →
kind and address, never pushed) and then read back and checked: a signed event must
verify under the reader's trust roots and name the same key; a local record
(``--no-record``, ``.git/gitmem/ask/<sha256>.json``) must hash to its name and name the
same key. Its own timestamp must lie within the window. Anything else, or a damaged
lookup file, means no reuse: the ask runs and writes its record. The default ask reuses
signed records only; ``--no-record`` reuses either.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitmem.agents.ask.result import AskResult, Excerpt, RecordInfo
from gitmem.core import canonical
from gitmem.core.errors import FormatError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Event, parse_time
from gitmem.core.types import Sha256Hex
from gitmem.store.files import atomic_write, read_state
from gitmem.store.layout import content_path, record_path
from gitmem.store.repo import Store

WINDOW_SETTING = "ask.reuse_window"
SIGNED, LOCAL = "signed", "local"
_FOLDER = "ask"
_LOOKUP_FILE = "index.json"  # its name on disk, kept; "index" is the SQLite index
_KEEP_SECONDS = 86_400
"""Lookup entries older than the longest window are dropped when the file is written."""


def reuse_key(
    question: str,
    mode: str,
    model: str | None,
    passages: Iterable[Excerpt],
    changed: Iterable[str],
) -> str:
    """The reuse key (see the module docstring). Pure."""
    material = {
        "format": "gitmem/ask-reuse/1",
        "question": question,
        "mode": mode,
        "model": model,
        "passages": sorted({(e.kind, e.path, e.blob, e.start, e.end) for e in passages}),
        "changed": sorted(set(changed)),
    }
    return canonical.sha256_hex(json.dumps(material, sort_keys=True).encode("utf-8"))


def folder(local_dir: Path) -> Path:
    return local_dir / _FOLDER


def find(
    store: Store,
    roots: TrustRoots,
    key: str,
    window: int,
    now: datetime,
    allow_local: bool,
) -> AskResult | None:
    """The reusable result recorded under *key* within *window* seconds, or None."""
    entry = _load_lookup(store.local_dir).get(key)
    if not isinstance(entry, dict) or window <= 0:
        return None
    kind, address = entry.get("kind"), entry.get("address")
    if not isinstance(address, str) or len(address) != 64:
        return None
    found = (
        _signed(store, roots, Sha256Hex(address))
        if kind == SIGNED
        else _local(store.local_dir, address)
        if kind == LOCAL and allow_local
        else None
    )
    if found is None:
        return None
    data, created = found
    try:
        age = (now - parse_time(created)).total_seconds()
        if data.get("reuse_key") != key or not 0 <= age <= window:
            return None
        result = AskResult.from_record(data)
    except (FormatError, KeyError, TypeError, ValueError, AttributeError):
        return None
    info = RecordInfo(str(kind), address, created, reused=True)
    return replace(result, event=address if kind == SIGNED else None, record=info)


def remember(local_dir: Path, key: str, info: RecordInfo, now: datetime) -> None:
    """Add *key* → *info* to the lookup file (best effort: a failure only costs a reuse)."""
    lookup = _load_lookup(local_dir)
    stamp = now.timestamp()
    lookup = {
        k: v
        for k, v in lookup.items()
        if isinstance(v, dict) and stamp - float(v.get("at", 0)) <= _KEEP_SECONDS
    }
    lookup[key] = {"kind": info.kind, "address": info.address, "at": int(stamp)}
    try:
        data = json.dumps(lookup, sort_keys=True, indent=0).encode("utf-8")
        atomic_write(folder(local_dir) / _LOOKUP_FILE, data, 0o600)
    except OSError:
        pass


def write_local(local_dir: Path, record: dict[str, Any]) -> Sha256Hex:
    """Keep *record* as a local record (canonical JSON named by its SHA-256).

    Raises:
        InputError: the record cannot be stored as canonical JSON.
        OSError: the file could not be written.
    """
    data = canonical.encode(record)
    address = canonical.sha256_hex(data)
    atomic_write(folder(local_dir) / f"{address}.json", data, 0o600)
    return address


def _load_lookup(local_dir: Path) -> dict[str, Any]:
    value = read_state(folder(local_dir) / _LOOKUP_FILE)
    return value if isinstance(value, dict) else {}


def _signed(
    store: Store, roots: TrustRoots, address: Sha256Hex
) -> tuple[dict[str, Any], str] | None:
    data = store.read_path(record_path("event", address))
    if data is None:
        return None
    check = roots.check(address, data, store.read_path(content_path("receipts", address)), "event")
    record = check.record
    if not check.ok or not isinstance(record, Event):
        return None
    return dict(record.extra), record.created


def _local(local_dir: Path, address: str) -> tuple[dict[str, Any], str] | None:
    try:
        data = (folder(local_dir) / f"{address}.json").read_bytes()
        if canonical.sha256_hex(data) != address:
            return None
        value = canonical.decode(data)
    except (OSError, FormatError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("created"), str):
        return None
    return value, value["created"]


def changed_sources(
    passages: Sequence[Excerpt], checker: Callable[[Excerpt], str | None]
) -> list[str]:
    """The paths among *passages* whose source differs from its snapshot now."""
    return sorted({e.path for e in passages if checker(e) is not None})
