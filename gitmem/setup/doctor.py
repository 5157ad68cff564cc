"""``gitmem doctor``: named checks of everything gitmem needs to work here, each with the
fix when it does not.

A check is ``ok``, ``warn`` (works, but something is missing that you probably want) or
``fail`` (something is broken: a key that does not load, a hook that cannot run, a host
command that does not resolve, a capture that failed last). Doctor checks the setup;
whether the stored records verify is ``gitmem verify``'s question (a failing record is
a warning here, pointing there). Nothing is written, not even the emission ledger.
"""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, NamedTuple

from gitmem.agents.host_context import PROMPT_BUDGET
from gitmem.agents.host_specs import HOSTS as HOST_SPECS
from gitmem.agents.host_specs import config_dir
from gitmem.agents.hosts import AGENTS, PROMPT_EVENTS, hooks_turned_off, scope_states
from gitmem.brief.budget import HOST_CAPS, HOSTS, host_budget
from gitmem.core.errors import GitmemError
from gitmem.core.extractors import HOST_EXTRACTORS, host_model_offer
from gitmem.core.shown import shown_text_line
from gitmem.hooks import inflight
from gitmem.hooks.install import hooks_dir
from gitmem.hooks.install import status as git_hook_states
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.head import open_if_quick, stored_records
from gitmem.setup.status import describe_run, last_model_run
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import load_settings
from gitmem.store.keys import load_identity
from gitmem.store.repo import REFS_PREFIX, Store
from gitmem.store.roots import load_trust_roots


class CheckStatus(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"


_MARK = {CheckStatus.OK: "✓", CheckStatus.WARN: "⚠", CheckStatus.FAIL: "✗"}


@dataclass(frozen=True)
class Check:
    name: str
    verdict: CheckStatus
    detail: str
    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.verdict, "detail": self.detail, "fix": self.fix}


class Finding(NamedTuple):
    """What one check found: its verdict, the detail, and the fix when it is not ok."""

    verdict: CheckStatus
    detail: str
    fix: str | None = None


def diagnose(store: Store, home: Path) -> list[Check]:
    """Every check, in order. Raises nothing: a check that cannot run fails, saying why."""
    checks: list[Check] = []
    workdir = Path(store.repo.workdir or store.common_dir)
    steps: list[tuple[str, Callable[[], Finding]]] = [
        ("key", lambda: _key(home)),
        ("trust_roots", lambda: _trust_roots(store, home)),
        ("config", lambda: _config(store, home)),
        ("git_hooks", lambda: _git_hooks(workdir)),
        *[(f"{a}_hooks", _agent_check(a, workdir)) for a in AGENTS],
        ("travel", lambda: _travel(store)),
        # The check's name is output (and JSON): it keeps the index's former name.
        ("read_model", lambda: _index_check(store, home)),
        ("captures", lambda: _captures(store)),
        ("brief_size", lambda: _brief_size(store, home)),
    ]
    for name, step in steps:
        try:
            checks.append(Check(name, *step()))
        except GitmemError as e:
            checks.append(Check(name, CheckStatus.FAIL, str(e), "see the message; `gitmem status`"))
    return checks


def exit_code(checks: list[Check]) -> int:
    """1 when any check failed (an expected "no"), else 0."""
    return 1 if any(c.verdict == CheckStatus.FAIL for c in checks) else 0


def render_text(checks: list[Check]) -> str:
    lines: list[str] = []
    for c in checks:
        # A finding may name what hook input or a file put there (a transcript path).
        lines.append(f"{_MARK[c.verdict]} {c.name}: {shown_text_line(c.detail)}")
        if c.fix and c.verdict != CheckStatus.OK:
            lines.append(f"    fix: {c.fix}")
    failed = sum(c.verdict == CheckStatus.FAIL for c in checks)
    warned = sum(c.verdict == CheckStatus.WARN for c in checks)
    lines.append(f"doctor: {failed} failed, {warned} warning(s), {len(checks)} checks")
    return "\n".join(lines) + "\n"


def _key(home: Path) -> Finding:
    try:
        identity = load_identity(home)
    except GitmemError as e:
        return Finding(CheckStatus.FAIL, str(e), "gitmem init")
    fingerprint = identity.signer.public_key.fingerprint()
    return Finding(CheckStatus.OK, f"{identity.principal} {fingerprint} ({identity.key_path})")


