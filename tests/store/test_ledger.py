"""The emission ledger: an echo of gitmem's output, tags lost, still never counts."""

from __future__ import annotations

from pathlib import Path

from gitmem.capture.echoes import tag_echoes
from gitmem.core.quotes import ECHO_OPEN, check_quote, fold
from gitmem.core.transcript import Message
from gitmem.store.ledger import Ledger

QUOTE = "We drop the regex fallback; the state machine is the only tokenizer."


def test_record_folds_dedupes_and_skips_short_text(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    assert ledger.record([QUOTE, QUOTE.upper(), "ok", "two words"]) == 1
    assert ledger.record([QUOTE]) == 0
    assert list(ledger.load()) == [
        "we drop the regex fallback; the state machine is the only tokenizer."
    ]


def test_an_untagged_echo_is_wrapped_and_cannot_verify(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    ledger.record([QUOTE])
    echo = Message("assistant", f"As the brief said:\n- [✓ verbatim] “{QUOTE}”\nMoving on.")
    assert check_quote(QUOTE, [echo.text]).verbatim  # without the ledger it would pass
    (tagged,), count = tag_echoes([echo], ledger.load(), None)
    assert count == 1 and ECHO_OPEN in tagged.text
    assert "Moving on." in tagged.text and "As the brief said:" in tagged.text
    result = check_quote(QUOTE, [tagged.text])
    assert not result.verbatim and "gitmem" in result.reason


def test_transcripts_written_before_the_emission_are_untouched(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    ledger.record([QUOTE])
    (emitted_at,) = ledger.load().values()
    original = [Message("user", QUOTE)]
    messages, count = tag_echoes(original, ledger.load(), emitted_at - 3600)
    assert count == 0 and messages == original


def test_unrelated_text_is_left_alone(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    ledger.record([QUOTE])
    text = "We drop the regex engine entirely.\nThe state machine is fine."
    (message,), count = tag_echoes([Message(None, text)], ledger.load(), None)
    assert count == 0 and message.text == text


def test_a_corrupt_ledger_line_is_skipped(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    ledger.record([QUOTE])
    with ledger.path.open("a") as handle:
        handle.write("not json\n[1, 2]\n")
    assert len(ledger.load()) == 1


def test_a_text_is_written_once_however_often_it_is_shown(tmp_path: Path) -> None:
    """Texts with commas, quotes, backslashes and non-ASCII letters, recorded at every
    brief: each line once, each read back as it was folded."""
    ledger = Ledger(tmp_path)
    texts = [
        'Keep "retries", then back off, then fail',
        "Paths like C:\\temp\\x, are Windows-only, sadly",
        "Café façade naïve, résumé — déjà vu",
        "Ends with a comma and a space, ",
    ]
    assert ledger.record(texts) == 4
    for _ in range(3):
        assert ledger.record([*texts, texts[0].upper()]) == 0
    lines = ledger.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    assert set(ledger.load()) == {fold(t) for t in texts}


def test_the_same_brief_again_trusts_its_mark_only_while_the_ledger_is_unchanged(
    tmp_path: Path,
) -> None:
    """Recording what the last brief showed reads nothing (the mark says it is there);
    once the ledger is rewritten (a purge's scrub, a compaction) or deleted, the mark no
    longer holds and the texts are looked for, and written, again."""
    from gitmem.store.files import atomic_write

    ledger = Ledger(tmp_path)
    texts = [QUOTE, "Keep the parser in src/parser.py for now"]
    assert ledger.record(texts) == 2
    assert ledger.record(texts) == 0
    lines = ledger.path.read_bytes().splitlines(True)
    atomic_write(ledger.path, b"".join(lines[1:]), 0o644)  # one line scrubbed away
    assert ledger.record(texts) == 1 and len(ledger.load()) == 2
    ledger.path.unlink()
    assert ledger.record(texts) == 2 and len(ledger.load()) == 2
    assert QUOTE not in (tmp_path / "emitted.last").read_text()  # a digest, never the text
