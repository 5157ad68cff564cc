"""Backup points and the policy that keeps them. Pure: names, times and a policy in.

A backup point is the replica's ``refs/gitmem/*`` tips as one backup left them, kept in
the replica as ``refs/gitmem-backups/<UTC time>/<ref name after refs/gitmem/>``, the time
written ``YYYYMMDDTHHMMSSZ``. A policy ``daily=N,weekly=N,monthly=N`` keeps, walking from
the newest point back, the newest point of each of the N most recent days (UTC) that
have a point, of each of the N most recent ISO weeks that have one, and of each of the N
most recent months; the newest point is always kept. A point kept by any rule stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time

from gitmem.core.errors import InputError

POINTS_PREFIX = "refs/gitmem-backups/"
_NAME_FORMAT = "%Y%m%dT%H%M%SZ"
_NAME_RE = re.compile(r"\d{8}T\d{6}Z")
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_RULES = ("daily", "weekly", "monthly")


@dataclass(frozen=True)
class Keep:
    """How many points each rule keeps (0: the rule keeps none)."""

    daily: int = 0
    weekly: int = 0
    monthly: int = 0

    def __str__(self) -> str:
        return f"daily={self.daily},weekly={self.weekly},monthly={self.monthly}"


def parse_keep(text: str) -> Keep:
    """``daily=N,weekly=N,monthly=N`` (any of the three, each once, N ≥ 0) as a policy.

    Raises:
        InputError: anything else.
    """
    counts: dict[str, int] = {}
    for part in text.split(","):
        rule, sep, value = part.strip().partition("=")
        if not sep or rule not in _RULES or rule in counts or not value.strip().isdigit():
            raise InputError(
                f"--keep takes daily=N,weekly=N,monthly=N (whole numbers), not {text!r}"
            )
        counts[rule] = int(value)
    return Keep(**counts)


def point_name(when: datetime) -> str:
    """The name of a point taken at *when* (to the second, UTC). Raises nothing."""
    return when.astimezone(UTC).strftime(_NAME_FORMAT)


def point_time(name: str) -> datetime | None:
    """The time a point name stands for; None for a name that is not a point's."""
    if not _NAME_RE.fullmatch(name):
        return None
    try:
        return datetime.strptime(name, _NAME_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def kept(times: Iterable[datetime], keep: Keep) -> set[datetime]:
    """The point times *keep* keeps of *times* (see the module). Raises nothing."""
    newest_first = sorted({t.astimezone(UTC) for t in times}, reverse=True)
    chosen = set(newest_first[:1])
    rules: tuple[tuple[int, Callable[[datetime], Hashable]], ...] = (
        (keep.daily, lambda t: t.date()),
        (keep.weekly, lambda t: t.isocalendar()[:2]),
        (keep.monthly, lambda t: (t.year, t.month)),
    )
    for count, period in rules:
        periods: set[Hashable] = set()
        for t in newest_first:
            if len(periods) >= count:
                break
            if period(t) not in periods:
                periods.add(period(t))
                chosen.add(t)
    return chosen


def newest_at(times: Sequence[datetime], at: datetime) -> datetime | None:
    """The newest of *times* at or before *at*; None when every one is later."""
    earlier = [t for t in times if t <= at]
    return max(earlier) if earlier else None


def parse_at(text: str) -> datetime:
    """A time for ``restore --at``: a point's name (``20260105T100000Z``), an ISO 8601 time
    (without a zone: UTC), or a date, which means the end of that day (UTC).

    Raises:
        InputError: none of these.
    """
    text = text.strip()
    named = point_time(text)
    if named is not None:
        return named
    try:
        if _DATE_RE.fullmatch(text):
            day = datetime.fromisoformat(text).date()
            return datetime.combine(day, time.max, UTC)
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as e:
        raise InputError(
            f"--at takes a date (2026-01-05), an ISO 8601 time or a point's name, not {text!r}"
        ) from e
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