def _trust_roots(store: Store, home: Path) -> Finding:
    roots = load_trust_roots(home, store)
    entries = [e for r in roots.signers for e in r.entries]
    if not entries:
        return Finding(CheckStatus.FAIL, "no trust root holds any key", "gitmem init")
    try:
        mine = load_identity(home).signer.public_key.fingerprint()
    except GitmemError:
        mine = None
    sources = ", ".join(r.source for r in roots.signers)
    if mine is not None and not any(e.key.fingerprint() == mine for e in entries):
        return Finding(
            CheckStatus.FAIL,
            f"your key {mine} is in no trust root ({sources}): what you write shows as untrusted",
            "gitmem init (it adds your key to $GITMEM_HOME/allowed_signers)",
        )
    problems = [p for r in roots.signers for p in r.problems]
    if problems:
        return Finding(
            CheckStatus.WARN,
            f"{len(problems)} line(s) skipped: {problems[0]}",
            "edit the allowed_signers file the message names",
        )
    if roots.revoked.problems:
        return Finding(
            CheckStatus.WARN,
            f"{len(roots.revoked.problems)} revocation line(s) skipped, revoking nothing: "
            f"{roots.revoked.problems[0]}",
            "write each revoked key as a public key line (TYPE BASE64), as ssh-keygen -r reads",
        )
    return Finding(CheckStatus.OK, f"{len(entries)} key(s) in {sources}")


def _config(store: Store, home: Path) -> Finding:
    try:
        settings = load_settings(home, store.local_dir)
    except GitmemError as e:
        return Finding(
            CheckStatus.FAIL, str(e), "gitmem config --unset KEY (or fix the file named)"
        )
    extractor = str(settings.get("extractor"))
    if extractor == "heuristic":
        return Finding(CheckStatus.OK, f"extractor heuristic{_host_model_hint()}")
    if extractor not in HOST_EXTRACTORS:
        return Finding(CheckStatus.OK, f"extractor {extractor}")
    found = shutil.which(extractor)
    if found is None:
        return Finding(
            CheckStatus.WARN,
            f"extractor {extractor}, but no {extractor} on PATH: captures fall back to the "
            "heuristic",
            f"install the {extractor} CLI, or `gitmem config extractor heuristic`",
        )
    run = last_model_run(CaptureLog(store.local_dir).entries(200))
    cost = "no run logged yet" if run is None else f"last run {describe_run(run)}"
    return Finding(CheckStatus.OK, f"extractor {extractor} ({found}); {cost}")


def _host_model_hint() -> str:
    """The offer of a host CLI's model on PATH, if any (the extractor stays opt-in:
    nothing is sent to a model unless asked)."""
    host = next((name for name in HOST_EXTRACTORS if shutil.which(name)), None)
    return "" if host is None else f" ({host} is on PATH; {host_model_offer(host)})"


def _git_hooks(workdir: Path) -> Finding:
    folder = hooks_dir(workdir)
    states = git_hook_states(workdir)
    ours = [s for s in states if s.ours]
    broken = [s.name for s in ours if not os.access(folder / s.name, os.X_OK)]
    if broken:
        paths = " ".join(shlex.quote(str(folder / n)) for n in broken)
        return Finding(
            CheckStatus.FAIL,
            f"not executable, so git skips them: {', '.join(broken)}",
            f"chmod +x {paths} (or: gitmem hooks install)",
        )
    other = [s.name for s in states if s.installed and not s.ours]
    if len(ours) == len(states):
        return Finding(CheckStatus.OK, f"{', '.join(s.name for s in ours)} in {folder}")
    missing = [s.name for s in states if not s.ours]
    taken = f" ({', '.join(other)}: another tool's)" if other else ""
    return Finding(
        CheckStatus.WARN,
        f"not installed: {', '.join(missing)}{taken}; commits are not captured",
        "gitmem hooks install",
    )


