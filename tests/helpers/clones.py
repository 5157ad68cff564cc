"""Several people, several clones, one bare remote: for the sync, trust and backup tests.

Each clone has its own ``GITMEM_HOME`` (its own key and personal trust root), as two
teammates on two machines would.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import GIT_ENV, Result, commit, git, run
from helpers.capturing import brief_json
from helpers.grep import SECRET

ITEMS = '[{"kind":"decision","text":"%s","trust":"verbatim","quote":"%s"}]'


@dataclass
class Clone:
    name: str
    path: Path
    home: Path

    @property
    def principal(self) -> str:
        return f"{self.name}@example.com"

    def gm(self, *args: str, input: str | None = None) -> Result:
        """Run gitmem in this clone, as its owner (their GITMEM_HOME)."""
        saved = os.environ.get("GITMEM_HOME")
        os.environ["GITMEM_HOME"] = str(self.home)
        try:
            return run("-C", str(self.path), *args, input=input)
        finally:
            if saved is None:
                os.environ.pop("GITMEM_HOME", None)
            else:
                os.environ["GITMEM_HOME"] = saved

    def ok(self, *args: str, input: str | None = None) -> Result:
        result = self.gm(*args, input=input)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        return result

    def git(self, *args: str) -> str:
        return git(self.path, *args)

    def capture(self, quote: str, text: str | None = None) -> str:
        """Capture a one-item session whose verbatim quote is *quote*; its checkpoint hash."""
        tag = hashlib.sha256(quote.encode()).hexdigest()[:12]
        transcript = self.path.parent / f"{self.name}-{tag}.md"
        transcript.write_text(f"We talked. Then {self.name} said: {quote}.\n")
        items = ITEMS % (text or quote.capitalize(), quote)
        done = self.ok(
            "capture", "--transcript", str(transcript), "--items", "-", "--json", input=items
        )
        data: Any = done.json()
        return str(data["checkpoint"])

    def capture_secret(self) -> str:
        """Capture a session whose transcript and one verbatim item hold :data:`SECRET`;
        the item's id."""
        transcript = self.path.parent / f"{self.name}-secret.md"
        transcript.write_text(f"Then {self.name} said: the staging password is {SECRET} today.\n")
        items = (
            '[{"kind":"decision","text":"Staging password rotates","trust":"verbatim",'
            f'"quote":"the staging password is {SECRET} today"}}]'
        )
        done = self.ok(
            "capture", "--transcript", str(transcript), "--items", "-", "--json", input=items
        )
        data: Any = done.json()
        return str(data["items"][0]["id"])

    def trust(self, *writers: Clone) -> None:
        """This clone's personal trust root vouches for each writer's key."""
        with open(self.home / "allowed_signers", "a") as handle:
            for writer in writers:
                handle.write(writer.export_key() + "\n")

    def forge(self, base: str, path: str, data: str, *, root: bool = False) -> str:
        """A commit of *base*'s tree with *path* holding *data* (with *root*, one with no
        parent: a rewritten history), made with git plumbing as a hostile pusher could; its
        id."""
        index = self.path.parent / f"forge-index-{self.name}"
        index.unlink(missing_ok=True)
        env = {**os.environ, **GIT_ENV, "GIT_INDEX_FILE": str(index)}

        def plumbing(*args: str, stdin: str | None = None) -> str:
            done = subprocess.run(
                ["git", "-C", str(self.path), *args],
                input=stdin,
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            return done.stdout.strip()

        plumbing("read-tree", base)
        blob = plumbing("hash-object", "-w", "--stdin", stdin=data)
        plumbing("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}")
        parents = [] if root else ["-p", base]
        return plumbing("commit-tree", plumbing("write-tree"), *parents, "-m", "forged")

    def records(self) -> set[str]:
        data: Any = self.ok("log", "--json").json()
        return {entry["sha256"] for entry in data}

    def tip(self, ref: str = "refs/gitmem/memory") -> str:
        return self.git("rev-parse", "--verify", "-q", ref).strip()

    def brief(self) -> dict[str, Any]:
        return dict(brief_json(self.gm))

    def export_key(self) -> str:
        return self.ok("keys", "export").stdout.strip()

    def commit_file(
        self, path: str, text: str, message: str = "team file", push: bool = True
    ) -> None:
        """Commit *path* and (by default) push it to origin's main, the trust branch:
        a committed trust file counts once it is merged where the team reviews code."""
        commit(self.path, message, path, text)
        if push:
            self.git("push", "-q", "origin", "HEAD:main")


def make_remote(tmp_path: Path) -> Path:
    """A bare remote whose main branch holds one commit."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed))
    (seed / "README.md").write_text("# project\n")
    git(seed, "add", "README.md")
    git(seed, "commit", "-q", "-m", "initial")
    git(seed, "push", "-q", str(remote), "main")
    return remote


def make_clone(tmp_path: Path, remote: Path, name: str, init: bool = True) -> Clone:
    path = tmp_path / name
    git(tmp_path, "clone", "-q", str(remote), str(path))
    git(path, "config", "user.email", f"{name}@example.com")
    git(path, "config", "user.name", name)
    clone = Clone(name, path, tmp_path / f"home-{name}")
    if init:
        clone.ok("init", "--name", clone.principal)
    return clone
