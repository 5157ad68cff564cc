"""Capture as commands, hooks and MCP run it: settings, extractor, ledger and log together.

One straight pipeline, :func:`capture_transcript`:

1. prepare the transcript once: echoes tagged, secrets masked (:mod:`gitmem.capture.prepare`);
2. decide what goes into it: explicit items, or an extractor's (a model's raw reply is
   kept in the capture log before it is parsed);
3. build the checkpoint and its events over the memory so far
   (:func:`gitmem.capture.checkpoint.build_checkpoint`, which writes nothing);
4. append them in one commit, and keep the context's memory current;
5. record the attempt in the capture log, a failure included.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gitmem.capture.checkpoint import Built, build_checkpoint, mask_draft
from gitmem.capture.extract import NO_OVERRIDES, ModelOverrides, run_extractor
from gitmem.capture.masking.labels import mask_label
from gitmem.capture.prepare import Prepared, prepare
from gitmem.capture.transcripts import load_transcript, parse_transcript
from gitmem.core.claims import project_of
from gitmem.core.errors import GitmemError
from gitmem.core.items import Draft, Item, Trust
from gitmem.core.purge import resolve_snapshot
from gitmem.core.quotes import check_stored_quotes
from gitmem.core.records import Checkpoint
from gitmem.core.transcript import Transcript
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.lifecycle.wording import remember_verdicts
from gitmem.lifecycle.workspace import Holders, Workspace
from gitmem.llm import ModelError
from gitmem.store.branches import head_branch
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings, load_settings
from gitmem.store.home import gitmem_home
from gitmem.store.keys import Identity, load_identity
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store
from gitmem.store.repository import remote_url


@dataclass(frozen=True)
class CaptureResult:
    """What one capture wrote (*built*: the checkpoint, its new items and the events with
    it), or why it wrote nothing (*skipped*)."""

    session: str
    snapshot: Sha256Hex
    built: Built | None = None
    skipped: str | None = None
    """Why nothing was written (``already captured (checkpoint …)``, ``nothing new …``,
    ``the transcript holds no messages``); None when the checkpoint was written."""
    holder: Sha256Hex | None = None
    """For a capture that wrote nothing, the checkpoint that holds this transcript part
    already (None when there is none)."""

    @property
    def written(self) -> bool:
        return self.built is not None

    @property
    def checkpoint(self) -> Sha256Hex | None:
        """The checkpoint written, else :attr:`holder`."""
        return self.holder if self.built is None else self.built.address

    @property
    def items(self) -> tuple[Item, ...]:
        """The items this capture stored for the first time (carried ones excluded)."""
        return () if self.built is None else self.built.new

    @property
    def carried(self) -> int:
        return 0 if self.built is None else self.built.carried

    @property
    def corroborated(self) -> tuple[str, ...]:
        """Open items this capture's verified quotes corroborated."""
        return () if self.built is None else self.built.corroborated

    @property
    def aged_out(self) -> tuple[str, ...]:
        return () if self.built is None else self.built.aged_out

    def to_json(self) -> dict[str, Any]:
        """The ``capture --json`` document."""
        return {
            "checkpoint": self.checkpoint,
            "written": self.written,
            "skipped": self.skipped,
            "session": self.session,
            "items": [
                {
                    "id": i.id,
                    "kind": i.kind,
                    "text": i.text,
                    "trust": i.trust,
                    "quote": i.quote,
                    "quote_verified": i.quote_verified,
                }
                for i in self.items
            ],
        }


def default_session(transcript: Transcript, path: Path | None) -> str:
    """The session a capture belongs to when none is given.

    The transcript's own session id when its format has one (a subagent's or
    compaction's file: ``<parent session>/agent-<id>``, see
    :attr:`~gitmem.core.transcript.Transcript.own_session`); otherwise one derived from
    the file's absolute path, so a transcript that grows between captures stays one
    session.
    """
    if transcript.own_session:
        return transcript.own_session
    where = str(path.resolve()) if path is not None else transcript.name
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()
    return f"file-{digest[:12]}"


def session_of(transcript: Transcript, path: Path | None, given: str | None) -> str:
    """*given*, else :func:`default_session`. A side run is never filed under its
    parent's id, even when a host names that id as the session: that would merge the
    two into one session."""
    if given is None or (transcript.agent is not None and given == transcript.session):
        return default_session(transcript, path)
    return given


