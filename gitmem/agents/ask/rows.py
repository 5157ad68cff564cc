"""The row gate: an answer from a table takes its condition and its outcome from one
row. Pure: text in, a verdict out.

It applies when the solver's quote touches a table of the cited file (markdown, CSV or
TSV: :mod:`gitmem.core.tables`). The question's condition is
:func:`gitmem.agents.ask.conditions.question_condition`; a question word that names a
column (it matches a header cell) picks that column instead of stating a condition.
Checked in this order, every failure withholds the answer with its reason:

1. **One row.** The quote lies inside one body row (not the header, not two rows).
2. **One cell.** The answer lies inside one cell of the quoted part of that row.
3. **The condition is in the quote.** Every condition word and number of the question
   is in the quoted part of the row; otherwise the reason says whether the quote left it
   out, another row states it (an outcome taken from another row than its condition), or
   no row does (an *unstated* condition; a word the section's heading, the header or the
   file's path holds names the subject and counts as stated).
4. **The same relation.** Each number carries the same relation in the row as in the
   question: "over 10" (``>``) is not answered from ">= 10", "10 or more" or "10".
5. **The same polarity.** A condition word negated in one and stated in the other
   withholds ("damaged" against "not damaged"), and so does a negated qualifier of the
   row's condition that the question does not state ("Over 10 kg, not fragile").
6. **The asked column.** A question word that names a column ("express" for a column
   "Express") must name the answer's column or a column of the condition.
7. **An outcome, not the trigger.** The answer is not the row's condition cell, nor
   words of the question only.
8. **No exception applies.** An exception ("except", "exception", "unless",
   "notwithstanding", "exempt", "does not apply") in the quoted row, in another row, or
   in a sentence of the table's section (heading to heading) applies when it mentions a
   condition word or number of the question or of the quoted row's condition; it
   withholds unless the question itself negates every word the exception governs
   ("non-fragile" against "unless fragile"). When the condition has numbers, a sentence
   outside the row that states only other numbers is about another condition and does
   not apply ("baskets of 100 items or more …" to 10 items).
9. **No conflicting row.** No other row (of this table, or of a table of another
   shown file) states the same condition (every bound word, every number with its
   relation, the same polarity, and no condition word of its own that neither the
   quoted row's condition nor the question states: "Max upload for admins" narrows
   "Max upload", it does not conflict) without holding the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.agents.ask.conditions import (
    Number,
    content_words,
    negated_words,
    numbers_in,
    question_condition,
)
from gitmem.agents.ask.gates import bounded_find, fold, normalise_answer
from gitmem.agents.ask.retrieve import question_terms, tokens
from gitmem.agents.ask.widen import widened_matches
from gitmem.core.tables import Cell, Row, Table, tables_in

EXCEPTION_RE = re.compile(
    r"\b(?:except|exception|exceptions|excepting|unless|notwithstanding|exempt|exempted)\b"
    r"|\b(?:does|do|shall|will) not apply\b|\bdoesn't apply\b|\bnot applicable\b"
)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+|\n(?=\s*(?:[-*+]|\d+[.)])\s)|\n\s*\n")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")


@dataclass(frozen=True)
class SourceFile:
    """A file as the row gate reads it."""

    path: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class RowFinding:
    """The row gate's finding: ``ok`` and one sentence (several, joined, when it fails)."""

    ok: bool
    detail: str


def row_verdict(
    question: str,
    answer: str,
    source: SourceFile,
    span: tuple[int, int],
    shown: Sequence[SourceFile] = (),
) -> RowFinding | None:
    """The row gate for an answer whose quote covers offsets *span* of *source*'s text
    (its lines joined with ``\\n``), or None when the quote touches no table. *shown* are
    the other files the solver was shown (their tables can conflict). Pure."""
    starts = _line_starts(source.lines)
    first, last = _line_of(starts, span[0]), _line_of(starts, max(span[0], span[1] - 1))
    table = next(
        (t for t in tables_in(source.path, source.lines) if _touches(t, first, last)), None
    )
    if table is None:
        return None
    where = f"{source.path}"
    row = next((r for r in table.rows if r.first <= first and last <= r.last), None)
    if row is None:
        return RowFinding(
            False,
            f"the quote covers {_lines(first, last)} of the table in {where}, not one of its "
            "rows: an answer from a table quotes one row",
        )
    offset = starts[row.first]
    return _Binding(
        question, answer, source, table, row, (span[0] - offset, span[1] - offset), shown
    ).verdict()


