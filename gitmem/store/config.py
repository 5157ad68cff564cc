"""Settings: built-in defaults, then ``$GITMEM_HOME/config.json``, then the repository's
``.git/gitmem/config.json``, then ``GITMEM_*`` environment variables (last wins).

Both files are flat JSON objects. The personal file also holds the identity
(``principal``, ``signing_key``), which only ``gitmem init`` writes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.core.extractors import CHOICES
from gitmem.store.files import atomic_write
from gitmem.store.home import CONFIG_FILE


class Setting(NamedTuple):
    key: str
    kind: type
    default: Any
    env: str | None
    help: str
    choices: tuple[str, ...] = ()
    """The only values a text setting may take (empty: any text)."""
    url: bool = False
    """A text setting that must be an http(s) URL."""
    shape: str | None = None
    """``command``: a non-empty command line; ``ref``: a branch name."""


SETTINGS = {
    s.key: s
    for s in (
        Setting(
            "extractor",
            str,
            "heuristic",
            "GITMEM_EXTRACTOR",
            f"default extractor: {', '.join(CHOICES[:-1])} or {CHOICES[-1]}",
            choices=CHOICES,
        ),
        Setting(
            "command",
            str,
            None,
            "GITMEM_COMMAND",
            "model command for the command extractor (prompt on stdin, JSON on stdout)",
            shape="command",
        ),
        Setting(
            "openai.base_url",
            str,
            None,
            "GITMEM_OPENAI_BASE_URL",
            "OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1",
            url=True,
        ),
        Setting("openai.model", str, None, "GITMEM_OPENAI_MODEL", "model name for openai"),
        Setting(
            "openai.api_key",
            str,
            None,
            "GITMEM_OPENAI_API_KEY",
            "API key for openai (prefer the environment variable)",
        ),
        Setting("timeout", int, 60, "GITMEM_TIMEOUT", "seconds a model call may take"),
        Setting(
            "claude.model",
            str,
            None,
            "GITMEM_CLAUDE_MODEL",
            "model for the claude extractor (claude -p --model; default: the CLI's own)",
        ),
        Setting(
            "codex.model",
            str,
            None,
            "GITMEM_CODEX_MODEL",
            "model for the codex extractor (codex exec --model; default: the CLI's own)",
        ),
        Setting(
            "host.timeout",
            int,
            300,
            "GITMEM_HOST_TIMEOUT",
            "seconds one call of the claude or codex extractor may take",
        ),
        Setting(
            "host.calls",
            int,
            12,
            "GITMEM_HOST_CALLS",
            "most calls of the claude or codex extractor per session (one per 150,000 "
            "characters); a longer session's earlier part is read by the heuristic",
        ),
        Setting(
            "ask.reuse_window",
            int,
            3600,
            "GITMEM_ASK_REUSE_WINDOW",
            "seconds within which an identical ask (same question, same sources) reuses "
            "its outcome record instead of writing another",
        ),
        Setting(
            "transcript",
            str,
            None,
            "GITMEM_TRANSCRIPT",
            "the agent transcript the commit hook captures (default: found)",
        ),
        Setting(
            "trust_ref",
            str,
            None,
            "GITMEM_TRUST_REF",
            "the branch whose committed .gitmem/allowed_signers is trusted "
            "(default: origin's default branch, else the local default branch)",
            shape="ref",
        ),
        Setting(
            "release_candidates",
            bool,
            False,
            None,
            "post-commit: record every new commit of the default branch as an unsigned "
            "release candidate",
        ),
        Setting(
            "unmerged_branch_days",
            int,
            14,
            None,
            "days after which the brief hides items captured on a branch deleted without "
            "being merged (with a notice)",
        ),
        Setting(
            "sync_on_push",
            bool,
            False,
            None,
            "pre-push: also push refs/gitmem/memory to the same remote",
        ),
    )
}
IDENTITY_KEYS = ("principal", "signing_key")
_REF_NAME = re.compile(r"(?!-)(?!.*\.\.)(?!.*//)(?!.*@\{)[^\s~^:?*\[\\\x00-\x1f\x7f]+(?<![./])")
"""A branch name as ``git check-ref-format --branch`` would take it (the rules that
matter: no whitespace, no ``..``, none of ``~^:?*[`` or a backslash, no leading ``-``,
no trailing ``.`` or ``/``)."""
MAX_BYTES = 1 << 20
"""The largest config file read (1 MiB; a real one is a few hundred bytes)."""
MAX_INT = 86_400
"""The largest whole-number setting (a timeout of one day)."""


def read_file(path: Path) -> dict[str, Any]:
    """A config file's settings (empty when absent).

    Raises:
        InputError: the file cannot be read, is larger than :data:`MAX_BYTES`, is not
            UTF-8, or is not a JSON object within the bounds of
            :mod:`gitmem.core.boundedjson`.
    """
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from e
    if len(raw) > MAX_BYTES:
        raise InputError(f"{path} is larger than {MAX_BYTES >> 10} KiB; it is not a config")
    try:
        data = boundedjson.loads(raw.decode("utf-8"), max_int_digits=18)
    except UnicodeDecodeError as e:
        raise InputError(f"{path} is not UTF-8 text") from e
    except ValueError as e:
        raise InputError(f"{path} is not valid JSON: {e}") from e
    if not isinstance(data, dict):
        raise InputError(f"{path} must hold a JSON object")
    return data


def write_file(path: Path, data: Mapping[str, Any]) -> None:
    """Write a config file atomically, 0600 (it may name a key path or an API key)."""
    atomic_write(path, (json.dumps(dict(data), indent=2, sort_keys=True) + "\n").encode(), 0o600)


def parse_value(key: str, text: str) -> Any:
    """Turn command-line or environment text into the setting's type.

    Raises:
        InputError: an unknown key or a value of the wrong type.
    """
    definition = setting(key)
    if definition.kind is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise InputError(f"{key} must be true or false, not {text!r}")
    if definition.kind is int:
        try:
            value = int(text)
        except ValueError as e:
            raise InputError(f"{key} must be a whole number, not {text!r}") from e
        if not 0 < value <= MAX_INT:
            raise InputError(f"{key} must be a whole number from 1 to {MAX_INT}")
        return value
    return _check_text(key, text, "")


def _check_text(key: str, text: str, where: str) -> str:
    """*text* when it is a value *key* may take: one of its choices, an http(s) URL, no
    NUL; *where* prefixes the message (a file's path).

    Raises:
        InputError: a value the setting cannot take.
    """
    definition = SETTINGS[key]
    if "\x00" in text:
        raise InputError(f"{where}{key} holds a NUL character")
    if definition.choices and text not in definition.choices:
        raise InputError(
            f"{where}{key} must be one of {', '.join(definition.choices)}, not {text!r}"
        )
    if definition.url and not text.startswith(("http://", "https://")):
        raise InputError(f"{where}{key} must be an http:// or https:// URL, not {text!r}")
    if definition.shape == "command":
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise InputError(f"{where}{key} must be a command line ({e}), not {text!r}") from e
        if not words:
            raise InputError(f"{where}{key} must be a command line, not empty")
    if definition.shape == "ref" and not _REF_NAME.fullmatch(text):
        raise InputError(f"{where}{key} must be a branch name, not {text!r}")
    return text


class Settings(NamedTuple):
    values: Mapping[str, Any]
    sources: Mapping[str, str]

    def get(self, key: str) -> Any:
        return self.values.get(key, setting(key).default)

    def text(self, key: str) -> str | None:
        value = self.get(key)
        return value if isinstance(value, str) and value else None


def load_settings(
    home: Path, repo_local: Path | None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Merge defaults, the personal file, the repository file and the environment.

    Raises:
        InputError: a file is malformed or a value has the wrong type.
    """
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    layers = [(home / CONFIG_FILE, read_file(home / CONFIG_FILE))]
    if repo_local is not None:
        layers.append((repo_local / CONFIG_FILE, read_file(repo_local / CONFIG_FILE)))
    for path, data in layers:
        for key, value in data.items():
            if key in SETTINGS:
                values[key] = _check_type(key, value, path)
                sources[key] = str(path)
    for key, definition in SETTINGS.items():
        if definition.env and env.get(definition.env):
            values[key] = parse_value(key, env[definition.env])
            sources[key] = f"${definition.env}"
    if "openai.api_key" not in values and env.get("OPENAI_API_KEY"):
        values["openai.api_key"] = env["OPENAI_API_KEY"]
        sources["openai.api_key"] = "$OPENAI_API_KEY"
    return Settings(values, sources)


def _check_type(key: str, value: Any, path: Path) -> Any:
    kind = SETTINGS[key].kind
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise InputError(f"{path}: {key} must be a {kind.__name__}")
    if kind is int and not 0 < value <= MAX_INT:
        raise InputError(f"{path}: {key} must be a whole number from 1 to {MAX_INT}")
    if kind is str:
        return _check_text(key, value, f"{path}: ")
    return value


def setting(key: str) -> Setting:
    """The definition of *key*.

    Raises:
        InputError: an unknown key.
    """
    try:
        return SETTINGS[key]
    except KeyError:
        raise InputError(f"unknown setting {key!r}; known: {', '.join(SETTINGS)}") from None


def config_path(home: Path, repo_local: Path | None, in_repo: bool) -> Path:
    """The file ``gitmem config`` writes: the repository's with *in_repo*, else the
    personal one.

    Raises:
        InputError: *in_repo* outside a repository.
    """
    if not in_repo:
        return home / CONFIG_FILE
    if repo_local is None:
        raise InputError("--repo needs a git repository")
    return repo_local / CONFIG_FILE


def set_value(path: Path, key: str, text: str | None) -> None:
    """Set *key* to *text* (parsed to the setting's type) in the file at *path*, or remove
    it when *text* is None (any key, so a stale one can be removed); the other keys are
    kept as they are.

    Raises:
        InputError: setting an unknown key or a value of the wrong type; a malformed file.
    """
    value = None if text is None else parse_value(key, text)
    data = read_file(path)
    if text is None:
        data.pop(key, None)
    else:
        data[key] = value
    write_file(path, data)


def shown_settings(settings: Settings, key: str | None = None) -> dict[str, tuple[Any, str]]:
    """Every setting (or only *key*) as ``gitmem config`` shows it: the value, an API key
    as ``[set]``, and where it came from (a file, a variable or ``default``).

    Raises:
        InputError: an unknown *key*.
    """
    keys = list(SETTINGS) if key is None else [setting(key).key]
    return {k: (_redacted(k, settings.get(k)), settings.sources.get(k, "default")) for k in keys}


def _redacted(key: str, value: Any) -> Any:
    return "[set]" if key.endswith("api_key") and value else value
