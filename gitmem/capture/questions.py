"""A question decides nothing: a decision or a fact may not rest on a quote from one.

"Should we use httpx? No, we keep requests" holds the words "use httpx", but what was
decided is the answer. So a decision or fact whose quote lies in an interrogative sentence
(the sentences its matched span touches, in its own message, all end with "?" or, with no
mark at all, open by putting the verb before its subject: "Should we use httpx", typed in
a hurry; or those
its last fragment after an ellipsis touches: "We agreed… drop the cache" from "We agreed to
keep the cache. Should we drop the cache?"), or whose text takes its words only from the
question part of a quote that also holds the answer, is not verbatim. Pure; never raises.
"""

from __future__ import annotations

import re

from gitmem.core.items import Kind
from gitmem.core.quotes import SPAN_JOIN, fold
from gitmem.lifecycle.sameclaim import content_words

DECIDING = (Kind.DECISION, Kind.FACT)
"""The kinds a question cannot back."""
QUESTION = "the quote is a question, and a question decides nothing"
RESTATED_QUESTION = "the item's text restates the question its quote asks, not the answer"

# A sentence ends at "." or "!" before a space (not in "2.5" or "x.py"), at a line break
# (unless the next line goes on in small letters: a wrapped line, "Should we drop the
# cache\nand move to Redis?" is one question),
# at the full stops of scripts that do not space their sentences ("。", "！"), and at a
# question mark whatever follows it ("**Should we?**", "(why?)", '"why?" he asked', "?,"),
# except inside a question tool's answer, where "Q?"="A" is one pair. The question marks
# of other scripts count: fullwidth "？" (Chinese, Japanese), Arabic "؟", the Greek one
# (shown as a semicolon), the small "﹖".
_QUESTION_MARKS = "?\uff1f\u061f\u037e\ufe56"
SENTENCE_END = re.compile(
    rf"[{_QUESTION_MARKS}](?![\"”]=)|[.!](?=\s|$)|[。！｡]|\n(?![ \t]*[a-zß-öø-ÿа-я])"
)
"""Where a sentence ends, in a message as written."""
_ANSWERED = re.compile(r"[\"“]([^\"”\n]*\?)[\"”]=[\"“]([^\"”\n]*)[\"”]")
"""One pair of a question tool's answer: the question asked, then what the user chose."""


# A sentence that opens as a question, verb before subject ("Should we use httpx", "Do we
# keep requests"), whatever mark it ends with or none: users type questions without one.
# Not one whose opening runs into a comma, which is a condition ("Should the benchmark
# regress, we revert": gitmem.capture.standing), nor one that ends with "." or "!".
_PEOPLE = r"we|i|you|they"
_ANY_SUBJECT = rf"{_PEOPLE}|it|he|she|this|that|these|those|there|the|our|your|my"
_INVERTED = re.compile(
    r"[\W_]*(?:"
    rf"(?:do|have)\s+(?:{_PEOPLE})"  # not "Do the rename first", "Have the team review it"
    r"|(?:does|did|has)\s+(?:it|he|she|this|that|there|the|our|your|my)"
    rf"|(?:should|shall|can|could|would|will|may|is|are|was|were)\s+(?:{_ANY_SUBJECT})"
    r")\b[^,;]*$",
    re.IGNORECASE,
)


def asked(sentence: str) -> bool:
    """Is *sentence* (stripped, with its end mark) a question: it ends with a question
    mark, or opens as one and ends with none? Raises nothing."""
    sentence = sentence.strip("\0 \t\n")  # NUL: the host's text around it, covered
    if sentence.endswith(tuple(_QUESTION_MARKS)):
        return True
    if sentence.endswith((".", "!", "。", "！", "｡")) or _ANSWERED.search(sentence):
        return False  # a statement, or a question tool's answer: "Q?"="A"
    return bool(_INVERTED.match(sentence))


def rests_on_question(text: str, span: str, message: str) -> str | None:
    """Why the item *text* rests on a question, when its quote is the *span* of *message*
    (the transcript's own bytes of the match), or None. Raises nothing."""
    last = span.split(SPAN_JOIN)[-1]
    end = message.find(last)
    if end < 0 or not last:
        return None
    start = message.find(span.split(SPAN_JOIN)[0])
    start = end if start < 0 or start > end else start
    end += len(last)
    for pair in _ANSWERED.finditer(message):
        # A question tool's answer repeats each question: "Q?"="A". A quote of the
        # question part, or a text that takes its words only from it, decides nothing.
        if pair.start(1) <= start and end <= pair.end(1):
            return QUESTION
        if pair.start() <= start and end <= pair.end():
            words = content_words(text)
            question = content_words(fold(pair.group(1)))
            if words & question and not words & content_words(fold(pair.group(2))):
                return RESTATED_QUESTION
    if end - len(last) > start and _asks(message, end - len(last), end):
        return QUESTION  # an ellipsis that ends the quote in a question: "We agreed… drop it"
    sentences = _touched(message, start, end)
    questions = [s for s in sentences if asked(s)]
    if not questions:
        return None
    said = [s for s in sentences if s not in questions]
    if not said:
        return QUESTION
    words = content_words(text)
    if words & _words(questions) and not words & _words(said):
        return RESTATED_QUESTION
    return None


def _touched(message: str, start: int, end: int) -> list[str]:
    """The sentences of *message* that ``message[start:end]`` touches, stripped."""
    before = [m.end() for m in SENTENCE_END.finditer(message, 0, start)]
    after = SENTENCE_END.search(message, max(end - 1, start))  # a span may end on its own mark
    passage = message[before[-1] if before else 0 : after.end() if after else len(message)]
    return [s.strip() for s in _sentences(passage) if s.strip()]


def _asks(message: str, start: int, end: int) -> bool:
    """Does ``message[start:end]`` lie in questions only?"""
    return all(asked(s) for s in _touched(message, start, end))


def _sentences(passage: str) -> list[str]:
    """*passage* cut after each sentence end (:data:`SENTENCE_END`), each with its end mark."""
    cuts = [m.end() for m in SENTENCE_END.finditer(passage)]
    return [passage[a:b] for a, b in zip([0, *cuts], [*cuts, len(passage)], strict=True)]


def _words(sentences: list[str]) -> frozenset[str]:
    return content_words(fold(" ".join(sentences)))