class _Binding:
    """One check of one quoted row against one question."""

    def __init__(
        self,
        question: str,
        answer: str,
        source: SourceFile,
        table: Table,
        row: Row,
        span: tuple[int, int],
        shown: Sequence[SourceFile],
    ) -> None:
        self.question, self.answer, self.source = question, answer, source
        self.table, self.row, self.shown = table, row, shown
        start, end = max(0, span[0]), min(len(row.text), span[1])
        self.quoted = row.text[start:end]
        self.covered = [i for i, c in enumerate(row.cells) if c.end > start and c.start < end]
        self.condition = question_condition(question)
        self.terms = {t for t in question_terms(question) if not t.isdigit()}
        self.columns = self._named_columns()
        self.words = tuple(w for w in self.condition.words if w not in self.columns)
        self.problems: list[str] = []

    @property
    def label(self) -> str:
        return f"row {_lines(self.row.first, self.row.last)} of {self.source.path}"

    def verdict(self) -> RowFinding:
        answer_cell = self._answer_cell()
        if answer_cell is None:
            return RowFinding(
                False, f"the answer is not inside one cell of the quoted {self.label}"
            )
        bound = self._check_condition()
        self._check_polarity(answer_cell)
        condition_cells = self._condition_cells(bound)
        self._check_columns(answer_cell, condition_cells)
        self._check_trigger(answer_cell, condition_cells)
        self._check_exceptions(bound)
        if not self.problems:
            self._check_conflicts(bound)
        if self.problems:
            return RowFinding(False, "; ".join(self.problems))
        return RowFinding(True, f"condition and outcome come from one row: {self.label}")

    # -- 2. the answer's cell ----------------------------------------------------------

    def _answer_cell(self) -> int | None:
        needle = normalise_answer(self.answer)
        cells = [i for i in self.covered if bounded_find(needle, fold(self.row.cells[i].text))]
        if not cells:
            return None
        scores = self._cell_scores()
        return min(cells, key=lambda i: (scores[i], i))

    def _cell_scores(self) -> dict[int, int]:
        return {
            i: sum(widened_matches(w, tokens(c.text)) for w in self.words)
            + sum(1 for n in self.condition.numbers if _holds_number(c.text, n))
            for i, c in enumerate(self.row.cells)
        }

    # -- 3 and 4. words and numbers ----------------------------------------------------

    def _check_condition(self) -> tuple[str, ...]:
        """Checks rule 3 and 4; returns the words the quoted row binds."""
        quoted = tokens(self.quoted)
        whole_row = tokens(self.row.text)
        bound = []
        for word in self.words:
            if widened_matches(word, quoted):
                bound.append(word)
            elif widened_matches(word, whole_row):
                self.problems.append(f"the quote leaves out '{word}', which its row states")
            elif (other := self._other_row(word=word)) is not None:
                self.problems.append(
                    f"'{word}' is stated in {other}, not in the quoted {self.label}: the "
                    "outcome must come from the row of the condition"
                )
            elif not widened_matches(word, self._subject_words()):
                self.problems.append(
                    f"the quoted {self.label} does not state '{word}', which the question "
                    "asks about (an unstated condition)"
                )
        stated = numbers_in(self.quoted)
        for number in self.condition.numbers:
            same = [n for n in stated if n.token == number.token]
            if any(n.relation == number.relation for n in same):
                continue
            if same:
                self.problems.append(
                    f"the row's condition '{same[0].phrase}' ({same[0].relation} "
                    f"{number.token}) is not the question's '{number.phrase}' "
                    f"({number.relation} {number.token}): a weaker or different condition"
                )
            elif number.token in [n.token for n in numbers_in(self.table.header.text)]:
                continue
            else:
                other = self._other_row(number=number)
                self.problems.append(
                    f"{number.token} is stated in {other}, not in the quoted {self.label}"
                    if other
                    else f"the quoted {self.label} does not state {number.token}, which the "
                    "question asks about (an unstated condition)"
                )
        return tuple(bound)

    def _other_row(self, word: str | None = None, number: Number | None = None) -> str | None:
        """The first other row that holds *word* (or *number*), as "row N"."""
        for row in self.table.rows:
            if row is self.row:
                continue
            if (word is not None and widened_matches(word, tokens(row.text))) or (
                number is not None and _holds_number(row.text, number)
            ):
                return f"row {_lines(row.first, row.last)}"
        return None

    def _subject_words(self) -> set[str]:
        words = tokens(self.table.header.text) | tokens(self.source.path.replace("_", " "))
        lines = self.source.lines
        for line in self._section_lines():
            if _HEADING.match(lines[line]):
                words |= tokens(lines[line])
        caption = self.table.first - 1
        while caption >= 0 and not lines[caption].strip():
            caption -= 1
        if caption >= 0 and not EXCEPTION_RE.search(fold(lines[caption])):
            words |= tokens(lines[caption])
        return words

    # -- 5. polarity -------------------------------------------------------------------

    def _bound_words(self) -> tuple[str, ...]:
        quoted = tokens(self.quoted)
        return tuple(w for w in self.words if widened_matches(w, quoted))

    def _check_polarity(self, answer_cell: int) -> None:
        negated_row = negated_words(self.quoted)
        for word in self.words:
            in_question = widened_matches(word, set(self.condition.negated))
            in_row = widened_matches(word, negated_row)
            if in_question and not in_row and widened_matches(word, tokens(self.quoted)):
                self.problems.append(
                    f"the question negates '{word}' but the quoted row states it "
                    "(a negated condition)"
                )
            elif in_row and not in_question:
                self.problems.append(
                    f"the quoted row negates '{word}' but the question states it "
                    "(a negated condition)"
                )
        for i in sorted(self._condition_cells(self._bound_words()) - {answer_cell}):
            cell = self.row.cells[i]
            for word in sorted(negated_words(cell.text) & content_words(cell.text)):
                if not widened_matches(word, self.terms):
                    self.problems.append(
                        f"the row's condition also requires 'not {word}', which the question "
                        "does not state"
                    )

    # -- 6 and 7. columns and the trigger ----------------------------------------------

    def _named_columns(self) -> dict[str, set[int]]:
        named: dict[str, set[int]] = {}
        for term in sorted(self.terms):
            columns = {
                i
                for i, c in enumerate(self.table.header.cells)
                if widened_matches(term, tokens(c.text))
            }
            if columns:
                named[term] = columns
        return named

    def _condition_cells(self, bound: tuple[str, ...]) -> set[int]:
        return {
            i
            for i in self.covered
            if any(widened_matches(w, tokens(self.row.cells[i].text)) for w in bound)
            or any(_holds_number(self.row.cells[i].text, n) for n in self.condition.numbers)
        }

    def _check_columns(self, answer_cell: int, condition_cells: set[int]) -> None:
        allowed = condition_cells | {answer_cell}
        for term, columns in self.columns.items():
            if not columns & allowed:
                named = ", ".join(f"'{self.table.column(i)}'" for i in sorted(columns))
                self.problems.append(
                    f"the question asks about '{term}' (column {named}) but the answer comes "
                    f"from column '{self.table.column(answer_cell)}'"
                )

    def _check_trigger(self, answer_cell: int, condition_cells: set[int]) -> None:
        scores = self._cell_scores()
        best = max((scores[i] for i in self.covered), default=0)
        words = content_words(self.answer)
        numbers = {n.token for n in numbers_in(self.answer)}
        echo = (
            (words or numbers)
            and all(widened_matches(w, self.terms) for w in words)
            and (numbers <= {n.token for n in self.condition.numbers})
        )
        if (answer_cell in condition_cells and scores[answer_cell] == best > 0) or echo:
            self.problems.append(
                f"the answer '{self.answer}' is the row's condition, which the question gives, "
                "not its outcome"
            )

    # -- 8. exceptions -----------------------------------------------------------------

    def _check_exceptions(self, bound: tuple[str, ...]) -> None:
        condition_words = set(bound)
        for i in self._condition_cells(bound):
            condition_words |= content_words(self.row.cells[i].text)
        numbers = {n.token for n in self.condition.numbers}
        for sentence, where, own in self._exception_sentences(bound):
            if self._excluded(sentence):
                continue
            if own:
                # The quoted row's own exception qualifies its outcome, unless the answer
                # carries it along.
                if EXCEPTION_RE.search(fold(self.answer)):
                    continue
                why = "qualifies the row's outcome"
            elif self._other_numbers(sentence, numbers):
                continue
            else:
                shared = sorted(
                    w for w in content_words(sentence) if widened_matches(w, condition_words)
                ) + sorted(n.token for n in numbers_in(sentence) if n.token in numbers)
                if not shared:
                    continue
                why = f"mentions '{shared[0]}'"
            self.problems.append(
                f'an exception applies: "{" ".join(sentence.split())[:160]}" ({where}) {why}'
            )
            return

    def _other_numbers(self, sentence: str, asked: set[str]) -> bool:
        """The condition has numbers and the sentence states others, none of them the
        question's or the quoted row's condition's: it is about another condition
        ("100 items or more" against a question about 10 items). A condition without
        numbers ("Lost item") is qualified by any sentence that names it ("lost items
        reported within 7 days are exempt")."""
        stated = {n.token for n in numbers_in(sentence)}
        own = {
            n.token
            for i in self._condition_cells(self._bound_words())
            for n in numbers_in(self.row.cells[i].text)
        }
        condition = asked | own
        return bool(stated) and bool(condition) and not stated & condition

    def _excluded(self, sentence: str) -> bool:
        """The question negates every word the exception governs."""
        governed = negated_words(sentence) & content_words(sentence)
        return bool(governed) and all(
            widened_matches(w, set(self.condition.negated)) for w in governed
        )

    def _exception_sentences(self, bound: tuple[str, ...]) -> list[tuple[str, str, bool]]:
        """Each exception that can qualify the answer: its text, where it is, and whether
        it is the quoted row's own. The row's own are those of the answer's cell, of its
        condition cells and of cells the quote left out (another quoted cell is another
        column's outcome); the others are the sentences of the table's section."""
        found: list[tuple[str, str, bool]] = []
        answer_cell = self._answer_cell()
        qualifying = self._condition_cells(bound) | {answer_cell}
        for i, cell in enumerate(self.row.cells):
            if (i in qualifying or i not in self.covered) and EXCEPTION_RE.search(fold(cell.text)):
                found.append((cell.text, f"in the quoted {self.label}", True))
        outside = [n for n in self._section_lines() if not self.table.holds(n)]
        text = "\n".join(self.source.lines[n] for n in outside)
        for sentence in _SENTENCE_BREAK.split(text):
            if EXCEPTION_RE.search(fold(sentence)):
                found.append((sentence, f"in the table's section of {self.source.path}", False))
        return found

    def _section_lines(self) -> range:
        lines = self.source.lines
        start = self.table.first
        while start > 0 and not _HEADING.match(lines[start - 1]):
            start -= 1
        start = max(0, start - 1)
        end = self.table.last + 1
        while end < len(lines) and not _HEADING.match(lines[end]):
            end += 1
        return range(start, end)

    # -- 9. conflicts ------------------------------------------------------------------

    def _check_conflicts(self, bound: tuple[str, ...]) -> None:
        needle = normalise_answer(self.answer)
        own = set(bound)
        for i in self._condition_cells(bound):
            own |= content_words(self.row.cells[i].text)
        for source, table in self._tables():
            for row in table.rows:
                if row is self.row or not self._binds(row, bound):
                    continue
                if self._more_specific(row, bound, own):
                    continue
                if any(bounded_find(needle, fold(c.text)) for c in row.cells):
                    continue
                self.problems.append(
                    f"a conflicting row: row {_lines(row.first, row.last)} of {source.path} "
                    f"states the same condition with another outcome "
                    f'("{_cells_text(row.cells)[:120]}")'
                )
                return

    def _more_specific(self, row: Row, bound: tuple[str, ...], own: set[str]) -> bool:
        """*row*'s condition adds a word that neither the quoted row's condition nor the
        question states ("Max upload for admins" against "Max upload"): it is another,
        narrower condition, not a conflict."""
        words: set[str] = set()
        for cell in row.cells:
            if any(widened_matches(w, tokens(cell.text)) for w in bound) or any(
                _holds_number(cell.text, n) for n in self.condition.numbers
            ):
                words |= content_words(cell.text)
        return any(
            not widened_matches(w, own) and not widened_matches(w, self.terms) for w in words
        )

    def _tables(self) -> list[tuple[SourceFile, Table]]:
        found = [(self.source, self.table)]
        for source in self.shown:
            if source.path != self.source.path:
                found += [(source, t) for t in tables_in(source.path, source.lines)]
        return found

    def _binds(self, row: Row, bound: tuple[str, ...]) -> bool:
        words = tokens(row.text)
        if not all(widened_matches(w, words) for w in bound):
            return False
        stated = numbers_in(row.text)
        if not all(
            any(n.token == q.token and n.relation == q.relation for n in stated)
            for q in self.condition.numbers
        ):
            return False
        negated = negated_words(row.text)
        return all(
            widened_matches(w, negated) == widened_matches(w, set(self.condition.negated))
            for w in bound
        )


def _holds_number(text: str, number: Number) -> bool:
    return any(n.token == number.token for n in numbers_in(text))


def _touches(table: Table, first: int, last: int) -> bool:
    return table.first <= last and first <= table.last


def _line_starts(lines: Sequence[str]) -> list[int]:
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    return starts


def _line_of(starts: list[int], offset: int) -> int:
    low, high = 0, len(starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low


def _lines(first: int, last: int) -> str:
    return f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"


def _cells_text(cells: Sequence[Cell]) -> str:
    return " | ".join(c.text for c in cells)
