from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from gitmem.core.errors import InputError
from gitmem.setup.demo import run_demo


def test_demo_shows_the_degrade_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # our own temp folder
    lines: list[str] = []
    run_demo(None, lines.append)
    out = "\n".join(lines)
    first, second = out.split("== 5.")
    assert "[✓ verbatim] PR #214" in first
    assert "[⚠ verbatim withheld: item edited] PR #214" in second
    # Only the edited item's blob fails: the other items are blobs of their own, intact.
    assert not [
        line for line in second.splitlines() if "PR #214" in line and line.startswith("- [✓")
    ]
    assert "ssh-keygen -Y verify" in out
    if shutil.which("ssh-keygen"):
        assert 'Good "gitmem" signature for alice@example.com' in out
        assert "the item now hashes to" in out and "not for the bytes mallory left" in out
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_demo_keep(tmp_path: Path) -> None:
    run_demo(tmp_path / "kept", lambda _: None)
    assert (tmp_path / "kept" / "repo" / ".git").is_dir()
    assert (tmp_path / "kept" / "home" / "allowed_signers").is_file()
    with pytest.raises(InputError, match="not empty"):
        run_demo(tmp_path / "kept", lambda _: None)
