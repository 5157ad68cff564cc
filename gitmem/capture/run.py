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
from typing import TYPE_CHECKING, Any

from gitmem.capture.checkpoint import Built, build_checkpoint, mask_draft
from gitmem.capture.masking.labels import mask_label
from gitmem.capture.prepare import Prepared, prepare
from gitmem.capture.transcripts import load_transcript, parse_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import GitmemError, InputError
from gitmem.core.items import Draft, Item
from gitmem.core.transcript import Transcript
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.lifecycle.replay import ItemState, MemoryState, Replayable
from gitmem.lifecycle.workspace import Holders, Workspace
from gitmem.store.branches import head_branch
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings, load_settings
from gitmem.store.home import gitmem_home
from gitmem.store.keys import Identity, load_identity
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store

if TYPE_CHECKING:
    from gitmem.llm import ModelSettings

CHOICES = ("heuristic", "command", "openai", "none")


@dataclass(frozen=True)
class CaptureResult:
    """What one capture wrote: the checkpoint, its new items and the events with it."""

    checkpoint: Sha256Hex | None
    """The checkpoint written; for a capture that wrote nothing, the one that holds this
    transcript part already (None when there is none)."""
    session: str
    items: tuple[Item, ...]
    """The items this capture stored for the first time (carried copies excluded)."""
    memory_commit: GitOid | None
    snapshot: Sha256Hex
    carried: int = 0
    corroborated: tuple[str, ...] = ()
    """Open items this capture's verified quotes corroborated."""
    aged_out: tuple[str, ...] = ()
    records: tuple[Replayable, ...] = ()
    """The records written, for a writer that keeps its memory state current."""
    skipped: str | None = None
    """Why nothing was written (``already captured (checkpoint …)``, ``nothing new …``,
    ``the transcript holds no messages``); None when the checkpoint was written."""

    @property
    def written(self) -> bool:
        return self.skipped is None

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


def write_checkpoint(
    store: Store,
    identity: Identity,
    prepared: Prepared,
    drafts: Sequence[Draft],
    session: str,
    now: datetime,
    commit: str | None = None,
    state: MemoryState | None = None,
) -> CaptureResult:
    """Build the checkpoint of *prepared* with *drafts* over *state* (see
    :func:`~gitmem.capture.checkpoint.build_checkpoint`) and append it with its events
    in one commit of the memory ref; *commit* defaults to HEAD's.

    Raises:
        InputError: a bad session id.
        GitError, NegativeResult: the store could not be written.
    """
    commit = commit if commit is not None else store.head_commit()
    built = build_checkpoint(
        prepared, drafts, session, identity, now, commit, state, head_branch(store)
    )
    return append_built(store, identity, built)


def append_built(store: Store, identity: Identity, built: Built) -> CaptureResult:
    """Append *built* in one commit of the memory ref.

    Raises:
        GitError, NegativeResult: the store could not be written.
    """
    memory_commit = store.append(built.entries, message=built.message, author=identity.principal)
    return CaptureResult(
        built.address,
        built.session,
        built.new,
        memory_commit,
        built.snapshot_hash,
        carried=built.carried,
        corroborated=tuple(i for i, _ in built.carry.corroborations),
        aged_out=tuple(a.id for a, _ in built.carry.aged_out),
        records=built.records,
    )


class Context(Workspace):
    """Everything a capture needs besides its transcript: the workspace (store, home,
    trust roots, memory, identity) with the settings, the capture log and the emission
    ledger."""

    def __init__(
        self,
        store: Store,
        home: Path,
        identity: Identity,
        settings: Settings,
        log: CaptureLog,
        emitted: dict[str, float],
    ) -> None:
        super().__init__(store, home, identity=identity)
        self.settings = settings
        self.log = log
        self.emitted = emitted

    @classmethod
    def open(cls, store: Store, home: Path | None = None) -> Context:
        """The context of *store* for the user of *home* (default ``$GITMEM_HOME``).

        Raises:
            SigningKeyError: no key yet.
            InputError: a malformed config.
        """
        home = gitmem_home() if home is None else home
        local = store.local_dir
        return cls(
            store,
            home,
            load_identity(home),
            load_settings(home, local),
            CaptureLog(local),
            Ledger(local).load(),
        )


@dataclass(frozen=True)
class ModelOverrides:
    """Command-line values that win over the settings for one run."""

    command: str | None = None
    base_url: str | None = None
    model: str | None = None


NO_OVERRIDES = ModelOverrides()


def model_settings(settings: Settings, overrides: ModelOverrides = NO_OVERRIDES) -> ModelSettings:
    """What a model backend is given: the settings, with the command line's values first.
    Raises nothing."""
    from gitmem.llm import ModelSettings

    return ModelSettings(
        command=overrides.command or settings.text("command"),
        base_url=overrides.base_url or settings.text("openai.base_url"),
        model=overrides.model or settings.text("openai.model"),
        api_key=settings.text("openai.api_key"),
        timeout=float(settings.get("timeout")),
    )


