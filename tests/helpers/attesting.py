"""Exports for the attestation tests: a small memory captured through the CLI, its
bundle, the envelopes and statements in it, a fresh clone to import into, and the
independent verifier (tests/helpers/intoto_verifier.py) run as a process of its own."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from gitmem.core.intoto.dsse import sign_envelope
from gitmem.core.intoto.statement import PAYLOAD_TYPE, payload_of
from gitmem.core.receipts import Signer
from helpers import ROOT, Result, git, run
from helpers.capturing import capture_text, decision

VERIFIER = Path(__file__).with_name("intoto_verifier.py")
SCHEMA = ROOT / "docs" / "schemas" / "memory-item-v1.json"


def small_memory(gm: Any, repo: Path) -> dict[str, str]:
    """Two sessions: a verbatim decision with a file claim, a verbatim open loop (later
    resolved), an inferred belief; a second session's decision, then one forgotten.
    Item text → id."""
    first = capture_text(
        gm,
        repo.parent / "first.md",
        "We decided to keep the parser in src/parser.py for now.\n"
        "TODO: benchmark the parser on the big corpus before the release.\n",
        [
            {
                **decision("Keep the parser in src/parser.py", "keep the parser in src/parser.py"),
                "claims": [{"type": "file-exists", "path": "README.md"}],
            },
            {
                "kind": "open_loop",
                "text": "Benchmark the parser",
                "trust": "verbatim",
                "quote": "benchmark the parser on the big corpus",
            },
            {"kind": "belief", "text": "The parser is fast enough", "trust": "inferred"},
        ],
    )
    second = capture_text(
        gm,
        repo.parent / "second.md",
        'Ünïcode first: the cache lives in "var/cache" … and we never evict it by hand.\n',
        [decision("The cache lives in var/cache", 'the cache lives in "var/cache"')],
    )
    ids = {i["text"]: i["id"] for r in (first, second) for i in r["items"]}
    assert gm("resolve", ids["Benchmark the parser"][:12], "--note", "done").exit_code == 0
    forgotten = capture_text(
        gm,
        repo.parent / "third.md",
        "Call me Ishmael, said the sailor.\n",
        [decision("A sailor spoke", "Call me Ishmael, said the sailor")],
    )
    ids.update({i["text"]: i["id"] for i in forgotten["items"]})
    assert gm("forget", ids["A sailor spoke"][:12]).exit_code == 0
    return ids


def export(gm: Any, out: Path, *args: str) -> Result:
    done = gm("export", *args, "-o", str(out))
    assert done.exit_code == 0, done.stderr
    return done


def envelopes(bundle: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in bundle.read_text().splitlines()]


def statement_of(envelope: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(base64.b64decode(envelope["payload"]))
    return value


def resigned(statement: dict[str, Any], signer: Signer) -> dict[str, Any]:
    """*statement* in a new envelope, signed by *signer*."""
    return sign_envelope(PAYLOAD_TYPE, payload_of(statement), signer).to_json()


def write_bundle(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def fresh_clone(repo: Path, name: str = "clone") -> Path:
    """A clone of the repository's code (memory refs are not cloned)."""
    path = repo.parent / name
    git(repo.parent, "clone", "-q", str(repo), str(path))
    return path


def in_clone(clone: Path, *args: str) -> Result:
    return run("-C", str(clone), *args)


def memory_tip(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "-q", "--verify", "refs/gitmem/memory"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()


def independent(bundle: Path, home: Path) -> list[dict[str, Any]]:
    """The independent verifier's verdict on each line (and whether gitmem was loaded)."""
    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(bundle), str(home / "allowed_signers"), str(SCHEMA)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stderr == "", done.stderr
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert found[-1] == {"gitmem_imported": False}
    return found[:-1]
