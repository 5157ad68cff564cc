"""A user's pick among the options the assistant just offered: a decision in the user's words.

"To clarify - would you prefer: 1. **Single command with flags** … 3. **Single smart
command** …" answered "3 and I would even consider cleaning up independent of the
strategy" settles what the session builds, yet it names no marker the scan reads. The
reply before offers the options as a numbered or lettered list and asks for a choice; the
user's message opens with the label of one of them ("3", "option 2", "let's go with 2",
"(b) but …"). The quote is the user's line; the text names the option picked, by the title
the list gives it, when that title adds no number or negation the quote lacks (the text
may summarise its quote, never add to it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from gitmem.capture.extract.heuristic.item import IMPORTANCE, MAX_TEXT_CHARS, make_item
from gitmem.capture.extract.heuristic.markers import WORD_RE
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.capture.extract.heuristic.turns import spoken
from gitmem.core.items import Kind
from gitmem.core.negation import NEGATION_RE
from gitmem.core.quotes import check_quotes, fold
from gitmem.core.transcript import ANSWER, USER_ROLES, Message

_OPTION_RE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:option[ \t]+)?\(?(?P<label>[1-9]|[a-h])"
    r"(?:[.):]|\*\*|__)(?:\*\*|__)?[ \t]+(?P<title>\S[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
"""A line of a list of options: "1. **Detection-first** - …", "**Option 2**: …", "(b) …"."""
_INLINE_OPTION_RE = re.compile(
    r"(?<![^\s:;,])\((?P<label>[1-9]|[a-h])\)[ \t]+(?P<title>[^\n]*?)"
    r"(?=[ \t,;]*(?:(?:or|and)[ \t]+)?\((?:[1-9]|[a-h])\)|[.;!?][ \t]|[.;!?]?[ \t]*$)",
    re.IGNORECASE | re.MULTILINE,
)
"""An option numbered in parentheses inside a line: its title runs to the next option or to
the end of the sentence."""
_ASKS_RE = re.compile(r"\?|\b(?:prefer|preference|choose|pick|which|recommend)", re.IGNORECASE)
"""The reply asks the user to choose (a question, or "would you prefer:")."""
_PICK_RE = re.compile(
    r"[ \t]*(?:(?:ok(?:ay)?|yes|yeah|yep|sure|alright|cool|great|hmm+)\b[,.!]?[ \t]+)*"
    r"(?:(?:let['’]?s|i['’]?d|i[ \t]+(?:would|will|think|prefer))[ \t]+)?"
    r"(?:(?:go|going)[ \t]+(?:with|for)[ \t]+|(?:do|take|pick|choose|prefer)[ \t]+)?"
    r"(?:(?:the[ \t]+)?option[ \t]+|number[ \t]+|#)?"
    r"(?:\(|\*\*)?(?P<label>[1-9]|[a-h])(?:\)|\*\*)?"
    r"(?=[ \t]*$|[ \t]*[,;:!?]|[.][ \t]*$"
    r"|[ \t]+(?:and|but|then|please|first|it|is|sounds|works"
    r"|we|we['’](?:re|ll)|i|i['’](?:m|ll|d)|let['’]?s)\b)",
    re.IGNORECASE,
)
"""A line that opens with the label of an option: "3 and …", "4, but …", "Option 2.",
"let's go with 2", "(b) please". A letter stands alone (not the article of "a fix"). "1. we
are discovering …" is not one: a label with a full stop and words after it is a point of
the user's own list, or a line quoted back ("3. Attribute the delta …")."""
_NAME_PICK_RE = re.compile(
    r"[ \t]*(?:(?:ok(?:ay)?|yes|yeah|yep|sure|alright|cool|great|hmm+)\b[,.!]?[ \t]+)*"
    r"(?:(?:let['’]?s|i['’]?d|we['’]?ll|i[ \t]+(?:would|will))[ \t]+)?"
    r"(?:go[ \t]+(?:with|for)|do|try|use|pick|take|choose|prefer)[ \t]+"
    r"(?P<name>[^.,;:!?\n]{1,60})",
    re.IGNORECASE,
)
"""A line that picks an option by its name: "Go with nginx.", "yeah let's do length only",
"okay, let's try the pty approach" (:func:`_named` says which option the name is)."""
NAME_WORDS = 3
"""How many words after "go with" name the option: "let's do Add migration logic in …" is a
request that quotes a line of the reply, not a name."""
_NAME_WORD_RE = re.compile(r"[^\W\d_][\w-]{2,}")
_COMMON = frozenset(
    (
        *("the", "and", "for", "with", "from", "into", "only", "just", "use", "using", "via"),
        *("one", "all", "both", "each", "new", "keep", "add", "then", "first", "approach"),
        *("option", "way", "that", "this", "them", "our", "your", "own", "not", "instead"),
    )
)
"""Words of an option's title that name no option ("the", "only", "approach", "option")."""
_TITLE_RE = re.compile(
    r"\*\*(?P<bold>[^\n]{3,80}?)\*\*|(?P<plain>[^\n]{3,80}?)(?=[ \t]+[-–—][ \t]|:[ \t]|[ \t]*$)"
)
"""An option's name: its bold lead, else what stands before a dash or a colon."""
_LABEL_WORD_RE = re.compile(r"(?<![\w'’])(?:[1-9]|[a-h])(?![\w'’])")
"""Another option named in the line ("Yeah 2 and 3"): the pick is not one option's."""
_OWN_LIST_RE = re.compile(r"^[ \t]*\d[.)][ \t]+\S", re.MULTILINE)


