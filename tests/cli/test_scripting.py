"""What a script relies on (issue 16): --json with ids on every command that writes,
--quiet, --verbose anywhere, log -n / --since, exit codes, no Python reprs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm, Result
from helpers.capturing import capture_sample

from gitmem import __version__

HEX64 = re.compile(r"[0-9a-f]{64}")
REPR = re.compile(r"\b(None|False|True)\b|nothing yet")


@pytest.fixture
def ids(initialised: Path, gm: Gm) -> list[str]:
    capture_sample(gm)
    brief = gm("brief", "--json").json()
    assert isinstance(brief, dict)
    return [i["id"] for i in brief["items"]]


def json_of(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert isinstance(data, dict)
    return data


def logged(gm: Gm) -> set[str]:
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    return {e["sha256"] for e in entries}


def test_brief_json_is_format_json(ids: list[str], gm: Gm) -> None:
    assert gm("brief", "--json").stdout == gm("brief", "--format", "json").stdout
    refused = gm("brief", "--json", "--format", "markdown")
    assert refused.exit_code == 2 and refused.stdout == ""


def test_lifecycle_commands_print_the_event_they_signed(ids: list[str], gm: Gm) -> None:
    first, second, third, fourth = ids[:4]
    done = json_of(gm("resolve", first[:8], "--note", "merged", "--json"))
    assert done["action"] == "resolved" and done["item"] == first
    assert HEX64.fullmatch(done["event"]) and done["event"] in logged(gm)
    noted = json_of(gm("note", second[:8], "the file moved", "--json"))
    assert noted["action"] == "noted" and noted["event"] in logged(gm)
    superseded = json_of(gm("supersede", third[:8], fourth[:8], "--json"))
    assert superseded == {
        "action": "superseded",
        "item": third,
        "event": superseded["event"],
        "by": fourth,
    }
    forgot = json_of(gm("forget", fourth[:8], "--json"))
    assert forgot["action"] == "forgot" and forgot["event"] in logged(gm)


def test_an_item_already_past_the_step_is_an_expected_no(ids: list[str], gm: Gm) -> None:
    assert gm("resolve", ids[0][:8]).exit_code == 0
    before = logged(gm)
    again = gm("resolve", ids[0][:8], "--json")
    assert again.exit_code == 1 and again.stdout == ""
    assert again.stderr.startswith("gitmem: item ") and "already resolved" in again.stderr
    assert gm("forget", ids[1][:8]).exit_code == 0
    assert gm("forget", ids[1][:8]).exit_code == 1
    assert len(logged(gm) - before) == 1  # the one forget; the refusals wrote nothing
    assert gm("resolve", "zzzz").exit_code == 2  # bad input stays 2


def test_promote_json_names_the_event_or_null(ids: list[str], gm: Gm) -> None:
    result = gm("promote", ids[0][:8], "--json")
    assert result.exit_code in (0, 1), result.stderr
    data = result.json()
    assert isinstance(data, dict) and "event" in data
    assert (data["event"] is None) == (not data["allowed"])


def test_init_keys_export_config_and_snapshot_show_json(
    ids: list[str], gm: Gm, home: Path, tmp_path: Path
) -> None:
    again = json_of(gm("init", "--json"))
    assert again["key"] == "using" and again["fingerprint"].startswith("SHA256:")
    assert again["trusted_in"] is None and again["private_key"].startswith(str(home))
    exported = json_of(gm("keys", "export", "--json"))
    assert exported["allowed_signers"] == gm("keys", "export").stdout.splitlines()
    assert json_of(gm("config", "timeout", "30", "--json")) == {
        "action": "set",
        "key": "timeout",
        "file": str(home / "config.json"),
    }
    checkpoint = next(iter(logged(gm)))
    shown = json_of(gm("snapshot", "show", checkpoint[:12], "--json"))
    assert HEX64.fullmatch(shown["snapshot"]) and shown["written_to"] is None
    assert shown["text"] == (DATA / "session.md").read_text()
    out = tmp_path / "copy.md"
    written = json_of(gm("snapshot", "show", checkpoint[:12], "-o", str(out), "--json"))
    assert written["written_to"] == str(out) and written["text"] is None
    assert out.read_bytes() == (DATA / "session.md").read_bytes()


def test_quiet_prints_nothing_and_keeps_the_exit_code(ids: list[str], gm: Gm) -> None:
    quiet = gm("resolve", ids[0][:8], "--quiet")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert gm("-q", "resolve", ids[0][:8]).exit_code == 1
    assert gm("--quiet", "snapshot", "show", next(iter(logged(gm)))[:12]).stdout == ""
    assert gm("brief", "-q").stdout == ""


def test_verbose_is_accepted_after_the_subcommand(ids: list[str], gm: Gm) -> None:
    assert gm("log", "--verbose").stdout == gm("--verbose", "log").stdout != ""
    assert gm("status", "--verbose").exit_code == 0


def test_log_n_and_since(ids: list[str], gm: Gm) -> None:
    gm("resolve", ids[0][:8])
    everything = gm("log", "--json").json()
    assert isinstance(everything, list) and len(everything) == 2
    assert gm("log", "-n", "1", "--json").json() == everything[:1]
    assert len(gm("log", "-n", "1").stdout.splitlines()) == 1
    assert gm("log", "--since", "2d", "--json").json() == everything
    assert gm("log", "--since", "2999-01-01", "--json").json() == []
    bad = gm("log", "--since", "yesterdayish")
    assert bad.exit_code == 2 and bad.stderr.startswith("gitmem: --since takes")


def test_config_refuses_a_value_its_key_cannot_take(initialised: Path, gm: Gm, home: Path) -> None:
    before = (home / "config.json").read_bytes()
    for key, value in (
        ("extractor", "bogus"),
        ("openai.base_url", "ftp://x"),
        ("timeout", "soon"),
        ("sync_on_push", "maybe"),
        ("trust_ref", "main..evil"),
        ("command", "'unclosed"),
    ):
        result = gm("config", key, value)
        assert result.exit_code == 2 and result.stdout == "", (key, result.stdout)
        assert result.stderr.startswith(f"gitmem: {key} must be")
    assert (home / "config.json").read_bytes() == before
    assert gm("config", "extractor", "none").exit_code == 0


def test_a_config_file_with_a_bogus_value_is_refused_not_used(
    initialised: Path, gm: Gm, home: Path
) -> None:
    (home / "config.json").write_text('{"extractor": "bogus"}')
    status = gm("status")
    assert status.exit_code == 2
    assert "extractor must be one of" in status.stderr
    assert not REPR.search(status.stdout)


def test_no_python_reprs_in_text_output(ids: list[str], gm: Gm) -> None:
    gm("resolve", ids[0][:8])
    for args in (
        ("show", ids[1][:8]),
        ("show", ids[0][:8]),
        ("status",),
        ("log",),
        ("verify",),
        ("hooks", "status"),
        ("config",),
        ("keys", "list"),
        ("brief",),
        ("recall", "sync"),
        ("gate", ids[1][:8]),
        ("promote", ids[1][:8], "--check"),
    ):
        result = gm(*args)
        assert result.exit_code in (0, 1), (args, result.stderr)
        found = [line for line in result.stdout.splitlines() if REPR.search(line)]
        assert found == [], args


def test_version_in_a_real_subprocess() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout == f"gitmem, version {__version__}\n"


def test_every_command_that_reports_or_writes_takes_json() -> None:
    import click

    from gitmem.cli.app import cli
    from gitmem.cli.base import load_all_commands

    load_all_commands()
    exempt = {
        "demo",
        "completion",
        "mcp",
        "serve",
        "hook",
        "help",
    }  # walkthrough, script, servers, internal, help

    def walk(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
        found: list[tuple[str, click.Command]] = []
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                found += walk(command, f"{prefix}{name} ")
            else:
                found.append((f"{prefix}{name}", command))
        return found

    missing = [
        name
        for name, command in walk(cli, "")
        if name not in exempt and not any("--json" in p.opts for p in command.params)
    ]
    assert missing == []
