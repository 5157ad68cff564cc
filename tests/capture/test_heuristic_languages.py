"""The markers in languages other than English (gitmem/capture/extract/heuristic/languages.py):
a session in Spanish, German, French, Portuguese, Italian, Russian, Chinese, Japanese or
Korean gives its decisions, open loops, uncertainties and the user's rules as an English one
does, each quote verified; and an English session pays nothing for them."""

from __future__ import annotations

import pytest
from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.languages import foreign
from gitmem.capture.extract.heuristic.markers import find_marker, is_triggered
from gitmem.core.items import Kind
from gitmem.core.quotes import check_quote


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Hemos decidido mantener el índice en SQLite.", Kind.DECISION),
        ("Wir haben uns für SQLite als Index entschieden.", Kind.DECISION),
        ("Nous avons décidé de garder l'index dans SQLite.", Kind.DECISION),
        ("Abbiamo deciso di tenere l'indice in SQLite.", Kind.DECISION),
        ("Мы решили хранить индекс в SQLite.", Kind.DECISION),
        ("我们决定把索引保存在SQLite里。", Kind.DECISION),
        ("インデックスはSQLiteに置くことに決めました。", Kind.DECISION),
        ("인덱스는 SQLite에 두기로 결정했습니다.", Kind.DECISION),
        ("Todavía falta portar los mensajes de error.", Kind.OPEN_LOOP),
        ("Die Migration schlägt unter Windows noch fehl.", Kind.OPEN_LOOP),
        ("Il reste à porter les messages d'erreur.", Kind.OPEN_LOOP),
        ("Ainda falta portar as mensagens de erro.", Kind.OPEN_LOOP),
        ("还需要移植旧的错误信息。", Kind.OPEN_LOOP),
        ("未コミットの変更が2件あります。", Kind.OPEN_LOOP),
        ("PR #12는 CI 완료 대기 중입니다.", Kind.OPEN_LOOP),
        ("No estoy seguro de si la caché sobrevive a un reinicio.", Kind.UNCERTAINTY),
        ("Ich bin nicht sicher, ob der Cache einen Neustart übersteht.", Kind.UNCERTAINTY),
        ("不确定缓存能否在重启后保留。", Kind.UNCERTAINTY),
        ("キャッシュが再起動後も残るかは確信が持てません。", Kind.UNCERTAINTY),
        ("캐시가 재시작 후에도 남는지는 확실하지 않습니다.", Kind.UNCERTAINTY),
    ],
)
def test_a_marked_sentence_in_another_language_is_read_as_its_kind(
    sentence: str, kind: Kind
) -> None:
    assert is_triggered(sentence)
    marker = find_marker(sentence)
    assert marker is not None and marker.kind == kind


@pytest.mark.parametrize(
    "sentence",
    [
        "Kein ORM, bitte das SQL von Hand schreiben.",
        "Nunca hagas push directamente a main.",
        "Não use o ORM.",
        "ORMは使わないでください。",
        "ORM은 쓰지 말고 SQL은 직접 작성해 주세요.",
        "不要用ORM，SQL手写。",
        "Никогда не пушь в main напрямую.",
    ],
)
def test_a_users_rule_in_another_language_is_a_decision(sentence: str) -> None:
    marker = find_marker(sentence, by_user=True)
    assert marker is not None and marker.kind == Kind.DECISION
    assert find_marker(sentence, by_user=False) is None or sentence.startswith("Никогда")


@pytest.mark.parametrize(
    "sentence",
    [
        "Kein Problem, mach einfach weiter.",  # a courtesy, not a rule
        "Только что закончил миграцию.",  # "just now", not "only"
        "Immer noch kaputt nach dem Update.",  # "still", not "always"
        "ORMは使わないでしょうか？",  # a question
        "No problem, go on.",
    ],
)
def test_a_courtesy_or_a_question_is_no_users_rule(sentence: str) -> None:
    assert find_marker(sentence, by_user=True) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "决定使用PostgreSQL作为主数据库。",
        "最终决定把缓存放在本地。",
        "我们选择了SQLite。",
    ],
)
def test_a_chinese_decision_needs_its_decider_or_to_open_the_sentence(sentence: str) -> None:
    marker = find_marker(sentence)
    assert marker is not None and marker.kind == Kind.DECISION


@pytest.mark.parametrize(
    "sentence",
    [
        "这个函数决定使用哪个缓存后端。",  # what a function decides
        "캐시 크기는 설정 파일로 결정됩니다.",  # what a setting determines
    ],
)
def test_a_sentence_describing_what_code_decides_is_no_decision(sentence: str) -> None:
    assert find_marker(sentence) is None


