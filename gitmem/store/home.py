"""Where a user's gitmem state lives: ``$GITMEM_HOME`` and the files in it.

Kept free of heavy imports: the brief and the hooks read these paths on every run.
"""

from __future__ import annotations

import os
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
