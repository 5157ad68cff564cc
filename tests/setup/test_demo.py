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
    assert "[⚠ verbatim withheld: record edited] PR #214" in second
    assert not [line for line in second.splitlines() if line.startswith("- [✓ verbatim]")]
    assert "ssh-keygen -Y verify" in out
    if shutil.which("ssh-keygen"):
        assert 'Good "gitmem" signature for alice@example.com' in out
        assert "Signature verification failed" in out
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_demo_keep(tmp_path: Path) -> None:
    run_demo(tmp_path / "kept", lambda _: None)
    assert (tmp_path / "kept" / "repo" / ".git").is_dir()
    assert (tmp_path / "kept" / "home" / "allowed_signers").is_file()
    with pytest.raises(InputError, match="not empty"):
        run_demo(tmp_path / "kept", lambda _: None)
