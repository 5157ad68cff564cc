"""The forge probe: the state of a PR, merge request or issue, asked of the forge's CLI.

Only a CLI that is installed and answers in the time left is asked: ``gh`` for GitHub,
``glab`` for GitLab (chosen by the host of the claim's repository, else of the
``origin`` remote). It runs in the repository's folder, so it finds the repository the
way a user typing the command would, with stdin closed, prompts and update notices off,
and in its own process group so that a timeout kills everything it started. Not
installed, not logged in, offline, too slow, or an answer that cannot be read: no state,
quietly. After one failure the same program is not asked again by this forge.

POSIX only (process groups).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import pygit2

from gitmem.core import boundedjson
from gitmem.store.repository import remote_url

_MAX_ANSWER = 64 * 1024
_NO_PROMPTS = {
    "GH_PROMPT_DISABLED": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GH_NO_UPDATE_NOTIFIER": "1",
    "GH_SPINNER_DISABLED": "1",
    "GLAB_NO_PROMPT": "true",
    "NO_PROMPT": "true",  # glab before 1.50
    "NO_COLOR": "1",
    "GH_PAGER": "cat",
    "PAGER": "cat",
}
_STATES = {"open": "open", "opened": "open", "merged": "merged", "closed": "closed"}
# git@host:owner/repo, ssh://git@host:22/owner/repo, https://host/owner/repo
_HOST_RE = re.compile(r"^(?:[a-z][\w+.-]*://)?(?:[^@/\s]+@)?(?P<host>[^:/\s]+)", re.IGNORECASE)


@dataclass(frozen=True)
class ForgeAnswer:
    """A forge's answer: ``state`` ``"open"``, ``"merged"``, ``"closed"`` or None;
    ``source`` the program asked (``"gh"``, ``"glab"``), ``reason`` why there is no
    state."""

    state: str | None
    source: str
    reason: str | None = None


class Forge(Protocol):
    """Anything that can tell the state of a PR (``kind="pr"``) or an issue
    (``kind="issue"``) within *timeout* seconds. It must not raise, and must return
    within the timeout."""

    def state(self, kind: str, number: int, repo: str | None, timeout: float) -> ForgeAnswer:
        """The state of PR or issue *number* (in *repo*, ``owner/name`` or
        ``host/owner/name``, else the repository's own)."""
        ...


class NoForge:
    """A forge that is never asked (offline use, or tests of the local probes)."""

    def state(self, kind: str, number: int, repo: str | None, timeout: float) -> ForgeAnswer:
        return ForgeAnswer(None, "", "no forge is consulted")


class CliForge:
    """``gh`` or ``glab`` on PATH, run in *cwd*; *remote_url* chooses between them when a
    claim names no host."""

    def __init__(self, cwd: str, remote_url: str | None) -> None:
        self.cwd = cwd
        self.remote_url = remote_url
        self._failed: dict[str, str] = {}

    @classmethod
    def for_repo(cls, repo: pygit2.Repository) -> CliForge:
        """The forge of *repo*: its working tree, and the URL of ``origin`` (else of
        its first remote)."""
        return cls(repo.workdir or repo.path, remote_url(repo))

    def state(self, kind: str, number: int, repo: str | None, timeout: float) -> ForgeAnswer:
        program = self._program(repo)
        if program in self._failed:
            return ForgeAnswer(None, program, f"not asked again ({self._failed[program]})")
        path = shutil.which(program)
        if path is None:
            return self._fail(program, f"{program} is not installed")
        if repo is None and self.remote_url is None:
            return ForgeAnswer(None, program, "the repository has no remote to ask about")
        if program == "glab":
            argv = [path, "mr" if kind == "pr" else "issue", "view", str(number)]
            argv += ["--output", "json"]
        else:
            argv = [path, kind, "view", str(number), "--json", "state"]
        if repo is not None:
            argv += ["--repo", repo]
        code, out = _run(argv, self.cwd, timeout)
        if code is None:
            return self._fail(program, f"{program} did not answer within {timeout:.2f} s")
        if code < 0:
            return self._fail(program, f"{program} could not be started")
        if code != 0:
            # 4 is gh's "not logged in"; any other failure (offline, no such number)
            # is as likely to repeat.
            return self._fail(program, f"{program} exited with status {code}")
        state = _state_of(out)
        if state is None:
            return self._fail(program, f"{program} gave an answer without a known state")
        return ForgeAnswer(state, program)

    def _program(self, repo: str | None) -> str:
        host = ""
        parts = (repo or "").split("/")
        if len(parts) >= 3 and "." in parts[0]:
            host = parts[0]
        elif self.remote_url:
            match = _HOST_RE.match(self.remote_url)
            host = match.group("host") if match else ""
        return "glab" if "gitlab" in host.lower() else "gh"

    def _fail(self, program: str, reason: str) -> ForgeAnswer:
        self._failed[program] = reason
        return ForgeAnswer(None, program, reason)


def _run(argv: list[str], cwd: str, timeout: float) -> tuple[int | None, bytes]:
    """(exit status, stdout); status None on timeout, -1 when it cannot start."""
    env: Mapping[str, str] = {**os.environ, **_NO_PROMPTS}
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return -1, b""
    try:
        out, _ = proc.communicate(timeout=max(timeout, 0.0))
    except subprocess.TimeoutExpired:
        _kill(proc)
        return None, b""
    except BaseException:
        _kill(proc)
        raise
    # A signal death is a failure like any other, not a start failure.
    return (proc.returncode if proc.returncode >= 0 else 128 - proc.returncode), out


def _kill(proc: subprocess.Popen[bytes]) -> None:
    # The program leads its own session, so its pid is its group id; closing our end
    # of the pipe, rather than draining it, keeps a grandchild that escaped the group
    # from holding us up.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    if proc.stdout is not None:
        proc.stdout.close()
    proc.wait()


def _state_of(out: bytes) -> str | None:
    if len(out) > _MAX_ANSWER:
        return None
    try:
        answer = boundedjson.loads(out)
    except ValueError:
        return None
    state = answer.get("state") if isinstance(answer, dict) else None
    return _STATES.get(state.lower()) if isinstance(state, str) else None
