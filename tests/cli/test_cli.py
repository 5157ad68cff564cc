"""The command line as a user meets it: exit codes, one-line errors, JSON shapes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, Gm, git, needs_ssh_keygen, run, tamper
from helpers.capturing import SAMPLE, SAMPLE_ITEMS, brief_items, capture_sample, capture_text

from gitmem.cli.app import cli
from gitmem.cli.base import COMMAND_FAMILIES, load_all_commands
from gitmem.core.canonical import sha256_hex
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store

TRANSCRIPT = str(SAMPLE)
ITEMS = str(SAMPLE_ITEMS)


# -- init and keys ----------------------------------------------------------------


def test_init_creates_a_private_key_and_trusts_it(gm: Gm, home: Path) -> None:
    result = gm("init")
    assert result.exit_code == 0, result.stderr
    assert "alice@example.com" in result.stdout
    (key,) = [p for p in (home / "keys").iterdir() if not p.name.endswith(".pub")]
    assert key.stat().st_mode & 0o777 == 0o600
    assert key.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    signers = (home / "allowed_signers").read_text()
    assert signers.startswith('alice@example.com namespaces="gitmem" ssh-ed25519 ')


def test_init_is_idempotent(gm: Gm, home: Path) -> None:
    gm("init")
    before = {p.name: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    again = gm("init")
    assert again.exit_code == 0
    assert "nothing changed" in again.stdout
    assert {p.name: p.read_bytes() for p in home.rglob("*") if p.is_file()} == before


@needs_ssh_keygen
def test_init_adopts_an_existing_key(gm: Gm, tmp_path: Path, home: Path) -> None:
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    result = gm("init", "--name", "bob", "--key", str(key))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("adopted key")
    exported = gm("keys", "export").stdout
    assert key.with_suffix(".pub").read_text().split()[1] in exported
    assert exported.startswith("bob ")


def test_keys_list_marks_the_active_key(initialised: Path, gm: Gm) -> None:
    listed = gm("keys", "list", "--json").json()
    assert isinstance(listed, list) and len(listed) == 1
    assert listed[0]["active"] is True
    assert listed[0]["fingerprint"].startswith("SHA256:")


def test_init_refuses_a_bad_principal_and_writes_nothing(gm: Gm, home: Path) -> None:
    result = gm("init", "--name", "alice smith")
    assert result.exit_code == 2
    assert not home.exists()


# -- capture ----------------------------------------------------------------------


def test_capture_json_shape_and_quote_checks(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    assert set(data) == {"checkpoint", "written", "skipped", "session", "items"}
    assert re.fullmatch(r"[0-9a-f]{64}", data["checkpoint"])
    by_text = {i["text"]: i for i in data["items"]}
    for item in data["items"]:
        assert set(item) == {"id", "kind", "text", "trust", "quote", "quote_verified"}
    cache = by_text["Cache lives in .git/gitmem/, never pushed"]
    assert cache["trust"] == "verbatim" and cache["quote_verified"] is True
    invented = by_text["Rebuild is instant"]
    assert invented["trust"] == "inferred"
    assert invented["quote_verified"] is False and invented["quote"] is None


def test_capture_keeps_unknown_fields_and_records_the_reason(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    store = Store.discover(initialised)
    stored = json.loads(store.read_path(content_path("checkpoints", data["checkpoint"])) or b"")
    blobs = [json.loads(store.read_path(content_path("items", a)) or b"") for a in stored["items"]]
    by_text = {i["text"]: i for i in blobs}
    assert by_text["The reflog suffices to recover from a bad append"]["owner"] == "storage-team"
    invented = by_text["Rebuild is instant"]
    assert invented["unverified_quote"] == "the rebuild takes no time at all"
    assert "not found" in invented["quote_reason"]
    assert stored["commit"] == git(initialised, "rev-parse", "HEAD").strip()


def test_capture_without_items_uses_the_heuristic(initialised: Path, gm: Gm) -> None:
    result = gm("capture", "--transcript", TRANSCRIPT, "--json")
    assert result.exit_code == 0
    items = result.json()["items"]  # type: ignore[index]
    assert items and all(i["trust"] == "verbatim" and i["quote_verified"] for i in items)


def test_capture_reads_items_from_stdin(initialised: Path, gm: Gm) -> None:
    items = (
        '[{"kind": "fact", "text": "Cache rebuild measured", "trust": "verbatim", '
        '"quote": "it takes 40 ms for 1,000 records"}]'
    )
    result = gm("capture", "--transcript", TRANSCRIPT, "--items", "-", "--json", input=items)
    assert result.exit_code == 0, result.stderr
    (item,) = result.json()["items"]  # type: ignore[index]
    assert item["trust"] == "verbatim"


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"kind": "fact"}', "JSON list"),
        ('[{"kind": "fact"}]', "text is required"),
        ('[{"kind": "fact", "text": "  "}]', "text is required"),
        ('[{"kind": "fact", "text": "x", "trust": "verbatim"}]', "needs a quote"),
        ('[{"kind": "wish", "text": "x"}]', "kind must be one of"),
        ('[{"kind": "fact", "text": "x", "trust": "certain"}]', "trust must be"),
        ('[{"kind": "fact", "text": "x", "importance": 0.5}]', "importance must be an integer"),
        ('[{"kind": "fact", "text": "x", "weight": 0.5}]', "integers"),
        ('[{"kind": "fact", "text": "x", "id": "abc"}]', "set by gitmem"),
        ('[{"kind": "fact", "text": "x", "claims": "file"}]', "claims must be a list"),
    ],
)
def test_bad_items_exit_2_with_one_line_and_write_nothing(
    initialised: Path, gm: Gm, tmp_path: Path, items: str, message: str
) -> None:
    path = tmp_path / "items.json"
    path.write_text(items)
    result = gm("capture", "--transcript", TRANSCRIPT, "--items", str(path))
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert Store.discover(initialised).tip() is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--transcript", "missing.md"], "transcript not found"),
        (["--transcript", TRANSCRIPT, "--items", "missing.json"], "items file not found"),
        (["--transcript", TRANSCRIPT, "--session", "bad\nid"], "session id"),
    ],
)
def test_bad_capture_arguments_exit_2(
    initialised: Path, gm: Gm, args: list[str], message: str
) -> None:
    result = gm("capture", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert Store.discover(initialised).tip() is None


def test_capture_before_init_exits_2(gm: Gm, repo: Path) -> None:
    result = gm("capture", "--transcript", TRANSCRIPT)
    assert result.exit_code == 2
    assert "gitmem init" in result.stderr


def test_outside_a_repository_exits_2(tmp_path: Path) -> None:
    outside = tmp_path / "plain-folder"
    outside.mkdir()
    result = run("-C", str(outside), "brief")
    assert result.exit_code == 2
    assert "not a git repository" in result.stderr


def test_verbose_shows_the_traceback(tmp_path: Path) -> None:
    result = run("--verbose", "-C", str(tmp_path), "brief")
    assert result.exit_code == 2
    assert "Traceback" in result.stderr


def test_a_bug_exits_70_not_1(initialised: Path, gm: Gm, monkeypatch: pytest.MonkeyPatch) -> None:
    """1 means an expected "no"; an unexpected exception is a bug and says so."""
    from gitmem.brief import emit

    def broken(*args: object, **kwargs: object) -> str:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(emit, "emit_brief", broken)
    result = gm("brief")
    assert result.exit_code == 70
    assert result.stderr == (
        "gitmem: internal error: ZeroDivisionError: division by zero "
        "(rerun with --verbose for the traceback)\n"
    )


def test_usage_errors_exit_2_with_one_line(gm: Gm) -> None:
    result = gm("brief", "--format", "yaml")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1


# -- verify-quote -----------------------------------------------------------------


def test_verify_quote_exit_codes_and_json(gm: Gm) -> None:
    good = gm(
        "verify-quote",
        "--transcript",
        TRANSCRIPT,
        "--json",
        "the cache lives in .git/gitmem/ … never pushed",
    )
    assert good.exit_code == 0
    data = good.json()
    assert isinstance(data, dict)
    assert data["verbatim"] is True and len(data["fragments"]) == 2
    assert {"verbatim", "reason", "fragments"} <= set(data)
    bad = gm("verify-quote", "--transcript", TRANSCRIPT, "the cache lives in the cloud")
    assert bad.exit_code == 1
    assert bad.stdout.startswith("NOT verbatim")
    missing = gm("verify-quote", "--transcript", "nope.md", "anything at all here")
    assert missing.exit_code == 2


@pytest.mark.parametrize(
    ("quote", "exit_code"),
    [
        ("See the retry policy for the backoff.", 0),  # a link's markdown dropped
        ("Map A -> B.", 0),  # an arrow in ASCII
        ("Use Postgres for the event store", 0),
        ("Use MongoDB for the event store", 1),  # struck through: withdrawn
        ("Map A to B", 1),
    ],
)
def test_verify_quote_finds_a_quote_as_a_capture_would(
    gm: Gm, repo: Path, quote: str, exit_code: int
) -> None:
    transcript = repo / "linked.md"
    transcript.write_text(
        "**User:** hi\n\n**Assistant:** See [the retry policy](https://x.y/r.md) for the "
        "backoff. Map A → B.\n- ~~Use MongoDB for the event store~~\n"
        "- Use Postgres for the event store\n",
        encoding="utf-8",
    )
    result = gm("verify-quote", "--transcript", str(transcript), quote)
    assert result.exit_code == exit_code, result.stdout
    if exit_code == 1 and "MongoDB" in quote:
        assert "struck through" in result.stdout


# -- brief ------------------------------------------------------------------------


def test_brief_text_is_wrapped_and_badged(initialised: Path, gm: Gm) -> None:
    capture_sample(gm)
    text = gm("brief").stdout
    assert text.startswith("<gitmem-context>\n") and text.endswith("</gitmem-context>\n")
    assert "context, not instructions" in text
    assert (
        '[✓ verbatim] PR #60 awaiting review — "PR #60 is waiting, review requested 2026-07-01"'
        in (text)
    )
    assert "[~ inferred] Rebuild is instant (" in text
    assert "the rebuild takes no time at all" not in text  # a failed quote is never shown
    assert (
        text.index("VERIFY BEFORE TRUSTING")
        < text.index("DECISIONS")
        < text.index("OPEN LOOPS")
        < text.index("BELIEFS")
    )


def test_brief_markdown_and_empty_store(initialised: Path, gm: Gm) -> None:
    empty = gm("brief")
    assert empty.exit_code == 0 and "nothing stored yet" in empty.stdout
    capture_sample(gm)
    markdown = gm("brief", "--format", "markdown").stdout
    assert "### Decisions" in markdown and "<gitmem-context>" in markdown


def test_a_store_with_nothing_open_is_not_called_empty(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """A checkpoint whose session held nothing worth carrying is memory, not its absence."""
    capture_text(gm, tmp_path / "idle.md", "user: hello\nassistant: hi, how can I help?\n", [])
    text = gm("brief").stdout
    assert "from 1 checkpoint(s)" in text and "Nothing open" in text
    assert "No memory yet" not in text


def test_brief_json_fields(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    doc = gm("brief", "--format", "json").json()
    assert isinstance(doc, dict)
    assert doc["format"] == "gitmem/brief/1" and doc["warnings"] == []
    required = {
        "id",
        "kind",
        "text",
        "quote",
        "captured_trust",
        "trust",
        "degraded_reason",
        "carried",
        "corroboration",
        "world_check",
        "status",
        "origin_session",
        "checkpoint",
    }
    for item in doc["items"]:
        assert required <= set(item)
        assert item["checkpoint"] == data["checkpoint"]
        assert item["origin_session"] == data["session"]
        assert item["carried"] is False and item["corroboration"] == 1
        assert item["world_check"] is None


def test_brief_is_read_only(initialised: Path, gm: Gm) -> None:
    capture_sample(gm)
    before = git(initialised, "for-each-ref")
    gm("brief")
    gm("brief", "--format", "json")
    assert git(initialised, "for-each-ref") == before


def test_brief_budget_drops_whole_items_and_says_how_to_see_them(initialised: Path, gm: Gm) -> None:
    capture_sample(gm)
    full = gm("brief", "--budget", "0").stdout
    small = gm("brief", "--budget", "900").stdout
    assert "more item(s) not shown" in small and "--budget 0" in small
    for line in small.splitlines():
        if line.startswith("- ["):
            assert line in full.splitlines()  # whole lines only, quotes never cut


# -- tampering, through the CLI ------------------------------------------------------


def _assert_degraded(gm: Gm, text: str, label: str, integrity: bool = True) -> None:
    """Degraded in the brief; for *integrity* failures verify exits 3, for trust failures
    (an intact record by a key this reader does not trust) it lists them and exits 0."""
    items = brief_items(gm, "text")
    item = items[text]
    assert item["captured_trust"] == "verbatim"
    assert item["trust"] != "verbatim" and item["quote"] is None
    assert item["degraded_reason"].startswith(label)
    rendered = gm("brief").stdout
    line = next(line for line in rendered.splitlines() if text in line)
    assert f"[⚠ verbatim withheld: {label}]" in line
    assert "✓ verbatim" not in line and '"' not in line
    verify = gm("verify")
    assert verify.exit_code == (3 if integrity else 0)
    assert label in verify.stdout
    report = gm("verify", "--json").json()
    assert report["ok"] is not integrity  # type: ignore[index]
    if not integrity:
        assert report["untrusted_records"] >= 1  # type: ignore[index]
        assert gm("verify", "--strict").exit_code == 3


def test_clean_store_verifies(initialised: Path, gm: Gm) -> None:
    capture_sample(gm)
    result = gm("verify", "--json")
    assert result.exit_code == 0
    data = result.json()
    assert isinstance(data, dict)
    shape = {k: data[k] for k in ("ok", "records", "receipts", "snapshots", "problems")}
    assert shape == {"ok": True, "records": 1, "receipts": 1, "snapshots": 1, "problems": []}


def test_edited_record_degrades_and_fails_verify(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    tamper.edit_record(
        Store.discover(initialised),
        data["checkpoint"],
        b"review requested 2026-07-01",
        b"review approved 2026-07-01",
    )
    _assert_degraded(gm, "PR #60 awaiting review", "item edited")


def test_record_resigned_by_untrusted_key_degrades(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    tamper.resign_with_untrusted_key(
        Store.discover(initialised),
        data["checkpoint"],
        b"review requested 2026-07-01",
        b"approved 2026-07-02",
    )
    _assert_degraded(gm, "PR #60 awaiting review", "untrusted key")


def test_removed_receipt_degrades(initialised: Path, gm: Gm) -> None:
    data = capture_sample(gm)
    tamper.remove_path(Store.discover(initialised), content_path("receipts", data["checkpoint"]))
    _assert_degraded(gm, "PR #60 awaiting review", "receipt missing")


def test_key_removed_from_trust_root_degrades(initialised: Path, gm: Gm, home: Path) -> None:
    capture_sample(gm)
    (home / "allowed_signers").write_text("")
    _assert_degraded(gm, "PR #60 awaiting review", "untrusted key", integrity=False)


# -- log --------------------------------------------------------------------------


def test_log_lists_records_newest_first(initialised: Path, gm: Gm) -> None:
    first = capture_sample(gm)
    second = gm("capture", "--transcript", TRANSCRIPT, "--session", "s-2", "--json").json()
    entries = gm("log", "--json").json()
    assert isinstance(entries, list) and isinstance(second, dict)
    assert [e["sha256"] for e in entries] == [second["checkpoint"], first["checkpoint"]]
    head = git(initialised, "rev-parse", "HEAD").strip()
    for entry in entries:
        assert set(entry) >= {"type", "sha256", "session", "commit", "created", "writer"}
        assert entry["type"] == "checkpoint" and entry["commit"] == head
        assert entry["writer"] == "alice@example.com"


def test_log_lists_what_failed_with_what_its_bytes_say(
    initialised: Path, gm: Gm, home: Path
) -> None:
    """A record that fails its check is listed unverified with the fields its bytes hold;
    one that does not parse, with none; the text form counts a checkpoint's items."""
    first = capture_sample(gm)
    store = Store.discover(initialised)
    junk = b'{"type": "checkpoint"'
    store.append([Entry(content_path("checkpoints", sha256_hex(junk)), junk)], "junk", "x")
    (home / "allowed_signers").write_text("")  # every record now fails on trust
    entries = gm("log", "--json").json()
    assert [e["sha256"] for e in entries] == [sha256_hex(junk), first["checkpoint"]]
    assert [e["verified"] for e in entries] == [False, False]
    assert entries[0]["session"] is None and entries[0]["writer"] is None
    assert entries[1]["writer"] == "alice@example.com"
    assert entries[1]["session"] == first["session"]
    lines = gm("log").stdout.splitlines()
    assert lines[0].startswith("✗") and "item(s)" not in lines[0]
    assert lines[1].startswith("✗") and lines[1].endswith(f" {len(first['items'])} item(s)")


