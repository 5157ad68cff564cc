"""The reference tool for benchmarks/bench_scale.py: daimon-briefing 0.61 on 3 sessions.

- :func:`install` puts daimon-briefing 0.61.0 in a venv of its own (from the package
  index, or from a wheel file), kept in a cache folder between runs.
- :func:`prepare` writes 3 sessions as Claude Code transcripts (the host daimon reads
  first), each of the shape bench_scale captures into gitmem (a decision with a file
  path, an open TODO, an uncertainty, said verbatim, then filler), and runs daimon's
  session-end command on each: ``daimon serialize TRANSCRIPT``, the checkpoint writer
  its SessionEnd hook runs. Its model is scripted: ``DAIMON_LLM_BACKEND=command`` with
  ``DAIMON_LLM_COMMAND`` naming :data:`MODEL_SCRIPT`, which reads daimon's prompt on
  stdin and prints the strict JSON checkpoint its serializer asks for (the schema at
  the end of ``serializer.SERIALIZE_SYS``): the three statements as ``verbatim`` items
  quoting the transcript exactly, with the ``[mN]`` marker of the message each came
  from (``source_message_ids``, rule 19), and one ``inferred`` belief — so daimon's
  quote verification, carry-forward and rendering all have work to do.
- The command timed is :data:`BRIEF_ARGS`: ``daimon brief --auto --label`` in the
  project folder with ``DAIMON_PROJECT_DIR`` set, exactly what daimon's session-start
  hook runs (``_hooks/_daimon_hook_lib.run_brief``).

Everything daimon writes lives under a scratch ``HOME`` (``~/.daimon``); no ``DAIMON_*``
or ``LITELLM_*`` variable of the caller's leaks in.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

VERSION = "0.61.0"
REQUIREMENT = f"daimon-briefing=={VERSION}"
SESSIONS = 3
BRIEF_ARGS = ("brief", "--auto", "--label")

MODEL_SCRIPT = r'''"""A scripted model for daimon's command backend: prompt in, checkpoint out."""
import json
import re
import sys

prompt = sys.stdin.read()
body = prompt[prompt.find("\nUSER:\n") :]
markers = [(m.start(), m.group(1)) for m in re.finditer(r"\[(m\d+)\]", body)]


def found(pattern):
    match = re.search(pattern, body)
    if match is None:
        return None, None, None
    ids = [mid for at, mid in markers if at < match.start()]
    return match.group(0), match.group(1), ids[-1:] or None


def item(text, quote, ids, importance):
    if quote is None:
        return None
    entry = {"text": text, "trust": "verbatim", "quote": quote, "importance": importance}
    if ids:
        entry["source_message_ids"] = ids
    return entry


