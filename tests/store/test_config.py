from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitmem.core.errors import InputError
from gitmem.store.config import load_settings, parse_value


def write(path: Path, data: dict[str, object]) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text(json.dumps(data))


def test_layers_defaults_home_repo_env(tmp_path: Path) -> None:
    home, local = tmp_path / "home", tmp_path / "local"
    write(home, {"extractor": "command", "command": "home-cmd", "timeout": 5, "principal": "alice"})
    write(local, {"command": "repo-cmd"})
    settings = load_settings(home, local, {"GITMEM_TIMEOUT": "9"})
    assert settings.get("extractor") == "command"
    assert settings.get("command") == "repo-cmd"
    assert settings.get("timeout") == 9 and settings.sources["timeout"] == "$GITMEM_TIMEOUT"
    assert settings.get("sync_on_push") is False
    assert load_settings(tmp_path / "none", None, {}).get("extractor") == "heuristic"


def test_openai_key_from_the_standard_variable(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, None, {"OPENAI_API_KEY": "k"})
    assert settings.text("openai.api_key") == "k"


@pytest.mark.parametrize(
    ("data", "message"),
    [({"timeout": "soon"}, "timeout must be a int"), ({"sync_on_push": 1}, "must be a bool")],
)
def test_wrong_types_in_files_are_refused(
    tmp_path: Path, data: dict[str, object], message: str
) -> None:
    write(tmp_path, data)
    with pytest.raises(InputError, match=message):
        load_settings(tmp_path, None, {})


def test_parse_value() -> None:
    assert parse_value("sync_on_push", "yes") is True
    assert parse_value("timeout", "30") == 30
    with pytest.raises(InputError):
        parse_value("timeout", "0")
    with pytest.raises(InputError, match="unknown setting"):
        parse_value("colour", "blue")
