"""The GitHub Actions workflow in docs/review.md: valid YAML of the right shape, shell
that parses, and its fetch and review steps run for real on a fresh clone of a remote
that holds memory."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from helpers import ROOT, git
from helpers.capturing import capture

from gitmem.brief.review.render import MARKER

DOC = ROOT / "docs" / "review.md"


def workflow() -> dict[Any, Any]:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    assert len(blocks) == 1, "docs/review.md holds exactly one yaml block: the workflow"
    document = yaml.safe_load(blocks[0])
    assert isinstance(document, dict)
    return document


def steps() -> list[dict[str, Any]]:
    found = workflow()["jobs"]["review"]["steps"]
    assert isinstance(found, list)
    return found


def step(name: str) -> dict[str, Any]:
    return next(s for s in steps() if s.get("name") == name)


def test_the_workflow_is_yaml_of_the_right_shape() -> None:
    document = workflow()
    # YAML 1.1 reads the key `on` as True: GitHub reads it as "on"
    trigger = document.get("on", document.get(True))
    assert "pull_request" in trigger
    assert document["permissions"] == {"contents": "read", "pull-requests": "write"}
    job = document["jobs"]["review"]
    assert job["runs-on"] == "ubuntu-latest" and job["timeout-minutes"] <= 15
    checkout = steps()[0]
    assert checkout["uses"].startswith("actions/checkout@") and checkout["with"]["fetch-depth"] == 0
    scripts = "\n".join(s.get("run", "") for s in steps())
    assert "+refs/gitmem/*:refs/gitmem/*" in scripts
    assert "gitmem review" in scripts and "--format markdown" in scripts
    assert MARKER in scripts and "gh api" in scripts and "gh pr comment" in scripts
    assert "GH_TOKEN" in step("Post or update the comment")["env"]


def test_no_value_of_the_pull_request_is_pasted_into_a_script() -> None:
    for found in steps():
        assert "${{" not in found.get("run", ""), found["name"]


def test_every_script_is_valid_shell() -> None:
    for found in steps():
        if "run" in found:
            done = subprocess.run(
                ["bash", "-n"], input=found["run"], text=True, capture_output=True
            )
            assert done.returncode == 0, (found["name"], done.stderr)


def test_the_fetch_and_review_steps_work_on_a_fresh_clone(
    gm: Any, initialised: Path, tmp_path: Path
) -> None:
    """A remote with a main line and a feature branch that carries memory; the workflow's
    own scripts, run in a fresh clone as the runner would, produce the comment."""
    key = gm("keys", "export")
    assert key.exit_code == 0, key.stderr
    (initialised / ".gitmem").mkdir()
    (initialised / ".gitmem" / "allowed_signers").write_text(key.stdout)
    git(initialised, "add", ".gitmem")
    git(initialised, "commit", "-q", "-m", "team trust")  # the runner's only trust root
    git(initialised, "checkout", "-q", "-b", "feature")
    (initialised / "app.py").write_text("print(1)\n")
    git(initialised, "add", "app.py")
    git(initialised, "commit", "-q", "-m", "app")
    transcript = tmp_path / "t.md"
    transcript.write_text("We agreed that app.py prints one.\n")
    items = [
        {
            "kind": "decision",
            "text": "app.py prints one",
            "trust": "verbatim",
            "quote": "prints one",
        }
    ]
    capture(gm, transcript, items)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(initialised, "push", "-q", str(remote), "main", "feature", "refs/gitmem/memory")
    head = git(initialised, "rev-parse", "feature").strip()
    clone = tmp_path / "runner"
    subprocess.run(["git", "clone", "-q", str(remote), str(clone)], check=True)
    git(clone, "checkout", "-q", "--detach", head)
    untrusted = tmp_path / "runner-home"  # a runner has no personal trust root
    assert not untrusted.exists()
    shim = tmp_path / "bin" / "gitmem"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gitmem "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    summary = tmp_path / "summary.md"
    env = {
        **os.environ,
        "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITMEM_HOME": str(untrusted),
        "BASE_REF": "main",
        "HEAD_SHA": head,
    }
    for name in ("Fetch the memory refs", "Review the pull request's commits"):
        done = subprocess.run(
            ["bash", "-e", "-c", step(name)["run"]],
            cwd=clone,
            env=env,
            text=True,
            capture_output=True,
        )
        assert done.returncode == 0, (name, done.stderr)
    comment = (clone / "gitmem-review.md").read_text()
    assert comment.startswith(MARKER) and comment == summary.read_text()
    assert '[✓ verbatim] app.py prints one — "prints one"' in comment.replace("\\", "")
