"""A malformed line in the committed team root never stops a command: a NUL byte or a
control character in a principal, or a key that is not one, is skipped, and ``status``,
``doctor`` and the brief say which line; every good line still counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.clones import make_clone, make_remote

BAD_LINES = [
    'mallory\0@example.com namespaces="gitmem" {key}',  # git shows the file as binary
    'mallory\x1b[2J@example.com namespaces="gitmem" {key}',  # a terminal escape
    "mallory@example.com ssh-ed25519 AAAA-not-base64",
]


@pytest.mark.parametrize("bad", BAD_LINES, ids=["nul", "control", "bad-key"])
def test_a_malformed_team_root_line_is_skipped_and_reported(tmp_path: Path, bad: str) -> None:
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    key = bob.export_key().split(" ", 2)[2]  # the key part of bob's line
    good = alice.export_key()
    # Someone with push access commits it to the trust branch; nobody's command may fail.
    alice.commit_file(".gitmem/allowed_signers", f"{bad.format(key=key)}\n{good}\n")
    bob.git("pull", "-q")

    for clone in (alice, bob):
        captured = clone.gm(
            "capture",
            "--transcript",
            str(_transcript(tmp_path, clone.name)),
            "--items",
            "-",
            input='[{"kind":"decision","text":"Keep the cache local","trust":"verbatim",'
            '"quote":"we keep the cache local"}]',
        )
        assert captured.exit_code == 0, captured.stderr
        brief = clone.gm("brief")
        assert brief.exit_code == 0, brief.stderr
        assert "line 1" in brief.stdout and "skipped" in brief.stdout
        assert clone.gm("recall", "cache").exit_code == 0
        status = clone.gm("status", "--json")
        assert status.exit_code == 0
        roots = json.loads(status.stdout)["trust_roots"]
        assert any(p.startswith("line 1:") for r in roots for p in r["problems"]), roots
        doctor = clone.gm("doctor")
        assert "line(s) skipped" in doctor.stdout and "Traceback" not in doctor.stderr
        assert clone.gm("verify").exit_code == 0

    # Alice's own line, the good one, still counts: bob's brief shows her quote verbatim.
    alice.ok("sync")
    bob.ok("sync")
    shown = json.loads(bob.ok("brief", "--format", "json").stdout)["items"]
    mine = [i for i in shown if i["trust"] == "verbatim"]
    assert len(mine) == 2  # alice's through the team root, bob's through his own


def _transcript(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.md"
    path.write_text(f"{name} said: we keep the cache local.\n")
    return path
