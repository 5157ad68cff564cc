"""What the user chose through the host's question and plan tools (role ``answer``).

Claude Code's ``AskUserQuestion`` result lists each question with the option the user
picked or the words they typed: ``User has answered your questions: "Q"="A", "Q2"="A2".
…``; each pair is a decision of the user's, quoted whole. An approved ``ExitPlanMode``
(``User has approved your plan …``) is a decision to follow the plan, quoted by the
plan's title: the first heading after ``## Approved Plan:``, or, when the result holds no
plan, the first heading of the assistant's reply just before the call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from gitmem.capture.extract.heuristic.item import statement
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.core.items import Kind
from gitmem.core.quotes import MIN_PIN_CHARS, check_quotes, fold
from gitmem.core.transcript import ANSWER, Message

IMPORTANCE = 2
MAX_ANSWER_QUOTE = 400
"""A longer question-and-answer pair is not quoted (a quote is never cut inside it)."""

_ANSWERED = "User has answered your questions:"
_APPROVED = ("User has approved your plan", "User has approved exiting plan mode")
_PAIR_RE = re.compile(r'"(?P<q>[^\n]+?)"="(?P<a>[^\n]*?)"(?=, "|\.\s|\.?$)')
_HEADING_RE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(?P<title>[^\n]+?)[ \t#]*$", re.MULTILINE)
_PLAN_MARK = "## Approved Plan:"


def answer_items(index: int, messages: Sequence[Message]) -> Iterator[Candidate]:
    """The decisions in answer message *index* of *messages*, each quote checked."""
    text = messages[index].text
    body = text.lstrip()
    if body.startswith(_ANSWERED):
        found = list(_choices(index, text))
    elif body.startswith(_APPROVED):
        found = list(_plan(index, messages))
    else:
        return
    checks = check_quotes([f.quote for f in found], [messages[f.position[0]].text for f in found])
    for item, check in zip(found, checks, strict=True):
        if check.verbatim:
            yield item


def _choices(index: int, text: str) -> Iterator[Candidate]:
    start = text.find(_ANSWERED) + len(_ANSWERED)
    for match in _PAIR_RE.finditer(text, start):
        quote = match.group()
        question, answer = match.group("q").strip(), match.group("a").strip()
        if len(quote) > MAX_ANSWER_QUOTE or len(fold(answer)) == 0:
            continue
        yield _candidate(statement(f"{question} → {answer}"), quote, (index, 0, match.start()))


def _plan(index: int, messages: Sequence[Message]) -> Iterator[Candidate]:
    text = messages[index].text
    mark = text.find(_PLAN_MARK)
    where = index
    if mark >= 0:
        heading = _first_heading(text, mark + len(_PLAN_MARK), min_words=1)
    else:
        before = _reply_before(index, messages)
        if before is None:
            return
        where = before
        heading = _first_heading(messages[where].text, 0, min_words=3)
    if heading is None:
        return
    title = heading.group("title")
    name = re.sub(r"^(?:\*\*)?plan\s*:\s*", "", title, flags=re.IGNORECASE).strip("* ")
    if len(fold(name)) < MIN_PIN_CHARS:
        return
    text = statement(f"Plan approved by the user: {name}")
    yield _candidate(text, title, (where, 0, heading.start("title")))


def _first_heading(text: str, start: int, min_words: int) -> re.Match[str] | None:
    for match in _HEADING_RE.finditer(text, start):
        if len(match.group("title").split()) >= min_words:
            return match
    return None


def _reply_before(index: int, messages: Sequence[Message]) -> int | None:
    """The assistant's reply just before the plan tool call (tool messages skipped)."""
    for at in range(index - 1, -1, -1):
        role = (messages[at].role or "").casefold()
        if role.startswith("tool"):
            continue
        return at if role not in ("user", "human", ANSWER) else None
    return None


def _candidate(text: str, quote: str, position: tuple[int, int, int]) -> Candidate:
    return Candidate(Kind.DECISION, text, quote, IMPORTANCE, {}, position, True)
