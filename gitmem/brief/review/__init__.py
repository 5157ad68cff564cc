"""``gitmem review RANGE``: the memory of a range of commits, for whoever reviews it.

The items captured from the range's commits and sessions, and the open items from any
other time that name a file the range changes, grouped by section with the brief's
badges, degraded ones visible; memory from outside the range is left out
(:mod:`gitmem.brief.review.scope` says exactly which). Markdown fits one pull-request
comment; JSON holds every field. See ``docs/review.md``.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.brief.review.build import Review, make_review
from gitmem.brief.review.render import DEFAULT_LIMIT, render_json, render_markdown
from gitmem.core.errors import InputError
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store

__all__ = ["DEFAULT_LIMIT", "Review", "emit_review", "make_review"]

FORMATS = ("markdown", "json")


def emit_review(
    store: Store,
    home: Path,
    spec: str,
    fmt: str = "markdown",
    limit: int = DEFAULT_LIMIT,
    as_of: str | None = None,
) -> str:
    """The review of *spec* rendered in *fmt*, at most *limit* items; what it shows is
    remembered in the emission ledger, as the brief's is.

    Raises:
        InputError: a bad format or limit, a range or *as_of* this repository lacks.
        GitError: the repository or the memory ref cannot be read.
    """
    if fmt not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}")
    if limit < 1:
        raise InputError("--limit must be at least 1")
    review = make_review(store, home, spec, as_of)
    output = render_json(review, limit) if fmt == "json" else render_markdown(review, limit)
    Ledger(store.local_dir).record(shown_texts(review.brief.items))
    return output