def _agent_check(agent: str, workdir: Path) -> Callable[[], Finding]:
    def check() -> Finding:
        states = scope_states(agent, workdir)
        errors = [s.error for s in states if s.error is not None]
        if errors:
            return Finding(CheckStatus.FAIL, errors[0], "fix the file, or remove it")
        found = [s for s in states if s.commands]
        if not found:
            seen = _host_seen(agent, workdir)
            if seen is None:  # a host this user does not run is no warning, every time
                return Finding(CheckStatus.OK, f"not configured; {agent} is not used here")
            return Finding(
                CheckStatus.WARN,
                f"not configured, though {agent} is used here ({seen})",
                f"gitmem hooks install --agent {agent}",
            )
        off = hooks_turned_off(agent, workdir, None)
        if off is not None:
            return Finding(
                CheckStatus.WARN,
                f"configured, but {agent} hooks are turned off in {off}: nothing runs",
                f"turn {agent}'s hooks on in {off} (docs/hooks.md)",
            )
        unresolved = [
            f"{s.path} {event}: {problem}"
            for s in found
            for event, command in s.commands.items()
            if (problem := _unresolved(command)) is not None
        ]
        if unresolved:
            return Finding(
                CheckStatus.FAIL,
                f"a hook command does not resolve: {unresolved[0]}",
                f"gitmem hooks install --agent {agent} --scope {found[0].scope} "
                "(rewrites the command for this installation)",
            )
        incomplete = [s for s in found if not s.complete]
        where = ", ".join(
            f"{s.scope} ({s.path})"
            + (" + prompt recall" if PROMPT_EVENTS & s.commands.keys() else "")
            for s in found
        )
        if incomplete:
            return Finding(
                CheckStatus.WARN,
                f"only some of gitmem's hooks in {incomplete[0].path}",
                f"gitmem hooks install --agent {agent} --scope {incomplete[0].scope}",
            )
        twice = _twice(agent, found)
        if twice is not None:
            return Finding(CheckStatus.WARN, twice, _keep_one(agent, found))
        return Finding(CheckStatus.OK, f"configured in {where}; commands resolve")

    return check


_PROJECT_FOLDERS = {"claude": ".claude", "codex": ".codex", "gemini": ".gemini"}
"""A host's folder in a repository it works in (Copilot's, ``.github``, says nothing)."""


def _host_seen(agent: str, workdir: Path) -> str | None:
    """Where this machine shows that *agent* is used (its CLI on PATH, its folder in the
    home or in the repository), or None. Raises nothing."""
    on_path = shutil.which(agent)
    if on_path is not None:
        return f"{on_path} on PATH"
    folders = [config_dir(agent)]
    if agent in _PROJECT_FOLDERS:
        folders.append(workdir / _PROJECT_FOLDERS[agent])
    return next((str(f) for f in folders if f.is_dir()), None)


def _twice(agent: str, found: list[Any]) -> str | None:
    """Why the session-start brief would run twice each session, or None: the same host
    wired at two scopes, unless the host runs one command found in two files once
    (Claude Code, Gemini CLI) and the commands are the same."""
    host = HOST_SPECS[agent]
    start = host.session[0].event
    commands = [s.commands[start] for s in found if start in s.commands]
    if len(commands) < 2 or (host.dedups and len(set(commands)) == 1):
        return None
    scopes = " and ".join(f"{s.scope} ({s.path})" for s in found if start in s.commands)
    return (
        f"gitmem's hooks are in two scopes, {scopes}: {host.label} runs both, so every "
        "session gets the brief twice (and captures twice)"
    )


def _keep_one(agent: str, found: list[Any]) -> str:
    keep = HOST_SPECS[agent].default_scope
    drop = [s.scope for s in found if s.scope != keep] or [found[-1].scope]
    return f"gitmem hooks uninstall --agent {agent} --scope {drop[0]}"


