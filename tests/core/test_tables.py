"""Tables in text (gitmem.core.tables): markdown pipe tables and CSV/TSV files, parsed
into rows of cells that know where they sit in the source."""

from __future__ import annotations

import pytest

from gitmem.core.tables import tables_in


def cells(path: str, text: str) -> list[list[list[str]]]:
    return [
        [[c.text for c in row.cells] for row in (t.header, *t.rows)]
        for t in tables_in(path, text.splitlines())
    ]


def test_a_markdown_table_with_and_without_outer_pipes() -> None:
    text = (
        "# Fees\n\n| Weight | Fee |\n|:--|--:|\n| Up to 10 kg | 5 EUR |\n\n"
        "A | B\n---|---\nx \\| y | z\n"
    )
    assert cells("fees.md", text) == [
        [["Weight", "Fee"], ["Up to 10 kg", "5 EUR"]],
        [["A", "B"], ["x | y", "z"]],
    ]


def test_rows_and_cells_know_where_they_sit() -> None:
    lines = ["intro", "| a | b |", "|---|---|", "| 10 kg | 5 EUR |"]
    (table,) = tables_in("x.md", lines)
    (row,) = table.rows
    assert (table.first, table.last, row.first, row.last) == (1, 3, 3, 3)
    assert [row.text[c.start : c.end].strip() for c in row.cells] == ["10 kg", "5 EUR"]


@pytest.mark.parametrize(
    "text",
    [
        "| a | b |\n| c | d |\n",  # no delimiter line
        "| a | b |\n|---|\n| c | d |\n",  # the delimiter has fewer cells
        "```\n| a | b |\n|---|---|\n| c | d |\n```\n",  # inside a fence
        "a pipe | in prose\nand a line of - dashes\n",
    ],
)
def test_what_is_not_a_markdown_table(text: str) -> None:
    assert cells("x.md", text) == []


def test_a_csv_file_with_quoted_fields_spanning_lines() -> None:
    text = 'band,rate\n"0 - 1,000 EUR",0%\n"over\n1,000 EUR","20%, ""flat"""\n'
    (table,) = tables_in("data/rates.csv", text.splitlines())
    assert [[c.text for c in r.cells] for r in table.rows] == [
        ["0 - 1,000 EUR", "0%"],
        ["over\n1,000 EUR", '20%, "flat"'],
    ]
    assert (table.rows[1].first, table.rows[1].last) == (2, 3)


def test_delimiters_by_extension_and_first_line() -> None:
    assert cells("a.tsv", "age\tticket\nunder 12\tchild\n") == [
        [["age", "ticket"], ["under 12", "child"]]
    ]
    assert cells("a.csv", "plan;fee\npro;12,5\n") == [[["plan", "fee"], ["pro", "12,5"]]]
    assert cells("a.txt", "plan,fee\npro,12\n") == []


def test_an_unterminated_quote_is_not_a_table() -> None:
    assert cells("a.csv", 'a,b\n"open,1\n') == []
