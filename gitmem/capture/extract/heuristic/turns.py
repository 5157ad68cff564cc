"""Which messages are read, and how: the turns of a session as the extractor sees them.

A "user" message is not always the user: hosts write command output, notifications,
standing instructions and the compaction prompt into the user's turn. Those are not read.

An assistant's reply says many things that stop being true as the work goes on ("still
need to wire the hook", "this might be a race"), so what it says is read by where it
stands: decisions everywhere; open loops and questions only in the closing turn (after
the user's last message: what the user asked next usually settles the rest); phrases, open
questions and a bare file, branch or commit only in its last few replies (a PR or issue
reference in the closing turn, or before it when given by its link or with its state).
Whatever the user says is read in full.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.capture.extract.heuristic import languages
from gitmem.core.claims import forge_numbers
from gitmem.core.transcript import (
    ANSWER,
    HOST_MARKER_STARTS,
    HOST_OPENINGS,
    HOST_TAGS,
    USER_ROLES,
    Message,
    said,
    said_text,
)

INTERRUPTED = HOST_MARKER_STARTS
"""What Claude Code and Codex write into the user's turn when the user stops the reply
(:data:`gitmem.core.transcript.HOST_MARKER_RE`)."""
LAST_REPLIES = 3
"""How many of the assistant's last replies are read for phrases and references."""

HOST_TEXT = (
    *(f"<{tag}{end}" for tag in HOST_TAGS for end in (">", " ")),
    *HOST_OPENINGS,
    *INTERRUPTED,
)
"""How the text a host writes into the user's turn begins (Claude Code, Codex): a block of
:data:`gitmem.core.transcript.HOST_TAGS`, one of :data:`~gitmem.core.transcript.HOST_OPENINGS`,
or an interruption marker."""

PLAN_TEXT = ("Implement the following plan:",)
"""How Claude Code opens the user's turn that carries a plan approved in plan mode (the plan
the assistant wrote, then "If you need specific details from before exiting plan mode …")."""


_FENCE_OR_HEADING_RE = re.compile(
    r"^(?:[ \t]*(?P<fence>`{3,}|~{3,})|[ \t]{0,3}#{1,6}[ \t]+\S)", re.MULTILINE
)
_WORD_RE = re.compile(r"\S")


def pasted_document(text: str) -> int | None:
    """Where a document the user pasted after their own words begins: the first markdown
    heading line (outside fenced code) that follows some words of theirs ("this is NOT a
    readme, but can be helpful\n\n# Bring your context …", a roadmap or a findings file
    under "## ROADMAP"). What stands under it is the document's, not the user's rules or
    requests. None: no such heading (a message that opens with a heading is read whole).
    Only the fence and heading lines are visited: a pasted log of megabytes is not cut
    into lines."""
    fence: str | None = None
    said, checked = False, 0
    for line in _FENCE_OR_HEADING_RE.finditer(text):
        opened = line.group("fence")
        if fence is not None:
            if opened and opened[0] == fence[0] and len(opened) >= len(fence):
                fence = None
                end = text.find("\n", line.end())
                checked = len(text) if end < 0 else end
            continue
        said = said or _WORD_RE.search(text, checked, line.start()) is not None
        if opened:
            fence = opened
        elif said:
            return line.start()
        else:
            return None  # a message that opens with a heading is the user's own
    return None


@dataclass(frozen=True)
class Reading:
    """How one message is read."""

    loops: bool
    """Open loops and questions count (a user's message, or the closing turn)."""
    weak: bool
    """Phrases anywhere in a sentence, open questions and a bare file, branch or commit
    count."""


def host_text(message: Message) -> bool:
    """Did the host write this "user" message (command output, a notification, standing
    instructions, the compaction prompt, an interruption marker)? A message that opens with
    a block the host writes (an IDE's note of the file open, a slash command's name) and
    goes on with the user's own words ("<ide_opened_file>…</ide_opened_file> 1 we're moving
    forward with rust") is the user's: those words are read, the block as blank lines
    (:func:`spoken`)."""
    role = (message.role or "").casefold()
    text = message.text.lstrip()
    if role not in USER_ROLES or not text.startswith(HOST_TEXT):
        return False
    if text.startswith(INTERRUPTED):
        return True
    own = said_text(message).replace("\0", " ").strip()
    return not own or own.startswith(HOST_TEXT)  # a block left open ("<tag …"): the host's


