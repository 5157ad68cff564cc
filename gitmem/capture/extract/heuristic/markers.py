"""The markers: the labels, phrases and questions that make a sentence a decision, an
open loop or an uncertainty (listed in docs/heuristic.md), and the trigger words one of
which a line or sentence must hold before any marker is looked for."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gitmem.core.claims import in_code
from gitmem.core.items import Kind

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
LINE_NEEDLES = tuple(needle for needle in _TRIGGER_NEEDLES if needle != "#")
NUMBER_RE = re.compile(r"#\d")
FENCE_NEEDLES = ("```", "~~~")
TRIGGER_SET = frozenset(_TRIGGER_WORDS)
_PUNCTUATION = ':,.*`()?!;"“”[]#>'
"""Replaced by spaces before a text is cut into words ("**Decision:**" holds "decision")."""

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
SECTION_RE = re.compile(
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


def _phrases(kind: Kind, gates: str, pattern: str) -> list[tuple[Kind, str, re.Pattern[str]]]:
    compiled = re.compile(pattern)
    return [(kind, gate, compiled) for gate in gates.split("|")]


# Phrases that mark a sentence wherever they stand, in order of precedence, matched in the
# lowercased sentence. Each comes with the words one of which every match contains: a
# sentence holding none of them is not searched (a dozen `in` tests cost less than one
# regex search).
_PHRASES = (
    *_phrases(Kind.DECISION, "now", r"\bfrom\s+now\s+on\b"),
    *_phrases(
        Kind.OPEN_LOOP,
        "still",
        r"\bstill\s+(?:(?:need|needs|have|has)\s+to|missing|pending|open|unfinished|failing|"
        r"broken|unresolved|to\s+do)\b",
    ),
    *_phrases(
        Kind.OPEN_LOOP,
        "yet",
        rf"\bnot\s+(?:yet\s+)?(?:been\s+)?{_DONE}\s+yet\b|\bnot\s+yet\s+(?:been\s+)?{_DONE}\b",
    ),
    *_phrases(Kind.OPEN_LOOP, "remain|left", r"\bremains?\s+to\s+be\b|\bleft\s+to\s+do\b"),
    *_phrases(
        Kind.UNCERTAINTY,
        "sure|certain|convinced",
        r"\bnot\s+(?:(?:entirely|quite|totally|completely|100%|fully|really|yet)\s+)?"
        r"(?:sure|certain|convinced)\b|\bun(?:sure|certain)\b",
    ),
    *_phrases(
        Kind.UNCERTAINTY,
        "unclear",
        rf"\bunclear\s+{_WH}\b|\b(?:it{_A}s|it\s+is|it\s+was|still|remains)\s+unclear\b",
    ),
    *_phrases(Kind.UNCERTAINTY, "might", r"\bmight\s+be\b"),
    *_phrases(Kind.UNCERTAINTY, "unverified|untested", r"\bun(?:verified|tested)\b"),
    *_phrases(
        Kind.UNCERTAINTY,
        "not|n't|n’t",
        rf"\b(?:have|has|had|did)(?:n{_A}t|\s+not)\s+(?:yet\s+)?(?:been\s+)?{_TRIED}\b|"
        r"\bnot\s+(?:yet\s+)?(?:been\s+)?(?:tested|verified|confirmed|validated)\b",
    ),
    *_phrases(
        Kind.UNCERTAINTY,
        "reproduc|confirm|verif",
        rf"\b(?:couldn{_A}t|could\s+not|can{_A}t|cannot|was\s+unable\s+to|were\s+unable\s+to)"
        r"\s+(?:reproduce|confirm|verify)\b",
    ),
    *_phrases(
        Kind.UNCERTAINTY, "know", rf"\b(?:don{_A}t|do\s+not|didn{_A}t|did\s+not)\s+know\s+{_WH}\b"
    ),
    *_phrases(Kind.UNCERTAINTY, "idea", rf"\bno\s+idea\s+{_WH}\b"),
    *_phrases(Kind.UNCERTAINTY, "wonder", r"\bwonder(?:ing)?\s+(?:whether|if)\b"),
    *_phrases(Kind.UNCERTAINTY, "question", r"\bopen\s+question\b"),
    *_phrases(
        Kind.UNCERTAINTY,
        "decided|determined|confirmed",
        r"\bundecided\b|\bto\s+be\s+(?:decided|determined|confirmed)\b",
    ),
    *_phrases(Kind.UNCERTAINTY, "tbd", r"\btbd\b"),
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

_STOPWORDS = frozenset(
    (
        *("a", "an", "the", "it", "this", "that", "them", "these", "those", "so", "then", "now"),
        *("here", "there", "one", "ones", "too", "also", "yes", "no", "ok", "okay", "please"),
        *("thing", "things", "stuff", "for", "with"),
    )
)
WORD_RE = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Marker:
    kind: Kind
    content: int
    """Offset in the sentence where the statement starts (after a label)."""
    label: bool


def find_marker(sentence: str) -> Marker | None:
    """What marks *sentence*: a label, a decision, open-loop or uncertainty phrase, an
    open question; None when nothing does (references are judged by :func:`make_item`)."""
    label = _LABEL_RE.match(sentence) or _BARE_TODO_RE.match(sentence)
    if label is not None and _says_something(sentence[label.end() :]):
        group = label.lastgroup if label.re is _LABEL_RE else None
        kind = Kind(group) if group else Kind.OPEN_LOOP
        return Marker(kind, label.end(), True)
    decision = _DECISION_START_RE.match(sentence)
    if decision is not None and _says_something(sentence[decision.end() :]):
        return Marker(Kind.DECISION, 0, False)
    low = sentence.lower()
    searched: set[re.Pattern[str]] = set()
    for kind, gate, pattern in _PHRASES:
        if gate not in low or pattern in searched:
            continue
        searched.add(pattern)
        # Offsets in the lowercased text have the same backticks before them.
        if any(not in_code(low, m.start()) for m in pattern.finditer(low)):
            return Marker(kind, 0, False)
    if "?" in sentence and _is_open_question(sentence):
        return Marker(Kind.UNCERTAINTY, 0, False)
    return None


def _says_something(rest: str) -> bool:
    return any(word.lower() not in _STOPWORDS for word in WORD_RE.findall(rest))


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


def is_triggered(sentence: str) -> bool:
    """Does the sentence hold a trigger? Only those can hold a marker."""
    low = sentence.lower()
    if not TRIGGER_SET.isdisjoint(unpunctuate(low).split()):
        return True
    return any(needle in low for needle in _TRIGGER_NEEDLES)


def unpunctuate(text: str) -> str:
    for char in _PUNCTUATION:
        if char in text:
            text = text.replace(char, " ")
    return text