class Context(Workspace):
    """Everything a capture needs besides its transcript: the workspace (store, home,
    trust roots, memory, identity) with the settings, the capture log and the emission
    ledger."""

    settings: Settings
    log: CaptureLog
    emitted: dict[str, float]

    @classmethod
    def open(
        cls, store: Store, home: Path | None = None, identity: Identity | None = None
    ) -> Context:
        """The context of *store* for the user of *home* (default ``$GITMEM_HOME``),
        signing as *identity* (default: the one *home* holds).

        Raises:
            SigningKeyError: no key yet.
            InputError: a malformed config.
        """
        home = gitmem_home() if home is None else home
        ctx = cls(store, home, identity=load_identity(home) if identity is None else identity)
        ctx.settings = load_settings(home, store.local_dir)
        ctx.log = CaptureLog(store.local_dir)
        ctx.emitted = Ledger(store.local_dir).load()
        return ctx


def capture_transcript(
    ctx: Context,
    transcript: Transcript | Prepared,
    path: Path | None,
    *,
    source: str,
    drafts: Sequence[Draft] | None = None,
    extractor: str | None = None,
    overrides: ModelOverrides = NO_OVERRIDES,
    session: str | None = None,
    commit: str | None = None,
    written_at: float | None = None,
    again: bool = False,
    now: datetime | None = None,
) -> CaptureResult:
    """Capture one transcript (prepared here unless it is already, see the module):
    explicit *drafts*, or the extractor's (settings default). Every writer of a
    checkpoint goes through here.

    With explicit drafts and no explicit extractor, nothing is extracted: the agent said
    what to remember. With both, both are stored. A *session* given is masked like the
    transcript's own; so are *source* and the error in the capture log. Unless *again*, a
    capture that adds nothing is not written (:func:`skip_reason`). *now* (default: the
    clock) is when it is captured; *commit* defaults to HEAD's.

    Raises:
        GitmemError: bad input, a model failure, or a store that cannot be written;
            every failure is also in the capture log.
    """
    if isinstance(transcript, Prepared):
        prepared = transcript
    else:
        prepared = prepare(transcript, ctx.emitted, written_at)
    chosen = extractor or ("none" if drafts is not None else ctx.settings.get("extractor"))
    source = mask_label(source).text
    session = None if session is None else mask_label(session).text
    session = session_of(prepared.transcript, path, session)
    snapshot = prepared.snapshot_address
    try:
        said = any(m.text.strip() for m in prepared.transcript.messages)
        if not said and not drafts and commit is None:
            return _skipped(ctx, source, session, snapshot, NO_MESSAGES)
        messages = prepared.clean_messages()
        project = project_of(remote_url(ctx.store.repo))
        found = run_extractor(chosen, messages, ctx.settings, ctx.log, source, overrides, project)
        named = commit is not None
        commit = commit if commit is not None else ctx.store.head_commit()
        if again:
            state, held = ctx.current(), None
        else:
            state, held = ctx.holding(snapshot, commit, session)
        built = build_checkpoint(
            prepared,
            [*(drafts or []), *found.drafts],
            session,
            ctx.identity,
            now or datetime.now(UTC),
            commit,
            state,
            head_branch(ctx.store),
            whole=not drafts and chosen != "none",
        )
        if snapshot in state.replaced and _cites_purged_text(ctx.store, state, built):
            return _skipped(ctx, source, session, snapshot, PURGED_BYTES)
        told = bool(drafts)
        if held is not None and (why := skip_reason(built, state, held, named=named, told=told)):
            return _skipped(ctx, source, session, snapshot, why, held.snapshot)
        ctx.append(built.entries, message=built.message, author=ctx.identity.principal)
    except GitmemError as e:
        if not isinstance(e, ModelError):  # a model's failure is logged with its reply
            ctx.log.write("failed", source, extractor=chosen, error=mask_label(str(e)).text)
        raise
    ctx.written(built.records)
    if not ctx.batching:  # (a batch leaves it to the first brief: a rewrite per capture)
        # what each new verbatim item shows beside its badge, as this capture checked it
        shown = [i.address for i in built.new if i.trust == Trust.VERBATIM and i.quote != i.text]
        remember_verdicts(ctx.store.local_dir, dict.fromkeys(shown, None))
    ctx.log.write(
        "ok",
        source,
        checkpoint=built.address,
        session=built.session,
        items=len(built.new),
        **found.log_fields(),
        echo_lines=prepared.echo_lines,
        masked=prepared.masked,
        skipped_lines=len(prepared.transcript.skipped),
    )
    return CaptureResult(built.session, snapshot, built)