def spoken(message: Message) -> str:
    """The text items are read from: what the host wrote into the user's turn (an IDE's
    note of the file open, a reminder, the files Gemini CLI expands after the user's words,
    an interruption marker: :func:`~gitmem.core.transcript.said_text`) as blank lines, at
    the same offsets, so no item comes from it and no sentence runs into it."""
    return said_text(message).replace("\0", "\n") if said(message.role) else message.text


def plan_text(message: Message) -> bool:
    """Is this "user" message the plan the user approved in plan mode, which Claude Code
    writes into the user's turn ("Implement the following plan: …")? The plan is the
    assistant's text: it is read as a reply outside the closing turn (its decisions count,
    its steps are not the user's rules)."""
    role = (message.role or "").casefold()
    return role in USER_ROLES and message.text.lstrip().startswith(PLAN_TEXT)


def readings(messages: Sequence[Message], read: Sequence[int]) -> dict[int, Reading]:
    """How each message of *read* (indices into *messages*, in order) is read. A message
    with no role (plain text, a commit message) is read like the user's; an approved plan
    (:func:`plan_text`) like a reply outside the closing turn."""
    roles = {i: (messages[i].role or "").casefold() for i in read}
    users = [i for i in read if roles[i] in USER_ROLES]
    closing = users[-1] + 1 if users else 0
    replies = [
        i
        for i in read
        if roles[i] and roles[i] not in (*USER_ROLES, ANSWER) and not messages[i].progress
    ]
    last = set(replies[-LAST_REPLIES:])
    out: dict[int, Reading] = {}
    for i in read:
        if plan_text(messages[i]) or (messages[i].progress and roles[i] not in USER_ROLES):
            out[i] = Reading(loops=False, weak=False)
        elif not roles[i] or roles[i] in USER_ROLES:
            out[i] = Reading(loops=True, weak=True)
        else:
            out[i] = Reading(loops=i >= closing, weak=i >= closing and i in last)
    return out


def asks_with_tool(messages: Sequence[Message], read: Sequence[int]) -> set[int]:
    """The replies that hand the user a host's question or plan tool (Claude Code's
    ``AskUserQuestion``, ``ExitPlanMode``): the next message read is its answer. Such a reply
    is the question's preamble ("one scope question — I'd rather not guess …", "Good, I have
    a clear picture. Let me write the plan."); the answer settles what it weighs, and what
    was chosen is said after it."""
    roles = [(messages[i].role or "").casefold() for i in read]
    return {
        read[n]
        for n in range(len(read) - 1)
        if roles[n] not in (*USER_ROLES, ANSWER, "") and roles[n + 1] == ANSWER
    }


def report_index(messages: Sequence[Message], read: Sequence[int]) -> int | None:
    """The message that reports the session's outcome: the assistant's last reply, when it
    closes a turn the user opened (None: the session ends with the user, or no user spoke:
    a lone reply or a commit message is read for its markers only). A reply that only
    acknowledges what the host wrote into the user's turn (a background task's
    notification, answered with no tool call between) is not the report: the reply before
    that notification is, when it too closes the user's turn."""
    report = None
    for i in reversed(read):
        role = (messages[i].role or "").casefold()
        if not role:
            return None
        if role in USER_ROLES:
            return report
        if messages[i].progress:
            continue  # a note while the turn ran (Codex's commentary), not its answer
        if role != ANSWER and (report is None or _acknowledges(messages, report, i)):
            report = i
    return None


WRAP_UP_RE = re.compile(
    r"\s*(?:(?:ok(?:ay)?|yes|yeah|now|please|great|thanks|so|and)\b[,.!]?[ \t]+)*"
    r"(?:did[ \t]+you[ \t]+|can[ \t]+you[ \t]+|please[ \t]+|let['’]?s[ \t]+)?"
    r"(?:(?:commit|push)(?:ed)?"
    r"|(?:open(?:ed)?|create[ds]?|make|made|raise[ds]?)[ \t]+(?:an?[ \t]+)?(?:draft[ \t]+)?"
    r"(?:pr|pull[ \t]+request|mr|merge[ \t]+request))"
    r"(?:[ \t]+(?:it|this|that|them|everything|all|the[ \t]+changes?|and[ \t]+push|now|please))*"
    r"[ \t]*[.!?]*\s*",
    re.IGNORECASE,
)
"""A user's last message that only asks to commit, push or open a pull request ("commit",
"did you push?", "create draft PR", "okay let's open a PR"): publishing the work adds
nothing to what the reply before it reported."""


