"""The assistant's narration in languages other than English (languages.narrates): what it
does next ("Voy a …", "让我 …", "확인하겠습니다") or that it has read what it looked at
("변경 내용을 파악했습니다", "把握しました") is no outcome, as "Let me …" and "I've reviewed …"
are not in English; a report that opens with it gives no item from that paragraph."""

from __future__ import annotations

import pytest
from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.languages import narrates


@pytest.mark.parametrize(
    "sentence",
    [
        "Déjame revisar el archivo de configuración.",
        "Voy a ejecutar las pruebas otra vez.",
        "Ya he revisado los cambios del parser.",
        "Ich werde zuerst die Tests ausführen.",
        "Je vais relancer la migration.",
        "让我看看配置文件。",
        "設定ファイルを確認します。",
        "差分の内容を把握しました。",
        "설정 파일을 확인하겠습니다.",
        "큐 모듈의 구조를 파악했습니다.",
        "캐시 계층 분석 완료.",
    ],
)
def test_narration_in_another_language_is_recognised(sentence: str) -> None:
    assert narrates(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Decidimos usar PostgreSQL para el índice.",
        "Todavía falta portar los mensajes de error.",
        "Давайте используем SQLite.",  # "let's use": a decision, not narration
        "캐시 크기는 설정 파일에서 읽도록 변경했습니다.",
        "CI 통과를 확인했습니다.",  # a check's outcome, not what was read
        "这样做会更好。",
        "インデックスを追加しました。",
        "Let me check the logs.",  # English narration is the English rule's
    ],
)
def test_a_statement_is_no_narration(sentence: str) -> None:
    assert not narrates(sentence)


@pytest.mark.parametrize(
    ("opening", "outcome"),
    [
        ("변경 내용을 파악했습니다. 평가를 작성합니다.", "재시도 횟수를 3회로 줄였습니다."),
        ("Voy a resumir lo que cambió.", "El reintento ahora espera 2 segundos."),
        ("让我总结一下改动。", "重试次数改为三次。"),
    ],
)
def test_a_report_paragraph_that_opens_with_narration_gives_no_item(
    opening: str, outcome: str
) -> None:
    reply = f"{opening}\n\n{outcome}"
    found = [d.quote for d, _ in explain([user("Fix the retry loop."), assistant(reply)])]
    assert not any(opening in (q or "") or (q or "") in opening for q in found)
    assert outcome in found


def test_a_marked_sentence_that_narrates_in_korean_gives_no_item() -> None:
    # "I'll check the PR's CI once more": the assistant's next step, though it names a PR.
    reply = "머지 전에 PR #12의 CI를 다시 확인하겠습니다.\n\n재시도 횟수를 3회로 줄였습니다."
    found = [d.quote for d, _ in explain([user("Fix the retry loop."), assistant(reply)])]
    assert "머지 전에 PR #12의 CI를 다시 확인하겠습니다." not in found