def run_extractor(
    name: str,
    prepared: Prepared,
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides = NO_OVERRIDES,
) -> list[Draft]:
    """Drafts from the named extractor. Model replies are logged raw before parsing.

    Raises:
        InputError: an unknown extractor or missing settings.
        ModelError: the model failed or its reply broke the schema (logged).
    """
    if name not in CHOICES:
        raise InputError(f"unknown extractor {name!r}; choose one of {', '.join(CHOICES)}")
    if name == "none":
        return []
    messages = prepared.clean_messages()
    if name == "heuristic":
        from gitmem.capture.extract.heuristic import extract

        return extract(messages)
    from gitmem.capture.extract.prompt import SYSTEM_PROMPT, build_prompt
    from gitmem.capture.extract.schema import parse_output
    from gitmem.llm import ModelError, backend_for

    backend = backend_for(name, model_settings(settings, overrides))
    raw: bytes | None = None
    try:
        raw = backend.complete(build_prompt(messages), system=SYSTEM_PROMPT)
        log.keep_raw(raw)
        return parse_output(raw)
    except ModelError as e:
        kept = raw if raw is not None else e.raw
        kind = e.kind
        log.write(
            "failed",
            source,
            extractor=name,
            kind=kind,
            error=str(e),
            raw=None if kept is None else log.keep_raw(kept),
        )
        raise


def capture_transcript(
    ctx: Context,
    transcript: Transcript,
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
) -> CaptureResult:
    """Capture one transcript: explicit *drafts*, or the extractor's (settings default).

    With explicit drafts and no explicit extractor, nothing is extracted: the agent
    said what to remember. With both, both are stored.

    Raises:
        GitmemError: bad input, a model failure, or a store that cannot be written;
            every failure is also in the capture log.
    """
    prepared = prepare(transcript, ctx.emitted, written_at)
    return capture_prepared(
        ctx,
        prepared,
        path,
        source=source,
        drafts=drafts,
        extractor=extractor,
        overrides=overrides,
        session=session,
        commit=commit,
        again=again,
    )


def capture_prepared(
    ctx: Context,
    prepared: Prepared,
    path: Path | None,
    *,
    source: str,
    drafts: Sequence[Draft] | None = None,
    extractor: str | None = None,
    overrides: ModelOverrides = NO_OVERRIDES,
    session: str | None = None,
    commit: str | None = None,
    again: bool = False,
) -> CaptureResult:
    """:func:`capture_transcript` for a transcript already prepared (echoes, masks).
    A *session* given is masked like the transcript's own; so are *source* and the
    error in the capture log. Unless *again*, a capture that adds nothing is not written
    (:func:`skip_reason`)."""
    chosen = extractor or ("none" if drafts is not None else ctx.settings.get("extractor"))
    source = mask_label(source).text
    session = None if session is None else mask_label(session).text
    session = session_of(prepared.transcript, path, session)
    snapshot = sha256_hex(prepared.snapshot)
    try:
        said = any(m.text.strip() for m in prepared.transcript.messages)
        if not said and not drafts and commit is None:
            return _skipped(ctx, source, session, snapshot, NO_MESSAGES)
        found = run_extractor(chosen, prepared, ctx.settings, ctx.log, source, overrides)
        store = ctx.store
        named = commit is not None
        commit = commit if commit is not None else store.head_commit()
        state = ctx.current()
        built = build_checkpoint(
            prepared,
            [*(drafts or []), *found],
            session,
            ctx.identity,
            datetime.now(UTC),
            commit,
            state,
            head_branch(store),
        )
        held = ctx.holders(snapshot, commit, session)
        why = None if again else skip_reason(built, state, held, named=named, told=bool(drafts))
        if why is not None:
            return _skipped(ctx, source, session, snapshot, why, held.snapshot)
        result = append_built(store, ctx.identity, built)
    except GitmemError as e:
        if not _logged(e):
            ctx.log.write("failed", source, extractor=chosen, error=mask_label(str(e)).text)
        raise
    ctx.written(result.records)
    ctx.log.write(
        "ok",
        source,
        checkpoint=result.checkpoint,
        session=result.session,
        items=len(result.items),
        extractor=chosen,
        echo_lines=prepared.echo_lines,
        masked=prepared.masked,
        skipped_lines=len(prepared.transcript.skipped),
    )
    return result


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
    return CaptureResult(holder, session, (), None, snapshot, skipped=why)


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


def _logged(error: GitmemError) -> bool:
    from gitmem.llm import ModelError

    return isinstance(error, ModelError)
