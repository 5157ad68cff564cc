"""gitmem recall: full-text search over the whole history, through the real CLI, the
real store and a real SQLite FTS5 index in .git/gitmem/."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text
from helpers.tamper import overwrite_object

from gitmem.agents.recall import fts_query, recall
from gitmem.core.quotes import fold
from gitmem.core.records import EVENT_STATUS
from gitmem.lifecycle.index import INDEX_FILE, INDEX_VERSION
from gitmem.store.keys import load_identity
from gitmem.store.layout import content_path
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

TRANSCRIPT = """\
We agreed: the cache lives in .git/gitmem/ and is never pushed.
Open question: does the parser handle port 137 correctly?
The deploy key rotation happens every Friday.
"""

ITEMS = [
    {
        "kind": "decision",
        "text": "Keep the cache in .git/gitmem",
        "trust": "verbatim",
        "quote": "the cache lives in .git/gitmem/ and is never pushed",
    },
    {"kind": "open_loop", "text": "Check the parser on port 137", "trust": "inferred"},
    {
        "kind": "fact",
        "text": "Deploy keys rotate weekly",
        "trust": "verbatim",
        "quote": "this sentence was never said in the session",
    },
]


def hits(gm: Any, *terms: str) -> dict[str, Any]:
    result = gm("recall", "--json", *terms)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert isinstance(document, dict)
    return document


def ids(document: dict[str, Any]) -> list[str]:
    return [h["id"] for h in document["hits"]]


def test_hits_carry_id_kind_text_trust_status_checkpoint_and_session(
    gm: Any, initialised: Path
) -> None:
    captured = capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    document = hits(gm, "cache")
    assert document["match"] == "all" and document["total"] == 1
    (hit,) = document["hits"]
    stored = captured["items"][0]
    assert hit["id"] == stored["id"] and hit["kind"] == "decision"
    assert hit["text"] == "Keep the cache in .git/gitmem"
    assert hit["quote"] == "the cache lives in .git/gitmem/ and is never pushed"
    assert hit["trust"] == "verbatim" and hit["status"] == "open"
    assert hit["epistemic"] == "REPORTED"
    assert hit["checkpoint"] == captured["checkpoint"] and hit["session"] == captured["session"]
    # A quote that failed at capture: effective trust inferred, no quote shown.
    (failed,) = hits(gm, "rotate")["hits"]
    assert failed["trust"] == "inferred" and failed["quote"] is None


def test_text_output_is_wrapped_and_recorded_in_the_ledger(gm: Any, initialised: Path) -> None:
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    result = gm("recall", "cache")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "<gitmem-context>" and lines[-1] == "</gitmem-context>"
    assert '[✓ verbatim] Keep the cache in .git/gitmem — "the cache lives in' in result.stdout
    assert "decision, open, REPORTED" in result.stdout
    emitted = Ledger(Store.discover(initialised).local_dir).load()
    assert fold("the cache lives in .git/gitmem/ and is never pushed") in emitted


def test_resolved_superseded_and_aged_items_are_found_and_marked(
    gm: Any, initialised: Path, home: Path
) -> None:
    captured = capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    cache, parser, keys = (i["id"] for i in captured["items"])
    assert gm("resolve", cache[:8], "--note", "done").exit_code == 0
    newer = capture_text(
        gm,
        initialised.parent / "s2.md",
        TRANSCRIPT,
        [{"kind": "fact", "text": "Keys rotate daily now"}],
    )
    assert gm("supersede", keys[:8], newer["items"][0]["id"][:8]).exit_code == 0
    store = Store.discover(initialised)
    extra = {"to": "STALE", "from": "INFERRED", "reason": "not seen again"}
    write_event(store, load_identity(home), EVENT_STATUS, parser, "s", datetime.now(UTC), extra)
    status = {h["id"]: h["status"] for h in hits(gm, "cache", "parser", "weekly")["hits"]}
    assert status == {cache: "resolved", parser: "stale", keys: "superseded"}
    epistemic = {h["id"]: h["epistemic"] for h in hits(gm, "parser")["hits"]}
    assert epistemic == {parser: "STALE"}


def test_forgotten_items_never_appear_not_even_their_id(gm: Any, initialised: Path) -> None:
    captured = capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    cache = captured["items"][0]["id"]
    assert hits(gm, "cache")["total"] == 1  # indexed before the tombstone
    assert gm("forget", cache[:8]).exit_code == 0
    assert hits(gm, "cache")["total"] == 0
    assert hits(gm, "pushed")["total"] == 0  # not through its quote either
    assert hits(gm, cache)["total"] == 0
    result = gm("recall", "cache", "gitmem", "never")
    assert cache[:8] not in result.stdout and "Keep the cache" not in result.stdout
    # Its words left the full-text table itself (its segments were merged), not only
    # the results; the item blob stays in the store until a purge (forget is reversible).
    with sqlite3.connect(Store.discover(initialised).local_dir / INDEX_FILE) as db:
        db.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, recall, row)")
        words = {term for (term,) in db.execute("SELECT term FROM temp.words")}
    assert "cach" not in words and "push" not in words  # porter stems
    assert "parser" in words  # the other items are still indexed


def test_the_index_follows_the_memory_ref(gm: Any, initialised: Path, home: Path) -> None:
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    store = Store.discover(initialised)
    first = recall(store, home, ["cache"])
    assert first.index.rebuilt and first.index.tip == store.tip()
    again = recall(store, home, ["cache"])
    assert not again.index.rebuilt  # same tip: the index is reused
    path = store.local_dir / INDEX_FILE
    with sqlite3.connect(path) as db:
        (key,) = db.execute("SELECT value FROM meta WHERE key = 'key'").fetchone()
    assert key == f"{INDEX_VERSION}\n{store.ref}\n{load_trust_roots(home, store).digest()}"
    capture_text(
        gm,
        initialised.parent / "s2.md",
        TRANSCRIPT,
        [{"kind": "belief", "text": "The cache survives a restart"}],
    )
    moved = recall(store, home, ["cache"])
    # The ref moved forward: the index was advanced by the new paths, not rebuilt.
    assert not moved.index.rebuilt and moved.index.tip == store.tip() and moved.total == 2


def test_an_unreadable_index_is_rebuilt(gm: Any, initialised: Path) -> None:
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    assert hits(gm, "cache")["total"] == 1
    (Store.discover(initialised).local_dir / INDEX_FILE).write_bytes(b"not a database")
    assert hits(gm, "cache")["total"] == 1


def test_no_hit_for_every_term_falls_back_to_any_and_says_so(gm: Any, initialised: Path) -> None:
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    document = hits(gm, "cache", "parser")
    assert document["match"] == "any" and document["total"] == 2
    assert "no item holds every term" in gm("recall", "cache", "parser").stdout
    assert hits(gm, "zeppelin")["match"] == "none"
    assert len(hits(gm, "cache", "parser", "--limit", "1")["hits"]) == 1
    # Terms are words: "37" does not match inside "137".
    assert hits(gm, "37")["total"] == 0 and hits(gm, "137")["total"] == 1


@pytest.mark.parametrize(
    ("term", "total"),
    [("NEAR(cache", 0), ("text:cache", 0), ("cache*", 1), ("-cache", 1), ("OR", 0), ("AND", 1)],
)
def test_query_syntax_in_terms_is_taken_literally(
    gm: Any, initialised: Path, term: str, total: int
) -> None:
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    # Each term is a quoted FTS5 string: its words, never operators, prefixes or columns.
    assert hits(gm, "--", term)["total"] == total


def test_fts_query_quotes_every_term() -> None:
    assert fts_query(['say "hi"', "NEAR"], "AND") == '"say ""hi""" AND "NEAR"'
    # A trailing star after a word is a prefix; any other star is literal.
    assert fts_query(["retr*", "*", 'a"*'], "OR") == '"retr"* OR "*" OR "a""*"'


