"""``gitmem import``: capture every transcript in a folder, once.

Idempotent by content: a transcript whose (masked) snapshot is already stored is
skipped, so running an import again, or over an overlapping folder, adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gitmem.capture.extract import NO_OVERRIDES, ModelOverrides
from gitmem.capture.prepare import prepare
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import NotTranscriptError, load_transcript, require_conversation
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import GitmemError, InputError
from gitmem.core.types import Sha256Hex

SUFFIXES = (".jsonl", ".json", ".md", ".markdown", ".txt")
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class FileOutcome:
    path: Path
    status: str  # "captured", "skipped" or "failed"
    checkpoint: str | None = None
    items: int = 0
    error: str | None = None
    reason: str | None = None
    """Why a file was skipped: already stored, nothing in it to store, or not a
    transcript."""
    transcript: bool = True
    """False for a file that is no transcript of any supported host, or no conversation
    (:class:`~gitmem.capture.transcripts.NotTranscriptError`): skipped, and not
    importable."""

    def to_json(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "status": self.status,
            "checkpoint": self.checkpoint,
            "items": self.items,
            "error": self.error,
            "reason": self.reason,
        }


def candidate_files(folder: Path) -> list[Path]:
    """Transcript-like files under *folder*, oldest first; hidden folders are skipped.
    *folder* a regular file: that one file, whatever its name (the user named it).

    Raises:
        InputError: *folder* is neither a folder nor a regular file.
    """
    if folder.is_file():
        return [folder]
    if not folder.is_dir():
        what = "not a folder or a regular file" if folder.exists() else "no such folder or file"
        raise InputError(f"{what}: {folder}")
    found = [
        p
        for p in folder.rglob("*")
        if p.suffix.lower() in SUFFIXES
        and p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(folder).parts[:-1])
    ]
    return sorted(found, key=lambda p: (p.stat().st_mtime, str(p)))


def import_folder(
    ctx: Context,
    files: list[Path],
    format: str | None,
    extractor: str | None,
    overrides: ModelOverrides = NO_OVERRIDES,
    progress: Callable[[FileOutcome], None] = lambda _: None,
) -> list[FileOutcome]:
    """Capture each file unless its snapshot is already stored; one failure never
    stops the rest. The files are one batch (:meth:`~gitmem.lifecycle.workspace.Workspace.batch`):
    each costs the same however much the store holds.

    Raises:
        GitError: the memory ref cannot be read.
    """
    known = set(ctx.store.addresses("snapshots"))
    outcomes: list[FileOutcome] = []
    with ctx.batch():
        for path in files:
            outcome = _one(ctx, path, format, extractor, overrides, known)
            outcomes.append(outcome)
            progress(outcome)
    return outcomes


def _one(
    ctx: Context,
    path: Path,
    format: str | None,
    extractor: str | None,
    overrides: ModelOverrides,
    known: set[Sha256Hex],
) -> FileOutcome:
    try:
        if path.stat().st_size > MAX_BYTES:
            return FileOutcome(path, "failed", error=f"larger than {MAX_BYTES >> 20} MB")
        transcript = load_transcript(path, format)
        require_conversation(transcript)
        prepared = prepare(transcript, ctx.emitted, path.stat().st_mtime)
        del transcript  # the text as read is not kept beside its masked copy
        digest = sha256_hex(prepared.snapshot)
        if digest in known:
            return FileOutcome(path, "skipped", reason="already captured")
        result = capture_transcript(
            ctx, prepared, path, source=f"import {path}", extractor=extractor, overrides=overrides
        )
    except NotTranscriptError as e:
        return FileOutcome(path, "skipped", reason=str(e), transcript=False)
    except GitmemError as e:
        return FileOutcome(path, "failed", error=str(e))
    known.add(digest)
    if result.skipped is not None:
        return FileOutcome(path, "skipped", result.checkpoint, reason=result.skipped)
    return FileOutcome(path, "captured", result.checkpoint, len(result.items))
