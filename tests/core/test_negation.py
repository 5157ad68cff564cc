"""Tests for gitmem.core.negation: negation words and polarity."""

from __future__ import annotations

import pytest

from gitmem.core.negation import negations, polarity_conflict

WORDS = [
    *("not", "never", "no", "none", "nobody", "nothing", "nowhere", "neither", "nor"),
    *("without", "cannot", "don't", "won't", "isn't", "shouldn't", "dont", "cant"),
]


@pytest.mark.parametrize("word", WORDS)
def test_each_negation_word_is_found(word: str) -> None:
    assert negations(f"we {word} deploy") == [word]


def test_negations_are_found_after_folding() -> None:
    assert negations("We **DON’T** deploy, and NEVER on `Fridays`") == ["don't", "never"]


@pytest.mark.parametrize("text", ["knot notable", "nonetheless", "snow", "nothingness", "Nordic"])
def test_words_that_only_contain_a_negation_are_not_negations(text: str) -> None:
    assert negations(text) == []


def test_polarity_conflict_when_the_quote_negates_and_the_text_does_not() -> None:
    reason = polarity_conflict("We deploy on Fridays", "we will not deploy on Fridays")
    assert reason == 'the quote says "not" but the item\'s text has no negation'


def test_polarity_conflict_when_the_text_negates_and_the_quote_does_not() -> None:
    reason = polarity_conflict("Never deploy on Fridays", "deploy on Fridays")
    assert reason == 'the item\'s text says "never" but its quote has no negation'


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("No deploys on Fridays", "we will not deploy on Fridays"),
        ("Deploys happen on Fridays", "we deploy on Fridays"),
        ("We don’t deploy on Fridays", "We do NOT deploy… on Fridays"),
    ],
)
def test_polarity_agrees(text: str, quote: str) -> None:
    assert polarity_conflict(text, quote) is None


def test_leaving_out_a_negated_clause_is_a_summary_not_a_reversal() -> None:
    quote = "the cache lives in .git/gitmem/ and is never pushed"
    assert polarity_conflict("Keep the cache in .git/gitmem", quote) is None
    assert polarity_conflict("The cache is pushed", quote) is not None


@pytest.mark.parametrize(
    "quote",
    [
        "I'm not sure the depth counter handles unterminated ${ at end of file",
        "we don't know yet whether the depth counter handles it",
        "no idea if the depth counter handles unterminated ${",
    ],
)
def test_a_hedge_is_not_a_negation(quote: str) -> None:
    text = "Unterminated ${ may break the depth counter"
    assert polarity_conflict(text, quote) is None


def test_a_text_that_adds_a_prohibition_its_quote_reverses_is_a_conflict() -> None:
    reason = polarity_conflict("Do not merge PR #214 before review", "merge PR #214 now")
    assert reason == 'the item\'s text says "not" but its quote has no negation'


FOREIGN = [
    *("pas", "jamais", "rien", "nicht", "kein", "keine", "nie", "niemals", "ohne", "nunca"),
    *("nada", "não", "nem", "non", "mai", "senza", "niet", "geen", "nooit", "не", "нет"),
    *("никогда", "без", "hardly", "barely"),
]


@pytest.mark.parametrize("word", FOREIGN)
def test_a_negation_of_another_language_is_found(word: str) -> None:
    assert negations(f"we {word} deploy") != []


@pytest.mark.parametrize(
    "text",
    [
        "我们周五不部署",
        "我们周五没有部署",
        "金曜日にはデプロイしない",
        "금요일에는 배포하지 않는다",
    ],
)
def test_a_negation_in_a_language_without_spaces_is_found(text: str) -> None:
    assert negations(text) != []


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("On ne déploie pas le vendredi", "on déploie le vendredi"),
        ("Wir deployen nicht am Freitag", "wir deployen am Freitag"),
        ("Мы не деплоим по пятницам", "мы деплоим по пятницам"),
        ("Non facciamo il deploy di venerdì", "facciamo il deploy di venerdì"),
    ],
)
def test_polarity_conflict_in_another_language(text: str, quote: str) -> None:
    assert polarity_conflict(text, quote) is not None
    assert polarity_conflict(quote, text) is not None


def test_a_russian_negation_is_not_the_english_he() -> None:
    assert negations("he said we deploy") == []
    assert negations("HE said we deploy") == []


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("我们周五部署到生产环境", "我们周五不部署到生产环境"),
        ("金曜日にデプロイする", "金曜日にはデプロイしない"),
    ],
)
def test_a_text_that_drops_an_unspaced_negation_reverses_its_quote(text: str, quote: str) -> None:
    assert polarity_conflict(text, quote) is not None


def test_an_unspaced_negation_of_another_clause_is_left_out() -> None:
    assert polarity_conflict("我们周五部署", "我们周五部署，不在周一") is None


@pytest.mark.parametrize(
    "text",
    [
        "Nu facem deploy vineri",  # Romanian
        "NU facem deploy vineri",
        "Emme deployaa perjantaisin",  # Finnish "we do not"
        "Ette deployaa perjantaisin",  # "you (plural) do not"
        # "en", "et" ("I", "you do not") in a text that reads as Finnish
        "En deployaa perjantaisin, koska tämä on riski",
        "Et deployaa perjantaisin: myös tämä on riski",
    ],
)
def test_a_romanian_or_finnish_negation_is_found(text: str) -> None:
    assert negations(text) != []


@pytest.mark.parametrize(
    "text",
    [
        "Set the locale to en-US and ship",  # a locale
        "Smith et al. measured the deploys",  # Latin
        "Nous déployons en production et en staging",  # French
        "Nous avons essayé en vain et en retard",
        "Desplegamos en producción los viernes",  # Spanish
        "We bouwen en testen de parser",  # Dutch
        "Vi använder en cache för parsern",  # Swedish
    ],
)
def test_en_and_et_of_other_languages_are_no_negations(text: str) -> None:
    assert negations(text) == []


def test_a_finnish_negation_reverses_its_quote() -> None:
    quote = "en deployaa perjantaisin, koska tämä on riski"
    assert polarity_conflict("deployaa perjantaisin", quote) is not None