def test_terms_are_stemmed_and_a_star_makes_a_prefix(gm: Any, initialised: Path) -> None:
    items = [{"kind": "fact", "text": "The client retries three times before failing"}]
    capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, items)
    assert hits(gm, "retry")["total"] == 1  # porter: retry ~ retries
    assert hits(gm, "retr*")["total"] == 1 and hits(gm, "fail*")["total"] == 1
    assert hits(gm, "retx*")["total"] == 0


def test_chinese_japanese_and_korean_words_are_found_inside_their_sentences(
    gm: Any, initialised: Path
) -> None:
    # The tokenizer takes a run of these characters as one token: "索引" was not found in
    # "给订单表添加索引", nor "PostgreSQL" in "我们决定使用PostgreSQL", nor "인덱스" in "인덱스를".
    said = (
        "我们决定使用PostgreSQL。\n给订单表添加索引。\n"
        "注文テーブルにインデックスを追加する。\n인덱스를 추가해야 합니다.\n"
    )
    items = [
        {"kind": "decision", "text": "我们决定使用PostgreSQL", "trust": "inferred"},
        {"kind": "open_loop", "text": "给订单表添加索引", "trust": "inferred"},
        {"kind": "open_loop", "text": "注文テーブルにインデックスを追加する", "trust": "inferred"},
        {"kind": "open_loop", "text": "인덱스를 추가해야 합니다", "trust": "inferred"},
    ]
    capture_text(gm, initialised.parent / "s1.md", said, items)
    texts = {h["text"] for h in hits(gm, "PostgreSQL")["hits"]}
    assert texts == {"我们决定使用PostgreSQL"}
    assert [h["text"] for h in hits(gm, "索引")["hits"]] == ["给订单表添加索引"]
    assert [h["text"] for h in hits(gm, "インデックス")["hits"]] == [items[2]["text"]]
    assert [h["text"] for h in hits(gm, "인덱스")["hits"]] == [items[3]["text"]]
    # A term is its characters in a row, not each of them anywhere.
    assert hits(gm, "引索")["total"] == 0
    assert fts_query(["索引", "idx*"], "AND") == '"索 引" AND "idx"*'


def test_a_warm_index_never_shows_an_edited_hit_as_verbatim(gm: Any, initialised: Path) -> None:
    captured = capture_text(gm, initialised.parent / "s1.md", TRANSCRIPT, ITEMS)
    (hit,) = hits(gm, "cache")["hits"]  # the index is warm now
    assert hit["trust"] == "verbatim" and hit["degraded"] is None
    store = Store.discover(initialised)
    # Swap the git object behind the item blob without moving the ref: the index has no
    # reason to look again, the check before showing does.
    overwrite_object(store, content_path("items", captured["items"][0]["id"]), b"cache", b"CACHE")
    (hit,) = hits(gm, "cache")["hits"]
    assert hit["trust"] == "untagged" and hit["quote"] is None
    assert "edited" in hit["degraded"] or "item" in hit["degraded"]


@pytest.mark.parametrize("args", [("!!",), ("cache", "--limit", "0")])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    gm: Any, initialised: Path, args: tuple[str, ...]
) -> None:
    result = gm("recall", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (Store.discover(initialised).local_dir / INDEX_FILE).exists()


def test_recall_outside_a_repository_is_exit_2(tmp_path: Path) -> None:
    from helpers import run

    result = run("-C", str(tmp_path), "recall", "cache")
    assert result.exit_code == 2 and "not a git repository" in result.stderr
