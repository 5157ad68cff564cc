"""The heuristic extractor: explicit markers in, verbatim item drafts out.

Built in, deterministic, no model: what a fresh install captures with. It looks for
explicit markers ("Decision:", "TODO:", "- [ ]", "I'm not sure…", "PR #12", "branch
`x`" …) and emits one item per marked sentence, whose quote is copied from one message,
so that every quote it emits passes :func:`gitmem.verifier.check_quote`. It misses
whatever is said without a marker; a model extractor finds more. The markers, what each
produces and what is skipped are listed in ``docs/heuristic.md``.

Pure: no disk, no git, no clock, no model.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from gitmem.items import Draft
from gitmem.transcripts import Message
from gitmem.verifier import MIN_PIN_CHARS, check_quotes, fold, strip_gitmem_context

MAX_QUOTE_CHARS = 280
"""A longer marked line is cut at a sentence boundary (else a word boundary)."""
MAX_TEXT_CHARS = 200
"""An item's text is cut at a word boundary, with "…", beyond this."""
IMPORTANCE = {"decision": 2, "open_loop": 1, "uncertainty": 0, "fact": 0}
FORGE_IMPORTANCE = 2
"""Any item naming a PR, merge request or issue."""
SKIPPED_ROLES = ("tool", "function", "system", "developer")
"""Messages whose role starts with one of these are not read (see docs/heuristic.md)."""

_A = "['’]"  # an apostrophe, straight or curly
_EMPH = r"(?:\*\*|__|\*|_)?"

# The first, cheap pass: a line is read only when it holds one of these words (lowercase,
# once punctuation is gone) or one of the needles. Every marker below contains one. Common
# words ("we", "will", "not") are reached through a needle naming the phrase instead, since
# each line read costs more than one more pass of str.find.
_TRIGGER_WORDS = (
    *("decision", "decisions", "decided", "agreed", "consensus", "settled", "chose", "opted"),
    *("let's", "let’s", "lets", "forward", "todo", "todos", "to-do", "to-dos", "fixme"),
    *("follow-up", "follow-ups", "followup", "followups", "remaining", "remain", "remains"),
    *("still", "yet", "pending", "blocked", "blocker", "blockers", "question", "questions"),
    *("unclear", "unknown", "unknowns", "unsure", "uncertain", "uncertainties", "unverified"),
    *("untested", "risk", "risks", "tbd", "undecided", "determined", "certain", "convinced"),
    *("might", "haven't", "haven’t", "hasn't", "hasn’t", "hadn't", "hadn’t", "didn't"),
    *("didn’t", "tested", "verified", "checked", "confirmed", "validated", "tried", "verify"),
    *("reproduced", "reproduce", "confirm", "validate", "wonder", "wondering", "couldn't"),
    *("couldn’t", "cannot", "unable", "can't", "can’t", "pr", "prs", "mr", "pull", "merge"),
    *("branch", "branches", "commit", "commits", "committed", "created", "added", "moved"),
    *("renamed", "copied", "wrote", "written", "introduced"),
)
_TRIGGER_NEEDLES = (
    *("?", "#", "[ ]", "todo(", "://", "from now on", "go with", "going with", "stick with"),
    *("we will", "we won", "we shall", "we do", "not going to", "to do", "t test", "t check"),
    *("t sure", "y sure", "% sure", "t know", "no idea", "next step", "follow up"),
    *("action item", "open item"),
)
# The first pass looks for "#" followed by a digit (every heading has a "#").
_LINE_NEEDLES = tuple(needle for needle in _TRIGGER_NEEDLES if needle != "#")
_NUMBER_RE = re.compile(r"#\d")
_FENCE_NEEDLES = ("```", "~~~")
_TRIGGER_SET = frozenset(_TRIGGER_WORDS)
_PUNCTUATION = ':,.*`()?!;"“”[]#>'
"""Replaced by spaces before a text is cut into words ("**Decision:**" holds "decision")."""

# Line chrome, skipped before a line is read: indentation, blockquote, list bullets and
# numbers, a task box, a heading, a speaker label ("**user:**").
_CHROME_RE = re.compile(
    r"[ \t]*(?:(?:>[ \t]?|(?P<bullet>[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]+)[ \t]*)*"
    r"(?:\[(?P<box>[ xX])\][ \t]+)?(?:\#{1,6}[ \t]+)?"
)
_SPEAKER_RE = re.compile(
    r"(?:\#{1,6}[ \t]+)?(?:\*\*|__)?(?P<who>user|human|assistant|agent|claude|codex)\b"
    r"(?:\*\*|__)?(?:[ \t]*:(?:\*\*|__)?[ \t]*|[ \t]*$)",
    re.IGNORECASE,
)
_SPEAKERS = ("user", "human", "assistant", "agent", "claude", "codex")
_BULLET_RE = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]")
_BLOCK_RE = re.compile(
    r"(?:[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]|\#{1,6}(?:[ \t]|$)|>|`{3}|~{3}|\||\[[ xX]\]"
)
_FENCE_RE = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>.*)")

