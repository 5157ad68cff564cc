"""The corpus scorer (benchmarks/extract_quality.py) matches and counts by LABELLING.md."""

from __future__ import annotations

import json

import pytest
from helpers import benchmark

from gitmem.core.items import Item, Kind, Trust

EQ = benchmark("extract_quality")


def label(quote: str, importance: int = 2) -> object:
    return EQ.Label("decision", importance, quote, "", EQ.norm(quote), EQ.words(quote))


def item(quote: str | None, text: str = "x", trust: Trust = Trust.VERBATIM) -> Item:
    return Item(
        kind=Kind.DECISION, text=text, trust=trust, origin_session="s", snapshot="0" * 64,
        quote=quote, quote_verified=quote is not None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("side", "quote", "found"),
    [
        ("We keep **the index** in `SQLite` for now.", "keep the index in SQLite", True),
        ("We keep the index in SQLitex for now.", "keep the index in SQLite", False),
        ("the index in SQLite", "We keep the index in SQLite for now.", True),
        ("in SQLite", "We keep the index in SQLite for now.", False),
        ("We keep the cache index in SQLite", "keep the index in SQLite", True),
        ("We drop the JSON cache entirely", "keep the index in SQLite", False),
        ("It’s “done”", 'it\'s "done"', True),
    ],
)
def test_the_matching_rule(side: str, quote: str, found: bool) -> None:
    assert EQ.matches([side], label(quote)) is found


def test_a_second_item_on_a_credited_label_is_noise_and_recall_counts_importance_two() -> None:
    labels = [label("keep the index in SQLite"), label("drop the JSON cache", importance=1)]
    items = [item("keep the index in SQLite"), item("we keep the index in SQLite for now")]
    assert len(EQ.credit(items, labels)) == 1
    both = [item("keep the index in SQLite"), item("drop the JSON cache")]
    assert EQ.credit(both, labels) == {0: 0, 1: 1}


def test_false_verbatim() -> None:
    texts = ["We keep the index in SQLite. Retry 3 times."]
    assert EQ.false_verbatim(item("keep the index in SQLite", "Keep the index"), texts) is None
    assert EQ.false_verbatim(item("keep the index in Postgres"), texts) is not None
    assert EQ.false_verbatim(item("Retry 3 times", "Retry 5 times"), texts) is not None
    assert EQ.false_verbatim(item("Retry 3 times", "Never retry"), texts) is not None
    hedged = item("keep the index in SQLite", "Index choice (SQLite / Postgres / not sure): SQLite")
    assert EQ.false_verbatim(hedged, texts) is None  # a hedge is an option, not a negation
    assert EQ.false_verbatim(item("keep the index in SQLite", "Not sure: no SQLite"), texts)
    inferred = item(None, "Retry 5 times", trust=Trust.INFERRED)
    assert EQ.false_verbatim(inferred, texts) is None


def test_every_transcript_has_its_repository_and_the_development_ones_are_the_dev_split() -> None:
    # The per-repository rows (leave-one-repository-out) need every file's repository.
    repos = EQ.repositories()
    split = json.loads((EQ.CORPUS / "corpus" / "split.json").read_text(encoding="utf-8"))
    own = [*EQ.CORPUS.glob("*.jsonl"), *(EQ.CORPUS / "holdout").glob("*.jsonl")]
    assert own and {repos[p.name.removesuffix(".jsonl")] for p in own} <= set(split["dev"])
    manifest = json.loads((EQ.CORPUS / "corpus" / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        assert repos[entry["name"].removesuffix(".jsonl")] in split[entry["split"]]


def test_the_two_dev_folds_split_the_development_repositories() -> None:
    # A rule written on one fold is checked on the other: together they are the dev split,
    # and no repository is in both (or in the test split).
    split = json.loads((EQ.CORPUS / "corpus" / "split.json").read_text(encoding="utf-8"))
    a, b = (set(EQ.DEV_FOLDS[half]) for half in "AB")
    assert a | b == set(split["dev"]) and not a & b


@pytest.mark.parametrize(
    ("argv", "code", "said"),
    [
        (["--help"], 0, "python benchmarks/extract_quality.py [-v]"),
        (["--bogus"], 2, "extract_quality: unknown option --bogus"),
        (["no-such.jsonl"], 2, "extract_quality: no such file: no-such.jsonl"),
        (["--dev-fold", "C"], 2, "extract_quality: --dev-fold takes A or B"),
    ],
)
def test_its_arguments_are_read_without_a_traceback(
    argv: list[str], code: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert EQ.main(argv) == code
    out, err = capsys.readouterr()
    if code == 0:
        assert said in out and not err
    else:
        assert err.strip() == said and "labels" not in out  # nothing scored