def _unresolved(command: str) -> str | None:
    """Why *command*'s program would not start here (None when it would)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return "not a valid command line"
    if not argv:
        return "empty command"
    program = argv[0]
    if os.sep in program:
        if not os.access(program, os.X_OK):
            return f"{program} does not exist or is not executable"
        return None
    if shutil.which(program) is None:
        return f"{program} is not on PATH (hosts launched from an IDE or GUI may have less)"
    return None


def _travel(store: Store) -> Finding:
    remotes = [name for name in store.repo.remotes.names() if name]
    if not remotes:
        return Finding(CheckStatus.OK, "no remote: memory stays in this clone")
    config = store.repo.config
    lacking: list[str] = []
    for remote in remotes:
        fetch = [s for s in config.get_multivar(f"remote.{remote}.fetch") if s]
        push = [s for s in config.get_multivar(f"remote.{remote}.push") if s]
        if not any(REFS_PREFIX in spec for spec in fetch):
            lacking.append(f"{remote}: git fetch does not bring memory")
        if not any(REFS_PREFIX in spec for spec in push) and not _pre_push_pushes(store):
            lacking.append(f"{remote}: git push does not carry memory")
    if lacking:
        return Finding(
            CheckStatus.WARN,
            "; ".join(lacking) + " (`gitmem sync` still does both)",
            "gitmem sync --setup REMOTE",
        )
    return Finding(CheckStatus.OK, f"fetch and push carry {REFS_PREFIX}* ({', '.join(remotes)})")


def _pre_push_pushes(store: Store) -> bool:
    """Whether gitmem's pre-push hook is installed: it pushes this clone's memory to
    whatever remote a push goes to (docs/sync.md)."""
    workdir = Path(store.repo.workdir or store.common_dir)
    return any(s.name == "pre-push" and s.ours for s in git_hook_states(workdir))


def _index_check(store: Store, home: Path) -> Finding:
    roots = load_trust_roots(home, store)
    store = with_fetched(store, roots)  # the view every reader reads: one index, not two
    found = open_if_quick(store, roots)
    if found is None:
        records = stored_records(store)
        return Finding(
            CheckStatus.OK,
            f"{records} record(s); the index is being built in the background "
            "(`gitmem hook index`): how many fail verification, once it is done",
        )
    with found as index:
        totals = index.totals()
        bad_items = len(index.failed_items())
        rebuilt = index.rebuilt
    detail = (
        f"{totals['records']} record(s), {totals['items']} item(s), "
        f"{'rebuilt now' if rebuilt else 'up to date'}"
    )
    failing = totals["failed_records"] + bad_items
    if failing:
        return Finding(
            CheckStatus.WARN,
            f"{detail}; {totals['failed_records']} record(s) and {bad_items} item blob(s) "
            "fail verification and are shown degraded",
            "gitmem verify (says which, and why)",
        )
    return Finding(CheckStatus.OK, detail)


def _captures(store: Store) -> Finding:
    entries = [e for e in CaptureLog(store.local_dir).entries(200) if e.outcome != "skipped"]
    now = time.time()
    died = [
        m for m in inflight.markers(store.local_dir) if m.state(now) == inflight.MarkerState.DIED
    ]
    if entries and entries[0].outcome == "failed":
        last = entries[0]
        return Finding(
            CheckStatus.FAIL,
            f"the last capture failed ({last.time}, {last.source}): {last.detail.get('error')}",
            "fix what the error names, then `gitmem capture --transcript PATH` (or the next "
            "commit) captures again; `gitmem status` lists recent failures",
        )
    if died:
        return Finding(
            CheckStatus.WARN,
            f"{len(died)} background capture(s) died",
            "gitmem status (lists them); the next capture retries",
        )
    if not entries:
        return Finding(CheckStatus.OK, "no capture logged yet")
    return Finding(CheckStatus.OK, f"last capture {entries[0].time} ({entries[0].source})")


def _brief_size(store: Store, home: Path) -> Finding:
    """Each host's session-start brief against what that host keeps before it cuts the
    rest to a preview, in the host's own unit (docs/hooks.md)."""
    from gitmem.brief.emit import make_brief
    from gitmem.brief.render import render_text as render_brief

    brief = make_brief(store, home, world_check=False)
    sizes: list[str] = []
    over: list[str] = []
    for host in HOSTS:
        cap = HOST_CAPS[host]
        size = cap.cost(render_brief(brief, host_budget(host)))
        sizes.append(f"{host} {size:,} of {cap.label()}")
        if size > cap.limit:
            over.append(host)
    detail = (
        f"the session-start brief: {', '.join(sizes)} the host keeps "
        f"(tokens estimated); prompt recall at most {PROMPT_BUDGET:,} bytes"
    )
    if over:
        return Finding(
            CheckStatus.FAIL,
            f"{detail}; over the cap: {', '.join(over)}",
            "report it: a brief is never meant to pass its host's cap",
        )
    return Finding(CheckStatus.OK, detail)