_LABEL_WORDS = {
    "decision": r"(?:final\s+|our\s+|the\s+)?decisions?(?:\s+made)?|decided|agreed|consensus",
    "open_loop": r"to-?dos?|to\s+do|fixme|next\s+steps?|follow[- ]?ups?|still\s+to\s+do|"
    r"remaining(?:\s+(?:work|tasks|items))?|left\s+to\s+do|action\s+items?|open\s+items?|"
    r"pending|blocked\s+on|blockers?",
    "uncertainty": r"(?:open\s+|unresolved\s+)?questions?|unclear|unknowns?|unsure|"
    r"uncertain(?:ties)?|unverified|not\s+(?:yet\s+)?verified|untested|risks?|tbd|undecided",
}
_LABEL_GROUPS = "|".join(f"(?P<{kind}>{words})" for kind, words in _LABEL_WORDS.items())
_LABEL_RE = re.compile(
    rf"{_EMPH}(?:{_LABEL_GROUPS})(?:\([^()]*\))?{_EMPH}(?:[ \t]*:|[ \t]+[-–—][ \t]+){_EMPH}\s*",
    re.IGNORECASE,
)
_BARE_TODO_RE = re.compile(r"(?:TODO|FIXME)(?:\([^()]*\))?[ \t]+(?=\w)")
_SECTION_RE = re.compile(
    rf"(?:\#{{1,6}}[ \t]+)?{_EMPH}(?:{_LABEL_GROUPS}){_EMPH}[ \t]*:?[ \t]*{_EMPH}[ \t]*$",
    re.IGNORECASE,
)

_DISCOURSE = (
    r"(?:(?:so|ok(?:ay)?|then|alright|all\s+right|right|good|great|fine|yes|yeah|yep|agreed|"
    r"in\s+the\s+end|after\s+(?:some\s+)?discussion|finally|for\s+now|anyway|and|but|also)"
    r"\b[,.!:;]?\s+)*"
)
_DECISION_START_RE = re.compile(
    rf"{_EMPH}{_DISCOURSE}(?:"
    rf"(?:we|i|the\s+team|everyone)(?:{_A}ve|\s+have)?\s+(?:now\s+|finally\s+|just\s+|all\s+)?"
    r"(?:decided|agreed|settled\s+on|chose|opted)\b"
    r"|decided\s+(?:to|on|against|that)\b"
    rf"|(?:we|i)(?:{_A}ll|\s+will|{_A}re\s+going\s+to|\s+are\s+going\s+to)\s+(?:go|stick)\s+with\b"
    rf"|(?:(?:we{_A}re|we\s+are)\s+)?going\s+with\b"
    rf"|let{_A}?s\s+(?:not\b|(?:just\s+|instead\s+|also\s+)?"
    r"(?:go\s+with|stick\s+with|keep|use|drop|switch\s+to|move\s+to|avoid)\b)"
    rf"|we\s+(?:will\s+not|won{_A}t|will\s+never|shall\s+not|are\s+not\s+going\s+to|"
    rf"aren{_A}t\s+going\s+to|{_A}re\s+not\s+going\s+to|do\s+not\s+want\s+to|don{_A}t\s+want\s+to)"
    r"\s+(?!(?:know|see|notice|find|get|have|need|be\s+able|make\s+it|manage|hit|lose|miss|run)\b)"
    r"|going\s+forward\b)",
    re.IGNORECASE,
)
_DONE = r"(?:implemented|done|finished|ported|written|wired\s+up|handled|addressed|fixed)"
_WH = r"(?:whether|if|why|how|what|which|who|when|where)"
_TRIED = r"(?:test|tested|verify|verified|check|checked|confirm|confirmed|validate|validated|"
_TRIED += r"reproduce|reproduced|tried)"


def _phrases(kind: str, gates: str, pattern: str) -> list[tuple[str, str, re.Pattern[str]]]:
    compiled = re.compile(pattern)
    return [(kind, gate, compiled) for gate in gates.split("|")]


