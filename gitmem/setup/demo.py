"""``gitmem demo``: the whole promise in one run, with no model and no network.

In a scratch folder: a repository and a GITMEM_HOME, one captured session, the
brief, an attacker's edit of the stored checkpoint, the brief again (degraded),
and the ``ssh-keygen -Y verify`` command that checks a receipt without gitmem.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pygit2

from gitmem.brief.emit import make_brief
from gitmem.brief.render import render_text
from gitmem.capture.items import parse_items
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import load_transcript
from gitmem.core.errors import InputError
from gitmem.core.records import Checkpoint, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.store.keys import init_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from gitmem.store.verify import verify_store
from gitmem.team.checkers import load_checkers

PRINCIPAL = "alice@example.com"
Echo = Callable[[str], None]


def tamper_checkpoint(store: Store, address: Sha256Hex, old: bytes, new: bytes) -> str:
    """Replace *old* with *new* inside a stored checkpoint or one of the item blobs it
    names, in place, as a new commit; the path edited.

    What an attacker with push access can do: the edited bytes stay at the old path
    (so the path no longer names their hash) and every receipt is left alone.

    Raises:
        InputError: neither the checkpoint nor its items hold *old*.
    """
    repo = store.repo
    path = content_path("checkpoints", address)
    data = store.read_path(path)
    if data is not None and old not in data:
        record = parse_record(data)
        named = record.named if isinstance(record, Checkpoint) else ()
        for item in named:
            candidate = store.read_path(content_path("items", item))
            if candidate is not None and old in candidate:
                path, data = content_path("items", item), candidate
                break
    if data is None or old not in data:
        raise InputError(f"nothing to tamper with at {path}")
    tip = repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    index = pygit2.Index()
    index.read_tree(tip.tree)
    index.add(
        pygit2.IndexEntry(
            path, repo.create_blob(data.replace(old, new, 1)), pygit2.enums.FileMode.BLOB
        )
    )
    mallory = pygit2.Signature("mallory", "mallory@example.net")
    commit = repo.create_commit(
        None, mallory, mallory, "tidy memory", index.write_tree(repo), [tip.id]
    )
    repo.references[store.ref].set_target(commit, "tidy memory")
    return path


def run_demo(keep: Path | None, echo: Echo) -> None:
    """Run the demo in a temporary folder (or in *keep*, which is kept)."""
    if keep is not None:
        if keep.exists() and not keep.is_dir():
            raise InputError(f"--keep {keep} is not a folder: give an empty or new one")
        if keep.exists() and any(keep.iterdir()):
            raise InputError(f"--keep folder {keep} is not empty")
        try:
            keep.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"--keep {keep}: cannot make the folder: {e.strerror or e}") from e
        _run(keep.resolve(), echo, kept=True)
        return
    scratch = Path(tempfile.mkdtemp(prefix="gitmem-demo-"))
    try:
        _run(scratch, echo, kept=False)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(root: Path, echo: Echo, kept: bool) -> None:
    home, repo_dir = root / "home", root / "repo"
    data = resources.files("gitmem.setup") / "data"
    transcript_path = root / "session.md"
    transcript_path.write_text(
        (data / "sample_session.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    store = _scratch_repo(repo_dir)

    _step(echo, "1. A signing key for alice, trusted in her personal allowed_signers")
    identity = init_identity(home, PRINCIPAL, None).identity
    echo(f"   key {identity.signer.public_key.fingerprint()} in {home / 'keys'} (0600)")

    _step(echo, "2. Capture the sample session (7 items; 2 of their 'quotes' are not real)")
    drafts = parse_items(
        (data / "sample_items.json").read_text(encoding="utf-8"), "sample_items.json"
    )
    result = capture_transcript(
        Context.open(store, home),
        load_transcript(transcript_path),
        transcript_path,
        source="demo",
        drafts=drafts,
        session="demo-session-1",
    )
    for item in result.items:
        if item.quote_reason and not item.quote_verified:
            echo(f"   stored as ~ inferred: {item.text!r}\n     because {item.quote_reason}")
    checkpoint = result.checkpoint
    assert checkpoint is not None  # a new session's told items are always written
    echo(f"   checkpoint {checkpoint}")

    _step(echo, "3. The brief, every receipt verified")
    echo(render_text(make_brief(store, home)))

    _step(echo, "4. mallory, who can push, edits a stored item in place")
    old, new = b"review requested from Dana", b"approved by Dana"
    where = tamper_checkpoint(store, checkpoint, old, new)
    echo(f'   "{old.decode()}" -> "{new.decode()}" in {where}')

    _step(echo, "5. The brief again: the edit cannot pass as verbatim")
    echo(render_text(make_brief(store, home)))
    report = verify_store(store, load_checkers(home, store).for_ref)
    echo(f"   gitmem verify: {len(report.problems)} problem(s), exit code 3")
    for problem in report.problems:
        echo(f"     ✗ {problem.path}: {problem.problem}")

    _step(echo, "6. Check a receipt by hand, with OpenSSH and no gitmem code")
    _hand_check(echo, home, checkpoint, where, repo_dir, kept)
    if kept:
        env = f"GITMEM_HOME={shlex.quote(str(home))}"
        echo("")
        echo(f"Kept. Look around: {env} gitmem -C {shlex.quote(str(repo_dir))} doctor")


def _scratch_repo(repo_dir: Path) -> Store:
    repo = pygit2.init_repository(str(repo_dir))
    (repo_dir / "README.md").write_text("# scratch project\n", encoding="utf-8")
    repo.index.add("README.md")
    repo.index.write()
    who = pygit2.Signature("alice", PRINCIPAL)
    repo.create_commit("HEAD", who, who, "initial commit", repo.index.write_tree(), [])
    return Store(repo)


def _hand_check(
    echo: Echo, home: Path, address: Sha256Hex, edited: str, repo_dir: Path, kept: bool
) -> None:
    """The receipt checked with OpenSSH, and the edited item's hash against the address
    the signed checkpoint names: no gitmem code involved."""
    record = content_path("checkpoints", address)
    receipt = content_path("receipts", address)
    signers = home / "allowed_signers"
    git = f"git -C {shlex.quote(str(repo_dir))}"
    named = edited.removeprefix("items/").replace("/", "").removesuffix(".json")
    commands = [
        f"{git} cat-file blob refs/gitmem/memory:{receipt} > receipt.sig",
        f"{git} cat-file blob refs/gitmem/memory:{record} | ssh-keygen -Y verify "
        f"-f {shlex.quote(str(signers))} -I {PRINCIPAL} -n gitmem -s receipt.sig",
        f"{git} cat-file blob refs/gitmem/memory:{record} | grep -c {named}",
        f"{git} cat-file blob refs/gitmem/memory:{edited} | sha256sum",
    ]
    echo("   (the signed checkpoint, the item address it names, and the item as mallory left it)")
    for command in commands:
        echo(f"   $ {command}")
    if not kept:
        echo("   (these paths are removed when the demo ends: `gitmem demo --keep DIR` keeps them)")
    if shutil.which("ssh-keygen") is None:
        echo("   ssh-keygen is not installed here, so the demo cannot run these for you.")
        return
    echo("   Running them now:")
    labels = ("", "the checkpoint as signed", "it names the item", "the item now hashes to")
    for label, command in zip(labels, commands, strict=True):
        done = subprocess.run(
            command,
            shell=True,
            cwd=repo_dir.parent,
            capture_output=True,
            text=True,
            check=False,
        )
        output = " ".join((done.stdout + done.stderr).split())
        if label:
            echo(f"   {label}: {output} (exit {done.returncode})")
    echo(f"   the receipt vouches for item {named[:12]}…, not for the bytes mallory left there")


def _step(echo: Echo, title: str) -> None:
    echo("")
    echo(f"== {title}")