# -- the surface ------------------------------------------------------------------


def _commands() -> list[tuple[str, Any]]:
    load_all_commands()
    found = []
    for name, command in cli.commands.items():
        sub = getattr(command, "commands", None)
        if sub:
            found += [(f"{name} {n}", c) for n, c in sub.items()]
        found.append((name, command))
    return found


@pytest.mark.parametrize(("name", "command"), _commands())
def test_every_command_has_help_and_is_documented(name: str, command: Any) -> None:
    assert command.help, f"`gitmem {name}` has no help text"
    guide = (ROOT / "docs" / "user-guide.md").read_text()
    assert f"gitmem {name}" in guide


def test_python_dash_m_works(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "gitmem" in done.stdout


def test_bare_command_prints_help() -> None:
    for args in ((), ("keys",)):
        result = run(*args)
        assert result.exit_code == 0 and "Usage:" in result.stdout and result.stderr == ""


def test_a_revoked_key_degrades_and_the_brief_says_revoked(
    initialised: Path, gm: Gm, home: Path
) -> None:
    capture_sample(gm)
    (pub,) = (home / "keys").glob("*.pub")
    (home / "revoked_keys").write_text(" ".join(pub.read_text().split()[:2]) + "\n")
    items = brief_items(gm, "text")
    assert "is revoked" in items["PR #60 awaiting review"]["degraded_reason"]
    assert "untrusted key: untrusted key" not in items["PR #60 awaiting review"]["degraded_reason"]
    verify = gm("verify")
    assert verify.exit_code == 0 and "is revoked" in verify.stdout  # trust, not integrity
    assert "untrusted key: untrusted key" not in verify.stdout
    assert gm("verify", "--strict").exit_code == 3


def test_every_command_is_found_in_the_family_that_defines_it() -> None:
    """The group imports a command's module when the command runs: the table it does
    so by names every command, each under the module that defines it."""
    load_all_commands()
    defined = {name: command.callback.__module__ for name, command in cli.commands.items()}
    assert defined == {name: f"gitmem.cli.{f}" for name, f in COMMAND_FAMILIES.items()}


def test_a_command_runs_with_only_its_own_family_imported() -> None:
    code = (
        "import json, sys; from gitmem.cli import main\n"
        "try:\n    main(['brief', '--help'])\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('gitmem.cli.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    families = json.loads(done.stdout.strip().splitlines()[-1])
    assert "gitmem.cli.memory" in families
    assert not {"gitmem.cli.release", "gitmem.cli.setup", "gitmem.cli.chat"} & set(families)


@pytest.mark.slow  # real subprocesses
@pytest.mark.parametrize(
    ("args", "code"),
    [(["sync", "nosuch"], 2), (["verify", "--since", "garbage"], 2), (["verify"], 0)],
)
def test_a_closed_standard_error_changes_no_exit_code(
    initialised: Path, args: list[str], code: int
) -> None:
    # a caller that closed fd 2 (`gitmem … 2>&-`): the one line is lost, not the exit
    # code (bad input exited 1, and verify fell over looking for a terminal)
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(initialised), *args],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(2),
        timeout=120,
        check=False,
        text=True,
    )
    assert done.returncode == code