# Phrases that mark a sentence wherever they stand, in order of precedence, matched in the
# lowercased sentence. Each comes with the words one of which every match contains: a
# sentence holding none of them is not searched (a dozen `in` tests cost less than one
# regex search).
_PHRASES = (
    *_phrases("decision", "now", r"\bfrom\s+now\s+on\b"),
    *_phrases(
        "open_loop",
        "still",
        r"\bstill\s+(?:(?:need|needs|have|has)\s+to|missing|pending|open|unfinished|failing|"
        r"broken|unresolved|to\s+do)\b",
    ),
    *_phrases(
        "open_loop",
        "yet",
        rf"\bnot\s+(?:yet\s+)?(?:been\s+)?{_DONE}\s+yet\b|\bnot\s+yet\s+(?:been\s+)?{_DONE}\b",
    ),
    *_phrases("open_loop", "remain|left", r"\bremains?\s+to\s+be\b|\bleft\s+to\s+do\b"),
    *_phrases(
        "uncertainty",
        "sure|certain|convinced",
        r"\bnot\s+(?:(?:entirely|quite|totally|completely|100%|fully|really|yet)\s+)?"
        r"(?:sure|certain|convinced)\b|\bun(?:sure|certain)\b",
    ),
    *_phrases(
        "uncertainty",
        "unclear",
        rf"\bunclear\s+{_WH}\b|\b(?:it{_A}s|it\s+is|it\s+was|still|remains)\s+unclear\b",
    ),
    *_phrases("uncertainty", "might", r"\bmight\s+be\b"),
    *_phrases("uncertainty", "unverified|untested", r"\bun(?:verified|tested)\b"),
    *_phrases(
        "uncertainty",
        "not|n't|n’t",
        rf"\b(?:have|has|had|did)(?:n{_A}t|\s+not)\s+(?:yet\s+)?(?:been\s+)?{_TRIED}\b|"
        r"\bnot\s+(?:yet\s+)?(?:been\s+)?(?:tested|verified|confirmed|validated)\b",
    ),
    *_phrases(
        "uncertainty",
        "reproduc|confirm|verif",
        rf"\b(?:couldn{_A}t|could\s+not|can{_A}t|cannot|was\s+unable\s+to|were\s+unable\s+to)"
        r"\s+(?:reproduce|confirm|verify)\b",
    ),
    *_phrases(
        "uncertainty", "know", rf"\b(?:don{_A}t|do\s+not|didn{_A}t|did\s+not)\s+know\s+{_WH}\b"
    ),
    *_phrases("uncertainty", "idea", rf"\bno\s+idea\s+{_WH}\b"),
    *_phrases("uncertainty", "wonder", r"\bwonder(?:ing)?\s+(?:whether|if)\b"),
    *_phrases("uncertainty", "question", r"\bopen\s+question\b"),
    *_phrases(
        "uncertainty",
        "decided|determined|confirmed",
        r"\bundecided\b|\bto\s+be\s+(?:decided|determined|confirmed)\b",
    ),
    *_phrases("uncertainty", "tbd", r"\btbd\b"),
)
_QUESTION_RE = re.compile(
    r"[*_\"“]*(?:(?:so|and|but|also|ok(?:ay)?|then|now)\b,?\s+)?(?P<w>what|which|where|when|why|"
    r"how|who|whether|should|shall|must|do|does|did|is|are|was|were|can|could|would|will|"
    r"have|has)\b",
    re.IGNORECASE,
)
_WE_RE = re.compile(rf"\b(?:we|us|our|let{_A}?s)\b", re.IGNORECASE)
_ADDRESSED_RE = re.compile(r"(?<![\w/])(?:I|[Yy]ou|[Yy]our|[Mm]e|[Mm]y)(?![\w/])")
_COURTESY_RE = re.compile(
    r"\b(?:make\s+sense|sounds?\s+good|looks?\s+good|any\s+(?:other\s+)?(?:questions|thoughts|"
    r"objections|concerns)|anything\s+else|go\s+ahead|proceed)\b",
    re.IGNORECASE,
)

# References to the world. Group names: num, and repo (URL path or owner/name) when given.
_FORGE_RES = (
    (
        "url",
        re.compile(
            r"https?://(?P<host>[\w.-]+(?::\d+)?)/(?P<path>[\w.-]+(?:/[\w.-]+)+?)(?:/-)?/"
            r"(?P<what>pulls?|merge_requests|issues)/(?P<num>\d+)\b"
        ),
    ),
    ("pr", re.compile(r"\b(?:pull\s+request|PR)s?(?:\s*#\s*|\s+)(?P<num>\d+)\b", re.IGNORECASE)),
    ("pr", re.compile(r"\b(?:merge\s+request|MR)s?(?:\s*[#!]\s*|\s+)(?P<num>\d+)\b", re.I)),
    ("issue", re.compile(r"\b(?:issue|bug|ticket)s?(?:\s*#\s*|\s+)(?P<num>\d+)\b", re.I)),
    ("either", re.compile(r"(?<![\w/.#])(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)#(?P<num>\d+)\b")),
    (
        "either",
        re.compile(
            r"(?:\b(?:refs?|references?|see|fix(?:es|ed)?|close[sd]?|resolve[sd]?|part\s+of|"
            r"related\s+to|relates\s+to|in|via|from|per|addresses)\s*:?\s+|\()#(?P<num>\d+)\b",
            re.IGNORECASE,
        ),
    ),
)
# Every reference has a digit and one of these.
_FORGE_WORDS = ("#", "pr", "mr", "pull", "merge", "issue", "bug", "ticket", "://")
_DIGIT_RE = re.compile(r"\d")
_MERGE_COMMIT_RE = re.compile(r"Merge (?:pull request|PR) #\d+\b")
_HYPOTHETICAL_RE = re.compile(
    rf"\b(?:once|after|if|unless|until|before|whether|when|will|would|should|could|can|must|"
    rf"need\s+to|needs\s+to|to\s+be|going\s+to|let{_A}?s|let\s+me|plan\s+to|want\s+to|wait\s+for)"
    r"\b|^\W*(?:create|make|open|cut|start|add|push)\b",
    re.IGNORECASE,
)
_NEGATED_RE = re.compile(rf"(?:\b(?:not|never|no\s+longer)|n{_A}t)\s+(?:\w+\s+)?$", re.I)
_STATE_RES = (
    ("merged", re.compile(r"\bmerged\b", re.IGNORECASE)),
    ("closed", re.compile(r"\bclosed\b", re.IGNORECASE)),
    (
        "open",
        re.compile(
            r"\b(?:opened|reopened|is\s+open|still\s+open|remains\s+open|stays\s+open|"
            r"awaiting\s+(?:review|approval)|waiting\s+(?:for|on)\s+(?:review|approval)|"
            r"review\s+requested|requested\s+(?:a\s+)?review|in\s+review|under\s+review|"
            r"ready\s+for\s+review|(?:is\s+a\s+|as\s+a\s+)?draft)\b",
            re.IGNORECASE,
        ),
    ),
)
_BRANCH_NAME = r"(?:`(?P<q>[^`\s]+)`|['\"](?P<qq>[^'\"\s]+)['\"]|(?P<bare>\w[\w./+-]*))"
_BRANCH_RES = (
    re.compile(rf"\bbranch(?:es)?\s+(?:called\s+|named\s+)?{_BRANCH_NAME}", re.IGNORECASE),
    re.compile(rf"(?<![\w./`'\"-]){_BRANCH_NAME}\s+branch\b", re.IGNORECASE),
)
_NAMEISH_RE = re.compile(r"[/_.\d-]")
_COMMON_BRANCHES = frozenset(("main", "master", "develop", "trunk", "staging", "stable"))
_GONE_RE = re.compile(
    rf"\b(?:deleted|removed|dropped|gone|doesn{_A}t\s+exist|does\s+not\s+exist|no\s+longer)\b",
    re.IGNORECASE,
)
_PATH_RE = re.compile(
    r"`(?P<q>[^`\s]+)`|(?<![\w/.:@~-])(?P<bare>(?:\.{1,2}/)?(?:[\w.-]+/)+[\w.-]*"
    r"|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])"
)
_EXTENSIONS = frozenset(
    (
        *("py", "pyi", "md", "json", "toml", "yaml", "yml", "js", "mjs", "ts", "tsx", "jsx", "go"),
        *("rs", "txt", "cfg", "ini", "sh", "lock", "c", "h", "cc", "cpp", "hpp", "java", "kt"),
        *("rb", "sql", "html", "css", "scss", "svg", "png", "gz", "zip", "csv", "xml", "proto"),
        *("sig", "pub", "env", "mk", "swift", "php", "lua", "rst", "ipynb"),
    )
)
_FILE_VERBS = ("created", "added", "wrote", "written", "introduced", "moved", "renamed", "copied")
# "created `a.py`", "added a test to tests/x.py"; "a.py was added".
_MADE_RE = re.compile(rf"\b(?:{'|'.join(_FILE_VERBS)})\b", re.IGNORECASE)
# Between the verb and the path: a new clause means the path is not what was made.
_CLAUSE_RE = re.compile(
    r"[;:.!?]|,(?!\s*(?:,|and\b|or\b|$))|\b(?:then|but|which|while|so|because|where|when)\b",
    re.IGNORECASE,
)
_MADE_AFTER_RE = re.compile(
    rf"\s+(?:(?:was|were|is|are|has|have|got)\s+)?(?:been\s+|now\s+)?(?:{'|'.join(_FILE_VERBS)})\b",
    re.IGNORECASE,
)
_MOVE_RE = re.compile(r"\b(?:moved|renamed|copied)\b", re.IGNORECASE)
_DESTINATION_RE = re.compile(r"\s(?:to|into|as)\s|→|->", re.IGNORECASE)
_COMMIT_RE = re.compile(
    r"\bcommit(?:s|ted)?(?:\s+(?:it\s+)?as)?\s*[:(]?\s*`?(?P<sha>[0-9a-f]{7,40})\b", re.IGNORECASE
)

