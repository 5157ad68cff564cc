"""``gitmem import``: capture every transcript in a folder, once.

Idempotent by content: a transcript whose (masked) snapshot is already stored is
skipped, so running an import again, or over an overlapping folder, adds nothing.

A folder of sessions may hold other projects' too (Codex keeps every project's under
``~/.codex/sessions/YYYY/MM/DD/``; ``~/.claude/projects/`` holds a folder per project):
a session that names the folder it ran in, when that folder is on this machine and in
another repository (or none), is skipped with a note, unless asked for
(:class:`Folders`). Memory of one project is never pushed with another's by mistake. A
folder that is not on this machine (moved, or another machine's path) cannot be told
apart, and is imported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gitmem.capture.extract import NO_OVERRIDES, ModelOverrides
from gitmem.capture.prepare import prepare
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import NotTranscriptError, load_transcript, require_conversation
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import GitmemError, InputError
from gitmem.core.records import parse_time
from gitmem.core.transcript import host_time
from gitmem.core.types import Sha256Hex
from gitmem.store.repo import Store
from gitmem.store.repository import common_folder, repository_folder

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
    elsewhere: bool = False
    """A session that ran in a folder of another repository: skipped (:class:`Folders`)."""

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
    """Transcript-like files under *folder*, oldest first (:func:`last_said`); hidden
    folders are skipped.
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
    return sorted(found, key=lambda p: (last_said(p), str(p)))


_STAMP = re.compile(
    rb'"(?:timestamp|time|created_at|updated_at)"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]{1,40})"'
)
_TAIL = 256 * 1024


def last_said(path: Path) -> float:
    """When the session of *path* last spoke, as POSIX seconds: the latest timestamp its
    last :data:`_TAIL` bytes hold (JSON Lines of every host write one per record), else
    the file's modification time. Files copied or checked out together share one
    modification time; their own times order the captures of a growing session (a
    checkpoint at every turn) as they were made. Raises nothing."""
    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - _TAIL))
            tail = f.read(_TAIL)
        stamps = (host_time(m.group(1).decode("ascii", "replace")) for m in _STAMP.finditer(tail))
        found = max((s for s in stamps if s is not None), default=None)
        return parse_time(found).timestamp() if found else path.stat().st_mtime
    except OSError:
        return 0.0


class Folders:
    """Whether the folder a session ran in belongs to another repository than *store*'s
    (its worktrees are one repository: :func:`~gitmem.store.repository.common_folder`),
    asked of the file system once per folder."""

    def __init__(self, store: Store) -> None:
        self._own = common_folder(Path(store.repo.path))
        self._seen: dict[str, bool] = {}

    def elsewhere(self, cwd: str | None) -> bool:
        """True when *cwd* is a folder on this machine that is not in this repository;
        False for one in it, or one that cannot be told (none named, not absolute, not
        on this machine). Raises nothing."""
        if not cwd:
            return False
        known = self._seen.get(cwd)
        if known is None:
            folder = Path(cwd)
            on_this_machine = folder.is_absolute() and _is_dir(folder)
            known = on_this_machine and repository_folder(folder) != self._own
            self._seen[cwd] = known
        return known


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def bulk_extractor(
    explicit: str | None, configured: str, files: int
) -> tuple[str | None, str | None]:
    """The extractor an import of *files* sessions runs, and the notice that says why it
    is not the *configured* one (None: it is). A model extractor (a host CLI's, a command,
    an endpoint) asks a model for every session, at a cost per call: a backfill of more
    than one session runs the heuristic unless the extractor is named (*explicit*).
    Raises nothing."""
    if explicit is not None or files <= 1 or configured in ("heuristic", "none"):
        return explicit, None
    return "heuristic", (
        f"importing {files} files with the heuristic: the configured extractor "
        f"{configured!r} asks a model for every session; `--extractor {configured}` uses it "
        "here"
    )


def import_folder(
    ctx: Context,
    files: list[Path],
    format: str | None,
    extractor: str | None,
    overrides: ModelOverrides = NO_OVERRIDES,
    progress: Callable[[FileOutcome], None] = lambda _: None,
    folders: Folders | None = None,
) -> list[FileOutcome]:
    """Capture each file unless its snapshot is already stored; one failure never
    stops the rest. The files are one batch (:meth:`~gitmem.lifecycle.workspace.Workspace.batch`):
    each costs the same however much the store holds. With *folders*, a session that
    ran in another repository's folder is skipped (:attr:`FileOutcome.elsewhere`).

    Raises:
        GitError: the memory ref cannot be read.
    """
    known = set(ctx.store.addresses("snapshots"))
    outcomes: list[FileOutcome] = []
    with ctx.batch():
        for path in files:
            outcome = _one(ctx, path, format, extractor, overrides, known, folders)
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
    folders: Folders | None,
) -> FileOutcome:
    try:
        if path.stat().st_size > MAX_BYTES:
            return FileOutcome(path, "failed", error=f"larger than {MAX_BYTES >> 20} MB")
        transcript = load_transcript(path, format)
        require_conversation(transcript)
        if folders is not None and folders.elsewhere(transcript.cwd):
            reason = f"a session of another folder, {transcript.cwd}, not this repository"
            return FileOutcome(path, "skipped", reason=reason, elsewhere=True)
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
