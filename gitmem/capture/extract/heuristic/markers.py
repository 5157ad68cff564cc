"""The markers: the labels, phrases and questions that make a sentence a decision, an
open loop or an uncertainty (listed in docs/heuristic.md), and the trigger words one of
which a line or sentence must hold before any marker is looked for."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gitmem.capture.extract.heuristic import languages, stance
from gitmem.capture.extract.heuristic.status import ACKNOWLEDGEMENT
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
    *("renamed", "copied", "wrote", "written", "introduced", "instead", "rather", "pushed"),
    *("uncommitted", "unstaged", "unpushed", "unresolved", "outstanding", "blocking", "always"),
    *("never", "prefer", "we'll", "we’ll", "i'd", "i’d", "filed", "paste", "ahead"),
    *("should", "must", "only", "just", "instead", "anymore", "important", "wiser", "want"),
    *("don't", "don’t", "sure", "need", "have", "acceptable", "unacceptable", "allowed"),
    *("forbidden", "mandatory", "shouldn't", "shouldn’t", "no", "nope"),
)
_TRIGGER_NEEDLES = (
    *("?", "#", "[ ]", "todo(", "://", "from now on", "go with", "going with", "stick with"),
    *("we will", "we won", "we shall", "we do", "not going to", "to do", "t test", "t check"),
    *("t sure", "y sure", "% sure", "t know", "no idea", "next step", "follow up", "go for"),
    *("action item", "open item", "unsolved", "let me know", "known issue", "open issue"),
    *(", not ", ", but not ", ", and not ", ", do not ", "; not ", "; do not "),
    *("—not ", "— not ", "—do not ", "— do not ", "s skip", "not run"),
    *("what i said", "what i meant", "what i asked", "what i wanted", "i told you"),
    *stance.NEEDLES,
)
# The first pass looks for "#" followed by a digit (every heading has a "#").
LINE_NEEDLES = tuple(needle for needle in _TRIGGER_NEEDLES if needle != "#")
_CJK_TRIGGER_NEEDLES = (*_TRIGGER_NEEDLES, *languages.NEEDLES)
"""The needles of a text holding Chinese, Japanese or Korean (their words have no spaces)."""
NUMBER_RE = re.compile(r"#\d")
FENCE_NEEDLES = ("```", "~~~")
TRIGGER_SET = frozenset(_TRIGGER_WORDS) | languages.WORDS | stance.WORDS
_PUNCTUATION = ':,.*`()?!;"“”[]#>'
"""Replaced by spaces before a text is cut into words ("**Decision:**" holds "decision")."""
Words = tuple[str, list[str]]  # a sentence lowercased, and its words: sentence_words()

_LABEL_WORDS = {
    "decision": r"(?:final\s+|our\s+|the\s+)?decisions?(?:\s+made)?|decided|agreed|consensus",
    "open_loop": r"to-?dos?|to\s+do|fixme|(?:optional\s+)?next\s+steps?|follow[- ]?ups?|"
    r"still\s+to\s+do|remaining(?:\s+(?:work|tasks|items|steps))?|left\s+to\s+do|"
    r"action\s+items?|open\s+items?|pending(?:\s+(?:tasks|work|items|steps))?|blocked\s+on|"
    r"blockers?|blocking|still\s+needed(?:\s+for\s+[^\s:*]{1,40})?|still\s+needs|"
    r"not\s+(?:yet\s+)?done(?:\s+yet)?|unsolved(?:\s*/\s*blocking)?|unresolved|outstanding|"
    rf"(?:open|known)\s+issues|not\s+run|what{_A}s\s+left|(?:discovered\s*(?:&|and)\s*)?filed|"
    r"known\s+bugs?",
    "uncertainty": r"(?:open\s+|unresolved\s+)?questions?|unclear|unknowns?|unsure|"
    r"uncertain(?:ties)?|unverified|not\s+(?:yet\s+)?verified|untested|risks?|tbd|undecided",
}
_LABEL_GROUPS = "|".join(
    f"(?P<{kind}>{words}|{languages.LABEL_WORDS[kind]})" for kind, words in _LABEL_WORDS.items()
)
_COLON = "[:：]"
"""A label's colon, ASCII or full-width (Chinese and Japanese write "：")."""
_LABEL_RE = re.compile(
    rf"{_EMPH}(?:{_LABEL_GROUPS})(?:\([^()]*\))?{_EMPH}"
    rf"(?:[ \t]*{_COLON}|[ \t]+[-–—][ \t]+){_EMPH}\s*",
    re.IGNORECASE,
)
# A bare "TODO fix the parser" is a label; "TODO is not acceptable" has TODO as its subject.
_BARE_TODO_RE = re.compile(
    r"(?:TODO|FIXME)(?:\([^()]*\))?[ \t]+(?!(?:is|are|was|were|isn['’]t|aren['’]t|must|should|"
    r"will|would|can|cannot|could|may|might|has|have|had|does|do|did|comments?|items?|markers?|"
    r"lists?|sweeps?|stubs?|placeholders?)\b)(?=\w)"
)
# An emoji or symbol may stand before a heading's label ("### 🚀 Next Steps").
_SYMBOL = r"(?:[^\w\s*_#>`'\"(\[]{1,3}[ \t]*)?"
SECTION_RE = re.compile(
    rf"(?:\#{{1,6}}[ \t]+|\d{{1,2}}[.)][ \t]+(?=.*:))?{_SYMBOL}{_EMPH}(?:{_LABEL_GROUPS}){_EMPH}"
    rf"[ \t]*{_COLON}?[ \t]*{_EMPH}[ \t]*$",
    re.IGNORECASE,
)
INTRO_RE = re.compile(
    r"(?:[\w'’-]+[ \t]+){0,4}(?P<open_loop>action\s+items?|next\s+steps?|"
    r"remaining\s+(?:tasks|work|items|steps)|follow[- ]?ups?)[ \t]+(?:is|are)[ \t]*:[ \t]*$",
    re.IGNORECASE,
)
"""A line that introduces what follows: "So the practical action item is:"."""