_SENTENCE_END_RE = re.compile(r"[.!?]+[\"'”’)\]*_`]*(?=\s+[\"'“‘(\[*_`]*[A-Z])")
_ABBREVIATIONS = frozenset(
    (
        *("e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "dr", "mr", "mrs", "ms", "no", "fig"),
        *("eq", "st"),
    )
)
_STOPWORDS = frozenset(
    (
        *("a", "an", "the", "it", "this", "that", "them", "these", "those", "so", "then", "now"),
        *("here", "there", "one", "ones", "too", "also", "yes", "no", "ok", "okay", "please"),
        *("thing", "things", "stuff", "for", "with"),
    )
)
_WORD_RE = re.compile(r"[^\W\d_]+")
_SPACES_RE = re.compile(r"\s+")
_UNTRIMMED = "*_~` \t\n\r,;"
_EMPHASIS_RUNS = ("**", "__", "~~", "*", "_", "`")


_Item = tuple[str, str, str, int, dict[str, Any]]
"""(kind, text, quote, importance, extra) of one item of a unit."""


@dataclass(frozen=True)
class _Found:
    kind: str
    text: str
    quote: str
    importance: int
    extra: dict[str, Any]
    position: tuple[int, int, int]
    by_user: bool

    def draft(self) -> Draft:
        extra = {"importance": self.importance, **self.extra}
        return Draft(self.kind, self.text, "verbatim", self.quote, extra)


@dataclass(frozen=True)
class _Marker:
    kind: str
    content: int
    """Offset in the sentence where the statement starts (after a label)."""
    label: bool


def extract(messages: Sequence[Message], max_items: int = 40) -> list[Draft]:
    """Find explicitly marked decisions, open loops, uncertainties and facts.

    Every draft is ``verbatim`` and its quote is a substring of one message's text that
    :func:`gitmem.verifier.check_quote` accepts. Identical (kind, text) pairs are kept
    once (the latest). At most *max_items* are returned: the most important, then a
    user's before an assistant's, then the latest; in transcript order.

    Raises:
        ValueError: *max_items* is negative.
    """
    if max_items < 0:
        raise ValueError(f"max_items must be 0 or more (got {max_items})")
    found: dict[tuple[str, str], _Found] = {}
    for index, message in enumerate(messages):
        role = (message.role or "").casefold()
        if role.startswith(SKIPPED_ROLES):
            continue
        for item in _Scan(index, message.text, role).items():
            key = (item.kind, fold(item.text))
            earlier = found.get(key)
            if earlier is not None and earlier.by_user and not item.by_user:
                item = replace(item, by_user=True)
            found[key] = item
    ranked = sorted(found.values(), key=lambda f: (f.importance, f.by_user, f.position))
    kept = ranked[len(ranked) - max_items :] if max_items else []
    return [f.draft() for f in sorted(kept, key=lambda f: f.position)]


class _Scan:
    """One message cut into lines, and the units (paragraphs, list items) worth reading."""

    def __init__(self, index: int, raw: str, role: str) -> None:
        self.index = index
        self.raw = raw
        text = strip_gitmem_context(raw)
        # A stripped span leaves a newline behind: a quote spanning lines must be
        # looked up in the raw text too before it can be called a copy of it.
        self.literal = text == raw
        self.lines = text.split("\n")
        low = text.lower()
        # Lowercasing can change a line's length, never the number of lines.
        low_lines = low.split("\n")
        starts = list(accumulate((len(line) + 1 for line in low_lines), initial=0))
        self.fences = _fenced_ranges(self.lines, sorted(_find_lines(low, starts, _FENCE_NEEDLES)))
        self.fence_starts = [first for first, _ in self.fences]
        hits = _find_lines(low, starts, _LINE_NEEDLES)
        for match in _NUMBER_RE.finditer(low):
            hits.add(bisect.bisect_right(starts, match.start()) - 1)
        speakers: list[int] = []
        words_lines = _unpunctuate(low).split("\n")
        begin = 0
        for first, last in [*self.fences, (len(self.lines), len(self.lines))]:
            for n in range(begin, first):  # fenced code is never read
                words = words_lines[n].split()
                if not _TRIGGER_SET.isdisjoint(words):
                    hits.add(n)
                if not role and words and words[0].strip("_") in _SPEAKERS:
                    speakers.append(n)
            begin = last + 1
        self.hits = sorted(hits)
        self.by_user = role in ("user", "human")
        self.speakers = [] if role else _speaker_lines(self.lines, speakers)

    def items(self) -> Iterator[_Found]:
        done = -1
        for n in self.hits:
            if n <= done or self._fenced(n):
                continue
            section = _section_kind(self.lines[n])
            if section is not None:
                done = n
                m = n + 1
                while m < len(self.lines) and m - n < 200:
                    if self._fenced(m) or not self.lines[m].strip():
                        m += 1
                        continue
                    if not _BULLET_RE.match(self.lines[m]):
                        break
                    done = self._unit_end(m)
                    yield from self._unit(m, done, section)
                    m = done + 1
                continue
            first = n
            while first > done + 1 and self._joins(first):
                first -= 1
            done = self._unit_end(n)
            yield from self._unit(first, done, None)

    def _fenced(self, n: int) -> bool:
        at = bisect.bisect_right(self.fence_starts, n) - 1
        return at >= 0 and n <= self.fences[at][1]

    def _unit_end(self, n: int) -> int:
        while n + 1 < len(self.lines) and self._joins(n + 1):
            n += 1
        return n

    def _joins(self, n: int) -> bool:
        """Does line *n* continue the paragraph or list item of line n - 1?"""
        return not _starts_block(self.lines[n]) and not _ends_block(self.lines[n - 1])

    def _unit(self, first: int, last: int, section: str | None) -> Iterator[_Found]:
        block = "\n".join(self.lines[first : last + 1])
        by_user = self.by_user or _spoken_by_user(self.speakers, first)
        found = list(_unit_items(block, section))
        if not found:
            return
        # The guarantee, checked rather than argued: whole lines fold the same way alone
        # as inside their message, so a quote that passes here passes against the message.
        checks = check_quotes([item[2] for _, item in found], block)
        for (start, (kind, text, quote, importance, extra)), check in zip(
            found, checks, strict=True
        ):
            if not check.verbatim or ("\n" in quote and not self.literal and quote not in self.raw):
                continue
            position = (self.index, first, start)
            yield _Found(kind, text, quote, importance, extra, position, by_user)


def _unit_items(block: str, section: str | None) -> Iterator[tuple[int, _Item]]:
    """(offset, item) for each marked sentence of *block*; a list item under a
    section, or a task box, is one item as a whole."""
    chrome = _CHROME_RE.match(block)
    start = chrome.end() if chrome else 0
    box = chrome.group("box") if chrome else None
    if box in ("x", "X"):
        return  # a finished task
    speaker = _SPEAKER_RE.match(block, start)
    if speaker is not None:
        start = speaker.end()
    if box == " ":
        section = "open_loop"
    if section is not None:
        marker = _marker(block[start:])
        if marker is not None and marker.label:
            item = _item(block, start, len(block), marker.kind, marker.content)
        else:
            item = _item(block, start, len(block), section, 0)
        if item is not None:
            yield start, item
        return
    sentences = _sentences(block, start)
    # Only a sentence holding a trigger can hold a marker or a reference.
    triggered = [_triggered(block[s:e]) for s, e in sentences]
    markers = [
        _marker(block[s:e]) if hit else None
        for (s, e), hit in zip(sentences, triggered, strict=True)
    ]
    for k, ((s, e), marker) in enumerate(zip(sentences, markers, strict=True)):
        if marker is None and not triggered[k]:
            continue
        if marker is not None and marker.label:
            # A label runs on, within its line, over the sentences after it that carry
            # nothing of their own.
            for (_, next_end), next_marker in zip(
                sentences[k + 1 :], markers[k + 1 :], strict=False
            ):
                if next_marker is not None or "\n" in block[e:next_end]:
                    break
                claims, forge, _ = _references(block[e:next_end])
                if claims or forge or next_end - s > MAX_QUOTE_CHARS:
                    break
                e = next_end
        if marker is None:
            item = _item(block, s, e, None, 0)
        else:
            item = _item(block, s, e, marker.kind, marker.content)
        if item is not None:
            yield s, item


def _triggered(sentence: str) -> bool:
    """Does the sentence hold a trigger? Only those can hold a marker."""
    low = sentence.lower()
    if not _TRIGGER_SET.isdisjoint(_unpunctuate(low).split()):
        return True
    return any(needle in low for needle in _TRIGGER_NEEDLES)


def _unpunctuate(text: str) -> str:
    for char in _PUNCTUATION:
        if char in text:
            text = text.replace(char, " ")
    return text


def _starts_block(line: str) -> bool:
    """Blank, or the start of a list item, heading, fence, quote, table row, speaker
    turn or section label: never the continuation of the line before."""
    stripped = line.lstrip(" \t")
    if not stripped:
        return True
    marked = stripped[0] in "-*+•●⏺◦▪#>`~|[" or stripped[0].isdigit()
    if marked and _BLOCK_RE.match(stripped):
        return True
    if stripped.lstrip("*_#> ")[:9].lower().startswith(_SPEAKERS) and _SPEAKER_RE.match(stripped):
        return True
    return len(stripped) <= 40 and _section_kind(stripped) is not None


def _ends_block(line: str) -> bool:
    """A line nothing can continue: blank, a heading, a fence, a table row."""
    stripped = line.lstrip(" \t>")
    return not stripped or (stripped[0] in "#`~|" and _BLOCK_RE.match(stripped) is not None)


def _find_lines(low: str, starts: list[int], needles: Sequence[str]) -> set[int]:
    """Indices of the lines of *low* holding any of *needles* (*starts*: line offsets)."""
    hits: set[int] = set()
    for needle in needles:
        pos = low.find(needle)
        while pos >= 0:
            n = bisect.bisect_right(starts, pos) - 1
            hits.add(n)
            pos = low.find(needle, starts[n + 1])
    return hits


def _fenced_ranges(lines: list[str], candidates: list[int]) -> list[tuple[int, int]]:
    """Line ranges (first, last) of fenced code blocks; an open fence runs to the end."""
    ranges: list[tuple[int, int]] = []
    opening: tuple[int, str] | None = None
    for n in candidates:
        match = _FENCE_RE.fullmatch(lines[n])
        if match is None:
            continue
        fence, info = match.group("fence"), match.group("info")
        if opening is None:
            if not (fence[0] == "`" and "`" in info):
                opening = (n, fence)
        elif fence[0] == opening[1][0] and len(fence) >= len(opening[1]) and not info.strip():
            ranges.append((opening[0], n))
            opening = None
    if opening is not None:
        ranges.append((opening[0], len(lines)))
    return ranges


def _speaker_lines(lines: list[str], candidates: list[int]) -> list[tuple[int, bool]]:
    """(line, is the user) for each speaker label of a plain transcript."""
    speakers: list[tuple[int, bool]] = []
    for n in candidates:
        chrome = _CHROME_RE.match(lines[n])
        label = _SPEAKER_RE.match(lines[n], chrome.end() if chrome else 0)
        if label is not None:
            speakers.append((n, label.group("who").lower() in ("user", "human")))
    return speakers


def _spoken_by_user(speakers: list[tuple[int, bool]], n: int) -> bool:
    at = bisect.bisect_right(speakers, (n, True)) - 1
    return at >= 0 and speakers[at][1]


def _section_kind(line: str) -> str | None:
    """The kind a label-only line ("## Next steps", "**Decisions:**") gives its list."""
    if len(line) > 60 or _BULLET_RE.match(line):
        return None
    match = _SECTION_RE.fullmatch(line.strip(" \t>"))
    return None if match is None else match.lastgroup


def _sentences(block: str, start: int) -> list[tuple[int, int]]:
    """Sentence spans: cut after ".", "!" or "?" before a capital, and at a line break
    unless a lowercase word carries an unfinished sentence over it."""
    cuts: set[int] = set()
    for match in _SENTENCE_END_RE.finditer(block, start):
        word = block[max(start, match.start() - 12) : match.start()].rsplit(None, 1)[-1:]
        if not word or word[0].lstrip("(*_`\"'").lower() not in _ABBREVIATIONS:
            cuts.add(match.end())
    pos = block.find("\n", start)
    while pos >= 0:
        before = block[max(start, pos - 8) : pos].rstrip()
        after = block[pos + 1 : pos + 80].lstrip()
        if before.endswith((".", "!", "?")) or not after[:1].islower():
            cuts.add(pos)
        pos = block.find("\n", pos + 1)
    spans: list[tuple[int, int]] = []
    for cut in sorted(cuts):
        if block[start:cut].strip():
            spans.append((start, cut))
        start = cut
        while start < len(block) and block[start].isspace():
            start += 1
    if block[start:].strip():
        spans.append((start, len(block)))
    return spans


def _marker(sentence: str) -> _Marker | None:
    """What marks *sentence*: a label, a decision, open-loop or uncertainty phrase, an
    open question; None when nothing does (references are judged by :func:`_item`)."""
    label = _LABEL_RE.match(sentence) or _BARE_TODO_RE.match(sentence)
    if label is not None and _says_something(sentence[label.end() :]):
        kind = (label.lastgroup if label.re is _LABEL_RE else None) or "open_loop"
        return _Marker(kind, label.end(), True)
    decision = _DECISION_START_RE.match(sentence)
    if decision is not None and _says_something(sentence[decision.end() :]):
        return _Marker("decision", 0, False)
    low = sentence.lower()
    searched: set[re.Pattern[str]] = set()
    for kind, gate, pattern in _PHRASES:
        if gate not in low or pattern in searched:
            continue
        searched.add(pattern)
        # Offsets in the lowercased text have the same backticks before them.
        if any(not _in_code(low, m.start()) for m in pattern.finditer(low)):
            return _Marker(kind, 0, False)
    if "?" in sentence and _is_open_question(sentence):
        return _Marker("uncertainty", 0, False)
    return None


def _says_something(rest: str) -> bool:
    return any(word.lower() not in _STOPWORDS for word in _WORD_RE.findall(rest))


def _in_code(sentence: str, pos: int) -> bool:
    return sentence.count("`", 0, pos) % 2 == 1


def _is_open_question(sentence: str) -> bool:
    """A deliberative question about the work ("Should we…?", "Do we need…?"), not a
    courtesy, a request or one put to a person ("Does that make sense?", "Can you…?")."""
    if not sentence.rstrip(" *_`\"')]”’").endswith("?"):
        return False
    opening = _QUESTION_RE.match(sentence)
    if opening is None or not 4 <= len(sentence.split()) <= 40:
        return False
    if _COURTESY_RE.search(sentence) or _ADDRESSED_RE.search(sentence):
        return False
    deliberative = opening.group("w").lower() in ("should", "shall", "must")
    return deliberative or bool(_WE_RE.search(sentence))


def _item(block: str, start: int, end: int, kind: str | None, content: int) -> _Item | None:
    """(kind, text, quote, importance, extra) for the span, or None when it does not make
    a good item (no marker and no reference, too short, masked, or not verbatim)."""
    end = _cut(block, start, end)
    start, end = _trim(block, start, end)
    quote = block[start:end]
    claims, forge, state = _references(quote)
    if kind is None:
        if forge:
            kind = "fact" if state in ("merged", "closed") else "open_loop"
        elif claims:
            kind = "fact"
        else:
            return None
    body_start, _ = _trim(block, min(start + content, end), end)
    text = _statement(block[body_start:end] if content else quote)
    # A quote under MIN_PIN_CHARS folded characters fails the check in _Scan._unit.
    if "[redacted:" in quote or len(fold(text)) < MIN_PIN_CHARS:
        return None
    extra: dict[str, Any] = {}
    if forge or claims:
        extra["external_state"] = True
    if claims:
        extra["claims"] = claims
    importance = max(IMPORTANCE[kind], FORGE_IMPORTANCE if forge else 0)
    return kind, text, quote, importance, extra


def _cut(block: str, start: int, end: int) -> int:
    """*end*, or the last sentence end (else word end) within MAX_QUOTE_CHARS."""
    if end - start <= MAX_QUOTE_CHARS:
        return end
    limit = start + MAX_QUOTE_CHARS
    ends = [m.end() for m in _SENTENCE_END_RE.finditer(block, start, limit)]
    if ends:
        return ends[-1]
    space = block.rfind(" ", start, limit + 1)
    return space if space > start else end


def _trim(block: str, start: int, end: int) -> tuple[int, int]:
    """Narrow [start, end) past whitespace and emphasis at the ends: a pair of runs that
    encloses the span, or a run with no partner inside it."""
    changed = True
    while changed:
        if start < end and block[start] not in _UNTRIMMED and block[end - 1] not in _UNTRIMMED:
            break
        changed = False
        while start < end and block[start].isspace():
            start += 1
        while end > start and (block[end - 1].isspace() or block[end - 1] in ",;"):
            end -= 1
        for run in _EMPHASIS_RUNS:
            width = len(run)
            if end - start <= 2 * width:
                continue
            opens = block.startswith(run, start)
            closes = block.endswith(run, start, end)
            inner = block.find(run, start + width, end - width) >= 0
            if opens and (closes or not inner) and not (closes and inner):
                start += width
                changed = True
            if closes and (opens or not inner) and not (opens and inner):
                end -= width
                changed = True
            if changed:
                break
    return start, end


def _statement(content: str) -> str:
    """Normalised text: emphasis stars gone, whitespace collapsed, capitalised, capped."""
    text = _SPACES_RE.sub(" ", content.replace("**", "").replace("~~", "")).strip(" *")
    if len(text) > MAX_TEXT_CHARS:
        cut = text.rfind(" ", 0, MAX_TEXT_CHARS)
        text = text[: cut if cut > 0 else MAX_TEXT_CHARS].rstrip(" ,;:-") + "…"
    first = _WORD_RE.match(text)
    if first is not None and first.group().islower() and text[first.end() :][:1] in " ,":
        text = text[0].upper() + text[1:]
    return text


def _references(quote: str) -> tuple[list[dict[str, Any]], bool, str | None]:
    """(claims, names a PR or issue, the state the sentence says its PRs or issues are in)."""
    refs: dict[int, tuple[str, str | None]] = {}
    low = quote.lower()
    forge_gate = _DIGIT_RE.search(low) and any(word in low for word in _FORGE_WORDS)
    for kind, pattern in _FORGE_RES if forge_gate else ():
        for match in pattern.finditer(quote):
            if _in_code(quote, match.start()):
                continue
            number = int(match.group("num"))
            repo = _repo(match) if "repo" in match.re.groupindex or kind == "url" else None
            if kind == "url":
                kind = "issue" if match.group("what") == "issues" else "pr"
            known = refs.get(number)
            if known is None or (known[1] is None and repo is not None):
                refs[number] = (kind, repo)
    claims: list[dict[str, Any]] = []
    state = _state(quote) if refs else None
    for number, (kind, repo) in refs.items():
        # With two references, which one the state belongs to is a guess: no claim.
        if state is None or len(refs) > 1 or (kind == "either" and state != "merged"):
            continue
        claim: dict[str, Any] = {
            "type": "issue-state" if kind == "issue" else "pr-state",
            "number": number,
            "state": state,
        }
        if repo is not None:
            claim["repo"] = repo
        claims.append(claim)
    claims.extend(_world_claims(quote, low))
    return claims, bool(refs), state


def _repo(match: re.Match[str]) -> str:
    if "host" not in match.re.groupindex:
        return match.group("repo")
    host, path = match.group("host"), match.group("path")
    # gh and glab take --repo as OWNER/REPO on github.com, HOST/OWNER/REPO elsewhere.
    return path if host.lower() in ("github.com", "www.github.com") else f"{host}/{path}"


def _state(quote: str) -> str | None:
    if _MERGE_COMMIT_RE.match(quote):
        return "merged"
    if _HYPOTHETICAL_RE.search(quote):
        return None
    for state, pattern in _STATE_RES:
        for match in pattern.finditer(quote):
            if not _NEGATED_RE.search(quote, 0, match.start()):
                return state
    return None


def _world_claims(quote: str, low: str) -> list[dict[str, Any]]:
    """branch-exists, file-exists and commit-exists claims the sentence makes (*low* is
    the quote in lowercase). A branch or file said to be gone, or named in a sentence
    about what will or should happen, makes no claim."""
    claims: list[dict[str, Any]] = []
    if "branch" in low:
        claims.extend(_branch_claims(quote))
    # A path has a slash, backticks or a dot inside the sentence ("notes.md").
    if ("/" in low or "`" in low or "." in low.rstrip(".")) and any(
        verb in low for verb in _FILE_VERBS
    ):
        claims.extend(_file_claims(quote))
    if claims and (_HYPOTHETICAL_RE.search(quote) or _GONE_RE.search(quote)):
        claims = []
    for match in _COMMIT_RE.finditer(quote) if "commit" in low else ():
        sha = match.group("sha").lower()
        claim = {"type": "commit-exists", "sha": sha}
        digits = any(c.isdigit() for c in sha)
        if digits and claim not in claims and not _in_code(quote, match.start()):
            claims.append(claim)
    return claims


def _branch_claims(quote: str) -> Iterator[dict[str, Any]]:
    for pattern in _BRANCH_RES:
        for match in pattern.finditer(quote):
            name = match.group("q") or match.group("qq")
            bare = (match.group("bare") or "").rstrip(".,;:!?)")
            if name is None and (bare.lower() in _COMMON_BRANCHES or _NAMEISH_RE.search(bare)):
                name = bare
            if name and _valid_branch(name) and not _in_code(quote, match.start()):
                yield {"type": "branch-exists", "branch": name}


def _file_claims(quote: str) -> Iterator[dict[str, Any]]:
    """Paths the sentence says were created, added or written (a few words after the verb,
    in the same clause, or before "was added"), or moved, renamed or copied to."""
    low = quote.lower()
    moved = "moved" in low or "renamed" in low or "copied" in low
    move = _MOVE_RE.search(quote) if moved else None
    destination = _DESTINATION_RE.search(quote, move.end()) if move else None
    verbs = [verb.end() for verb in _MADE_RE.finditer(quote)]
    seen: set[str] = set()
    for match in _PATH_RE.finditer(quote):
        path = (match.group("q") or match.group("bare")).rstrip(".,;:")
        if path in seen or not _looks_like_path(path):
            continue
        if move is not None:
            # Only the destination of a move exists afterwards.
            named = destination is not None and match.start() >= destination.end()
        else:
            at = bisect.bisect_right(verbs, match.start()) - 1
            between = quote[verbs[at] : match.start()] if at >= 0 else ""
            named = at >= 0 and len(between.split()) <= 6
            named = named and not _CLAUSE_RE.search(_PATH_RE.sub(" ", between))
            named = named or _MADE_AFTER_RE.match(quote, match.end()) is not None
        if named:
            seen.add(path)
            yield {"type": "file-exists", "path": path}


def _valid_branch(name: str) -> bool:
    """A plausible git branch name (git check-ref-format, roughly)."""
    return (
        0 < len(name) <= 200
        and not name.startswith(("-", ".", "/"))
        and not name.endswith(("/", ".", ".lock"))
        and ".." not in name
        and "//" not in name
        and "@{" not in name
        and "://" not in name
        and not any(c in name for c in "~^:?*[\\")
        and not name.isdigit()
        and name != "HEAD"
    )


def _looks_like_path(path: str) -> bool:
    """A path in the repository: relative, with a known extension or a folder in it (an
    absolute, home, variable or .git path says nothing about the commit checked out)."""
    if "://" in path or path.startswith(("-", "@", "/", "~", ".git/")) or "$" in path:
        return False
    if "(" in path or "::" in path:
        return False
    name = path.rstrip("/").rsplit("/", 1)[-1]
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return extension in _EXTENSIONS or ("/" in path and bool(name) and path.strip("./") != "")
