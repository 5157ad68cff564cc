"""Rebuild the corpus of public sessions (``corpus/*.jsonl``) from fetched repository mirrors.

    python benchmarks/data/extract/restore.py [--mirrors DIR] [--check] [--only NAME] [GITDIR ...]

The trimmed sessions are not in git (this workplace commits no file taken from another
project's repository); ``corpus/MANIFEST.json`` says where each one comes from (repository,
path, commit) and the SHA-256 of the trimmed file. For every entry this script reads the
source file at its commit from a mirror of its repository, trims it with ``trim.py``'s rule
(the lines the extractor reads, each kept byte for byte) and writes ``corpus/NAME`` only when
the bytes hash to the recorded SHA-256.

Mirrors are bare git directories: the ones given as arguments, and those found under
``--mirrors`` (default ``/work/.mirror``) laid out as ``<owner>+<name>/repo``, the layout
the search tool's ``fetch`` leaves. ``--check`` also parses each source and its trimmed file
with gitmem's own parser and fails unless both give the same conversation messages (user,
assistant and answer messages, in order) and the same session id; a file whose bytes hash
right is written all the same (they are the bytes that were labelled), and the check says
what its trim leaves out.

Exit status: 0 when every file was written (or, with ``--only``, every named one), 1 when a
mirror or commit is missing or a hash or check differs, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
MANIFEST = CORPUS / "MANIFEST.json"
DEFAULT_MIRRORS = Path("/work/.mirror")
CONVERSATION = ("user", "assistant", "answer")


def _load_trim() -> Callable[[list[str]], list[str]]:
    spec = importlib.util.spec_from_file_location("corpus_trim", HERE / "trim.py")
    if spec is None or spec.loader is None:
        raise SystemExit("restore: cannot load trim.py beside this script")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    trim: Callable[[list[str]], list[str]] = module.trim
    return trim


def split_lines(text: str) -> list[str]:
    """The text's lines with their ``\\n``, split on ``\\n`` only: a JSON string may hold a
    raw U+2028 or form feed, which ``str.splitlines`` would wrongly cut at."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


def trimmed_bytes(source: bytes, trim: Callable[[list[str]], list[str]]) -> bytes:
    return "".join(trim(split_lines(source.decode("utf-8")))).encode("utf-8")


def _git(gitdir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True)


def _has_commit(gitdir: Path, commit: str) -> bool:
    return _git(gitdir, "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0


def find_mirror(entry: dict[str, Any], given: list[Path], root: Path) -> Path | None:
    """The git directory holding the entry's commit: a given one first, then the fetched
    mirror named after the repository."""
    for gitdir in given:
        if _has_commit(gitdir, entry["commit"]):
            return gitdir
    owner, name = entry["repository"].split("/", 1)
    for gitdir in (root / f"{owner}+{name}" / "repo", root / f"{owner}+{name}"):
        if gitdir.is_dir() and _has_commit(gitdir, entry["commit"]):
            return gitdir
    return None


def conversation(data: bytes, name: str) -> tuple[str | None, list[tuple[str, str]]]:
    from gitmem.capture.transcripts import parse_transcript

    transcript = parse_transcript(data, name)
    messages = [(m.role or "", m.text) for m in transcript.messages if m.role in CONVERSATION]
    return transcript.session, messages


def restore(
    entry: dict[str, Any],
    given: list[Path],
    root: Path,
    trim: Callable[[list[str]], list[str]],
    check: bool,
) -> str | None:
    """Write one file; the reason it was not written otherwise."""
    gitdir = find_mirror(entry, given, root)
    if gitdir is None:
        return f"no mirror holds {entry['repository']}@{entry['commit'][:12]} (fetch it)"
    shown = _git(gitdir, "show", f"{entry['commit']}:{entry['path']}")
    if shown.returncode != 0:
        return f"{entry['path']} is not readable at {entry['commit'][:12]} in {gitdir}"
    data = trimmed_bytes(shown.stdout, trim)
    digest = hashlib.sha256(data).hexdigest()
    if digest != entry["sha256"]:
        return f"trimmed bytes hash to {digest[:16]}…, not {entry['sha256'][:16]}…"
    # The bytes are the ones labelled: written whatever the check finds, which it reports.
    (CORPUS / entry["name"]).write_bytes(data)
    if check:
        source_name = entry["path"].rsplit("/", 1)[-1]
        (session, source), (trimmed_session, kept) = (
            conversation(shown.stdout, source_name),
            conversation(data, entry["name"]),
        )
        if session != trimmed_session:
            return "written, but the trimmed file names another session than its source"
        left = [m for m in source if m not in kept]
        if left or [m for m in kept if m not in source]:
            roles = sorted({role for role, _ in left})
            return (
                f"written, but the trimmed file leaves out {len(left)} {'/'.join(roles)} "
                "message(s) gitmem reads in the source (see README.md, 'What the trim leaves out')"
            )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gitdirs", nargs="*", type=Path, help="mirror git directories")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--check", action="store_true", help="compare parses (needs gitmem)")
    parser.add_argument("--only", action="append", default=[], help="restore this file only")
    args = parser.parse_args(argv)
    try:
        entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError) as e:
        print(f"restore: cannot read {MANIFEST}: {e}", file=sys.stderr)
        return 2
    wanted = [e for e in entries if not args.only or e["name"] in args.only]
    if args.only and len(wanted) != len(set(args.only)):
        print("restore: --only names a file the manifest does not list", file=sys.stderr)
        return 2
    trim = _load_trim()
    failed = written = 0
    for entry in wanted:
        reason = restore(entry, args.gitdirs, args.mirrors, trim, args.check)
        written += reason is None or reason.startswith("written")
        if reason:
            failed += 1
            print(f"{entry['name']}: {reason}", file=sys.stderr)
    print(f"restored {written} of {len(wanted)} files into {CORPUS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
