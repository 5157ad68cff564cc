"""What the commands print as JSON: a list of flat objects written an object at a time
is the same bytes as the whole list encoded at once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.cli.base import emit, emit_rows

SCALARS = st.none() | st.booleans() | st.integers() | st.text()
ROWS = st.lists(st.dictionaries(st.text(), SCALARS, max_size=5), max_size=7)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(ROWS)
def test_rows_are_written_as_the_whole_list_is(rows: list[dict[str, Any]]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        written: list[str] = []
        patch.setattr("click.echo", lambda text, nl=True: written.append(text + "\n" * nl))
        patch.setattr("gitmem.cli.base._CHUNK", 2)  # chunks end within the list too
        emit_rows(iter(rows))
        streamed = "".join(written)
        written.clear()
        emit(rows)
        assert streamed == "".join(written) == json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
