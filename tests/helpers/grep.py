"""Where bytes still are in a repository: every object, and every file under a folder.
For the purge tests, which must find a purged secret nowhere."""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

SECRET = "hunter2-zebra-quartz"
"""The secret the purge tests plant and then must find nowhere."""


def all_objects(repo: Path) -> bytes:
    """Every object git holds, reachable or not (`git cat-file --batch-all-objects`)."""
    return subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout


def files_holding(root: Path, needle: bytes) -> list[str]:
    """Every file under *root* whose bytes hold *needle*, in any case (loose objects
    inflated first)."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if "objects" in path.parts and len(path.parent.name) == 2:
            data = zlib.decompress(data)
        if needle.lower() in data.lower():
            found.append(str(path.relative_to(root)))
    return found
