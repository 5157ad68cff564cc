"""The rule gate: an answer quoted from prose (a paragraph or a list, not a table) is bound
to the rule it quotes. Pure: text in, a verdict out.

It applies when the quote lies outside every table and the question states a number,
asks for a condition, or the quote's rule block (:func:`~gitmem.agents.ask.blocks.rule_block`)
holds an exception or qualifying sentence. Checked in order; each failure withholds:

1. **The same relation.** Every number of the question that the quote states carries
   the same relation in both, the comparisons of :func:`~gitmem.agents.ask.conditions.numbers_in`
   (``>``, ``>=``, ``<``, ``<=``, "at least", "more than", "up to", "no more than", …):
   "What happens when pressure >10?" is not answered from "When pressure >= 10, the
   status is locked.", nor "… at least 10?" from "… above 10 …". A number the question
   compares that the quote does not state is an unstated condition.
2. **An answer, not the question's own words.** The answer is not words and numbers the
   question already gives (for a question that asks for a condition: the outcome it
   names).
3. **No exception applies** (:mod:`~gitmem.agents.ask.exceptions`): the quoted sentence's
   own exception, or an exception or qualifying sentence of the block that names the
   question's or the quoted rule's condition, or none of the block's other rules
   ("Except during maintenance."). A sentence that states a rule of its own before its
   exception ("When pressure < 10, the status is open, except during maintenance.")
   qualifies that rule, not the quoted one.
"""

from __future__ import annotations

from gitmem.agents.ask.blocks import SourceFile, line_of, line_starts, rule_block
from gitmem.agents.ask.conditions import (
    Number,
    Relation,
    content_words,
    numbers_in,
    question_condition,
)
from gitmem.agents.ask.exceptions import (
    EXCEPTION_RE,
    SENTENCE_BREAK,
    Qualifier,
    Quoted,
    exception_problem,
    is_qualifier,
)
from gitmem.agents.ask.gates import fold
from gitmem.agents.ask.retrieve import question_terms, tokens
from gitmem.agents.ask.widen import widened_matches


def rule_verdict(
    question: str, answer: str, source: SourceFile, span: tuple[int, int]
) -> tuple[bool, str] | None:
    """The rule gate for an answer whose quote covers offsets *span* of *source*'s text
    (its lines joined with ``\\n``): ``(ok, detail)``, or None when it has nothing to
    check. Pure."""
    condition = question_condition(question)
    starts = line_starts(source.lines)
    first, last = line_of(starts, span[0]), line_of(starts, max(span[0], span[1] - 1))
    block = rule_block(source.lines, first, last)
    offset = starts[block.start]
    text = "\n".join(source.lines[n] for n in block)
    pieces = _sentences(text)
    quote = (span[0] - offset, span[1] - offset)
    quoted = [s for s in pieces if s[0] < quote[1] and quote[0] < s[1]]
    qualifiers = [s for s in pieces if is_qualifier(text[s[0] : s[1]])]
    if not condition.numbers and not condition.asks_condition and not qualifiers:
        return None
    problems = _numbers(condition.numbers, text[quote[0] : quote[1]], text)
    terms = {t for t in question_terms(question) if not t.isdigit()}
    problems += _echo(answer, terms, condition.numbers)
    rule = " ".join(text[a:b] for a, b in quoted)
    words = content_words(rule) - content_words(answer)
    others = [text[a:b] for a, b in pieces if (a, b) not in quoted and (a, b) not in qualifiers]
    found = exception_problem(
        _qualifiers(text, qualifiers, quoted, words | terms, source.path),
        Quoted(
            answer,
            condition,
            words,
            {n.token for n in numbers_in(rule)} - {n.token for n in numbers_in(answer)},
            [tokens(other) | {n.token for n in numbers_in(other)} for other in others],
        ),
    )
    problems += [] if found is None else [found]
    if problems:
        return False, "; ".join(problems)
    return True, f"the quote's rule states the question's condition ({source.path})"


def _sentences(text: str) -> list[tuple[int, int]]:
    """The spans of the sentences and list items of *text*."""
    spans, pos = [], 0
    for found in SENTENCE_BREAK.finditer(text):
        if text[pos : found.start()].strip():
            spans.append((pos, found.start()))
        pos = found.end()
    if text[pos:].strip():
        spans.append((pos, len(text)))
    return spans


def _numbers(asked: tuple[Number, ...], quote: str, block: str) -> list[str]:
    stated = numbers_in(quote)
    problems = []
    for number in asked:
        same = [n for n in stated if n.token == number.token]
        if any(n.relation == number.relation for n in same):
            continue
        if same:
            problems.append(
                f"the rule's condition '{same[0].phrase}' ({same[0].relation} {number.token}) "
                f"is not the question's '{number.phrase}' ({number.relation} {number.token}): "
                "a weaker or different condition"
            )
        elif number.relation is not Relation.EQ:
            elsewhere = any(n.token == number.token for n in numbers_in(block))
            problems.append(
                f"{number.token} is stated in another sentence of the rule, not in the quote"
                if elsewhere
                else f"the quote does not state {number.token}, which the question compares "
                "(an unstated condition)"
            )
    return problems


def _echo(answer: str, terms: set[str], asked: tuple[Number, ...]) -> list[str]:
    words = content_words(answer)
    numbers = {n.token for n in numbers_in(answer)}
    given = all(widened_matches(w, terms) for w in words)
    if (words or numbers) and given and numbers <= {n.token for n in asked}:
        return [f"the answer '{answer}' is what the question gives, not what it asks"]
    return []


def _qualifiers(
    text: str,
    spans: list[tuple[int, int]],
    quoted: list[tuple[int, int]],
    known: set[str],
    path: str,
) -> list[Qualifier]:
    """The block's exception and qualifying sentences that can qualify the quoted rule:
    its own, and those that state no rule of their own before their exception word."""
    found = []
    for span in spans:
        sentence = text[span[0] : span[1]]
        if span in quoted:
            found.append(Qualifier(sentence, f"in the quoted rule of {path}", True))
            continue
        match = EXCEPTION_RE.search(fold(sentence))
        lead = content_words(fold(sentence)[: match.start()]) if match else set()
        if any(not widened_matches(w, known) for w in lead):
            continue  # another rule's own exception
        found.append(Qualifier(sentence, f"in the rule's block of {path}", False))
    return found
