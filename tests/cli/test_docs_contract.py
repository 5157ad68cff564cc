"""The docs as a contract: what docs/user-guide.md promises for values a user types, run
as a user runs them (real subprocesses of the installed CLI, in a real repository).

Bad input is one line on stderr starting with ``gitmem:``, exit 2, and nothing written
(docs/user-guide.md, "Exit codes"); an empty value is bad input, never read as "." or as
"no value given".
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Gm, git
from helpers.capturing import capture_sample

SLOW = pytest.mark.slow  # real subprocesses of the CLI
DOCS = Path(__file__).parents[2] / "docs"
CHAT = (
    '{"me": "Ana", "name": "Ana and Ben", "messages": ['
    '{"from": "Ben", "date": "2026-11-01T10:00:00Z", "text": "Decision: we keep staging."},'
    '{"from": "Ana", "date": "2026-11-01T10:01:00Z", "text": "TODO: renew the certificate."}]}'
)


def cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gitmem", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=os.environ.copy(),
        timeout=60,
        check=False,
    )


def refused(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gitmem: "), done.stderr
    assert says in lines[0], lines[0]
    assert "Traceback" not in done.stderr


def own_refs(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


@SLOW
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("export", "--all", "-o", ""), "give a path, not ''"),
        (("snapshot", "show", "abcdef", "--output", ""), "give a path, not ''"),
        (("capture", "--transcript", ""), "give a path, not ''"),
        (("verify-quote", "--transcript", "", "a quote"), "give a path, not ''"),
        (("import", ""), "give a path, not ''"),
        (("import-chat", ""), "give a path, not ''"),
        (("init", "--key", ""), "give a path, not ''"),
        (("demo", "--keep", ""), "give a path, not ''"),
        (("backup", ""), "give the replica"),
        (("backup", "."), "is this repository"),
        (("backup", ".git"), "is this repository"),
        (("restore", ""), "give the replica"),
        (("restore", "."), "is this repository"),
        (("restore", "", "--list"), "give the replica"),
        (("serve", "--host", ""), "--host ''"),
        (("serve", "--host", "999.1.1.1", "--port", "0"), "not an address"),
        (("config", "--unset"), "--unset takes KEY alone"),
        (("config", "timeout", "5", "--unset"), "--unset takes KEY alone"),
        (("verify-quote", "--transcript", "session.md", ""), "needs a QUOTE"),
        (("verify-quote", "--transcript", "session.md", "   "), "needs a QUOTE"),
        (("import-chat", "chat.json", "--audit-command", ""), "--audit-command needs"),
        (("import-chat", "chat.json", "--audit-command", "'unclosed"), "--audit-command is not"),
    ],
)
def test_an_empty_or_impossible_value_is_bad_input_and_writes_nothing(
    initialised: Path, args: tuple[str, ...], says: str, home: Path
) -> None:
    (initialised / "session.md").write_text("User: hello there\n\nAssistant: hi\n")
    (initialised / "chat.json").write_text(CHAT)
    before_refs, before_config = own_refs(initialised), (home / "config.json").read_bytes()
    refused(cli(initialised, *args), says)
    assert own_refs(initialised) == before_refs  # backup "" once recorded a point here
    assert (home / "config.json").read_bytes() == before_config


@SLOW
def test_backup_and_restore_of_the_clone_itself_are_refused_with_memory(
    initialised: Path, gm: Gm
) -> None:
    capture_sample(gm)
    before = own_refs(initialised)
    for args in (("backup", ""), ("backup", "."), ("restore", "")):
        assert cli(initialised, *args).returncode == 2
    assert own_refs(initialised) == before
    assert "refs/gitmem-backups/" not in before


@SLOW
def test_init_with_an_empty_name_is_refused_and_writes_nothing(repo: Path, home: Path) -> None:
    refused(cli(repo, "init", "--name", ""), "principal ''")
    assert not home.exists() or not any(home.iterdir())


@SLOW
def test_demo_keep_that_is_a_file_is_bad_input(tmp_path: Path, repo: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    refused(cli(repo, "demo", "--keep", str(afile)), "is not a folder")
    refused(cli(repo, "demo", "--keep", str(afile / "under")), "cannot make the folder")
    assert afile.read_text() == "mine\n"


@SLOW
def test_dash_c_empty_is_the_current_folder_as_in_git(initialised: Path) -> None:
    plain, empty = (
        cli(initialised, "status", "--json"),
        cli(initialised, "-C", "", "status", "--json"),
    )
    assert empty.returncode == plain.returncode == 0, empty.stderr
    assert str(initialised) in empty.stdout


@SLOW
def test_init_run_again_says_nothing_changed_and_claims_no_install(
    tmp_path: Path, repo: Path
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    assert cli(repo, "init").returncode == 0
    again = cli(repo, "init")
    assert again.returncode == 0, again.stderr
    assert "already initialised; nothing changed" in again.stdout
    assert "installed the" not in again.stdout


@SLOW
def test_a_bad_audit_command_is_refused_even_for_an_export_imported_already(
    initialised: Path,
) -> None:
    (initialised / "chat.json").write_text(CHAT)
    assert cli(initialised, "import-chat", "chat.json").returncode == 0
    staged = sorted(p.name for p in (initialised / ".git" / "gitmem" / "pending").iterdir())
    refused(cli(initialised, "import-chat", "chat.json", "--audit-command", "'x"), "--audit")
    assert sorted(p.name for p in (initialised / ".git" / "gitmem" / "pending").iterdir()) == staged


def python_blocks() -> list[tuple[str, str]]:
    """Every ```python block of docs/*.md, with its page."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        found += [(page.name, b) for b in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)]
    return found


def test_every_gitmem_import_a_page_shows_imports() -> None:
    """A page's example starts with its imports: each one names what the package has."""
    lines = [
        (page, line.strip())
        for page, block in python_blocks()
        for line in block.splitlines()
        if line.startswith("from gitmem")
    ]
    assert len(lines) >= 6
    for page, line in lines:
        module, _, names = line.partition(" import ")
        loaded = importlib.import_module(module.removeprefix("from "))
        for name in names.strip("()").split(","):
            assert hasattr(loaded, name.strip()), f"{page}: {line}: no {name.strip()}"


@pytest.mark.parametrize(
    "words",
    [(), ("brief",), ("hooks",), ("hooks", "install"), ("release", "approve"), ("keys", "list")],
)
def test_help_of_a_command_or_subcommand_is_its_own_help(words: tuple[str, ...]) -> None:
    from helpers import run

    helped, asked = run("help", *words), run(*words, "--help")
    assert helped.exit_code == asked.exit_code == 0, helped.stderr
    assert helped.stdout == asked.stdout
    assert run("help", "hooks", "nosuch").exit_code == 2


def test_recall_with_a_limit_past_sqlites_integers_shows_every_hit(
    initialised: Path, gm: Gm
) -> None:
    capture_sample(gm)
    everything = gm("recall", "the", "--json", "--limit", "1000")
    huge = gm("recall", "the", "--json", "--limit", "9" * 30)
    assert huge.exit_code == everything.exit_code == 0, huge.stderr
    assert huge.json() == everything.json()


def test_a_capture_of_the_bytes_a_purge_redacted_is_skipped_and_memory_stays_intact(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    said = "User: ship?\n\nAssistant: Decision: we ship on Friday.\n"
    first, copy = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text(said)
    copy.write_text(said)  # the same bytes, another session
    assert gm("capture", "--transcript", str(first)).exit_code == 0
    assert gm("purge", "--text", "Friday", "--yes").exit_code == 0
    again = gm("capture", "--transcript", str(copy), "--json")
    assert again.exit_code == 0, again.stderr
    assert again.json()["skipped"].startswith("not captured: it would quote as verbatim")
    assert gm("verify").exit_code == 0
    grown = tmp_path / "c.md"
    grown.write_text(said + "\nUser: and the date?\n")
    assert gm("capture", "--transcript", str(grown)).exit_code == 0
    checked = gm("verify")
    assert checked.exit_code == 0, checked.stdout


def test_hooks_status_reports_every_host_when_one_file_is_unreadable(
    initialised: Path, gm: Gm
) -> None:
    """Like `gitmem status` with a bad config: the report, then one line and exit 2."""
    (initialised / ".claude").mkdir()
    (initialised / ".claude" / "settings.local.json").write_text("{bad")
    shown = gm("hooks", "status")
    assert shown.exit_code == 2
    assert "agent claude: unreadable" in shown.stdout and "agent codex:" in shown.stdout
    assert shown.stderr.count("\n") == 1 and "not valid JSON" in shown.stderr
    data = gm("hooks", "status", "--json")
    assert data.exit_code == 2
    assert data.json()["agents"]["claude"] is False
    assert "not valid JSON" in data.json()["errors"]["claude"]
