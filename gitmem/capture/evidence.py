"""``gitmem verify-quote`` as a user runs it: the same preparation capture applies.

Inside a repository, lines that echo what gitmem emitted (the emission ledger) count
no more than ``<gitmem-context>`` spans, and secrets are masked, exactly as a capture
of the same file would see it.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.capture.checkpoint import OVERLAPS_SECRET
from gitmem.capture.masking import contains_mask, mask
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.errors import GitError
from gitmem.core.quotes import QuoteCheck, check_quote
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store


def check_quote_in_file(quote: str, path: Path, format: str | None, repo: str) -> QuoteCheck:
    """Raises InputError for a missing or unreadable transcript."""
    transcript = load_transcript(path, format)
    try:
        emitted = Ledger(Store.discover(repo).local_dir).load()
    except GitError:
        emitted = {}
    prepared = prepare(transcript, emitted, path.stat().st_mtime)
    masked_quote = mask(quote).text
    result = check_quote(masked_quote, prepared.transcript.texts())
    if result.verbatim and contains_mask(masked_quote):
        return QuoteCheck(False, OVERLAPS_SECRET, result.fragments, None)
    return result
