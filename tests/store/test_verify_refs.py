"""`verify` over refs and tree entries a hostile push can leave: symbolic refs, refs at
trees or blobs, symlinks, executables and records in the wrong folder are integrity
problems (exit 3), and the rest of the store is still checked (docs/storage.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygit2
import pytest
from helpers import Gm, git, tamper
from helpers.capturing import SAMPLE, capture_sample

from gitmem.core.canonical import sha256_hex
from gitmem.store.repo import MEMORY_REF, Store, content_path


def verify(gm: Gm) -> tuple[int, dict[str, Any]]:
    result = gm("verify", "--json")
    assert "internal error" not in result.stderr
    data = result.json()
    assert isinstance(data, dict)
    return result.exit_code, data


def problems(report: dict[str, Any]) -> set[tuple[str, str]]:
    return {(p["path"], p["problem"]) for p in report["problems"]}


@pytest.mark.parametrize("target", ["tree", "blob"])
def test_a_ref_at_a_tree_or_blob_is_reported_and_the_rest_is_checked(
    initialised: Path, gm: Gm, target: str
) -> None:
    capture_sample(gm)
    tip = git(initialised, "rev-parse", MEMORY_REF).strip()
    oid = git(initialised, "rev-parse", f"{tip}^{{tree}}" if target == "tree" else "HEAD:README.md")
    git(initialised, "update-ref", "refs/gitmem/other", oid.strip())
    code, report = verify(gm)
    assert code == 3
    assert problems(report) == {("refs/gitmem/other", "ref not at a commit")}
    detail = report["problems"][0]["detail"]
    assert f"a {target}, not a commit" in detail
    memory = next(r for r in report["refs"] if r["ref"] == MEMORY_REF)
    assert memory["ok"] and memory["records"] == 1


def test_a_symbolic_memory_ref_is_reported_and_brief_says_so_in_one_line(
    initialised: Path, gm: Gm
) -> None:
    capture_sample(gm)
    assert gm("release", "candidate", "HEAD").exit_code == 0  # a record in the other ref
    git(initialised, "symbolic-ref", MEMORY_REF, "refs/heads/main")
    code, report = verify(gm)
    assert code == 3
    assert problems(report) == {(MEMORY_REF, "symbolic ref")}
    kept = next(r for r in report["refs"] if r["ref"] == "refs/gitmem/releases")
    assert kept["ok"] and kept["records"] == 1  # the other ref is still checked
    for command in (("brief",), ("capture", "--transcript", str(SAMPLE)), ("status",)):
        result = gm(*command)
        assert result.exit_code in (0, 3), (command, result.stderr)
        assert "internal error" not in result.stderr
        if result.exit_code:
            assert "symbolic ref" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("mode", "what"),
    [
        (pygit2.enums.FileMode.LINK, "a symlink"),
        (pygit2.enums.FileMode.BLOB_EXECUTABLE, "an executable"),
    ],
)
def test_symlinks_and_executables_in_the_tree_are_reported(
    initialised: Path, gm: Gm, mode: int, what: str
) -> None:
    capture_sample(gm)
    data = b"We agreed to ship the parser on friday.\n"
    path = content_path("snapshots", sha256_hex(data))
    tamper.add_entry(Store.discover(initialised), path, data, mode)
    code, report = verify(gm)
    assert code == 3
    assert problems(report) == {(path, "unexpected entry")}
    assert what in report["problems"][0]["detail"]
    assert Store.discover(initialised).read_snapshot(sha256_hex(data)) is None


def test_a_record_in_the_wrong_folder_is_reported(initialised: Path, gm: Gm) -> None:
    address = capture_sample(gm)["checkpoint"]
    store = Store.discover(initialised)
    record = store.read_path(content_path("checkpoints", address))
    receipt = store.read_path(content_path("receipts", address))
    assert record is not None and receipt is not None
    tamper.remove_path(store, content_path("checkpoints", address))
    tamper.add_entry(store, content_path("events", address), record, pygit2.enums.FileMode.BLOB)
    code, report = verify(gm)
    assert code == 3
    assert (content_path("events", address), "record in the wrong folder") in problems(report)
