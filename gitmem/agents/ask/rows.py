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
7. **The slot asked for.** A question that asks for a condition ("Under what condition
   is the status locked?", "When is the express fee 9 EUR?") and states an outcome (its
   words bind cells outside the row's condition column: the column a header names as
   :data:`KEY_HEADERS`, else the first) is answered from that column.
8. **An outcome, not the trigger.** The answer is not the cell the question gives (for
   an outcome question the row's condition, for a condition question its outcome), nor
   words of the question only.
9. **No exception applies** (:mod:`~gitmem.agents.ask.exceptions`): an exception or
   qualifying sentence in the quoted row or in the table's section (heading to heading)
   that names the question's or the quoted row's condition, or no row's condition at all
   ("Except during maintenance."), withholds, whether or not the quote holds it.
10. **No conflicting row.** No other row (of this table, or of a table of another
    shown file) states the same condition (every bound word, every number with its
    relation, the same polarity, and no condition word of its own that neither the
    quoted row's condition nor the question states: "Max upload for admins" narrows
    "Max upload", it does not conflict) without holding the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.agents.ask.blocks import (
    HEADING,
    SourceFile,
    line_of,
    line_starts,
    lines_label,
    section,
)
from gitmem.agents.ask.conditions import (
    Number,
    content_words,
    negated_words,
    numbers_in,
    question_condition,
)
from gitmem.agents.ask.exceptions import (
    Qualifier,
    Quoted,
    exception_problem,
    is_qualifier,
    sentences,
)
from gitmem.agents.ask.gates import bounded_find, fold, normalise_answer
from gitmem.agents.ask.retrieve import question_terms, tokens
from gitmem.agents.ask.widen import widened_matches
from gitmem.core.tables import Cell, Row, Table, tables_in

KEY_HEADERS = frozenset(
    {"condition", "conditions", "when", "if", "trigger", "triggers", "criteria", "criterion"}
    | {"case", "cases", "rule", "rules", "circumstance", "circumstances", "situation"}
)
"""A header cell holding one of these names the column of the rows' conditions (else
it is the first column)."""


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
    starts = line_starts(source.lines)
    first, last = line_of(starts, span[0]), line_of(starts, max(span[0], span[1] - 1))
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
            f"the quote covers {lines_label(first, last)} of the table in {where}, not one of its "
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
        return f"row {lines_label(self.row.first, self.row.last)} of {self.source.path}"

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
        self._check_slot(answer_cell, condition_cells)
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
                return f"row {lines_label(row.first, row.last)}"
        return None

    def _subject_words(self) -> set[str]:
        words = tokens(self.table.header.text) | tokens(self.source.path.replace("_", " "))
        lines = self.source.lines
        for line in self._section_lines():
            if HEADING.match(lines[line]):
                words |= tokens(lines[line])
        caption = self.table.first - 1
        while caption >= 0 and not lines[caption].strip():
            caption -= 1
        if caption >= 0 and not is_qualifier(lines[caption]):
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

    # -- 6, 7 and 8. columns, the slot and the trigger -------------------------------

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

    def _check_slot(self, answer_cell: int, given: set[int]) -> None:
        """A question that asks for a condition and gives an outcome (the cells its words
        bind lie outside the row's condition column) is answered from that column."""
        if not self.condition.asks_condition:
            return
        key = next(
            (i for i, c in enumerate(self.table.header.cells) if tokens(c.text) & KEY_HEADERS),
            0,
        )
        if key in given or answer_cell == key or key >= len(self.row.cells):
            return
        self.problems.append(
            f"the question asks for the condition of its outcome, which is the row's column "
            f"'{self.table.column(key)}' (\"{self.row.cells[key].text}\"), not column "
            f"'{self.table.column(answer_cell)}'"
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
            asked, given = (
                ("condition", "outcome")
                if self.condition.asks_condition
                else (
                    "outcome",
                    "condition",
                )
            )
            self.problems.append(
                f"the answer '{self.answer}' is the row's {given}, which the question gives, "
                f"not its {asked}"
            )

    # -- 9. exceptions -----------------------------------------------------------------

    def _check_exceptions(self, bound: tuple[str, ...]) -> None:
        cells = self._condition_cells(bound)
        words = set(bound)
        for i in cells:
            words |= content_words(self.row.cells[i].text)
        quoted = Quoted(
            self.answer,
            self.condition,
            words,
            {n.token for i in cells for n in numbers_in(self.row.cells[i].text)},
            [tokens(r.text) | _number_tokens(r.text) for r in self.table.rows if r is not self.row],
        )
        problem = exception_problem(self._exception_sentences(bound), quoted)
        if problem is not None:
            self.problems.append(problem)

    def _exception_sentences(self, bound: tuple[str, ...]) -> list[Qualifier]:
        """Each exception that can qualify the answer. The row's own are those of the
        answer's cell, of its condition cells and of cells the quote left out (another
        quoted cell is another column's outcome); the others are the sentences of the
        table's section."""
        found: list[Qualifier] = []
        qualifying = self._condition_cells(bound) | {self._answer_cell()}
        for i, cell in enumerate(self.row.cells):
            if (i in qualifying or i not in self.covered) and is_qualifier(cell.text):
                found.append(Qualifier(cell.text, f"in the quoted {self.label}", True))
        outside = [n for n in self._section_lines() if not self.table.holds(n)]
        for sentence in sentences("\n".join(self.source.lines[n] for n in outside)):
            if is_qualifier(sentence):
                where = f"in the table's section of {self.source.path}"
                found.append(Qualifier(sentence, where, False))
        return found

    def _section_lines(self) -> range:
        return section(self.source.lines, self.table.first, self.table.last)

    # -- 10. conflicts -----------------------------------------------------------------

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
                same = (
                    "outcome with another condition"
                    if self.condition.asks_condition
                    else ("condition with another outcome")
                )
                self.problems.append(
                    f"a conflicting row: row {lines_label(row.first, row.last)} of {source.path} "
                    f'states the same {same} ("{_cells_text(row.cells)[:120]}")'
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


def _number_tokens(text: str) -> set[str]:
    return {n.token for n in numbers_in(text)}


def _holds_number(text: str, number: Number) -> bool:
    return any(n.token == number.token for n in numbers_in(text))


def _touches(table: Table, first: int, last: int) -> bool:
    return table.first <= last and first <= table.last


def _cells_text(cells: Sequence[Cell]) -> str:
    return " | ".join(c.text for c in cells)