def wrapped_report(messages: Sequence[Message], read: Sequence[int]) -> int | None:
    """The reply that closed the turn before the user's last message, when that message
    only asks to commit, push or open a pull request for what was done ("commit", "Commit
    it", "did you push?", "create draft PR"):
    the outcome of the work is reported there, and the last reply only says it is
    committed. None otherwise."""
    users = [n for n, i in enumerate(read) if (messages[i].role or "").casefold() in USER_ROLES]
    if not users or WRAP_UP_RE.fullmatch(spoken(messages[read[users[-1]]]).strip()) is None:
        return None
    return report_index(messages, read[: users[-1]])


def _acknowledges(messages: Sequence[Message], reply: int, before: int) -> bool:
    """Does *reply* answer a host's notification that follows the earlier reply *before*,
    with no tool call between the notification and *reply*?"""
    noted = False
    for j in range(reply - 1, before, -1):
        role = (messages[j].role or "").casefold()
        if role in USER_ROLES and host_text(messages[j]):
            noted = True
        elif not noted:
            return False  # a tool call or another message: the reply did work of its own
    return noted


def pending_index(messages: Sequence[Message], read: Sequence[int]) -> int | None:
    """The user's last message when nothing answered it: the session ends with it, or with
    the user stopping the reply to it (Claude Code's "[Request interrupted by user …]",
    Codex's "<turn_aborted>"). None: it does not, or no assistant spoke (a user's notes
    are read for their markers only)."""
    if not read or not any(
        (messages[i].role or "").casefold() not in (*USER_ROLES, "") for i in read
    ):
        return None
    last = read[-1]
    if (messages[last].role or "").casefold() in USER_ROLES:
        return last
    end = next((m for m in reversed(messages) if said(m.role)), None)
    if end is None or not end.text.lstrip().startswith(INTERRUPTED):
        return None
    return next(
        (i for i in reversed(read) if (messages[i].role or "").casefold() in USER_ROLES), None
    )


MERGED_RE = re.compile(
    r"[\s*_>#-]*(?:(?:the\s+)?pr\s+(?:is\s+|was\s+|got\s+|has\s+been\s+)?|it['’]?s\s+|"
    r"(?:it\s+)?(?:is|was|got|has\s+been)\s+)?(?:now\s+)?(?:merged|merge\s+edildi|"
    rf"birle[şs]tirildi|{languages.SETTLED})(?=\s*(?:$|[.!,;:—–-]|\band\b|\bve\b))",
    re.IGNORECASE,
)
"""A message that opens saying "it is merged": the user's "merged", the assistant's "Merged
and synced — `main` is at …", "PR merged.", Turkish "Merge edildi.", and the other languages'
merged and closed words (:data:`languages.SETTLED`). "merged main into my branch" goes on
to say what was merged, so it does not open that way."""
_FIRST_SENTENCE_RE = re.compile(r"[^\n.!?]*[.!?]?")


def merged_away(messages: Sequence[Message], read: Sequence[int]) -> dict[int, frozenset[int]]:
    """The PRs a merge said without a number settles, by the message that says it: a message
    whose first sentence says "merged" (:data:`MERGED_RE`) and names no PR or issue speaks
    of those the last message naming any named ("PR #44 is open: <link>", then the user's
    "merged"). The open loops on them said before it are closed."""
    named: frozenset[int] = frozenset()
    settled: dict[int, frozenset[int]] = {}
    for index in read:
        text = spoken(messages[index])
        first = _FIRST_SENTENCE_RE.match(text.lstrip())
        opening = first.group() if first else ""
        if named and MERGED_RE.match(opening) and not forge_numbers(opening):
            settled[index] = named
            continue
        numbers = forge_numbers(text)
        if numbers:
            named = numbers
    return settled
