"""The sources an ask reads: the repository's files at HEAD and the memory's verbatim
items, each with an immutable snapshot id; and the freshness check of a source.

Files come from the HEAD commit's tree, so the snapshot of a file is its git blob: its
id names its exact bytes. Text files only (UTF-8, no NUL byte), at most
:data:`MAX_FILE_BYTES` each; secrets are masked line by line before any line is shown
to a model (a file whose masking would join lines, such as a private key block, is
left out, so line numbers always mean the blob's lines).

A memory source is a current item with a verified verbatim quote; its snapshot id is
the checkpoint that stores it (content-addressed, signed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pygit2

from gitmem.capture.masking import mask
from gitmem.core.items import Trust
from gitmem.lifecycle.replay import MemoryState
from gitmem.store.repo import Store

MAX_FILE_BYTES = 512 * 1024
MAX_TOTAL_BYTES = 32 * 1024 * 1024
"""Files past this total (in tree order) are not read: an ask stays interactive."""
_BINARY_PROBE = 8000


@dataclass(frozen=True)
class Document:
    """One source before retrieval: its lines (masked) and its snapshot id."""

    kind: str
    path: str
    blob: str
    lines: tuple[str, ...]
    note: str | None = None
    item: str | None = None
    quote: str | None = None
    """For a memory source: the item's verified quote, as stored."""
    item_kind: str | None = None
    """For a memory source: what the item is (a decision, an open loop, …)."""


def head_documents(store: Store) -> tuple[str | None, list[Document]]:
    """The HEAD commit and its text files (empty on an unborn branch)."""
    head = store.head_commit()
    if head is None:
        return None, []
    commit = store.repo.get(head)
    if not isinstance(commit, pygit2.Commit):
        return head, []
    documents: list[Document] = []
    total = 0
    for path, blob in _blobs(commit.tree, ""):
        if blob.size > MAX_FILE_BYTES or total + blob.size > MAX_TOTAL_BYTES:
            continue
        total += blob.size
        data = blob.data
        if b"\0" in data[:_BINARY_PROBE]:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        lines = _masked_lines(text)
        if lines is not None:
            documents.append(Document("file", path, str(blob.id), lines))
    return head, documents


def memory_documents(state: MemoryState) -> list[Document]:
    """The current items whose verbatim quote verified: their quotes are sources."""
    documents = []
    for item_state in state.items.values():
        quote = item_state.quote
        if not item_state.current or item_state.trust != Trust.VERBATIM or not quote:
            continue
        documents.append(
            Document(
                "memory",
                f"memory:{item_state.id}",
                item_state.origin_checkpoint,
                tuple(quote.split("\n")),
                note=item_state.item.text,
                item=item_state.id,
                quote=quote,
                item_kind=item_state.item.kind,
            )
        )
    return documents


def _blobs(tree: pygit2.Tree, prefix: str) -> Iterator[tuple[str, pygit2.Blob]]:
    for entry in tree:
        name = f"{prefix}{entry.name}"
        if isinstance(entry, pygit2.Tree):
            yield from _blobs(entry, f"{name}/")
        elif isinstance(entry, pygit2.Blob) and entry.filemode != pygit2.enums.FileMode.LINK:
            yield name, entry


def _masked_lines(text: str) -> tuple[str, ...] | None:
    lines = text.splitlines()
    masked = mask(text)
    if not masked.findings:
        return tuple(lines)
    result = tuple(masked.text.splitlines())
    return result if len(result) == len(lines) else None


def file_change(store: Store, path: str, blob: str) -> str | None:
    """Why the file at *path* no longer matches snapshot *blob*, or None when both the
    working tree and HEAD still hold exactly those bytes. The working tree's bytes are
    hashed as they are (no line-ending or filter conversion)."""
    head = store.head_commit()
    try:
        at_head = None if head is None else store.repo.revparse_single(f"{head}:{path}")
    except (KeyError, ValueError, pygit2.GitError):
        at_head = None
    if at_head is None:
        return f"{path} is no longer in HEAD"
    if str(at_head.id) != blob:
        return f"{path} changed in HEAD since it was read (now blob {str(at_head.id)[:12]})"
    workdir = store.repo.workdir
    if workdir is None:
        return None  # a bare repository has no working tree to differ
    try:
        data = (Path(workdir) / path).read_bytes()
    except OSError:
        return f"{path} is missing from the working tree"
    if str(pygit2.hash(data)) != blob:
        return f"{path} differs in the working tree from the blob read at HEAD"
    return None


def memory_change(state: MemoryState, item: str, quote: str) -> str | None:
    """Why memory item *item* no longer stands with *quote*, or None when it does."""
    found = state.items.get(item)
    if found is None or found.forgotten:
        return f"memory item {item[:8]} is no longer in the memory"
    if not found.current:
        return f"memory item {item[:8]} is no longer open"
    if found.quote != quote:
        return f"memory item {item[:8]} no longer holds the same verified quote"
    return None
