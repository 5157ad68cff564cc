"""What the release commands do: record a candidate, approve, pin, verify.

Records go to ``refs/gitmem/releases`` through :meth:`gitmem.store.repo.Store.append`
(compare-and-swap, retried). Trust comes from HEAD: ``.gitmem/release_signers`` and
``.gitmem/release_policy.json``. The rollback watermark (the highest approved release
this clone has verified) is local state in ``.git/gitmem/release-seen.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import pygit2

from gitmem.core import canonical
from gitmem.core.errors import InputError, NegativeResult
from gitmem.core.records import Event, format_time
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.store.files import read_state, write_state
from gitmem.store.keys import validate_principal
from gitmem.store.layout import content_path
from gitmem.store.repo import RELEASES_REF, Entry, Store, StoredRecord
from gitmem.store.roots import default_branch
from gitmem.store.seal import seal
from gitmem.team.release.decide import ReleaseDecision, Seen, decide
from gitmem.team.release.records import (
    APPROVAL,
    CANDIDATE,
    MAX_SEQUENCE,
    NAMESPACE,
    PIN,
    SESSION,
    Release,
    ReleaseRecord,
    check_release,
    read_checked,
)
from gitmem.team.release.roots import RELEASE_SIGNERS, ReleaseRoots, load_release_roots
from gitmem.team.release.signing import HeldKey

SEEN_FILE = "release-seen.json"


@dataclass(frozen=True)
class Written:
    address: Sha256Hex
    release: Release
    sequence: int | None
    new: bool
    detail: str


def resolve(store: Store, rev: str) -> Release:
    """The commit *rev* names, with its tree.

    Raises:
        InputError: *rev* names no commit here.
    """
    try:
        commit = store.repo.revparse_single(rev).peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError) as e:
        raise InputError(f"{rev!r} names no commit in this repository") from e
    return Release(GitOid(str(commit.id)), GitOid(str(commit.tree_id)))


def read_releases(store: Store, roots: ReleaseRoots) -> list[ReleaseRecord]:
    """Every readable release record, each checked against *roots*."""
    found = []
    for stored in store.at(RELEASES_REF).read().records:
        record = read_checked(stored, check_release(stored, roots))
        if record is not None:
            found.append(record)
    return found


def load_seen(store: Store) -> Seen | None:
    """The rollback watermark, or None when this clone has verified no release yet."""
    data = read_state(store.local_dir / SEEN_FILE)
    try:
        return Seen(int(data["sequence"]), str(data["commit"]))
    except (ValueError, KeyError, TypeError):
        return None


def _save_seen(store: Store, seen: Seen) -> None:
    data = {"sequence": seen.sequence, "commit": seen.commit}
    write_state(store.local_dir / SEEN_FILE, data, indent=None)


def _append(
    store: Store, address: Sha256Hex, event: Event, entries: list[Entry], author: str
) -> Written:
    releases = store.at(RELEASES_REF)
    new = releases.read_path(content_path("events", address)) is None
    releases.append(entries, f"gitmem: {event.event} {event.commit}", author)
    release = Release(GitOid(event.commit or ""), GitOid(str(event.extra["tree"])))
    sequence = event.extra.get("sequence")
    return Written(address, release, sequence if isinstance(sequence, int) else None, new, "")


def record_candidate(store: Store, rev: str) -> Written:
    """Record *rev* as an unsigned candidate (idempotent: the same commit gives the
    same record). A candidate is never approved.

    Raises:
        InputError: *rev* names no commit.
        GitError, NegativeResult: the releases ref could not be written.
    """
    release = resolve(store, rev)
    commit = store.repo.get(release.commit)
    assert isinstance(commit, pygit2.Commit)
    event = Event(
        event=CANDIDATE,
        item=None,
        session=SESSION,
        writer="",
        key="",
        created=format_time(datetime.fromtimestamp(commit.commit_time, UTC)),
        commit=release.commit,
        extra={"tree": release.tree},
    )
    data = event.canonical_bytes()
    address = canonical.sha256_hex(data)
    return _append(store, address, event, [Entry(content_path("events", address), data)], "gitmem")


def record_default_candidate(store: Store, sha: str) -> Written | None:
    """Record the commit *sha* as an unsigned candidate when it is on the default branch
    (:func:`gitmem.store.roots.default_branch`: its tip, or behind its tip); None, writing
    nothing, when it is not, or there is no default branch here.

    Raises:
        InputError: *sha* names no commit.
        GitError, NegativeResult: the releases ref could not be written.
    """
    branch = default_branch(store)
    tip = None if branch is None else store.resolve(branch)
    commit = resolve(store, sha).commit
    if tip is None or (tip != commit and not store.is_ancestor(commit, tip)):
        return None
    return record_candidate(store, commit)


def _choose_sequence(
    records: Sequence[ReleaseRecord], release: Release, seen: Seen | None, asked: int | None
) -> int:
    trusted = [r for r in records if r.event == APPROVAL and r.trusted and r.sequence]
    mine = {r.sequence for r in trusted if r.release == release and r.sequence}
    floor = max((r.sequence or 0 for r in trusted if r.release != release), default=0)
    if seen is not None and seen.commit != release.commit:
        floor = max(floor, seen.sequence)
    if asked is not None and asked > MAX_SEQUENCE:
        raise InputError(f"--sequence is at most {MAX_SEQUENCE}, a signed 64-bit integer")
    if asked is None:
        joinable = [s for s in mine if s > floor]
        if joinable:
            return max(joinable)
        asked = max(floor, *mine, 0) + 1
        if asked > MAX_SEQUENCE:
            raise InputError(f"no sequence is left: approved releases here reach {MAX_SEQUENCE}")
        return asked
    if asked in mine or asked > floor:
        return asked
    raise InputError(
        f"sequence {asked} would roll back: approved releases here already reach {floor}"
    )


def _signed_event(
    kind: str,
    release: Release,
    sequence: int,
    principal: str,
    key: HeldKey,
    now: datetime,
    **more: object,
) -> Event:
    """An approval or a pin of *release* by *principal*, to be signed with *key*."""
    return Event(
        event=kind,
        item=None,
        session=SESSION,
        writer=principal,
        key=key.fingerprint,
        created=format_time(now),
        commit=release.commit,
        extra={"tree": release.tree, "sequence": sequence, **more},
    )


def _sign_and_store(
    store: Store, roots: ReleaseRoots, event: Event, key: HeldKey, rev: str
) -> Written:
    sealed = seal(event, key.sign, NAMESPACE)
    stored = StoredRecord("event", sealed.address, sealed.path, sealed.data, sealed.receipt)
    check = check_release(stored, roots)
    if check is None or not check.ok:
        detail = "it would be unsigned" if check is None else check.detail
        raise NegativeResult(
            f"not stored, because this {event.event} of {rev} would not count: {detail}"
        )
    written = _append(store, sealed.address, event, sealed.entries, event.writer)
    return replace(written, detail=check.detail)


def _require_root(roots: ReleaseRoots) -> None:
    if roots.signers_text is None:
        raise NegativeResult(
            f"no {RELEASE_SIGNERS} is committed on {roots.branch}: commit the maintainers' "
            "keys there first (see docs/releases.md)"
        )


def approve(
    store: Store,
    home: Path,
    rev: str,
    principal: str,
    key: HeldKey,
    now: datetime,
    sequence: int | None = None,
) -> Written:
    """Sign and store an approval of *rev* (its commit and tree) with a monotonic
    sequence number: this release's own, else one above every approved release.

    Raises:
        InputError: a bad revision, principal or sequence.
        SigningKeyError: the held key could not sign.
        NegativeResult: no release trust root is committed, or it does not trust this
            key for *principal* (nothing is written); or the ref could not be written.
    """
    validate_principal(principal)
    release = resolve(store, rev)
    roots = load_release_roots(home, store)
    _require_root(roots)
    records = read_releases(store, roots)
    chosen = _choose_sequence(records, release, load_seen(store), sequence)
    event = _signed_event(APPROVAL, release, chosen, principal, key, now)
    return _sign_and_store(store, roots, event, key, rev)


def pin(
    store: Store,
    home: Path,
    rev: str,
    principal: str,
    key: HeldKey,
    evidence: Path,
    now: datetime,
) -> Written:
    """Sign and store the recovery-tested pin of an approved release, over the
    release and the SHA-256 of the recovery evidence.

    Raises:
        InputError: a bad revision or principal; evidence missing or empty.
        SigningKeyError: the held key could not sign.
        NegativeResult: the release is not approved, or the key would not count.
    """
    validate_principal(principal)
    try:
        proof = evidence.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read the evidence {evidence}: {e.strerror or e}") from e
    if not proof:
        raise InputError(f"the evidence {evidence} is empty")
    verdict = verify_release(store, home, rev, remember=False)
    if not verdict.approved or verdict.sequence is None:
        why = "; ".join(r for r in verdict.reasons if not r.startswith("not pinned"))
        raise NegativeResult(f"{rev} is not an approved release, so it cannot be pinned: {why}")
    proven = {"sha256": canonical.sha256_hex(proof), "name": evidence.name, "bytes": len(proof)}
    event = _signed_event(
        PIN,
        resolve(store, rev),
        verdict.sequence,
        principal,
        key,
        now,
        recovery_tested=True,
        evidence=proven,
    )
    return _sign_and_store(store, load_release_roots(home, store), event, key, rev)


def verify_release(store: Store, home: Path, rev: str, remember: bool = True) -> ReleaseDecision:
    """Is *rev* an approved (and pinned) release? With *remember*, an approved release
    newer than any verified before becomes this clone's rollback watermark.

    Raises:
        InputError: *rev* names no commit.
    """
    release = resolve(store, rev)
    roots = load_release_roots(home, store)
    seen = load_seen(store)
    verdict = decide(
        read_releases(store, roots),
        release,
        roots.policy.threshold,
        has_root=roots.signers_text is not None,
        policy_problem=roots.policy.problem,
        seen=seen,
        root=roots.branch,
    )
    newer = verdict.sequence is not None and (seen is None or verdict.sequence > seen.sequence)
    if remember and verdict.approved and verdict.sequence is not None and newer:
        _save_seen(store, Seen(verdict.sequence, release.commit))
    return verdict