def skip_reason(
    built: Built, state: MemoryState, held: Holders, *, named: bool, told: bool
) -> str | None:
    """Why a capture writes nothing (None: it is written).

    A commit a hook *named* that no checkpoint names yet is always written: it records
    the commit, even for a transcript part memory holds already. Otherwise the same
    snapshot of the same session is captured already (unless items were *told*
    explicitly: they are not in the snapshot), and a known session's capture that adds
    nothing new writes nothing. A new session is written even when it says nothing new: it passed
    without corroborating what it carries, and ageing counts such sessions.
    """
    if named and not held.commit_named:
        return None
    if held.snapshot is not None and not told:
        return f"already captured (checkpoint {held.snapshot})"
    if held.session_known and not built.adds_to(state):
        return NOTHING_NEW if built.carry.items else NO_ITEMS
    return None


NO_MESSAGES = "nothing to capture: the transcript holds no messages"
PURGED_BYTES = (
    "not captured: it would quote as verbatim text a purge removed from this very "
    "transcript (the same bytes), and the purge's redacted copy stands for them in memory"
)


def _cites_purged_text(store: Store, state: MemoryState, built: Built) -> bool:
    """Whether a new item quotes, as verified, what a trusted purge redacted out of this
    capture's snapshot: every reader checks such a quote against the redacted copy that
    stands for the snapshot, where it is not, so the store would fail `verify` (exit 3)
    and every backup. Other quotes of the same bytes hold there too. Raises nothing."""
    record = built.checkpoint.record
    source = record.source if isinstance(record, Checkpoint) else None
    if source is None:
        return False
    quotes = [
        i.quote
        for i in built.new
        if i.quote and i.quote_verified and i.snapshot in (None, source.snapshot)
    ]
    if not quotes:
        return False
    redacted = store.read_snapshot(Sha256Hex(resolve_snapshot(state.replaced, source.snapshot)))
    checks = check_stored_quotes(quotes, redacted, source.format, name=source.name)
    return any(check.problem for check in checks)


NOTHING_NEW = "nothing new to capture: memory holds every item this part of the session says"
NO_ITEMS = "nothing to capture: no item found in this part of the session"


def _skipped(
    ctx: Context,
    source: str,
    session: str,
    snapshot: Sha256Hex,
    why: str,
    holder: Sha256Hex | None = None,
) -> CaptureResult:
    """A capture that writes nothing, and says why (in the capture log too)."""
    ctx.log.write("skipped", source, session=session, reason=why, checkpoint=holder)
    return CaptureResult(session, snapshot, skipped=why, holder=holder)


def remember(
    store: Store, home: Path, draft: Draft, path: Path | None, session: str, source: str
) -> CaptureResult | ItemState:
    """Capture one *draft* an agent asks to remember mid-session; the capture, or the
    item already held (then nothing is written).

    With a quote and a transcript at *path*, the quote is checked there and the item
    belongs to the transcript's session; otherwise the item belongs to the transcript's
    session (or, with no transcript, to *session*) and no transcript is stored. An item
    saying the same (its session, kind and text masked by shape) that is current in
    memory is held already.

    Raises:
        InputError: the transcript cannot be read, or a malformed config.
        SigningKeyError: no key yet.
        GitmemError: the capture failed (see :func:`capture_transcript`).
    """
    parsed = None
    if path is not None:
        parsed = load_transcript(path)
        session = default_session(parsed, path)
    if draft.quote is None or parsed is None:
        # No quote to check (or nothing to check it in): the snapshot stored is empty.
        parsed, path = parse_transcript(b"", "remember", "text"), None
    ctx = Context.open(store, home)
    masked = mask_draft(draft)
    held = ctx.current().statement(session, masked.kind, masked.text)
    if held is not None and held.current:
        return held
    return capture_transcript(
        ctx,
        parsed,
        path,
        source=source,
        drafts=[draft],
        extractor="none",
        session=session,
        written_at=None if path is None else path.stat().st_mtime,
    )
