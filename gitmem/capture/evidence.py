"""A quote checked in a transcript file exactly as a capture of that file would check it.

The one check behind ``gitmem verify-quote``, ``resolve``/``reverify --evidence`` and the
MCP ``resolve`` and ``verify_quote`` tools:

1. the transcript is prepared as capture prepares it (:mod:`gitmem.capture.prepare`):
   inside a repository, lines that echo what gitmem emitted (the emission ledger) count
   no more than ``<gitmem-context>`` spans, and secrets are masked;
2. the quote is masked the same way and found in the prepared messages that hold what
   the session's people said as a capture finds it (:func:`gitmem.capture.locate.locate_quote`:
   as written, or respelt, or in a message read without a link's target or an emoji); a
   quote found only in tool output or the host's instructions does not count;
3. a quote that is verbatim only over a masked secret does not count: what it says
   cannot be shown as said; nor one that does not stand as it was said, whatever it is
   quoted for (:func:`gitmem.capture.standing.standing`: struck through, in an HTML
   comment, a line a diff removes, or an ellipsis that joins two sentences).

What it builds is an :class:`~gitmem.lifecycle.commands.Evidence` (the masked quote and
the snapshot it verifies in), which the lifecycle commands receive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.capture.checkpoint import OVERLAPS_SECRET, said_texts, unsaid_check
from gitmem.capture.locate import locate_quote
from gitmem.capture.masking import contains_mask, mask
from gitmem.capture.prepare import prepare
from gitmem.capture.standing import standing
from gitmem.capture.transcripts import load_transcript
from gitmem.core.errors import GitError, NegativeResult
from gitmem.core.quotes import QuoteCheck
from gitmem.lifecycle.commands import Evidence
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store


@dataclass(frozen=True)
class Checked:
    """One quote checked in one transcript."""

    check: QuoteCheck
    """The verdict, as ``verify-quote`` reports it (over a masked secret: not verbatim)."""
    evidence: Evidence
    """The quote as it would be stored (masked), and the snapshot it was checked in."""
    overlaps_secret: bool
    """Verbatim, but only over a masked secret (step 3)."""

    def counted(self) -> Evidence:
        """The evidence, when the quote counts.

        Raises:
            NegativeResult: the quote is not verbatim, or only over a masked secret.
        """
        if self.overlaps_secret:
            raise NegativeResult(f"evidence does not count: {OVERLAPS_SECRET}")
        if not self.check.verbatim:
            raise NegativeResult(
                f"evidence does not count, the quote is not verbatim: "
                f"{self.check.reason}; nothing written"
            )
        return self.evidence


def check_in_file(quote: str, path: Path, format: str | None, store: Store | None) -> Checked:
    """Check *quote* in the transcript at *path*, with *store*'s emission ledger (none
    outside a repository).

    Raises:
        InputError: the transcript is missing, unreadable, or not in *format*.
    """
    transcript = load_transcript(path, format)
    emitted = {} if store is None else Ledger(store.local_dir).load()
    prepared = prepare(transcript, emitted, path.stat().st_mtime)
    masked = mask(quote).text
    texts = said_texts(prepared.transcript)
    result = locate_quote(masked, texts)
    if result.verbatim and result.span and result.message_index is not None:
        withdrawn = standing(result.span, texts[result.message_index], "")
        if withdrawn is not None:
            result = QuoteCheck(False, withdrawn, result.fragments, None)
    if not result.verbatim:
        result = unsaid_check(masked, prepared.transcript, texts) or result
    said = result.span if result.verbatim and result.span else masked  # the transcript's bytes
    overlaps = result.verbatim and contains_mask(said)
    if overlaps:
        result = QuoteCheck(False, OVERLAPS_SECRET, result.fragments, None)
    evidence = Evidence(said, prepared.snapshot, transcript.own_session, transcript.format)
    return Checked(result, evidence, overlaps)


def check_quote_in_file(quote: str, path: Path, format: str | None, repo: str) -> QuoteCheck:
    """``gitmem verify-quote``: the verdict for *quote* in *path*, with the ledger of the
    repository at *repo* when there is one.

    Raises:
        InputError: the transcript is missing, unreadable, or not in *format*.
    """
    try:
        store: Store | None = Store.discover(repo)
    except GitError:
        store = None
    return check_in_file(quote, path, format, store).check


def evidence_in_file(quote: str, path: Path, format: str | None, store: Store) -> Evidence:
    """*quote* as evidence from *path*, for ``resolve`` and ``reverify``.

    Raises:
        InputError: the transcript is missing, unreadable, or not in *format*.
        NegativeResult: the quote does not count (see :meth:`Checked.counted`); nothing
            is to be written.
    """
    return check_in_file(quote, path, format, store).counted()
