"""``gitmem init`` with what a flag or the environment can hold: a name with control
characters, a GITMEM_HOME that cannot be a folder. One line, exit 2, nothing written;
never an internal error (exit 70)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import Gm


@pytest.mark.parametrize(
    "name", ["bad\x01name", "tab\tname", "del\x7fname", "c1\x85name", "a\x00b"]
)
def test_a_name_with_a_control_character_is_refused_in_one_line(
    gm: Gm, home: Path, name: str
) -> None:
    result = gm("init", "--name", name)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "internal error" not in result.stderr
    assert not home.exists()


def unusable_homes(tmp_path: Path) -> dict[str, Path]:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere" / "at-all")
    return {
        "a file": a_file,
        "under a file": a_file / "home",
        "a dangling link": dangling,
        "under /proc": Path("/proc/gitmem-home"),
        "a name too long": tmp_path / ("h" * 300),
    }


@pytest.mark.parametrize(
    "case", ["a file", "under a file", "a dangling link", "under /proc", "a name too long"]
)
def test_an_unusable_gitmem_home_is_one_line_and_exit_2(
    gm: Gm, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    home = unusable_homes(tmp_path)[case]
    if case == "under /proc" and not Path("/proc").is_dir():
        pytest.skip("needs /proc")
    monkeypatch.setenv("GITMEM_HOME", str(home))
    result = gm("init", "--name", "alice@example.com")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "internal error" not in result.stderr
    assert not (repo / ".git" / "gitmem").exists()


def test_an_unwritable_gitmem_home_says_which_folder(
    gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.geteuid() == 0:
        home = Path("/proc/gitmem-home")  # root writes anywhere a mode allows
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        home = locked / "home"
    monkeypatch.setenv("GITMEM_HOME", str(home))
    result = gm("init", "--name", "alice@example.com")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gitmem: GITMEM_HOME {home} is not usable: cannot write")
