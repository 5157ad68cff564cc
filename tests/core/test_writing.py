"""An item's text and its quote written in two writing systems: no rule can check one
against the other, so the text is not shown beside the badge."""

from __future__ import annotations

import pytest

from gitmem.core.support import unsupported
from gitmem.core.writing import other_writing, writing


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("We keep Postgres for now", "LATIN"),
        ("main 브랜치 보호 규칙 때문에 직접 push 불가.", "HANGUL"),
        ("Не деплоим по пятницам", "CYRILLIC"),
        ("パーサーは src/parser.py にあります", "CJK"),
        ("解析器在 src/parser.py 里", "CJK"),
        ("`_FakeMCP` 클래스명은 LOW이고 기능 영향 없으므로 그대로 둡니다", "HANGUL"),
        ("Οι αναπτύξεις γίνονται την Παρασκευή", "GREEK"),
        ("`src/parser.py` v0.16.0 #235", None),
    ],
)
def test_a_text_is_read_by_the_writing_system_of_most_of_its_words(
    text: str, script: str | None
) -> None:
    """Code, paths, versions and ids are written in Latin letters in any language: they
    are left out of the count."""
    assert writing(text) == script


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("main can be pushed directly", "main 브랜치 보호 규칙 때문에 직접 push 불가."),
        ("Deploy on Fridays", "Не деплоим по пятницам"),
        ("The parser lives in src/parser.py", "パーサーは src/parser.py にありません"),
        ("Keep `_FakeMCP`", "`_FakeMCP` 클래스명은 그대로 둡니다"),
        ("배포는 금요일에 한다", "we never deploy on Fridays"),
    ],
)
def test_a_text_in_another_writing_system_than_its_quote_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "no word of one can be checked against the other" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("パーサーは src/parser.py にある", "パーサーは src/parser.py にあります。テスト済み"),
        ("We keep Postgres", "we keep Postgres for now"),
        ("Keep `x`", "`x` `y` `z`"),
    ],
)
def test_a_text_in_its_quotes_writing_system_is_read_by_the_other_rules(
    text: str, quote: str
) -> None:
    assert other_writing(text, quote) is None