@pytest.mark.parametrize(
    ("heading", "items"),
    [
        ("Próximos pasos:", ("Añadir índices a la tabla de pedidos", "Documentar el esquema")),
        ("Offene Punkte:", ("Indizes für die Bestelltabelle anlegen", "Schema dokumentieren")),
        ("Prochaines étapes :", ("Ajouter des index aux commandes", "Documenter le schéma")),
        ("## 次のステップ", ("注文テーブルにインデックスを追加する", "スキーマを文書化する")),
        ("下一步：", ("给订单表添加索引", "编写数据库结构文档")),
        ("**다음 단계:**", ("주문 테이블에 인덱스 추가", "스키마 문서 작성")),
    ],
)
def test_a_status_section_in_another_language_lists_open_loops(
    heading: str, items: tuple[str, str]
) -> None:
    listed = "\n".join(f"- {item}" for item in items)
    messages = [
        user("Add the order indexes later."),
        assistant(f"Done with the queries.\n\n{heading}\n{listed}"),
    ]
    found = [(d.kind, d.quote) for d, _ in explain(messages)]
    assert [(Kind.OPEN_LOOP, item) for item in items] == found[-2:]


def test_chinese_and_japanese_sentences_end_at_their_full_stops() -> None:
    reply = "我们决定使用PostgreSQL，因为需要并发写入。查询已手写在db/queries.sql中。"
    found = [d for d, rule in explain([user("数据库用哪个？"), assistant(reply)])]
    decision = next(d for d in found if d.kind == Kind.DECISION)
    assert decision.quote == "我们决定使用PostgreSQL，因为需要并发写入。"


def test_every_quote_from_a_session_in_another_language_verifies() -> None:
    texts = [
        "¿Qué base de datos usamos?",
        "Decidimos usar PostgreSQL. No estoy seguro de si el pool aguanta 200 clientes.",
        "ORMは使わないで、SQLは手で書いてください。",
        "完了：クエリはdb/queries.sqlに手書きしました。\n\n次のステップ：\n"
        "- インデックスを追加する",
    ]
    messages = [user(t) if n % 2 == 0 else assistant(t) for n, t in enumerate(texts)]
    drafts = [d for d, _ in explain(messages)]
    assert len(drafts) >= 4
    for draft in drafts:
        assert draft.quote is not None
        assert check_quote(draft.quote, texts).verbatim, draft.quote


@pytest.mark.parametrize(
    "sentence",
    [
        "The parser now reads tokens one by one.",
        "No use trying that again.",
        "We should keep the cache warm before the release.",
    ],
)
def test_an_english_sentence_is_not_read_for_other_languages(sentence: str) -> None:
    low = sentence.lower()
    assert not foreign(low, low.replace(".", " ").split())


@pytest.mark.parametrize(
    "item", ["docs/schema.mdにスキーマを記載する", "在docs/schema.md中记录表结构"]
)
def test_a_path_inside_a_chinese_or_japanese_sentence_is_no_file_list_entry(item: str) -> None:
    # Those scripts run their words into the path: "docs/schema.mdに…" is a sentence that
    # names a file, not an entry of a list of files ("- docs/schema.md — the tables").
    reply = f"Done with the queries.\n\nNext steps:\n- {item}\n- docs/schema.md — the tables"
    found = [d.quote for d, _ in explain([user("What is left?"), assistant(reply)])]
    assert item in found
    assert "docs/schema.md — the tables" not in found


@pytest.mark.parametrize(
    "reply",
    [
        "PR #41 (parser): ya fusionado.",
        "PR #41 wurde zusammengeführt.",
        "PR #41 已合并。",
        "PR #41 はマージ済みです。",
        "PR #41 (parser): 이미 머지됨.",
        "PR #41 (parser): 이미 닫혀있음.",
    ],
)
def test_a_pr_said_merged_or_closed_in_another_language_is_no_open_loop(reply: str) -> None:
    found = [(d.kind, d.quote) for d, _ in explain([user("Which PRs are open?"), assistant(reply)])]
    assert (Kind.FACT, reply) in found


@pytest.mark.parametrize("reply", ["PR #41 no fusionado todavía.", "PR #41 还未合并，等待评审。"])
def test_a_pr_not_yet_merged_in_another_language_stays_open(reply: str) -> None:
    found = [(d.kind, d.quote) for d, _ in explain([user("Which PRs are open?"), assistant(reply)])]
    assert found and all(kind == Kind.OPEN_LOOP for kind, _ in found)
