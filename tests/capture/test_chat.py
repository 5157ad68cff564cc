"""Chat exports approved by a person: import-chat, the audit, and the pending commands.

Everything runs for real: the CLI in-process, git in a temp repository, the extractor
and audit models as subprocesses (scripts in tests/fakes/).
"""

from __future__ import annotations

import itertools
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS, Gm, git

from gitmem.capture.chat.export import parse_export
from gitmem.capture.chat.voices import settle_voices
from gitmem.store.repo import MEMORY_REF

EXPORT = TESTS / "data" / "chat" / "telegram_export.json"
SECRET = "AKIAIOSFODNN7EXAMPLQ"
CHAT_MODEL = shlex.join([sys.executable, str(TESTS / "fakes" / "chat_model.py")])
AUDIT_MODEL = shlex.join([sys.executable, str(TESTS / "fakes" / "audit_model.py")])


def ok(gm: Gm, *args: str) -> Any:
    result = gm(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.json() if "--json" in args else result


def pending_dir(repo: Path) -> Path:
    return repo / ".git" / "gitmem" / "pending"


def every_object(repo: Path) -> bytes:
    """The bytes of every object in the repository (loose or packed)."""
    listed = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
    done = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        input=listed.encode(),
        capture_output=True,
        check=True,
    )
    return done.stdout


def stored_items(repo: Path) -> dict[str, dict[str, Any]]:
    """Every item blob stored, by address."""
    found = {}
    for path in git(repo, "ls-tree", "-r", "--name-only", MEMORY_REF).split():
        if path.startswith("items/"):
            address = path.removeprefix("items/").replace("/", "").removesuffix(".json")
            found[address] = json.loads(git(repo, "cat-file", "blob", f"{MEMORY_REF}:{path}"))
    return found


def by_text(proposed: list[dict[str, Any]], needle: str) -> dict[str, Any]:
    (found,) = [p for p in proposed if needle in p["text"]]
    return found


# --- reading the export ---------------------------------------------------------------


def test_a_telegram_export_is_read_with_entities_voices_dates_and_skips() -> None:
    export = parse_export(EXPORT.read_bytes(), EXPORT.name)
    assert export.format == "telegram"
    assert dict(export.skipped) == {"service": 2, "media": 2, "forwarded": 1, "empty": 0}
    texts = [m.text for m in export.messages]
    assert texts[0] == (
        "Decision: we take the flat on Via Roma from March. Photos: https://example.com/flat"
    )
    assert texts[-1] == "Let's keep the moving date on the 1st of March, agreed?"
    assert not any("agency" in t for t in texts)  # forwarded: someone else's words
    chat = settle_voices(export, None)  # a personal chat names the other person
    assert chat.voices() == ["me", "Alice Smith"]
    assert [chat.voice(i) for i in range(5)] == ["Alice Smith", "me", "Alice Smith", "me", "me"]
    assert chat.said_at(0) == "2026-01-01T10:00:00Z"  # from date_unixtime, in UTC
    snapshot = [json.loads(line) for line in chat.transcript.snapshot.splitlines()]
    assert snapshot[1] == {
        "role": "me",
        "text": "Great. TODO: I send the deposit to the landlord by Friday.",
    }


