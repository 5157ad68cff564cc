"""A repository's refs and remotes read from its files, without libgit2, for certain or
not at all.

The pre-push hook runs in the foreground of ``git push`` and usually finds nothing to
do; loading pygit2 alone costs most of its start. So it first reads what it needs here:
where the git directory is, the refs under a few prefixes (loose files and
``packed-refs``), and whether the repository's own config names a remote. Every reader
answers only what the files say plainly and returns None for anything else (a reftable
store, a symbolic ref, a lock file, an odd name, a config line it does not parse); the
caller then opens the repository through pygit2 as before. Cheap to import: standard
library only.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

REFS_PREFIX = "refs/gitmem/"
"""Every ref gitmem shares lives under this prefix; sync, backup and verify cover them all."""
TRACKING_PREFIX = "refs/gitmem-remotes/"
"""What sync last fetched from each remote: ``refs/gitmem-remotes/<remote>/<name>``."""
MEMORY_REF = "refs/gitmem/memory"
RELEASES_REF = "refs/gitmem/releases"
SHARED_REFS = (MEMORY_REF, RELEASES_REF)
"""The refs under :data:`REFS_PREFIX` gitmem writes: the only ones it reads, exchanges,
backs up or verifies as memory (:func:`is_shared_ref`)."""


def is_shared_ref(name: str) -> bool:
    """Whether *name* is a ref gitmem writes under :data:`REFS_PREFIX`. Any other name
    there (``refs/gitmem/evil``, ``refs/gitmem/team/memory``, pushed by a teammate or
    fetched) is junk: reported, never read as memory, merged or pushed. Raises nothing."""
    return name in SHARED_REFS


_OID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_SECTION = re.compile(r'\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]\s*([#;].*)?')
_KEY = re.compile(r"([A-Za-z][A-Za-z0-9-]*)\s*(=.*)?")
_MAX_REF_BYTES = 256
_MAX_FILE_BYTES = 1 << 22


class GitDirs(NamedTuple):
    """A repository's git directory, and the one its worktrees share (the same path
    outside a linked worktree)."""

    git_dir: Path
    common_dir: Path
    work_tree: Path
    """The folder that holds the ``.git`` found."""


def find_git_dirs(start: str | Path) -> GitDirs | None:
    """The git directories of the working tree holding *start*, found as libgit2's
    discovery finds them; None when it is not plainly that (no repository, a bare one,
    *start* inside a git directory, a ``.git`` file that does not parse). Raises
    OSError when a file cannot be read."""
    here = Path(start).resolve()
    for level in (here, *here.parents):
        if (level / "HEAD").is_file() or (level / "commondir").is_file():
            return None  # a git directory itself (bare, or inside .git): not this reader's
        dotgit = level / ".git"
        if dotgit.is_dir():
            git_dir = dotgit
        elif dotgit.is_file():
            text = dotgit.read_text(encoding="utf-8").strip()
            if not text.startswith("gitdir:") or "\n" in text:
                return None
            git_dir = level / text.removeprefix("gitdir:").strip()
        else:
            continue
        if not (git_dir / "HEAD").is_file():
            return None
        pointer = git_dir / "commondir"
        if pointer.is_file():
            return GitDirs(git_dir, (git_dir / pointer.read_text().strip()).resolve(), level)
        return GitDirs(git_dir, git_dir, level)
    return None


def read_refs(common_dir: Path, prefixes: tuple[str, ...]) -> dict[str, str] | None:
    """Every ref under *prefixes* (each ending in ``/``) with the object it points at
    (lowercase hex); None when the refs are not all plain, readable files (see the
    module docstring). Raises OSError when a file cannot be read."""
    if not all(p.endswith("/") and _plain_name(p[:-1]) for p in prefixes):
        return None
    if (common_dir / "reftable").exists() or not (common_dir / "refs").is_dir():
        return None
    found = _packed(common_dir / "packed-refs", prefixes)
    if found is None:
        return None
    for prefix in prefixes:
        base = common_dir / prefix
        if not base.is_dir():
            if base.exists() or base.is_symlink():
                return None
            continue
        for folder, folders, files in os.walk(base):
            if any(Path(folder, f).is_symlink() for f in folders):
                return None  # os.walk would not look inside it; libgit2 would
            for file in files:
                path = Path(folder, file)
                name = path.relative_to(common_dir).as_posix()
                if not _plain_name(name) or path.is_symlink():
                    return None
                with path.open("rb") as handle:
                    data = handle.read(_MAX_REF_BYTES).strip()
                if not _OID.fullmatch(data):
                    return None  # symbolic, empty or half-written: pygit2 says what it is
                found[name] = data.decode()
    return found


def names_remote(common_dir: Path, remote: str) -> bool | None:
    """True when the repository's config gives *remote* a ``url`` (or ``pushurl``), as
    libgit2 lists remotes; None when it does not plainly (the remote may be defined
    elsewhere, or a line is one this reader does not parse). Raises OSError when the
    config cannot be read."""
    if not _PART.fullmatch(remote) or remote.endswith(".lock"):
        return None
    config = common_dir / "config"
    with config.open("rb") as handle:
        text = handle.read(_MAX_FILE_BYTES).decode("utf-8", "replace")
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.endswith("\\"):
            return None  # a value continued on the next line
        if line.startswith("["):
            section = _SECTION.fullmatch(line)
            if section is None:
                return None
            inside = section[1].lower() == "remote" and section[2] == remote
            continue
        key = _KEY.fullmatch(line)
        if key is None:
            return None
        if inside and key[1].lower() in ("url", "pushurl") and key[2] is not None:
            return True
    return None


def _packed(path: Path, prefixes: tuple[str, ...]) -> dict[str, str] | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return {}
    if len(data) > _MAX_FILE_BYTES:
        return None  # a very large file: pygit2 reads it faster than this loop would
    found: dict[str, str] = {}
    for line in data.splitlines():
        if not line or line.startswith((b"#", b"^")):
            continue
        oid, _, raw = line.partition(b" ")
        name = raw.decode("utf-8", "replace")
        if not _OID.fullmatch(oid) or not name.startswith("refs/"):
            return None
        if name.startswith(prefixes):
            if not _plain_name(name):
                return None
            found[name] = oid.decode()
    return found


def _plain_name(name: str) -> bool:
    return all(_PART.fullmatch(p) and not p.endswith(".lock") for p in name.split("/"))