def picks(messages: Sequence[Message], read: Sequence[int]) -> Iterator[Candidate]:
    """A decision for each user message of *read* that picks one of the options the reply
    just before it offered (see the module's docstring)."""
    for n in range(1, len(read)):
        index, before = read[n], read[n - 1]
        role = (messages[index].role or "").casefold()
        asked = (messages[before].role or "").casefold()
        if role not in USER_ROLES or asked in (*USER_ROLES, ANSWER, ""):
            continue
        candidate = _pick(index, spoken(messages[index]), messages[before].text)
        if candidate is not None:
            yield candidate


def _options(reply: str) -> dict[str, str]:
    """The options a reply lists, by label (folded), with their titles: {} unless it lists
    at least two in order from the first ("1", "2" … or "a", "b" …) and asks to choose.
    A list of lines, or one line that numbers its options in parentheses ("Options: (1) a
    token bucket, (2) nginx `limit_req`, (3) …")."""
    found: dict[str, str] = {}
    lines = list(_OPTION_RE.finditer(reply)) or list(_INLINE_OPTION_RE.finditer(reply))
    for line in lines:
        found.setdefault(line.group("label").casefold(), line.group("title"))
    first = "1" if "1" in found else "a"
    if first not in found or chr(ord(first) + 1) not in found:
        return {}
    # The choice is asked for in the line that introduces the list or after the list: a
    # list of steps in a reply that asks something elsewhere offers no options.
    intro = reply[: lines[0].start()].rstrip().rsplit("\n", 1)[-1]
    after = reply[lines[-1].end() :]
    return found if _ASKS_RE.search(intro) or _ASKS_RE.search(after) else {}


def _pick(index: int, text: str, reply: str) -> Candidate | None:
    if len(_OWN_LIST_RE.findall(text)) > 1:
        return None  # the user's own numbered list: their points, not a pick
    stripped = text.lstrip()
    line = stripped.split("\n", 1)[0].rstrip()
    match = _PICK_RE.match(line) or _NAME_PICK_RE.match(line)
    if match is None:
        return None
    options = _options(reply)
    if "label" in match.re.groupindex:
        label = match.group("label").casefold()
    else:
        label = _named(match.group("name"), options)
    if label not in options:
        return None
    item = make_item(line, 0, len(line), Kind.DECISION, 0)
    if item is None or item[2] not in text or not check_quotes([item[2]], text)[0].verbatim:
        return None
    _, said, quote, _, extra = item
    title = _title(options[label])
    named = "name" in match.re.groupindex
    later = quote[match.end() :].casefold()
    others = set() if named else set(_LABEL_WORD_RE.findall(later)) & set(options)
    if title and not others and not _adds(title, quote):
        said = f"{title}: {said}"[:MAX_TEXT_CHARS]
    elif len(WORD_RE.findall(quote[match.end() :])) < 2:
        return None  # "Option 1" alone, its option unnamed: it says nothing in memory
    at = text.find(quote)
    position = (index, text.count("\n", 0, at), 0)
    return Candidate(
        Kind.DECISION, said, quote, IMPORTANCE[Kind.DECISION], dict(extra), position, True, "pick"
    )


def _named(name: str, options: dict[str, str]) -> str | None:
    """The option whose title *name* (what the user's "go with …" names) picks: its first
    :data:`NAME_WORDS` words hold a word of that title that no other title has, and none of
    another's. None: no such one."""
    words = {
        k: set(_NAME_WORD_RE.findall(_title(v).casefold())) - _COMMON for k, v in options.items()
    }
    said = set(name.casefold().replace("the ", " ", 1).split()[:NAME_WORDS])
    said = {w for word in said for w in _NAME_WORD_RE.findall(word)}
    hits = [
        k
        for k, own in words.items()
        if said & (own - set().union(*(words[o] for o in words if o != k)))
    ]
    return hits[0] if len(hits) == 1 else None


def _title(option: str) -> str:
    """The name an option's line gives it: its bold lead, else what stands before a dash
    or colon."""
    match = _TITLE_RE.match(option)
    if match is None:
        return ""
    title = (match.group("bold") or match.group("plain") or "").strip(" *_-–—:")
    return title.strip("`") if title.count("`") % 2 else title  # "`x`" keeps its backticks


def _adds(title: str, quote: str) -> bool:
    """Does *title* add a number or a negation that *quote* lacks?"""
    digits = set(re.findall(r"\d+", title)) - set(re.findall(r"\d+", quote))
    return bool(digits) or (
        NEGATION_RE.search(fold(title)) is not None and NEGATION_RE.search(fold(quote)) is None
    )
