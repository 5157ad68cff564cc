"""One ask, end to end: check the question, read the sources, reuse the record of an
identical ask within the window (:mod:`~gitmem.agents.ask.reuse`) or answer (with the
configured model, or verbatim only), and record the outcome: a signed event by default,
one local record with ``record=False`` (``--no-record``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from gitmem.agents.ask import reuse
from gitmem.agents.ask.blocks import SourceFile
from gitmem.agents.ask.models import backend_identity, configured_backend
from gitmem.agents.ask.record import keep_local, record_ask
from gitmem.agents.ask.result import AskResult, Excerpt
from gitmem.agents.ask.retrieve import exact_lines, retrieve
from gitmem.agents.ask.solve import solve
from gitmem.agents.ask.sources import (
    Document,
    file_change,
    head_documents,
    memory_change,
    memory_documents,
)
from gitmem.agents.ask.verbatim import MAX_MATCHES, MODE, answer_verbatim
from gitmem.agents.ask.widen import candidates
from gitmem.capture.masking import mask
from gitmem.core.errors import InputError
from gitmem.core.integrity import TrustRoots
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index import memory_state
from gitmem.lifecycle.replay import MemoryState
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import load_settings
from gitmem.store.keys import load_identity
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

MAX_QUESTION_CHARS = 2000
CLI_SESSION = "ask"


def check_question(question: str) -> str:
    """The question, trimmed and secret-masked.

    Raises:
        InputError: empty, too long, or not printable text.
    """
    text = " ".join(question.split())
    if not text:
        raise InputError("ask needs a question")
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(f"a question may have at most {MAX_QUESTION_CHARS} characters")
    if not text.isprintable():
        raise InputError("the question holds characters that are not printable")
    return mask(text).text


def ask(
    store: Store,
    home: Path,
    question: str,
    session: str = CLI_SESSION,
    record: bool = True,
    reuse_window: int | None = None,
) -> AskResult:
    """Answer *question* from the sources, gate it, and record the outcome (signed, or
    local only when *record* is False); an identical ask within *reuse_window* seconds
    (the ``ask.reuse_window`` setting when None; 0 never reuses) reuses its record.

    Raises:
        InputError: a bad question, or unusable model settings (nothing is asked).
        SigningKeyError: no signing key for a signed record (nothing is asked).
        GitError, NegativeResult: the store could not be read or written.
    """
    text = check_question(question)
    identity = load_identity(home) if record else None
    local = store.local_dir
    settings = load_settings(home, local)
    backend = configured_backend(settings)
    window = int(settings.get(reuse.WINDOW_SETTING)) if reuse_window is None else reuse_window
    roots = load_trust_roots(home, store)
    view = with_fetched(store, roots)  # the memory every reader reads: one index, not two
    memory = memory_state(view, roots)
    head, files = head_documents(store)
    documents = [*memory_documents(memory), *files]
    checker = _checker(view, roots, memory, documents)
    if backend is None:
        excerpts, widened = exact_lines(text, documents, limit=4 * MAX_MATCHES), []
    else:
        excerpts, widened = retrieve(text, documents), candidates(text, documents)
    passages = [*excerpts, *widened]
    mode = MODE if backend is None else "model"
    changed = reuse.changed_sources(passages, checker)
    key = reuse.reuse_key(text, mode, backend_identity(settings), passages, changed)
    now = datetime.now(UTC)
    found = reuse.find(store, roots, key, window, now, allow_local=not record)
    if found is not None:
        return found
    if backend is None:
        result = answer_verbatim(text, documents, checker, head)
    else:
        sources = {d.path: SourceFile(d.path, d.lines) for d in files}
        log = CaptureLog(local)
        result = solve(
            text, excerpts, widened, sources, backend, log, checker, head, bool(documents)
        )
    if identity is not None:
        identity = replace(identity, repository=roots.repository)
        info = record_ask(view, identity, result, session, key, now)
    else:
        info = keep_local(store, result, key, now)
    reuse.remember(local, key, info, now)
    return replace(result, event=info.address if identity is not None else None, record=info)


def _checker(
    store: Store,
    roots: TrustRoots,
    memory: MemoryState,
    documents: list[Document],
) -> Callable[[Excerpt], str | None]:
    """Freshness of an excerpt's source *now*: a file in the working tree and at HEAD,
    a memory item in the memory at the ref's current tip."""
    quotes = {d.path: d.quote for d in documents if d.kind == "memory"}
    seen = {"tip": store.tip(), "state": memory}

    def current_memory() -> MemoryState:
        tip = store.tip()
        if tip != seen["tip"]:
            seen["tip"], seen["state"] = tip, memory_state(store, roots)
        state = seen["state"]
        assert isinstance(state, MemoryState)
        return state

    def check(excerpt: Excerpt) -> str | None:
        if excerpt.kind == "memory":
            quote = quotes.get(excerpt.path) or ""
            return memory_change(current_memory(), excerpt.path.removeprefix("memory:"), quote)
        return file_change(store, excerpt.path, excerpt.blob)

    return check
