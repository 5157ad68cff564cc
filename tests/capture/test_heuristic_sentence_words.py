"""A sentence's words are cut once for the trigger test and the marker search
(markers.sentence_words): given them, both answer as they do reading the sentence."""

from __future__ import annotations

import pytest

from gitmem.capture.extract.heuristic.markers import find_marker, is_triggered, sentence_words

SENTENCES = [
    "**Decision:** we keep `requests` for the importer.",
    "TODO: wire the retry queue.",
    "No, that's not what I asked. Nope.",
    "Let's go with SQLite, not Postgres.",
    "I'm not sure the cache survives a restart?",
    "Should we drop httpx?",
    "Next step: run the k6 script before the release.",
    "Entscheidung: wir behalten den Cache.",
    "决定：我们使用缓存模块。",
    "PR #12 is merged.",
    "The build passed in 3 minutes.",
    "",
]


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("by_user", [False, True])
def test_the_words_cut_once_give_the_same_answers(sentence: str, by_user: bool) -> None:
    read = sentence_words(sentence)
    assert is_triggered(sentence, read) == is_triggered(sentence)
    assert find_marker(sentence, by_user, read) == find_marker(sentence, by_user)


def test_some_sentences_are_marked_and_some_are_not() -> None:
    marked = [s for s in SENTENCES if find_marker(s, False, sentence_words(s)) is not None]
    assert "TODO: wire the retry queue." in marked
    assert "The build passed in 3 minutes." not in marked
