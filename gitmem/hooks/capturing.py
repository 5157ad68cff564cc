"""The hooks' captures: commits (post-commit), a session that ended (capture-session),
a rewrite (post-rewrite), and the recovery of captures that died.

Each runs in the queue's worker (:mod:`gitmem.hooks.worker`), detached from the git or
host command that fired it, under the hook lock, and through
:func:`gitmem.hooks.run.run_logged`, which logs any failure.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pygit2

from gitmem.capture.commit_messages import capture_message, retire_rewritten
from gitmem.capture.masking.labels import mask_label
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.sessions import Cursors, find_agent_transcripts
from gitmem.capture.transcripts import NotTranscriptError, load_transcript, require_conversation
from gitmem.core.errors import FormatError, GitmemError
from gitmem.core.records import REWRITE, Checkpoint, parse_record
from gitmem.hooks import inflight
from gitmem.store.capturelog import CaptureLog
from gitmem.store.files import locked
from gitmem.store.repo import Store
from gitmem.store.seal import write_event

LOCK_FILE = "hook.lock"
MAX_TRANSCRIPTS = 3
POST_COMMIT = "post-commit"


def capture_new(
    ctx: Context,
    cursors: Cursors,
    path: Path,
    source: str,
    commit: str | None,
    session: str | None = None,
) -> bool:
    """Capture what *path* holds beyond its cursor; True when a checkpoint was written.
    A part that memory holds already moves the cursor too: it has been seen. A file that
    is no transcript of a supported host, or no conversation
    (:class:`~gitmem.capture.transcripts.NotTranscriptError`), writes nothing: the
    capture log says why, and its cursor stays.

    Raises:
        InputError: the file cannot be read.
        GitmemError: the capture failed (see :func:`capture_transcript`).
    """
    try:
        transcript = load_transcript(path)
        require_conversation(transcript)
    except NotTranscriptError as e:
        # A path or a line quoted in the reason can name a secret: the log must not keep it.
        ctx.log.write("skipped", mask_label(source).text, reason=mask_label(str(e)).text)
        return False
    part = cursors.new_part(path, transcript)
    if part is None:
        return False
    result = capture_transcript(
        ctx,
        part,
        path,
        source=source,
        commit=commit,
        session=session,
        written_at=path.stat().st_mtime,
    )
    cursors.advance(path, transcript)
    cursors.save()
    return result.written


def post_commit(store: Store, sha: str, environ: Mapping[str, str] | None = None) -> None:
    """Capture the commit *sha* now (:func:`capture_commits`), its in-flight marker
    ``.git/gitmem/running/post-commit-<sha>`` claimed meanwhile and removed when the
    capture ends, whatever the outcome. The hooks queue their commits instead
    (:mod:`gitmem.hooks.worker`)."""
    marker = inflight.start(store.local_dir, POST_COMMIT, sha)
    try:
        capture_commits(store, [sha], environ)
    finally:
        inflight.finish(marker)


def capture_commits(
    store: Store, shas: Sequence[str], environ: Mapping[str, str] | None = None
) -> None:
    """One capture for the commits *shas*, oldest first (one commit, or consecutive
    commits of one rebase): record each as a release candidate when
    ``release_candidates`` is set and it is on the default branch; then, under the hook
    lock, settle the background captures that died (:func:`recover`), capture the agent
    transcripts of this working tree since the last capture into checkpoints that record
    the newest commit, and the message of every other commit (of the newest too when
    no transcript said anything new), so every commit is named by a checkpoint. A
    capture that fails never stops the others.

    Raises:
        GitmemError: the first failure (every one is in the capture log).
    """
    env = os.environ if environ is None else environ
    shas = list(dict.fromkeys(shas))
    for sha in shas:
        record_candidate(store, sha)
    with locked(store.local_dir, LOCK_FILE):
        ctx = Context.open(store)
        recover(ctx, store)
        newest = shas[-1]
        configured = ctx.settings.text("transcript")
        workdir = Path(store.repo.workdir or store.common_dir).resolve()
        paths = [Path(configured)] if configured else find_agent_transcripts(workdir, env)
        cursors = Cursors(store.local_dir)
        captured = False
        failure: GitmemError | None = None
        for path in paths[:MAX_TRANSCRIPTS]:
            source = f"{POST_COMMIT} {newest[:12]} {path}"
            try:
                captured |= capture_new(ctx, cursors, path, source, newest)
            except GitmemError as e:  # logged; the commits' messages still go
                failure = failure or e
        for sha in shas:
            if captured and sha == newest:
                continue
            try:
                capture_message(ctx, sha, f"{POST_COMMIT} {sha[:12]} message")
            except GitmemError as e:  # logged by the capture; the next commits still go
                failure = failure or e
        if failure is not None:
            raise failure


def recover(ctx: Context, store: Store) -> list[str]:
    """Settle the background captures that died: the commit each was for, unless a
    checkpoint names it already, gets the checkpoint of its message; then the death is
    recorded as a failure in the capture log and the marker removed. A marker goes only
    once its commit is named, so a recovery that dies or fails (its failure is logged)
    leaves it for the next run, and never stops this one. The commits captured, oldest
    first. Raises nothing but what reading the store raises."""
    dead = inflight.dead(store.local_dir)
    if not dead:
        return []
    named = _named_commits(store)
    missed: list[str] = []
    for marker in dead:
        if marker.sha not in named and isinstance(store.repo.get(marker.sha), pygit2.Commit):
            source = f"{POST_COMMIT} {marker.sha[:12]} message (missed)"
            try:
                capture_message(ctx, marker.sha, source)
            except GitmemError:
                continue  # logged by the capture; the marker stays for the next run
            missed.append(marker.sha)
            named.add(marker.sha)
        ctx.log.write(
            "failed", f"{marker.hook} {marker.sha[:12]}", error=inflight.DIED, pid=marker.pid
        )
        inflight.finish(marker.path)
    return missed


def _named_commits(store: Store) -> set[str]:
    """The commits some stored checkpoint names (unverified: all this decides is whether
    to capture a commit's message once more)."""
    named: set[str] = set()
    for stored in store.read().records:
        try:
            record = parse_record(stored.data)
        except FormatError:
            continue
        if isinstance(record, Checkpoint) and record.commit is not None:
            named.add(record.commit)
    return named


def record_candidate(store: Store, sha: str) -> None:
    """With ``release_candidates`` set, record *sha* as an unsigned release candidate when
    it is on the default branch (never on another). Outside the capture lock, so a slow
    capture never delays it; a failure is logged and never stops the capture."""
    from gitmem.store.config import load_settings
    from gitmem.store.home import gitmem_home

    log = CaptureLog(store.local_dir)
    source = f"post-commit {sha[:12]} release candidate"
    try:
        if not load_settings(gitmem_home(), store.local_dir).get("release_candidates"):
            return
        from gitmem.team.release.flow import record_default_candidate

        written = record_default_candidate(store, sha)
    except GitmemError as e:
        log.write("failed", source, error=str(e))
        return
    if written is None:
        log.write("skipped", source, reason="not on the default branch")
    else:
        log.write("ok", source, record=written.address, new=written.new)


def capture_session(store: Store, path: str, session: str | None) -> None:
    """An agent session ended (or stopped): capture it from where the last capture
    stopped, after settling the background captures that died (:func:`recover`)."""
    with locked(store.local_dir, LOCK_FILE):
        ctx = Context.open(store)
        recover(ctx, store)
        cursors = Cursors(store.local_dir)
        capture_new(ctx, cursors, Path(path), f"session-end {path}", None, session)


def post_rewrite(store: Store, how: str, pairs_file: str) -> None:
    """Record which commits an amend or rebase rewrote, as one signed event, and retire
    the items whose only source was a rewritten commit's message
    (:mod:`gitmem.capture.commit_messages`)."""
    lines = Path(pairs_file).read_text(encoding="utf-8").splitlines()
    rewrites = [(p[0], p[1]) for p in (line.split() for line in lines) if len(p) >= 2]
    if not rewrites:
        return
    with locked(store.local_dir, LOCK_FILE):  # after the post-commit captures, not among them
        ctx = Context.open(store)
        write_event(
            store,
            ctx.identity,
            REWRITE,
            None,
            "git-rewrite",
            datetime.now(UTC),
            {"rewrites": [list(pair) for pair in rewrites], "how": how},
        )
        retired = retire_rewritten(ctx, rewrites, how)
        ctx.log.write("ok", f"post-rewrite {how}", rewrites=len(rewrites), retired=len(retired))
