"""Commit messages as memory, and what an amend, rebase or squash does to them.

With no agent transcript to capture, the post-commit hook captures the commit's message
as a session of its own (``commit-<sha12>``). When git rewrites that commit, the old
message's decisions would stay current beside the new message's, both ``✓ verbatim``.
So a rewrite captures the new commit's message (unless that was done already) and
retires every open item whose only source was the old message: a signed ``supersede``
event names the new message's item of the same kind that replaces it, or, when the new
message holds none, the new commit. An item another session corroborated keeps standing:
it no longer rests on the old message alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygit2

from gitmem.capture.run import CaptureResult, Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.errors import GitmemError
from gitmem.core.extractors import HOST_EXTRACTORS
from gitmem.core.records import EVENT_SUPERSEDE
from gitmem.lifecycle.replay import ItemState


def commit_session(sha: str) -> str:
    """The session a commit's message is captured as. Raises nothing."""
    return f"commit-{sha[:12]}"


def capture_message(
    ctx: Context, sha: str, source: str, again: bool = False
) -> CaptureResult | None:
    """Capture the message of commit *sha* as its own session, once: None when that
    session already has an item (unless *again*: then it is written even when memory
    holds it, as after its items were retired).

    Raises:
        GitmemError: *sha* is not a commit, or the capture failed (see
            :func:`gitmem.capture.run.capture_transcript`).
    """
    session = commit_session(sha)
    if not again and ctx.sighted_in(session):
        return None
    commit = ctx.store.repo.get(sha)
    if not isinstance(commit, pygit2.Commit):
        raise GitmemError(f"{sha} is not a commit")
    transcript = parse_transcript(
        commit.message.encode("utf-8", "replace"), f"commit {sha[:12]}", "text"
    )
    # A commit message is short and marked: a host CLI's model is for sessions.
    by_rules = "heuristic" if ctx.settings.get("extractor") in HOST_EXTRACTORS else None
    return capture_transcript(
        ctx,
        transcript,
        None,
        source=source,
        extractor=by_rules,
        session=session,
        commit=sha,
        again=again,
    )


def retire_rewritten(ctx: Context, rewrites: Sequence[tuple[str, str]], how: str) -> list[str]:
    """Supersede the open items whose only source was a rewritten commit's message; the
    addresses of the events written.

    When the new message's items are already stored (its post-commit ran first), each
    retired item is superseded by the new item of its kind. Otherwise the retired items go
    first, naming the new commit, and the new message is captured after them: captured
    while they were open, a message that says them again (an amend that keeps its message,
    a rebase) would have been taken for the same claims said again, and its items never
    stored.

    Raises:
        GitmemError: a new commit could not be read or captured, or an event not stored.
    """
    written: list[str] = []
    for old, new in rewrites:
        retired = _only_from(ctx.memory().items.values(), commit_session(old))
        if not retired:
            continue
        successors = _only_from(ctx.memory().items.values(), commit_session(new))
        for state in retired:
            match = next((s for s in successors if s.item.kind == state.item.kind), None)
            extra = {"by": match.id} if match is not None else {"by_commit": new}
            written.append(ctx.write(EVENT_SUPERSEDE, state, {**extra, "how": how}))
        if not successors:
            capture_message(ctx, new, f"post-rewrite {how} {new[:12]} message", again=True)
    return written


def _only_from(states: Iterable[ItemState], session: str) -> list[ItemState]:
    """Open items first said in *session* and seen, or corroborated, nowhere else."""
    return [
        s
        for s in states
        if s.active
        and s.item.origin_session == session
        and not s.corroborations
        and all(sighting.session == session for sighting in s.sightings)
    ]
