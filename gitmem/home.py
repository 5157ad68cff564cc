"""Where a user's gitmem state lives: ``$GITMEM_HOME`` and the files in it.

Kept free of heavy imports: the brief and the hooks read these paths on every run.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

CONFIG_FILE = "config.json"
"""Names the active signing key and principal."""
ALLOWED_SIGNERS = "allowed_signers"
"""The personal trust root, in ssh-keygen(1) allowed_signers format."""
KEYS_DIR = "keys"
"""Private keys (0600, OpenSSH format) and their ``.pub`` files."""


def gitmem_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$GITMEM_HOME``, else ``$XDG_CONFIG_HOME/gitmem``, else ``~/.config/gitmem``."""
    env = os.environ if environ is None else environ
    if env.get("GITMEM_HOME"):
        return Path(env["GITMEM_HOME"])
    if env.get("XDG_CONFIG_HOME"):
        return Path(env["XDG_CONFIG_HOME"]) / "gitmem"
    return Path.home() / ".config" / "gitmem"


def atomic_write(path: Path, data: bytes, mode: int, dir_mode: int = 0o700) -> None:
    """Write *data* to *path* through a temp file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=dir_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
