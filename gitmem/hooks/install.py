"""Install, remove and inspect gitmem's git hooks, as a good citizen of the hooks folder.

Three hooks: ``post-commit``, ``post-rewrite`` and ``pre-push``. Each is a small POSIX sh
script (templates in ``gitmem/hooks/templates/``) that does almost nothing in the
foreground and starts ``gitmem hook …`` detached, so a commit or a push never waits for
gitmem and never fails because of it.

Rules, in the order a reviewer should check them:

1. The hooks folder is the one ``git rev-parse --git-path hooks`` names: it follows
   ``core.hooksPath`` and is shared by every worktree.
2. When ``core.hooksPath`` points somewhere other than ``<git-common-dir>/hooks`` (a team
   folder, husky…), we refuse unless forced: those scripts belong to someone else.
3. A hook that is not ours is never overwritten: it is renamed to
   ``<name>.gitmem-foreign`` (the same file: bytes and mode kept) and our script runs it
   first, with the same arguments and stdin.
4. Our scripts carry :data:`MARKER`; only files carrying it are ever replaced or removed.
5. Uninstall removes our scripts and renames the foreign hooks back.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gitmem.core.errors import GitError, InputError
from gitmem.store.files import atomic_write

HOOK_NAMES = ("post-commit", "post-rewrite", "pre-push")
MARKER = "# gitmem-managed-hook v1"
"""The line that identifies a script written by gitmem."""
FOREIGN_SUFFIX = ".gitmem-foreign"
"""Suffix under which a hook that was there before gitmem is kept (pre-commit: ``.legacy``)."""

# Any version of our marker: a newer or older gitmem's script is still ours to replace.
_MARKER_RE = re.compile(rb"^# gitmem-managed-hook v[0-9]+\s*$", re.MULTILINE)
_TEMPLATE_DIR = "templates"
_SCRIPT_MODE = 0o755


@dataclass(frozen=True)
class HookState:
    """One hook name in the hooks folder."""

    name: str
    installed: bool
    """Something is at ``<hooks>/<name>`` (ours or not)."""
    ours: bool
    """What is there is a gitmem script."""
    foreign: Path | None
    """The preserved foreign hook (``<name>.gitmem-foreign``), if there is one."""


def default_command() -> list[str]:
    """The gitmem command baked into the scripts: this Python, absolute, with ``-m gitmem``.

    An absolute interpreter path keeps the hooks working from a GUI git client whose PATH
    does not hold gitmem.
    """
    return [os.path.abspath(sys.executable), "-m", "gitmem"]


def hooks_dir(repo_workdir_or_gitdir: Path) -> Path:
    """The folder git runs hooks from, exactly as ``git rev-parse --git-path hooks`` names it.

    Raises:
        GitError: the path is not inside a git repository.
    """
    return _git_paths(repo_workdir_or_gitdir)[0]


def render_script(name: str, gitmem_command: Sequence[str] | None = None) -> bytes:
    """The script installed as hook *name*, with *gitmem_command* baked in.

    Raises:
        InputError: *name* is not one of :data:`HOOK_NAMES`, or the command is empty.
    """
    if name not in HOOK_NAMES:
        raise InputError(f"unknown hook {name!r}; gitmem installs {', '.join(HOOK_NAMES)}")
    command = default_command() if gitmem_command is None else list(gitmem_command)
    if not command or not command[0]:
        raise InputError("the gitmem command for the hooks is empty")
    template = resources.files("gitmem.hooks").joinpath(_TEMPLATE_DIR, name).read_text("utf-8")
    script = template.replace("@GITMEM_EXE@", shlex.quote(command[0])).replace(
        "@GITMEM_ARGS@", " ".join(shlex.quote(word) for word in command[1:])
    )
    return script.encode("utf-8")


def status(repo: Path) -> list[HookState]:
    """What is installed for each of :data:`HOOK_NAMES`.

    Raises:
        GitError: *repo* is not inside a git repository.
    """
    folder = hooks_dir(repo)
    return [_state(folder, name) for name in HOOK_NAMES]


def install(
    repo: Path,
    force: bool = False,
    gitmem_command: Sequence[str] | None = None,
    names: Sequence[str] = HOOK_NAMES,
) -> list[HookState]:
    """Install (or update) gitmem's hooks (*names*, default all), keeping any foreign
    hook and still running it; the state of every hook name.

    Idempotent: installing again rewrites only scripts whose text changed (another
    gitmem command, a newer template) and never wraps one of our own scripts.

    Raises:
        GitError: *repo* is not inside a git repository.
        InputError: ``core.hooksPath`` points to a shared folder and *force* is not set;
            or a hook is in the way that cannot be kept (a foreign hook where another one
            is already kept as ``.gitmem-foreign``, a folder with a hook's name).
    """
    folder, common = _git_paths(repo)
    if not force and os.path.realpath(folder) != os.path.realpath(common / "hooks"):
        raise InputError(
            f"core.hooksPath points to {folder}; gitmem would write into a shared hooks "
            "folder: add `gitmem hook post-commit` (and post-rewrite, pre-push) to it "
            "yourself, or use --force"
        )
    scripts = {name: render_script(name, gitmem_command) for name in names}
    # 1. Check everything before touching anything: a refusal leaves the folder as it was.
    for name in names:
        _check_installable(folder, name)
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        path, kept = folder / name, _foreign_path(folder, name)
        # 2. Our own script is never kept as "foreign": running it would run us twice.
        if os.path.lexists(kept) and _is_ours(kept):
            kept.unlink()
        # 3. A foreign hook moves aside, as the same file (bytes, mode, symlink and all).
        if os.path.lexists(path) and not _is_ours(path):
            os.rename(path, kept)
        # 4. Our script, written only when its text changed.
        current = path.is_file() and os.access(path, os.X_OK) and path.read_bytes()
        if current != scripts[name]:
            atomic_write(path, scripts[name], _SCRIPT_MODE, dir_mode=0o755)
    return [_state(folder, name) for name in HOOK_NAMES]


def uninstall(repo: Path) -> list[HookState]:
    """Remove gitmem's scripts and put back the foreign hooks they kept.

    A hook that is not ours is never removed. When a foreign hook has taken the place of
    ours while another is kept as ``.gitmem-foreign``, both are left as they are (the
    returned state shows it).

    Raises:
        GitError: *repo* is not inside a git repository.
    """
    folder = hooks_dir(repo)
    for name in HOOK_NAMES:
        path, kept = folder / name, _foreign_path(folder, name)
        if os.path.lexists(path) and _is_ours(path):
            path.unlink()
        if not os.path.lexists(kept):
            continue
        if _is_ours(kept):
            kept.unlink()
        elif not os.path.lexists(path):
            os.rename(kept, path)
    return [_state(folder, name) for name in HOOK_NAMES]


# -- helpers --------------------------------------------------------------------


def _git_paths(start: Path) -> tuple[Path, Path]:
    """``(hooks folder, git common dir)`` as git names them, run from *start*."""
    queries = ["--git-path", "hooks", "--git-common-dir"]
    done = _rev_parse(start, ["--path-format=absolute", *queries])
    if done.returncode != 0:
        # git before 2.31 has no --path-format: its paths are relative to *start*.
        done = _rev_parse(start, queries)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != 2:
        detail = done.stderr.strip().splitlines()
        raise GitError(f"not a git repository: {start}" + (f" ({detail[-1]})" if detail else ""))
    folder, common = (Path(start, line) for line in lines)
    return Path(os.path.normpath(folder)), Path(os.path.normpath(common))


def _rev_parse(start: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", "rev-parse", *args],
            cwd=start,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as e:
        raise GitError(f"cannot run git in {start}: {e}") from e


def _foreign_path(folder: Path, name: str) -> Path:
    return folder / f"{name}{FOREIGN_SUFFIX}"


def _is_ours(path: Path) -> bool:
    try:
        return _MARKER_RE.search(path.read_bytes()) is not None
    except OSError:  # a dangling symlink, a folder, an unreadable file: not ours
        return False


def _check_installable(folder: Path, name: str) -> None:
    path, kept = folder / name, _foreign_path(folder, name)
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a hook; move it away and run again")
    if (
        os.path.lexists(path)
        and not _is_ours(path)
        and os.path.lexists(kept)
        and not _is_ours(kept)
    ):
        raise InputError(
            f"{path} is not gitmem's and {kept.name} already keeps another hook; "
            "gitmem will not overwrite either: merge or move one of them and run again"
        )


def _state(folder: Path, name: str) -> HookState:
    path, kept = folder / name, _foreign_path(folder, name)
    installed = os.path.lexists(path)
    return HookState(
        name=name,
        installed=installed,
        ours=installed and _is_ours(path),
        foreign=kept if os.path.lexists(kept) else None,
    )
