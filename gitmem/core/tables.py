"""Tables in text: markdown pipe tables and CSV/TSV files, parsed into rows of cells
that know where they sit. Pure; never raises.

A **markdown table** (GitHub's form) is a header line holding a ``|``, then a delimiter
line (holding a ``|`` too) whose cells are dashes with optional colons (``---``,
``:--:``), as many as the header has, then body lines up to the first blank line or
the first line without a ``|``. A leading and a trailing pipe are optional; ``\\|`` is
a pipe inside a cell. Tables inside fenced code blocks (```` ``` ```` or ``~~~``) are not tables.

A **delimited file** (``.csv`` with ``,``, or ``;`` when its first line holds ``;`` and
no ``,``; ``.tsv`` and ``.tab`` with a tab) is one table: its first record is the header,
every later non-blank record a row. A field that starts with ``"`` is quoted (``""`` is
a quote inside it) and may hold the delimiter or line breaks, so a row can span lines.
A file with an unterminated quote is not read as a table.

Every :class:`Row` keeps its line span (0-based, inclusive) and every :class:`Cell` its
offsets in :attr:`Row.text` (the row's lines joined with ``\\n``), so a caller can tell
which cells a quote of the source covers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

_DELIMITER_CELL = re.compile(r":?-+:?")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
MAX_ROWS = 5000
"""Rows read per table: a bigger table is read up to here (a policy table is small)."""


@dataclass(frozen=True)
class Cell:
    """One cell: its text (trimmed, escapes and quotes removed) and where its raw text
    sits in the row's text (``start`` to ``end``, untrimmed)."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Row:
    """One header or body row: its lines (0-based, inclusive), text and cells."""

    first: int
    last: int
    text: str
    cells: tuple[Cell, ...]

    def holds(self, line: int) -> bool:
        return self.first <= line <= self.last


@dataclass(frozen=True)
class Table:
    """A header row and its body rows; ``first`` and ``last`` span every line of it
    (the delimiter line of a markdown table included)."""

    header: Row
    rows: tuple[Row, ...]
    first: int
    last: int

    def holds(self, line: int) -> bool:
        return self.first <= line <= self.last

    def column(self, index: int) -> str:
        """The header text of column *index* ("" past the header's cells)."""
        cells = self.header.cells
        return cells[index].text if index < len(cells) else ""


def tables_in(path: str, lines: Sequence[str]) -> list[Table]:
    """The tables of a file: one for a CSV/TSV file (by its extension), else its
    markdown tables. Never raises."""
    name = path.rsplit("/", 1)[-1].casefold()
    if name.endswith((".tsv", ".tab")):
        return _listed(delimited_table(lines, "\t"))
    if name.endswith(".csv"):
        first = lines[0] if lines else ""
        delimiter = ";" if ";" in first and "," not in first else ","
        return _listed(delimited_table(lines, delimiter))
    return markdown_tables(lines)


def _listed(table: Table | None) -> list[Table]:
    return [] if table is None else [table]


# -- markdown ---------------------------------------------------------------------------


def markdown_tables(lines: Sequence[str]) -> list[Table]:
    """Every markdown pipe table of *lines*, in order. Never raises."""
    tables: list[Table] = []
    fenced: str | None = None
    n = 0
    while n < len(lines):
        line = lines[n]
        fence = _FENCE.match(line)
        if fence is not None:
            fenced = None if fenced == fence.group(1) else (fenced or fence.group(1))
            n += 1
            continue
        if fenced is None and n + 1 < len(lines) and _header_pair(line, lines[n + 1]):
            table = _markdown_table(lines, n)
            tables.append(table)
            n = table.last + 1
            continue
        n += 1
    return tables


def _header_pair(header: str, delimiter: str) -> bool:
    if "|" not in header or "|" not in delimiter:
        return False
    cells = split_pipes(delimiter)
    if not cells or not all(_DELIMITER_CELL.fullmatch(c.text) for c in cells):
        return False
    return len(split_pipes(header)) == len(cells)


def _markdown_table(lines: Sequence[str], start: int) -> Table:
    header = Row(start, start, lines[start], split_pipes(lines[start]))
    rows: list[Row] = []
    n = start + 2
    while n < len(lines) and lines[n].strip() and "|" in lines[n] and len(rows) < MAX_ROWS:
        rows.append(Row(n, n, lines[n], split_pipes(lines[n])))
        n += 1
    return Table(header, tuple(rows), start, max(start + 1, n - 1))


def split_pipes(line: str) -> tuple[Cell, ...]:
    """The cells of one markdown table line: split at every ``|`` not escaped as
    ``\\|``, the optional outer pipes dropped, each cell trimmed. Never raises."""
    bounds: list[tuple[int, int]] = []
    start = 0
    n = 0
    while n < len(line):
        char = line[n]
        if char == "\\" and n + 1 < len(line) and line[n + 1] == "|":
            n += 2
            continue
        if char == "|":
            bounds.append((start, n))
            start = n + 1
        n += 1
    bounds.append((start, len(line)))
    if bounds and not line[bounds[0][0] : bounds[0][1]].strip():
        bounds = bounds[1:] if line.lstrip().startswith("|") else bounds
    if bounds and not line[bounds[-1][0] : bounds[-1][1]].strip():
        bounds = bounds[:-1] if line.rstrip().endswith("|") else bounds
    return tuple(Cell(line[a:b].replace("\\|", "|").strip(), a, b) for a, b in bounds)


# -- delimited files --------------------------------------------------------------------


def delimited_table(lines: Sequence[str], delimiter: str) -> Table | None:
    """The table of a CSV or TSV file's *lines*, or None when it has no header or a
    quote is never closed. Never raises."""
    records: list[Row] = []
    for row in _records(lines, delimiter):
        if row is None:
            return None
        records.append(row)
        if len(records) > MAX_ROWS:
            break
    if not records:
        return None
    header, *rows = records
    return Table(header, tuple(rows), header.first, (rows[-1] if rows else header).last)


def _records(lines: Sequence[str], delimiter: str) -> Iterator[Row | None]:
    """Each non-blank record as a Row; None (and stop) at an unterminated quote."""
    n = 0
    while n < len(lines):
        if not lines[n].strip():
            n += 1
            continue
        first = n
        text = lines[n]
        cells = _fields(text, delimiter)
        while cells is None:
            n += 1
            if n >= len(lines):
                yield None
                return
            text += "\n" + lines[n]
            cells = _fields(text, delimiter)
        yield Row(first, n, text, cells)
        n += 1


def _fields(text: str, delimiter: str) -> tuple[Cell, ...] | None:
    """The fields of one record's text, or None when a quoted field is still open."""
    cells: list[Cell] = []
    n = 0
    while True:
        start = n
        if n < len(text) and text[n] == '"':
            value: list[str] = []
            n += 1
            while True:
                close = text.find('"', n)
                if close < 0:
                    return None
                value.append(text[n:close])
                if close + 1 < len(text) and text[close + 1] == '"':
                    value.append('"')
                    n = close + 2
                    continue
                n = close + 1
                break
            stop = text.find(delimiter, n)
            stop = len(text) if stop < 0 else stop
            cells.append(Cell(("".join(value) + text[n:stop]).strip(), start, stop))
        else:
            stop = text.find(delimiter, n)
            stop = len(text) if stop < 0 else stop
            cells.append(Cell(text[n:stop].strip(), start, stop))
        if stop >= len(text):
            return tuple(cells)
        n = stop + len(delimiter)
