"""`gitmem purge` attacked: a text in a quote, a snapshot and an event at once; an id
that is not stored; a purge run twice; a capture after a purge; gitmem's own words and
earlier purge events, which no purge by text may match; input that is not text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Gm, git
from helpers.capturing import brief_items, capture_text, decision
from helpers.grep import SECRET, all_objects, files_holding

from gitmem.store.repo import MEMORY_REF, Store

PROSE = f"Alice said: the staging password is {SECRET} for now.\nBob said: keep the cache local.\n"


@pytest.fixture
def stored(gm: Gm, initialised: Path, tmp_path: Path) -> dict[str, str]:
    """SECRET in the transcript, in one item's quote only (not its text), and in a note
    on the other item (an event); the ledger holds both items after a brief."""
    done = capture_text(
        gm,
        tmp_path / "one.md",
        PROSE,
        [
            decision("Staging password set", f"the staging password is {SECRET} for now"),
            decision("Keep cache local", "keep the cache local"),
        ],
    )
    ids = {i["text"]: i["id"] for i in done["items"]}
    noted = gm("note", ids["Keep cache local"][:8], f"unrelated: {SECRET} rotates monthly")
    assert noted.exit_code == 0, noted.stderr
    assert gm("brief").exit_code == 0
    return {"secret": ids["Staging password set"], "kept": ids["Keep cache local"]}


def verified(gm: Gm) -> None:
    report: Any = gm("verify", "--json").json()
    assert report["ok"] and report["problems"] == [] and report["untrusted"] == [], report


def nowhere(repo: Path, text: str) -> None:
    """*text* is in no object git holds and in no file under .git (packs, reflogs, the
    index, the ledger, the capture log)."""
    assert text.encode() not in all_objects(repo)
    assert files_holding(repo / ".git", text.encode()) == []


def test_a_text_in_a_quote_a_snapshot_and_an_event_goes_from_all_of_them(
    gm: Gm, initialised: Path, stored: dict[str, str]
) -> None:
    assert files_holding(initialised / ".git" / "gitmem", SECRET.encode())
    result: Any = gm("purge", "--text", SECRET, "--yes", "--gc", "--json").json()
    assert result["items"] == [stored["secret"]]  # its quote held it, its text did not
    assert len(result["snapshots"]) == 1 and len(result["records"]) == 1  # the note
    nowhere(initialised, SECRET)
    verified(gm)
    kept = brief_items(gm, "id", "--budget", "0")
    assert list(kept) == [stored["kept"]] and kept[stored["kept"]]["trust"] == "verbatim"
    shown = gm("show", stored["kept"][:8]).stdout
    assert "rotates monthly" not in shown and "[purged]" not in shown
    git(initialised, "fsck", "--strict", "--no-dangling")


def test_a_purge_by_id_leaves_no_byte_of_the_item(
    gm: Gm, initialised: Path, stored: dict[str, str]
) -> None:
    """The item's own words (its text is nowhere in the transcript) and its blob go; what
    the transcript said stays in the snapshot: that is what --text is for."""
    blob = git(initialised, "rev-parse", f"{MEMORY_REF}:items/{stored['secret'][:2]}").strip()
    oid = git(initialised, "rev-parse", f"{blob}:{stored['secret'][2:]}.json").strip()
    assert b"Staging password set" in all_objects(initialised)
    done = gm("purge", stored["secret"], "--yes", "--gc", "--json")
    assert done.exit_code == 0, done.stderr
    nowhere(initialised, "Staging password set")
    gone = git(initialised, "cat-file", "--batch-check", "--batch-all-objects")
    assert oid not in gone
    verified(gm)
    assert list(brief_items(gm, "id", "--budget", "0")) == [stored["kept"]]


def test_an_unknown_id_and_a_second_purge_write_nothing(
    gm: Gm, initialised: Path, stored: dict[str, str]
) -> None:
    first = gm("purge", "--text", SECRET, "--yes")
    assert first.exit_code == 0, first.stderr
    store = Store.discover(initialised)
    tip, ledger = store.tip(), (store.local_dir / "emitted.jsonl").read_bytes()
    reflog = git(initialised, "reflog", "show", MEMORY_REF)
    for args, code, message in (
        (("0" * 64,), 2, "no item 0000000000000000"),
        ((stored["kept"][:8], stored["secret"][:8]), 2, "already [purged by"),
        ((stored["secret"],), 2, "already [purged by"),
        (("--text", SECRET), 1, "holds that text"),
    ):
        done = gm("purge", *args, "--yes")
        assert done.exit_code == code and message in done.stderr, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert store.tip() == tip and (store.local_dir / "emitted.jsonl").read_bytes() == ledger
    assert git(initialised, "reflog", "show", MEMORY_REF) == reflog
    assert stored["kept"] in brief_items(gm, "id", "--budget", "0")


def test_no_purge_by_text_matches_the_signer_gitmems_words_or_a_purge_event(
    gm: Gm, initialised: Path, stored: dict[str, str]
) -> None:
    """Every record names its writer, a note its session "human", a purge event its
    writer and the commit before it: none of that is what was said. A purge by text that
    matched it would remove every record of a writer, or the purge events readers and
    sync go by."""
    event = gm("purge", stored["secret"][:8], "--yes", "--json").json()["event"]  # type: ignore[index]
    principal = gm("status", "--json").json()["key"]["principal"]  # type: ignore[index]
    for words in (principal, principal.split("@")[0], "example.com", "human", "purge", "how"):
        done = gm("purge", "--text", words, "--yes")
        assert done.exit_code == 1 and "holds that text" in done.stderr, (words, done.stderr)
    assert gm("show", stored["secret"][:8], "--json").json()["event"] == event  # type: ignore[index]
    verified(gm)


def test_capture_after_a_purge_and_a_transcript_that_still_holds_the_text(
    gm: Gm, initialised: Path, stored: dict[str, str], tmp_path: Path
) -> None:
    """A capture after a purge carries nothing purged. Capturing the same transcript
    with nothing new writes nothing, so the text stays gone; a capture of it that adds an
    item stores it again (the purge warns of it); purging it again removes it again, and
    everything keeps verifying."""
    done = gm("purge", "--text", SECRET, "--yes")
    assert done.exit_code == 0 and "transcript" in done.stdout, done.stdout
    later = capture_text(
        gm,
        tmp_path / "two.md",
        "Carol said: the parser ships friday.\n",
        [decision("Parser ships Friday", "the parser ships friday")],
    )
    shown = brief_items(gm, "id", "--budget", "0")
    assert set(shown) == {stored["kept"], later["items"][0]["id"]}
    assert SECRET.encode() not in git(initialised, "log", "-p", MEMORY_REF).encode()
    verified(gm)

    same = capture_text(
        gm, tmp_path / "one.md", PROSE, [decision("Keep cache local", "keep the cache local")]
    )
    assert same["written"] is False  # nothing new: the session's text is not stored again
    assert SECRET.encode() not in git(initialised, "log", "-p", MEMORY_REF).encode()
    again = capture_text(
        gm,
        tmp_path / "one.md",
        PROSE,
        [{"kind": "open_loop", "text": "Rotate the staging password"}],
    )
    assert again["written"] and again["items"][0]["id"] != stored["kept"]
    assert SECRET.encode() in git(initialised, "log", "-p", MEMORY_REF).encode()
    verified(gm)
    second: Any = gm("purge", "--text", SECRET, "--yes", "--gc", "--json").json()
    assert second["snapshots"] and second["items"] == []
    nowhere(initialised, SECRET)
    verified(gm)
    shown = brief_items(gm, "id", "--budget", "0")
    assert shown[stored["kept"]]["trust"] == "verbatim"
    assert set(shown) == {stored["kept"], later["items"][0]["id"], again["items"][0]["id"]}


def test_text_that_is_not_utf8_is_refused_in_one_line(
    gm: Gm, initialised: Path, stored: dict[str, str]
) -> None:
    tip = Store.discover(initialised).tip()
    done = gm("purge", "--text", "pass\udcff", "--yes")  # what Python makes of a stray byte
    assert done.exit_code == 2 and "valid UTF-8" in done.stderr and done.stderr.count("\n") == 1
    assert Store.discover(initialised).tip() == tip