def test_who_is_me_must_be_known(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    group = json.loads(EXPORT.read_text())
    group["type"] = "private_group"
    path = tmp_path / "group.json"
    path.write_text(json.dumps(group))
    result = gm("import-chat", str(path))
    assert result.exit_code == 2
    assert "cannot tell which participant" in result.stderr
    assert "Alice Smith, Bob Jones" in result.stderr and "--me" in result.stderr
    assert gm("import-chat", str(path), "--me", "Carol").exit_code == 2
    assert not pending_dir(initialised).exists()
    data = ok(gm, "import-chat", str(path), "--me", "Alice Smith", "--json")
    assert data["me"] == "Alice Smith" and data["voices"] == ["me", "Bob Jones"]
    assert by_text(data["proposed"], "deposit")["voice"] == "Bob Jones"


def test_a_participants_name_cannot_write_into_the_terminal(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    # A name is the export's: ESC and BEL (set the title, clear the screen) and a line
    # break went to the terminal as they came, in the error and in the summary.
    group = json.loads(EXPORT.read_text())
    group["type"] = "private_group"
    hostile = 'Alice\x1b]0;owned\x07\x1b[2J\n- [✓ verbatim] "x"'
    for message in group["messages"]:
        if message.get("from") == "Alice Smith":
            message["from"] = hostile
    path = tmp_path / "group.json"
    path.write_text(json.dumps(group))
    refused = gm("import-chat", str(path))
    assert refused.exit_code == 2 and "cannot tell which participant" in refused.stderr
    assert refused.stderr.count("\n") == 1 and "\x1b" not in refused.stderr
    assert "\\x1b]0;owned\\x07" in refused.stderr  # shown as written, escaped
    done = gm("import-chat", str(path), "--me", "Bob Jones")
    assert done.exit_code == 0, done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert not [line for line in done.stdout.splitlines() if line.startswith("- [")]


@pytest.mark.parametrize(
    "content",
    [
        '{"messages": [{"from": "Ann", "text": "We use Postgres"}, {"from": "Bo", "text": "ok"}]}',
        '{"messages": [{"role": "user", "content": "We use Postgres"}]}',
    ],
)
def test_telegram_asked_of_another_export_says_it_is_not_one(
    initialised: Path, gm: Gm, tmp_path: Path, content: str
) -> None:
    path = tmp_path / "chat.json"
    path.write_text(content)
    result = gm("import-chat", str(path), "--format", "telegram")
    assert result.exit_code == 2, result.stderr
    assert "chat.json is not a Telegram chat export" in result.stderr
    assert "--format generic" in result.stderr and result.stderr.count("\n") == 1
    assert not pending_dir(initialised).exists()


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("not json", "is not valid JSON"),
        ('{"chats": {"list": []}}', "whole-account Telegram export"),
        ('{"type": "personal_chat", "messages": [{"type": "message", "text": 5}]}', "message 1"),
        ('[{"from": "Ann", "text": "hi", "date": "yesterday"}]', "not ISO 8601"),
        ('{"type": "personal_chat", "messages": []}', "holds no message"),
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        (
            '{"type": "personal_chat", "messages": [{"type": "message", "from": "Ann",'
            ' "date_unixtime": "99999999999999999999", "text": "hi"}]}',
            "date_unixtime out of range",
        ),
    ],
)
def test_a_bad_export_exits_2_and_writes_nothing(
    initialised: Path, gm: Gm, tmp_path: Path, content: str, error: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = gm("import-chat", str(path), "--me", "Ann")
    assert result.exit_code == 2, result.stderr
    assert error in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    assert not pending_dir(initialised).exists()


def test_the_generic_format(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    messages = [
        {"from": "Ann", "date": "2026-02-01T09:00:00+01:00", "text": "TODO: book the venue."},
        {"from": "Ben", "date": "2026-02-01T09:05:00", "text": "Decision: we go with June."},
    ]
    path.write_text(json.dumps({"me": "Ann", "messages": messages}))
    data = ok(gm, "import-chat", str(path), "--format", "generic", "--json")
    assert data["format"] == "chat" and data["voices"] == ["me", "Ben"]
    venue = by_text(data["proposed"], "venue")
    assert venue["voice"] == "me" and venue["said_at"] == "2026-02-01T08:00:00Z"
    june = by_text(data["proposed"], "June")
    # No zone in the export: the date is kept as written, never guessed at.
    assert june["said_at"] == "2026-02-01T09:05:00" and june["text"].startswith("Ben: ")


# --- import, audit, approve, reject -----------------------------------------------------


def test_heuristic_import_stages_attributed_items_and_stores_nothing(
    initialised: Path, gm: Gm
) -> None:
    data = ok(gm, "import-chat", str(EXPORT), "--json")
    assert data["messages"] == 5 and data["masked"] == 1 and data["extractor"] == "heuristic"
    assert data["skipped"] == {"service": 2, "media": 2, "forwarded": 1, "empty": 0}
    deposit = by_text(data["proposed"], "deposit")
    assert deposit["voice"] == "me" and deposit["said_at"] == "2026-01-01T10:01:00Z"
    assert deposit["trust"] == "verbatim" and deposit["audit"] is None
    flat = by_text(data["proposed"], "Via Roma")
    assert flat["voice"] == "Alice Smith" and flat["text"].startswith("Alice Smith: ")
    assert git(initialised, "for-each-ref", "refs/gitmem/") == ""  # staged, not stored
    (staged,) = pending_dir(initialised).glob("*.json")
    assert SECRET not in staged.read_text() and "[redacted:" in staged.read_text()
    listed = ok(gm, "pending", "list", "--json")
    assert {p["id"] for p in listed} == {p["id"] for p in data["proposed"]}


def test_model_proposals_are_checked_in_their_own_message_and_audited(
    initialised: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "audit-seen.txt"
    monkeypatch.setenv("AUDIT_SEEN", str(seen))
    data = ok(
        gm,
        "import-chat",
        str(EXPORT),
        "--extractor",
        "command",
        "--command",
        CHAT_MODEL,
        "--audit-command",
        AUDIT_MODEL,
        "--json",
    )
    proposed = data["proposed"]
    deposit = by_text(proposed, "deposit")
    assert deposit["trust"] == "verbatim" and deposit["voice"] == "me"
    assert deposit["audit"] == {"verdict": "keep", "reason": "the quote states the promise"}
    # Alice's words proposed as mine: found, but not in its own message, so inferred.
    roma = by_text(proposed, "Via Roma")
    assert roma["trust"] == "inferred" and roma["quote"] is None and roma["voice"] == "me"
    assert "not in its own message 4" in roma["quote_reason"]
    assert roma["unverified_quote"] == "we take the flat on Via Roma from March"
    assert roma["audit"]["verdict"] == "drop" and roma["held"]
    cats = by_text(proposed, "hates cats")
    assert cats["trust"] == "inferred" and "not found" in cats["quote_reason"]
    assert cats["audit"]["verdict"] == "unsure" and cats["held"]
    chose = by_text(proposed, "chose")
    assert (
        chose["audit"]["verdict"] == "failed"
        and "model output rejected" in (chose["audit"]["reason"])
    )
    assert data["audit"] == {"keep": 1, "drop": 1, "unsure": 1, "failed": 1}
    # The auditor saw each item with its quote only: never the chat around it.
    prompts = seen.read_text().split("\n=====\n")[:-1]
    assert len(prompts) == 4
    (about_deposit,) = [p for p in prompts if "deposit" in p]
    assert "Via Roma" not in about_deposit and "moving date" not in about_deposit
    assert "checked word for word" in about_deposit and "Said by: me" in about_deposit
    (about_roma,) = [p for p in prompts if "Via Roma" in p]
    assert "NOT found word for word" in about_roma

    # --all approves only what the audit kept; the rest is shown, never silently kept.
    approved = ok(gm, "pending", "approve", "--all", "--json")
    (checkpoint,) = approved["checkpoints"]
    assert [i["text"] for i in checkpoint["items"]] == [deposit["text"]]  # ids: staged vs stored
    assert {h["id"] for h in approved["held"]} == {roma["id"], cats["id"], chose["id"]}
    (stored_deposit,) = stored_items(initialised).values()
    assert stored_deposit["text"] == deposit["text"] and stored_deposit["voice"] == "me"
    assert stored_deposit["said_at"] == "2026-01-01T10:01:00Z"
    # A held item is approved only by its id, and keeps its inferred class.
    second = ok(gm, "pending", "approve", cats["id"][:8], "--json")
    (stored,) = second["checkpoints"][0]["items"]
    assert {k: stored[k] for k in ("text", "trust", "voice")} == {
        "text": cats["text"],
        "trust": "inferred",
        "voice": "Alice Smith",
    }
    assert stored_items(initialised)[stored["id"]]["unverified_quote"] == (
        "the landlord hates cats in the flat"
    )
    assert {p["id"] for p in ok(gm, "pending", "list", "--json")} == {roma["id"], chose["id"]}


def test_approval_writes_one_signed_checkpoint_over_the_masked_snapshot(
    initialised: Path, gm: Gm
) -> None:
    data = ok(gm, "import-chat", str(EXPORT), "--json")
    approved = ok(gm, "pending", "approve", "--all", "--json")
    (written,) = approved["checkpoints"]
    assert len(written["items"]) == len(data["proposed"])
    assert written["session"] == data["session"]
    assert not list(pending_dir(initialised).glob("*.json"))
    log = ok(gm, "log", "--json")
    assert [e["type"] for e in log] == ["checkpoint"]  # one record for the import
    address = written["checkpoint"]
    path = f"{MEMORY_REF}:checkpoints/{address[:2]}/{address[2:]}.json"
    record = json.loads(git(initialised, "cat-file", "blob", path))
    assert record["source"]["format"] == "telegram"
    assert record["source"]["name"] == EXPORT.name
    snapshot = gm("snapshot", "show", address).stdout
    assert SECRET not in snapshot and '"role":"Alice Smith"' in snapshot
    assert SECRET.encode() not in every_object(initialised)
    assert ok(gm, "verify").exit_code == 0
    brief = ok(gm, "brief", "--format", "json").stdout
    badges = {i["text"]: i["trust"] for i in json.loads(brief)["items"]}
    assert (
        badges[
            "Alice Smith: We take the flat on Via Roma from March. Photos: https://example.com/flat"
        ]
        == "verbatim"
    )


def test_reject_leaves_nothing_behind(initialised: Path, gm: Gm) -> None:
    data = ok(gm, "import-chat", str(EXPORT), "--json")
    ids = [p["id"] for p in data["proposed"]]
    ok(gm, "pending", "reject", ids[0])
    (staged,) = pending_dir(initialised).glob("*.json")
    assert ids[0] not in staged.read_text()
    rejected = ok(gm, "pending", "reject", *ids[1:], "--json")
    assert rejected == {"rejected": ids[1:]}
    assert list(pending_dir(initialised).iterdir()) == []
    assert git(initialised, "for-each-ref", "refs/gitmem/") == ""
    assert ok(gm, "pending", "list").stdout == "nothing pending\n"


def test_import_is_idempotent(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    first = ok(gm, "import-chat", str(EXPORT), "--json")
    again = ok(gm, "import-chat", str(EXPORT), "--json")
    assert again["already_imported"] and again["proposed"] == []
    ok(gm, "pending", "approve", first["proposed"][0]["id"])
    assert ok(gm, "import-chat", str(EXPORT), "--json")["proposed"] == []
    # The chat grows: only the new message's item is proposed; the stored and the
    # pending ones are not proposed again.
    grown = json.loads(EXPORT.read_text())
    grown["messages"].append(
        {
            "id": 11,
            "type": "message",
            "date": "2026-01-02T09:00:00",
            "date_unixtime": "1767344400",
            "from": "Alice Smith",
            "from_id": "user111",
            "text": "TODO: ask the landlord for the second key.",
        }
    )
    path = tmp_path / "result.json"
    path.write_text(json.dumps(grown))
    later = ok(gm, "import-chat", str(path), "--json")
    assert [p["text"] for p in later["proposed"]] == [
        "Alice Smith: Ask the landlord for the second key."
    ]
    assert later["already_stored"] == 1 and later["already_pending"] == len(first["proposed"]) - 1
    assert later["session"] == first["session"]


def test_pending_errors_exit_2_and_change_nothing(initialised: Path, gm: Gm) -> None:
    data = ok(gm, "import-chat", str(EXPORT), "--json")
    (staged,) = pending_dir(initialised).glob("*.json")
    before = staged.read_bytes()
    some = data["proposed"][0]["id"]
    for args in (
        ("pending", "approve"),
        ("pending", "approve", some, "--all"),
        ("pending", "approve", some, "ffffffffffff"),
        ("pending", "reject", "ffff"),
        ("pending", "show", "ab"),
    ):
        result = gm(*args)
        assert result.exit_code == 2, (args, result.stderr)
        assert result.stderr.startswith("gitmem: ") and "Traceback" not in result.stderr
    assert staged.read_bytes() == before
    assert git(initialised, "for-each-ref", "refs/gitmem/") == ""
    shown = ok(gm, "pending", "show", some, "--json")
    assert shown["message"] and shown["id"] == some
    text = ok(gm, "pending", "show", some[:6]).stdout
    assert f"  | {shown['message'].splitlines()[0]}" in text


def test_a_model_reply_outside_the_schema_stages_nothing(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    model = tmp_path / "model.py"
    reply = {
        "items": [{"message": 99, "kind": "fact", "text": "x", "trust": "inferred", "quote": None}]
    }
    model.write_text(f"print({json.dumps(json.dumps(reply))})\n")
    result = gm(
        "import-chat",
        str(EXPORT),
        "--extractor",
        "command",
        "--command",
        shlex.join([sys.executable, str(model)]),
    )
    assert result.exit_code == 1
    assert "message 99 is not one of the messages shown (1-5)" in result.stderr
    assert not pending_dir(initialised).exists() or not list(pending_dir(initialised).iterdir())
    status = ok(gm, "status", "--json")
    assert "message 99" in json.dumps(status)


# --- the model's side: parts of a long chat, and the audit's strict answer ----------------


def test_a_long_chat_is_cut_into_parts_that_each_show_whole_messages() -> None:
    from gitmem.capture.chat.prompt import PromptMessage, build_parts, parse_chat_output
    from gitmem.llm import OutputRejected

    messages = [
        PromptMessage("me" if n % 2 else "Ann", None, f"message {n} " + "x" * 900)
        for n in range(40)
    ]
    parts = build_parts(messages, max_chars=12_000)
    assert len(parts) > 2
    assert parts[0].first == 0 and parts[-1].last == 39
    assert all(b.first == a.last + 1 for a, b in itertools.pairwise(parts))
    second = parts[1]
    assert f"=== message {second.first + 1} from " in second.prompt
    assert f"=== message {second.first} from " not in second.prompt  # only its own messages
    assert f"messages {second.first + 1}-{second.last + 1}" in second.prompt
    item = {"kind": "fact", "text": "t", "trust": "inferred", "quote": None}
    reply = json.dumps({"items": [{**item, "message": second.first + 1}]}).encode()
    ((index, draft),) = parse_chat_output(reply, second)
    assert index == second.first and draft.text == "t"
    for bad in (
        {"items": [{**item, "message": second.first}]},  # a message of another part
        {"items": [{**item, "message": True}]},
        {"items": [item]},
        {"items": [{**item, "message": second.first + 1, "voice": "me"}]},
    ):
        with pytest.raises(OutputRejected):
            parse_chat_output(json.dumps(bad).encode(), second)


@pytest.mark.parametrize(
    "reply",
    [
        b'{"verdict": "keep"}',
        b'{"verdict": "maybe", "reason": "x"}',
        b'{"verdict": "keep", "reason": "x", "score": 1}',
        b'{"verdict": "keep", "reason": 5}',
        b'```json\n{"verdict": "keep", "reason": "x"}\n```',
        b'Sure! {"verdict": "keep", "reason": "x"}',
    ],
)
def test_an_audit_reply_outside_the_schema_is_rejected(reply: bytes) -> None:
    from gitmem.capture.chat.audit import parse_audit
    from gitmem.llm import OutputRejected

    with pytest.raises(OutputRejected):
        parse_audit(reply)


def test_an_audit_reply_in_the_schema() -> None:
    from gitmem.capture.chat.audit import AuditVerdict, parse_audit

    audit = parse_audit(b' {"verdict": "drop", "reason": " not said by them "}\n')
    assert audit.verdict == AuditVerdict.DROP and audit.reason == "not said by them"
    assert not audit.kept