_DISCOURSE = (
    r"(?:(?:so|ok(?:ay)?|then|alright|all\s+right|right|good|great|fine|yes|yeah|yep|agreed|in"
    r"\s+the\s+end|after\s+(?:some\s+)?discussion|finally|for\s+now|anyway|and|but|also|actually)"
    r"\b[,.!:;]?\s+)*"
)
_DECISION_START_RE = re.compile(
    rf"{_EMPH}{_DISCOURSE}(?:"
    rf"(?:we|i|the\s+team|everyone)(?:{_A}ve|\s+have)?\s+(?:now\s+|finally\s+|just\s+|all\s+)?"
    r"(?:decided|agreed|settled\s+on|chose|opted)\b|decided\s+(?:to|on|against|that)\b"
    rf"|(?:we|i)(?:{_A}ll|\s+will|{_A}re\s+going\s+to|\s+are\s+going\s+to)\s+(?:go|stick)\s+with\b"
    rf"|(?:(?:we{_A}re|we\s+are)\s+)?going\s+with\b"
    rf"|let{_A}?s\s+(?:not\b|(?:just\s+|instead\s+|also\s+)?"
    r"(?:go\s+(?:with|for)|stick\s+with|keep|use|drop|skip|switch\s+to|move\s+to|avoid)\b|leave"
    r"(?=\s+(?:[^\s.,;:!?]+\s+){0,4}?(?:out|as\s+is|alone|be|unchanged|in\s+place|for\s+now)\b))"
    rf"|we(?:{_A}ll|\s+will)\s+(?:use|keep|stick\s+with|switch\s+to|drop)\b"
    rf"|go\s+ahead\s+(?:with|and)\b|i{_A}d\s+(?:rather|prefer)\b|i\s+would\s+rather\b"
    rf"|we\s+(?:will\s+not|won{_A}t|will\s+never|shall\s+not|are\s+not\s+going\s+to|"
    rf"aren{_A}t\s+going\s+to|{_A}re\s+not\s+going\s+to|do\s+not\s+want\s+to|don{_A}t\s+want\s+to)"
    r"\s+(?!(?:know|see|notice|find|get|have|need|be\s+able|make\s+it|manage|hit|lose|miss|run)\b)"
    r"|going\s+forward\b)",
    re.IGNORECASE,
)
# What the user rules: "we should only run it on unique commits", "only the first response",
# "just do the other changes first", "this skill is now called X, not Y anymore". From the
# user only: the assistant's "we should …" is a proposal. A user's plain "we should …",
# "the comment should be updated", "we need to …", "I want …" asks for the work at hand,
# whose outcome the reply states (on the development split, 0 of 8 such sentences in three
# repositories were worth carrying); a constraint ("must", "shouldn't", "should only",
# "always", "never", "instead") rules what comes after.
_USER_RULE_START_RE = re.compile(
    rf"{_EMPH}(?:(?:ok(?:ay)?|yes|yeah|no|nope|and|also|but|so|then|actually|well|right|"
    rf"first\s+and\s+foremost)\b[,.!:]?\s+)*(?:(?:i\s+think\s+)?(?:we|you|it|this|that|they|"
    rf"these|the\s+\w+)\s+(?:must|shouldn{_A}t|should\s+not|must\s+not|don{_A}t\s+need)|"
    rf"always|never|don{_A}t|do\s+not|only|just|instead|make\s+sure|"
    rf"please\s+(?:don{_A}t|always|never|only|keep|use)|i\s+(?:prefer|{_A}d\s+(?:prefer|rather)))\b",
    re.IGNORECASE,
)
_NOT_A_WAY = (
    r"(?:a|an|the|this|that|these|those|it|here|there|only|just|really|sure|yet|"
    r"on|in|at|from|with|by|for|of|to|because)"
)
"""What follows a contrast's "not" when it describes rather than rules: a thing ("a type, not
a value"), a place or a cause ("it fails on Windows, not on Linux"), a hedge ("not sure")."""
_USER_RULE_RE = re.compile(
    r"\b(?:should\s+(?:only|always|never)|is\s+important|not\s+[\w-]+\s+anymore|"
    r"is\s+(?:not\s+(?:acceptable|allowed|an\s+option)|unacceptable|forbidden|mandatory|a\s+must)|"
    r"would\s+(?:also\s+)?be\s+good\s+to|the\s+wiser\s+choice)\b"
    rf"|(?:[,;] |—[ ]?)(?:(?:but|and) )?(?:not|don{_A}t|do not|never) (?!{_NOT_A_WAY}\b)[a-z]"
    r"|\binstead\s*[.!]?\s*$",
    re.IGNORECASE,
)
"""A user's rule said anywhere in the sentence; also one way set against another after a comma,
a semicolon or a dash ("Delete the dir, don't archive", "the CLI should handle that for the
user, not you adding it by hand") and a sentence that ends on "instead" ("mark the temporary
ones instead"). Not "instead of" or "rather than" inside a sentence: said in the middle of a
user's sentence they describe as often as they rule (a pasted review comment, "If the file
has CRLF endings, the value becomes "1\r" instead of "1""); a rule that opens "Instead, …"
is read by :data:`_USER_RULE_START_RE`."""
_OTHER_RULE_RE = re.compile(languages.USER_RULE)
# After "no", what is not a correction of the work: a courtesy ("no worries"), a pronoun that
# opens a clarification ("no, I'm talking about this", "no Im talking about this": users drop
# the apostrophe), and a verb that directs the assistant's next act in the conversation
# rather than what the work must be ("no, write the plan", "no, read the docs first"): that is
# a one-off instruction, done by the next reply, not a rule that holds afterwards.
_NOT_CORRECTION = (
    r"worries|problem|problems|idea|thanks|thank|way|doubt|matter|longer|more|worry|not|yet|"
    r"sorry|wait|clue|luck|the|a|an|one|"
    rf"i|i{_A}?m|i{_A}?ve|i{_A}?d|i{_A}?ll|it|it{_A}?s|that|that{_A}?s|this|we|you|you{_A}?re|they|"
    rf"they{_A}?re|there|there{_A}?s|he|she|"
    r"write|do|continue|go|proceed|look|read|check|see|show|tell|explain|talk|think|try|answer|"
    r"ask|start|plan|research|investigate|review|focus|give|help|let|open|finish"
)
_USER_CORRECTION_RE = re.compile(
    rf"{_EMPH}(?:(?:no|nope)\b[,.!:;]?\s+(?!(?:{_NOT_CORRECTION})\b)[^\W\d_]"
    r"|what\s+i\s+(?:said|meant|asked(?:\s+for)?|wanted)\s+(?:was|is)\b"
    r"|i\s+told\s+you\s+(?:that|to)\b)",
    re.IGNORECASE,
)
"""A user correcting the assistant: "no remove this again, …", "What I said was run `x`",
"I told you that the two lines belong to the other skill"."""
_CLAUSE_RE = re.compile(r"[,;:]\s+|\s[–—-]\s+")
"""Where a clause of a user's sentence starts: a user's decision phrase ("let's skip", "we'll
go with") is one there too ("…, let's skip"), as at the sentence's start."""
_WANTS_TO_KNOW_RE = re.compile(
    rf"{_EMPH}(?:i\s+(?:want|{_A}d\s+like)\s+to\s+(?:see|know|understand|look|check|learn|read|"
    r"try|ask)|i\s+(?:need|want)\s+to\s+(?:understand|know))\b",
    re.IGNORECASE,
)
"""A user asking to be shown something ("I want to see all options"): a request, not a rule."""
# A choice between two ways, reported as made: "Switched to the alias instead", "Fixed by
# using X rather than Y" (a plan, "I'll use X instead", is narration). A bold label may come
# first ("**Key fix:** Resolved it by using X instead").
_CHOICE_RE = re.compile(
    rf"(?:\*\*[^*\n]{{1,60}}\*\*[ \t]*:?[ \t]*)?{_EMPH}{_DISCOURSE}"
    r"(?:used|switched|replaced|resolved|fixed|chose|went\s+with|decided)\b"
    r"(?=(?:[^.!?\n]|[.!?](?=\S))*\b(?:instead(?!\s+and\b)|rather\s+than)\b)",
    re.IGNORECASE,
)
# The closing reply asks the user for something and says what follows: "Paste the
# screenshots when ready, and I'll turn this into a script."
_AWAITING_RE = re.compile(
    rf"{_EMPH}(?:please\s+)?(?:paste|send|share|provide|upload|attach|give\s+me|tell\s+me|"
    rf"confirm|let\s+me\s+know)\b(?=.*\b(?:when\s+(?:you{_A}re\s+)?ready|once\s+you|"
    rf"and\s+i{_A}ll|so\s+(?:that\s+)?i\s+can)\b)",
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
    *_phrases(Kind.DECISION, "always|never", r"\b(?:should|must)\s+(?:always|never)\s+be\b"),
    *_phrases(
        Kind.OPEN_LOOP,
        "uncommitted|unstaged|unpushed|not",
        r"\b(?:uncommitted|unstaged|unpushed)\b|\bnot\s+(?:yet\s+)?(?:been\s+)?(?:committed|pushed)\b",
    ),
    *_phrases(
        Kind.OPEN_LOOP,
        "still",
        r"\bstill\s+(?:(?:need|needs|have|has)\s+to|missing|pending|open|unfinished|failing|"
        r"fails?|broken|unresolved|to\s+do|(?:not|(?:does|do|is|are)(?:\s+not|n[\'’]t))\s+"
        r"(?:work|working|start|starting|build|building|run|running|pass|passing|load|loading|"
        r"compile|compiling)|(?:doesn|don|isn|aren|won)[\'’]t\s+(?:work|start|build|run|pass|load|"
        r"compile))\b",
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
_FOREIGN_PHRASES = tuple(
    entry for kind, gates, pattern in languages.PHRASES for entry in _phrases(kind, gates, pattern)
)
"""The same in other languages (:mod:`~gitmem.capture.extract.heuristic.languages`), looked
for only in a sentence that holds one of their words or scripts."""
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


REQUEST_RE = re.compile(
    rf"{_EMPH}(?:(?:ok(?:ay)?|so|and|also|now|then)\b[,.]?\s+)*(?:(?:can|could|would|will)\s+you\b|"
    r"(?:review|re-?review|verify|check|fix|perform|ignore|inspect|investigate|look|clean|get|pull|"
    r"commit|push|run|test|update|add|remove|delete|make|implement|finish|do|handle|resolve|"
    r"address|find|figure|debug|audit|examine|analy[sz]e|stage|discard|revert|merge|rebase)\b"
    rf"(?![ \t]*:|[ \t]+[\w`.-]+[ \t]+(?:is|are|was|were|has|have|had|still|remains?|keeps?|"
    rf"needs?|does|did|(?:does|did|is|are|was|were|can|won){_A}?n{_A}?t)\b))|"
    rf"{_EMPH}please\b|{_EMPH}let{_A}?s\s+(?!not\b)",
    re.IGNORECASE,
)
"""A user asking the assistant for something ("can you read this", "please check", "lets fix
this issue": users drop the apostrophe; "Review the uncommitted diff for PR #226", "check
out main, pull the latest": a request that opens with its verb, not a noun that opens a
statement: "Test coverage is still missing", "Update: it still fails")."""
SUBJECTLESS_RE = re.compile(
    rf"{_EMPH}(?:(?:and|but|so)\s+)?(?:(?:it|its|it{_A}s|this|that|these|those|they|they{_A}re|"
    r"which)\b|(?:is|are|was|were|has|have|had|does|do|did|can|could|should|must|will|would|needs?|"
    r"seems?)\b(?!\s+(?:we|i|you|it|they|he|she|there|the|this|that|a|an|our|your|my)\b))",
    re.IGNORECASE,
)
"""A sentence that takes its subject from the sentence before ("It still fails on Windows")."""
REFERS_BACK_RE = re.compile(
    rf"{_EMPH}(?:i|we)(?:\s+[\w'’]+){{1,3}}?\s+(?:it|them)\b(?!\s+(?:is|was|works|worked)\b)",
    re.IGNORECASE,
)
"""A sentence whose object refers to the sentence before ("I haven't tested it under load
yet", "We couldn't reproduce it"): that sentence names what it is about."""
NARRATION_RE = re.compile(
    rf"{_EMPH}(?:{ACKNOWLEDGEMENT}\s*[,;:.!—–-]\s*)?"
    r"(?:(?:now|first|next|so|then|ok(?:ay)?|alright|great|good|perfect)\b[,!.]?\s+)*"
    rf"(?:let\s+me|let{_A}s\s+(?:see|check|look|try|run|start|verify|confirm|find)|i{_A}ll|i\s+will|"
    rf"i{_A}m\s+(?:going\s+to|about\s+to|now\s+\w+ing|\w+ing)\b|i\s+am\s+(?:going\s+to|\w+ing\b)|"
    r"i\s+need\s+to|i\s+want\s+to|i\s+should)\b",
    re.IGNORECASE,
)
"""The assistant saying what it does next ("Let me fix it by …", "I'll update the docs",
"I'm checking the logs"): narration, not something to carry."""


@dataclass(frozen=True)
class Marker:
    kind: Kind
    content: int
    """Offset in the sentence where the statement starts (after a label)."""
    label: bool
    weak: bool = False
    """A phrase anywhere in the sentence or a question: in an assistant's reply it counts
    only in the session's last turns (see docs/heuristic.md)."""
    rule: str = ""
    """The rule family that found it (for the benchmark's provenance, never stored)."""


def find_marker(sentence: str, by_user: bool = False, read: Words | None = None) -> Marker | None:
    """What marks *sentence* (*read*: its words, when known): a label, a decision, open-loop
    or uncertainty phrase, an open question; None when nothing does (references are judged
    by :func:`make_item`). *by_user*: the user said it (a user's "let's …" is a decision)."""
    label = _LABEL_RE.match(sentence) or _BARE_TODO_RE.match(sentence)
    if label is not None and _says_something(sentence[label.end() :]):
        group = label.lastgroup if label.re is _LABEL_RE else None
        kind = Kind(group) if group else Kind.OPEN_LOOP
        if by_user and kind == Kind.UNCERTAINTY:
            # "question: doesn't git know it is a binary file?" asks the assistant, as a
            # user's "not sure …" does; the session answers it.
            return None
        return Marker(kind, label.end(), True, rule=f"label-{kind}")
    decision = _DECISION_START_RE.match(sentence)
    if decision is not None and _says_something(sentence[decision.end() :]):
        return Marker(Kind.DECISION, 0, False, rule="decision-start")
    low, words = read or sentence_words(sentence)
    other = languages.foreign(low, words)
    if (
        by_user
        and "?" not in sentence
        and not _WANTS_TO_KNOW_RE.match(sentence)
        and not _CHOICE_RE.match(sentence)  # "Replaced X with Y instead." reports a choice
    ):
        rule = (
            _USER_RULE_START_RE.match(sentence)
            or _USER_RULE_RE.search(sentence)
            or _USER_CORRECTION_RE.match(sentence)
            or stance.SETS_RE.search(sentence)
            or (_OTHER_RULE_RE.search(low) if other else None)
        )
        if rule is not None and _says_something(sentence) and not stance.this_turn(sentence, rule):
            return Marker(Kind.DECISION, 0, False, rule="user-rule")
        if stance.KEEPS_RE.match(sentence) and _says_something(sentence):
            return Marker(Kind.OPEN_LOOP, 0, False, rule="user-keeps")  # work the user keeps
        for clause in _CLAUSE_RE.finditer(sentence):
            # "2. this is the weakest option and the most work to keep up, let's skip"
            if _DECISION_START_RE.match(sentence, clause.end()) and _says_something(sentence):
                return Marker(Kind.DECISION, 0, False, rule="user-rule")
    if _CHOICE_RE.match(sentence):
        return Marker(Kind.DECISION, 0, False, rule="choice")
    if _AWAITING_RE.match(sentence):
        return Marker(Kind.OPEN_LOOP, 0, False, weak=True, rule="awaiting")
    searched: set[re.Pattern[str]] = set()
    for kind, gate, pattern in (*_PHRASES, *_FOREIGN_PHRASES) if other else _PHRASES:
        if gate not in low or pattern in searched or (by_user and kind == Kind.UNCERTAINTY):
            continue
        searched.add(pattern)
        # Offsets in the lowercased text have the same backticks before them.
        if kind != Kind.DECISION and low.rstrip(" *_").endswith((":", "：")):
            continue  # a lead-in to a list ("The uncommitted files are:"), not a statement
        if by_user and kind == Kind.OPEN_LOOP and REQUEST_RE.match(sentence):
            continue  # a request ("Review the uncommitted diff"): the session answers it
        if any(not in_code(low, m.start()) for m in pattern.finditer(low)):
            return Marker(kind, 0, False, weak=kind != Kind.DECISION, rule=f"phrase-{kind}")
    if "?" in sentence and not by_user and _is_open_question(sentence):
        return Marker(Kind.UNCERTAINTY, 0, False, weak=True, rule="question")
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


_YES_NO_RE = re.compile(
    r"[*_\"“]*(?:do|does|did|should|shall|can|could|would|will|is|are|was|were|have|has|want)\b",
    re.IGNORECASE,
)
_YOU_RE = re.compile(r"\b(?:you|your)\b", re.IGNORECASE)


def asks_to_choose(sentence: str) -> bool:
    """Is *sentence* a question that waits for the reader's choice: a yes-or-no question
    ("Should the delete be a commit?") or one put to the reader ("Which of the two do you
    want?"); not one a report asks in order to answer it ("**Why did it fail?** The key
    …")?"""
    if not sentence.rstrip(" *_`\"')]”’").endswith(("?", "？")):
        return False
    return _YES_NO_RE.match(sentence.lstrip()) is not None or _YOU_RE.search(sentence) is not None


def sentence_words(sentence: str) -> Words:
    """*sentence* lowercased, and its words (punctuation read as spaces), cut once."""
    low = sentence.lower()
    return low, unpunctuate(low).split()


def is_triggered(sentence: str, read: Words | None = None) -> bool:
    """Does the sentence (*read*: its words) hold a trigger? Only those can hold a marker."""
    low, words = read or sentence_words(sentence)
    if not TRIGGER_SET.isdisjoint(words):
        return True
    if not low.isascii() and languages.CJK_RE.search(low):
        return any(needle in low for needle in _CJK_TRIGGER_NEEDLES)
    return any(needle in low for needle in _TRIGGER_NEEDLES)


_UNPUNCTUATED = str.maketrans(dict.fromkeys(_PUNCTUATION, " "))


def unpunctuate(text: str) -> str:
    if len(text) > 65536 and text.isascii():
        # A whole message: one pass, one copy (each replace below makes another, and a
        # long plain transcript is one message of tens of megabytes). Slower than the
        # replaces on a short sentence or on non-ASCII text.
        return text.translate(_UNPUNCTUATED)
    for char in _PUNCTUATION:
        if char in text:
            text = text.replace(char, " ")
    return text
