"""gitmem brief --as-of and recall --as-of: memory as it stood then, replayed from that
commit of the ref and verified as always, while the local index stays as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import git, tamper
from helpers.capturing import capture_text
from helpers.history import DATES, redate_memory

from gitmem.lifecycle.index import INDEX_FILE, Index
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

FIRST = {
    "kind": "decision",
    "text": "Cache lives in .git/gitmem",
    "trust": "verbatim",
    "quote": "the cache lives in .git/gitmem and is never pushed",
}
SECOND = {"kind": "open_loop", "text": "Retry limit stays at 3", "trust": "inferred"}


def history(gm: Any, repo: Path) -> dict[str, str]:
    """Three memory commits: a verbatim decision, an open loop, then the decision
    resolved; dated 1, 2 and 3 July."""
    said = "We agreed: the cache lives in .git/gitmem and is never pushed.\n"
    first = capture_text(gm, repo.parent / "a.md", said, [FIRST])
    second = capture_text(gm, repo.parent / "b.md", "Open: the retry limit stays at 3.\n", [SECOND])
    decision = first["items"][0]["id"]
    assert gm("resolve", decision[:8], "--note", "done").exit_code == 0
    redate_memory(repo, DATES)
    return {
        "decision": decision,
        "loop": second["items"][0]["id"],
        "checkpoint": first["checkpoint"],
    }


def texts(gm: Any, *args: str) -> list[str]:
    result = gm("brief", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return [item["text"] for item in result.json()["items"]]


def test_the_lifecycle_is_replayed_to_that_moment(gm: Any, initialised: Path) -> None:
    history(gm, initialised)
    assert texts(gm) == ["Retry limit stays at 3"]  # the decision was resolved on the 3rd
    assert sorted(texts(gm, "--as-of", "2026-07-02T12:00:00Z")) == [
        "Cache lives in .git/gitmem",
        "Retry limit stays at 3",
    ]
    assert texts(gm, "--as-of", "2026-07-01T12:00") == ["Cache lives in .git/gitmem"]
    assert texts(gm, "--as-of", "2026-06-01") == []
    assert texts(gm, "--as-of", "refs/gitmem/memory~1") == texts(
        gm, "--as-of", "2026-07-02T12:00:00Z"
    )


def test_the_brief_says_which_moment_and_keeps_its_quote_verified(
    gm: Any, initialised: Path
) -> None:
    history(gm, initialised)
    document = gm("brief", "--format", "json", "--as-of", "2026-07-01T12:00").json()
    assert document["as_of"]["how"] == "time"
    assert (
        document["as_of"]["commit"] == git(initialised, "rev-parse", "refs/gitmem/memory~2").strip()
    )
    (item,) = document["items"]
    assert item["trust"] == "verbatim" and item["quote"] == FIRST["quote"]
    assert item["world_check"] is None  # the world of then cannot be probed
    text = gm("brief", "--as-of", "2026-07-01T12:00").stdout
    assert "memory as of 2026-07-01T12:00:00Z" in text.splitlines()[1]
    assert '[✓ verbatim] Cache lives in .git/gitmem — "the cache lives' in text
    assert "as_of" not in gm("brief", "--format", "json").json()


def test_an_edited_item_is_degraded_as_of_then_too(gm: Any, initialised: Path) -> None:
    marks = history(gm, initialised)
    store = Store.discover(initialised)
    path = content_path("items", marks["decision"])
    tamper.overwrite_object(store, path, b"never pushed", b"always pushed")
    text = gm("brief", "--as-of", "2026-07-01T12:00").stdout
    assert f"[? untagged] [⚠ item missing] (unreadable item {marks['decision'][:12]})" in text
    assert "never pushed" not in text and "- [✓ verbatim]" not in text


def test_trust_is_decided_now_for_memory_as_of_then(gm: Any, initialised: Path, home: Path) -> None:
    history(gm, initialised)
    (home / "allowed_signers").write_text("")  # the writer's key is no longer trusted
    text = gm("brief", "--as-of", "2026-07-01T12:00").stdout
    line = next(line for line in text.splitlines() if "Cache lives" in line)
    assert line.startswith("- [⚠ verbatim withheld: untrusted key] Cache lives in .git/gitmem")
    assert '"' not in line


def test_the_hard_budget_holds_as_of_a_moment(gm: Any, initialised: Path) -> None:
    history(gm, initialised)
    for fmt in ("text", "markdown", "json"):
        out = gm("brief", "--format", fmt, "--budget", "800", "--as-of", "2026-07-02T12:00")
        assert out.exit_code == 0 and len(out.stdout.encode()) <= 800


def test_the_local_index_is_left_as_it_was(gm: Any, initialised: Path, home: Path) -> None:
    history(gm, initialised)
    gm("brief")
    index_file = initialised / ".git" / "gitmem" / INDEX_FILE
    before = index_file.read_bytes()
    gm("brief", "--as-of", "2026-07-01T12:00")
    gm("recall", "--as-of", "2026-07-01T12:00", "cache")
    assert index_file.read_bytes() == before
    store = Store.discover(initialised)
    index = Index.open(store, load_trust_roots(home, store))
    try:
        assert not index.rebuilt and index.tip == store.tip()
    finally:
        index.close()


def test_recall_as_of_searches_the_history_up_to_then(gm: Any, initialised: Path) -> None:
    history(gm, initialised)
    now = gm("recall", "--json", "retry").json()
    assert now["total"] == 1 and "as_of" not in now
    then = gm("recall", "--json", "--as-of", "2026-07-01T12:00", "retry").json()
    assert then["total"] == 0 and then["as_of"]["how"] == "time"
    cache = gm("recall", "--json", "--as-of", "2026-07-02T12:00", "cache").json()
    (hit,) = cache["hits"]
    assert hit["status"] == "open"  # resolved only on the 3rd
    assert json.loads(json.dumps(cache))["tip"] == cache["as_of"]["commit"]
    text = gm("recall", "--as-of", "2026-07-02T12:00", "cache").stdout
    assert "memory as of 2026-07-02T12:00:00Z" in text


def test_a_moment_that_is_not_one_is_one_line_and_exit_2(gm: Any, initialised: Path) -> None:
    history(gm, initialised)
    for command in ("brief", "recall"):
        args = [command, "--as-of", "no-such-rev"] + (["cache"] if command == "recall" else [])
        result = gm(*args)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and "no-such-rev" in result.stderr
