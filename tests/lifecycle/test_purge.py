"""`gitmem purge` in a real repository: by id and by text, every commit rewritten, the
bytes gone from every object after gc and from every local file, every other record
still verifying, and the purged item rendered as `[purged by WRITER on DATE]`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import Gm, git
from helpers.capturing import brief_json, capture_text, decision
from helpers.grep import SECRET, all_objects, files_holding

from gitmem.store.repo import MEMORY_REF, Store


@pytest.fixture
def secret_store(gm: Gm, initialised: Path, tmp_path: Path) -> dict[str, str]:
    """Two captures: the first holds SECRET in prose and in an item, the second carries
    it; a third item's quote shares the secret's snapshot but not the secret."""
    first = capture_text(
        gm,
        tmp_path / "one.md",
        f"We talked about deploys. Alice said: the staging password is {SECRET} for now.\n"
        "Bob said: we keep the cache local for the whole release.\n",
        [
            decision(f"Staging password is {SECRET}", f"the staging password is {SECRET}"),
            decision("Keep the cache local", "we keep the cache local for the whole release"),
        ],
    )
    capture_text(
        gm,
        tmp_path / "two.md",
        "Carol said: the parser ships on friday after the review.\n",
        [decision("Parser ships Friday", "the parser ships on friday after the review")],
    )
    ids = {i["text"]: i["id"] for i in first["items"]}
    gm("brief")  # the ledger now holds the secret's item, folded
    return {"secret": ids[f"Staging password is {SECRET}"], "cache": ids["Keep the cache local"]}


def test_purge_by_text_leaves_no_byte_of_it_after_gc_and_verify_passes(
    gm: Gm, initialised: Path, secret_store: dict[str, str]
) -> None:
    repo = initialised
    assert SECRET.encode() in all_objects(repo)
    assert files_holding(repo / ".git" / "gitmem", SECRET.encode())  # the ledger

    done = gm("purge", "--text", SECRET, "--yes", "--gc", "--json")
    assert done.exit_code == 0, done.stderr
    result: Any = done.json()
    assert result["items"] == [secret_store["secret"]] and result["how"] == "text"
    assert len(result["snapshots"]) == 1 and result["gc"]["ran"] and result["gc"]["error"] is None
    assert result["gc"]["commands"] == [
        "git reflog expire --expire=now --all",
        "git gc --prune=now",
    ]
    assert SECRET not in done.stdout  # the event and the output hold a digest, never the text

    assert SECRET.encode() not in all_objects(repo)
    assert files_holding(repo / ".git", SECRET.encode()) == []
    verify = gm("verify", "--json")
    assert verify.exit_code == 0, verify.stdout
    report: Any = verify.json()
    assert report["problems"] == [] and report["untrusted"] == []
    git(repo, "fsck", "--strict", "--no-dangling")

    shown = brief_json(gm, "--budget", "0")
    by_id = {i["id"]: i for i in shown["items"]}
    kept = by_id[secret_store["cache"]]
    assert (
        kept["trust"] == "verbatim"
        and kept["quote"] == "we keep the cache local for the whole release"
    )
    assert secret_store["secret"] not in by_id
    text = gm("brief", "--budget", "0").stdout
    assert SECRET not in text and "quote not in its transcript" not in text
    # The redacted copy replaced the snapshot, in every commit.
    (new,) = result["snapshots"].values()
    snapshot = gm("snapshot", "show", new).stdout
    assert "the staging password is [purged] for now" in snapshot


def test_purge_by_id_removes_the_item_from_every_commit_and_renders_who_and_when(
    gm: Gm, initialised: Path, secret_store: dict[str, str]
) -> None:
    repo = initialised
    store = Store.discover(repo)
    before = store.tip()
    history = git(repo, "rev-list", MEMORY_REF).split()
    target = secret_store["secret"]
    done = gm("purge", target[:8], "--yes", "--json")
    assert done.exit_code == 0, done.stderr
    result: Any = done.json()
    assert result["items"] == [target] and result["snapshots"] == {} and result["records"] == []
    assert result["before"] == before and result["gc"]["ran"] is False

    path = f"items/{target[:2]}/{target[2:]}.json"
    for commit in git(repo, "rev-list", MEMORY_REF).split():
        assert git(repo, "ls-tree", "-r", "--name-only", commit).count(path) == 0
    assert len(git(repo, "rev-list", MEMORY_REF).split()) == len(history) + 1  # + the purge
    assert gm("verify").exit_code == 0

    # Where the item would have been current, it renders as purged; never its text.
    status: Any = gm("status", "--json").json()
    shown: Any = gm("show", target[:8], "--json").json()
    label = f"[purged by {status['key']['principal']} on {shown['created'][:10]}]"
    assert shown["text"] == label and shown["event"] == result["event"]
    assert brief_json(gm, "--budget", "0")["purged"] == [
        {"id": target, "purged": label, "event": result["event"]}
    ]
    text = gm("brief").stdout
    assert f"- {label} ({target[:8]})" in text and "Staging password" not in text
    show = gm("show", target[:8])
    assert show.exit_code == 0 and label in show.stdout and SECRET not in show.stdout
    again = gm("purge", target[:8], "--yes")
    assert again.exit_code == 2 and "already [purged by" in again.stderr
    resolve = gm("resolve", target[:8])
    assert resolve.exit_code == 2 and "nothing of it is left" in resolve.stderr


def test_a_quote_that_held_part_of_the_text_goes_with_it(
    gm: Gm, initialised: Path, tmp_path: Path
) -> None:
    capture_text(
        gm,
        tmp_path / "s.md",
        "Alice said: the client is Acme Rocket Supplies and they pay in march.\n",
        [
            decision(
                "Client pays in March", "the client is Acme Rocket Supplies and they pay in march"
            )
        ],
    )
    result: Any = gm("purge", "--text", "Rocket Supplies", "--yes", "--json").json()
    assert len(result["items"]) == 1  # its text did not hold the string; its quote did
    assert gm("verify").exit_code == 0
    assert brief_json(gm, "--budget", "0")["items"] == []


def test_purge_refuses_bad_input_and_writes_nothing(
    gm: Gm, initialised: Path, secret_store: dict[str, str]
) -> None:
    tip = Store.discover(initialised).tip()
    for args, message in (
        ((), "give the ids"),
        (("--text", "  "), "non-empty"),
        (("abc",), "at least 4 hex"),
        (("ffffffff",), "no item ffffffff"),
        ((secret_store["secret"][:8], "--text", "x"), "not both"),
    ):
        done = gm("purge", *args, "--yes")
        assert done.exit_code == 2, (args, done.stderr)
        assert (
            message in done.stderr
            and done.stderr.count("\n") == 1
            and "Traceback" not in done.stderr
        )
    # What was said is searched, never gitmem's own structure: a year every record's time
    # holds, an address prefix, a field name or a role match nothing.
    for words in ("no such words anywhere", "2026", secret_store["secret"][:10], "origin_session"):
        nothing = gm("purge", "--text", words, "--yes")
        assert nothing.exit_code == 1 and "holds that text" in nothing.stderr, words
    # Without --yes and without a terminal to ask on: refused, one line.
    refused = gm("purge", secret_store["secret"][:8])
    assert refused.exit_code == 2 and "--yes" in refused.stderr and refused.stderr.count("\n") == 1
    assert Store.discover(initialised).tip() == tip


def test_purge_asks_on_a_terminal(
    initialised: Path, secret_store: dict[str, str], home: Path
) -> None:
    """A real terminal: the prompt lists what goes; answering no changes nothing."""
    import pty

    tip = Store.discover(initialised).tip()
    env = {**os.environ, "GITMEM_HOME": str(home)}
    for answer, changed in ((b"n\n", False), (b"y\n", True)):
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(
                sys.executable,
                [
                    sys.executable,
                    "-m",
                    "gitmem",
                    "-C",
                    str(initialised),
                    "purge",
                    secret_store["secret"][:8],
                ],
                env,
            )
        output = b""
        while b"[y/N]" not in output:
            output += os.read(fd, 1024)
        os.write(fd, answer)
        while True:
            try:
                chunk = os.read(fd, 1024)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        _, status = os.waitpid(pid, 0)
        assert f"item {secret_store['secret'][:12]} (named): Staging password".encode() in output
        assert (Store.discover(initialised).tip() != tip) is changed
        assert os.waitstatus_to_exitcode(status) == (0 if changed else 1)


def test_a_record_that_holds_the_text_goes_whole_with_what_it_added(
    gm: Gm, initialised: Path, tmp_path: Path
) -> None:
    """A session id and a note hold the text: the checkpoint goes with its item and its
    receipt, the note's event too, and the commits that added them no longer name it."""
    done = capture_text(
        gm,
        tmp_path / "s.md",
        "Bob said: we keep the cache local for now.\n",
        [decision("Keep the cache local", "we keep the cache local for now")],
        session="acme-zebra-quartz-call",
    )
    noted = gm("note", done["items"][0]["id"][:8], "the vendor zebra-quartz changed terms")
    assert noted.exit_code == 0, noted.stderr
    other = capture_text(
        gm,
        tmp_path / "o.md",
        "Carol said: the parser ships on friday after review.\n",
        [decision("Parser ships Friday", "the parser ships on friday after review")],
    )

    result: Any = gm("purge", "--text", "zebra-quartz", "--yes", "--gc", "--json").json()
    assert result["items"] == [done["items"][0]["id"]] and len(result["records"]) == 2
    assert done["checkpoint"] in result["records"] and result["snapshots"] == {}
    assert b"zebra-quartz" not in all_objects(initialised)
    assert files_holding(initialised / ".git", b"zebra-quartz") == []
    assert gm("verify").exit_code == 0
    assert [i["id"] for i in brief_json(gm, "--budget", "0")["items"]] == [other["items"][0]["id"]]


def test_a_purge_event_the_index_meets_on_a_fast_forward_counts(
    gm: Gm, initialised: Path, secret_store: dict[str, str], home: Path
) -> None:
    """A purge can reach a warm index without a rewrite (a sync that brings the
    event only): the index replays it, and readers treat the item as purged."""
    from datetime import UTC, datetime

    from gitmem.core.purge import Purge
    from gitmem.core.records import EVENT_PURGE
    from gitmem.core.types import Sha256Hex
    from gitmem.store.keys import load_identity
    from gitmem.store.seal import write_event

    assert secret_store["secret"] in {
        i["id"] for i in brief_json(gm, "--budget", "0")["items"]
    }  # a warm index
    store = Store.discover(initialised)
    extra = Purge(items=(Sha256Hex(secret_store["secret"]),)).to_extra()
    sealed = write_event(
        store, load_identity(home), EVENT_PURGE, None, "human", datetime.now(UTC), extra
    )
    shown = brief_json(gm, "--budget", "0")
    assert secret_store["secret"] not in {i["id"] for i in shown["items"]}
    assert [p["event"] for p in shown["purged"]] == [sealed.address]
    assert gm("show", secret_store["secret"][:8], "--json").json()["purged"] is True  # type: ignore[index]