decision, word, ids = found(r"keep the (\w+) module in src/\w+\.py for now")
todo, corpus, todo_ids = found(r"TODO: benchmark the parser on corpus (\w+)")
doubt, cache, doubt_ids = found(r"not sure whether cache (\w+) survives a restart")
topic = {"text": f"Work on the {word} module", "trust": "inferred", "quote": "", "importance": 4}
reply = {
    "session_id": "scripted",
    "working_context": {
        "active_topic": topic,
        "open_questions": [
            i for i in [item(f"Benchmark the parser on corpus {corpus}", todo, todo_ids, 6)] if i
        ],
        "recent_decisions": [
            i
            for i in [item(f"Keep the {word} module in src/{word}.py", decision, ids, 7)]
            if i
        ],
    },
    "epistemic_snapshot": {
        "strong_beliefs": [
            {"text": f"The {word} module is stable", "trust": "inferred", "quote": "",
             "importance": 3}
        ],
        "uncertainties": [
            i for i in [item(f"Cache {cache} may not survive a restart", doubt, doubt_ids, 5)] if i
        ],
        "contradictions_flagged": [],
    },
    "worker_queue": [],
}
print(json.dumps(reply))
'''


@dataclass(frozen=True)
class Daimon:
    """A prepared reference: the command to time, where, and with what environment."""

    command: list[str]
    cwd: Path
    env: dict[str, str]
    serialize_seconds: float
    verbatim: int
    """Verbatim items in the latest checkpoint (the scripted quotes that verified)."""


def install(cache: Path, wheel: Path | None) -> Path:
    """The ``daimon`` executable of a venv under *cache* holding daimon-briefing 0.61.0,
    created (from the package index, or *wheel*) when missing.

    Raises:
        RuntimeError: the venv or the install failed (pip's own output says why).
    """
    venv = cache / f"daimon-briefing-{VERSION}"
    daimon = venv / "bin" / "daimon"
    if _version(daimon) == f"daimon {VERSION}":
        return daimon
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    source = str(wheel) if wheel is not None else REQUIREMENT
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", source],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or _version(daimon) != f"daimon {VERSION}":
        raise RuntimeError(f"could not install {source}: {done.stderr.strip()[-2000:]}")
    return daimon


def _version(daimon: Path) -> str | None:
    if not daimon.exists():
        return None
    done = subprocess.run([str(daimon), "--version"], capture_output=True, text=True)
    return done.stdout.strip() or None


def session_text(n: int, word: str) -> list[str]:
    """Session *n*'s messages: the three statements bench_scale's captures hold, then
    the same 100 filler lines, spread over 12 messages (daimon skips sessions shorter
    than 10)."""
    said = [
        f"Session {n}. We decided to keep the {word} module in src/{word}.py for now.",
        f"TODO: benchmark the parser on corpus {word} before the release.",
        f"I am not sure whether cache {word} survives a restart.",
    ]
    filler = ["filler line\n" * 11 + "filler line"] * 9
    return said + filler


def claude_jsonl(session: str, day: int, cwd: Path, messages: list[str]) -> str:
    """Messages as a Claude Code transcript, alternating user and assistant."""
    lines = []
    for i, text in enumerate(messages):
        role = "user" if i % 2 == 0 else "assistant"
        content: object = text if role == "user" else [{"type": "text", "text": text}]
        lines.append(
            json.dumps(
                {
                    "type": role,
                    "uuid": f"{session}-{i}",
                    "sessionId": session,
                    "cwd": str(cwd),
                    "timestamp": f"2026-01-{day:02d}T10:{i:02d}:00Z",
                    "message": {"role": role, "content": content},
                }
            )
        )
    return "\n".join(lines) + "\n"


def prepare(root: Path, daimon: Path, words: list[str]) -> Daimon:
    """A project with :data:`SESSIONS` sessions serialized by daimon, ready to brief.

    Raises:
        RuntimeError: a serialize failed (its output says why).
    """
    project, home = root / "project", root / "home"
    project.mkdir(parents=True)
    home.mkdir()
    who = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x"}
    who |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x"}
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(
        ["git", "-C", str(project), "commit", "-q", "--allow-empty", "-m", "init"],
        check=True,
        env={**os.environ, **who},
    )
    model = root / "model.py"
    model.write_text(MODEL_SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAIMON_", "LITELLM_"))}
    env |= {"HOME": str(home), "DAIMON_PROJECT_DIR": str(project)}
    serialize_env = env | {
        "DAIMON_LLM_BACKEND": "command",
        "DAIMON_LLM_COMMAND": f"{shlex.quote(sys.executable)} {shlex.quote(str(model))}",
    }
    began = time.perf_counter()
    for n in range(SESSIONS):
        session = f"daimon-session-{n}"
        transcript = root / f"{session}.jsonl"
        transcript.write_text(claude_jsonl(session, n + 1, project, session_text(n, words[n])))
        done = subprocess.run(
            [str(daimon), "serialize", str(transcript)],
            cwd=project,
            env=serialize_env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or "wrote checkpoint" not in done.stdout:
            raise RuntimeError(f"daimon serialize failed: {done.stdout}{done.stderr}")
    seconds = time.perf_counter() - began
    command = [str(daimon), *BRIEF_ARGS]
    shown = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)
    if shown.returncode != 0:
        raise RuntimeError(f"daimon brief failed: {shown.stdout}{shown.stderr}")
    return Daimon(command, project, env, seconds, _verbatim(home))


def _verbatim(home: Path) -> int:
    """Verbatim items in the newest checkpoint daimon wrote."""
    newest = max((home / ".daimon" / "checkpoints").glob("daimon-session-*.json"))
    text = newest.read_text()
    return text.count('"trust": "verbatim"')
