"""A constraint found the hard way: the assistant's statement that a tool or a system
cannot do something.

Work runs into what a tool, a platform or a repository does not allow — "SQLite doesn't
support `ALTER TABLE … MODIFY`", "the hook won't let me commit", "`main` 브랜치 보호 규칙
때문에 직접 push 불가" (branch protection: no direct push), "`neuvector-mcp` enforces
PodSecurity `restricted`, which kaniko can't satisfy" — and the assistant says so once,
where it found it, usually mid-session, without a marker. What the session did next works
around it; the constraint still holds for the next session. Its form is a statement whose
predicate says the subject cannot do something (:data:`CONSTRAINT_RE`), in any reply.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitmem.capture.extract.heuristic.item import make_item
from gitmem.capture.extract.heuristic.markers import NARRATION_RE
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.capture.extract.heuristic.sentences import split_sentences
from gitmem.core.items import Kind

CONSTRAINT_IMPORTANCE = 1
_NOT = (
    r"(?:doesn['’]t|does\s+not|don['’]t|do\s+not|can['’]t|cannot|can\s+not|won['’]t|will\s+not|"
    r"isn['’]t\s+able\s+to|is\s+not\s+able\s+to|aren['’]t\s+able\s+to|are\s+not\s+able\s+to)"
)
CONSTRAINT_RE = re.compile(
    rf"\b{_NOT}\s+(?:support|allow|permit|satisfy|accept|let)\b"
    r"|\bnot\s+(?:supported|allowed|permitted)\b"
    r"|(?<!확인\s)(?<!확인)불가|できない|できません|不支持|无法|不允许",
    re.IGNORECASE,
)
"""A predicate that says its subject cannot do something: "X doesn't support Y", "X won't
let me Y", "X can't satisfy Y", "Y is not allowed", Korean "불가" (not possible), Japanese
"できない", Chinese "不支持" / "无法"."""
_NEEDLES = ("n't", " not ", "cannot", "불가", "できな", "できま", "不支持", "无法", "不允许")
_HYPOTHETICAL_RE = re.compile(
    r"[ \t>*_-]*(?:\d{1,2}[.)][ \t]+)?[*_]*(?:if|whether|when|unless|in\s+case|check|verify|"
    r"make\s+sure|ensure|so\s+that|previously|before|old|was)\b",
    re.IGNORECASE,
)
"""A sentence that opens on a condition or a check ("If the hook doesn't allow …", "Check
whether …"): what might be, not what was found."""
_NOT_PROSE_RE = re.compile(r"[ \t]*(?:\||#{1,6}[ \t]|```|~~~|\$[ \t])")
"""A table row, a heading, a code fence or an echoed command."""


def constraints(index: int, text: str) -> Iterator[Candidate]:
    """A fact for each sentence of the reply *text* (message *index*) that states a
    constraint (:data:`CONSTRAINT_RE`): not a question, a hypothetical, narration of what
    comes next ("Let me check whether it doesn't allow …"), a table row, a heading or code."""
    lowered = text.casefold()
    if not any(needle in lowered for needle in _NEEDLES):
        return
    fence = False
    at = 0
    for line in text.split("\n"):
        start, at = at, at + len(line) + 1
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or _NOT_PROSE_RE.match(line) or CONSTRAINT_RE.search(line) is None:
            continue
        for begin, end in split_sentences(text[: start + len(line)], start):
            sentence = text[begin:end]
            if CONSTRAINT_RE.search(sentence) is None or sentence.rstrip(" *_`)\"'").endswith("?"):
                continue
            if _HYPOTHETICAL_RE.match(sentence) or NARRATION_RE.match(sentence):
                continue
            item = make_item(text, begin, end, Kind.FACT, 0)
            if item is None:
                continue
            kind, said, quote, _, extra = item
            position = (index, text.count("\n", 0, begin), begin - start)
            yield Candidate(
                kind, said, quote, CONSTRAINT_IMPORTANCE, dict(extra), position, False, "constraint"
            )
