"""``gitmem sync``: memory travels through the git remotes a project already has.

For each ref under ``refs/gitmem/`` (memory, releases):

1. fetch the remote's refs into ``refs/gitmem-remotes/<remote>/`` — a mirror of what
   the remote holds, never ``refs/remotes/``, never a local ``refs/gitmem/`` ref;
2. watermark: the remote's tip must descend from the last tip this clone accepted
   from (or pushed to) that remote; otherwise its history was rewritten or records
   were removed, and the ref is reported, not merged (local records stay) — unless
   the rewrite is exactly a purge by a trusted key (:mod:`gitmem.lifecycle.acceptance`);
3. check everything the remote would add (addresses, receipts, signatures, quotes,
   layout, append-only history) before accepting any of it; records by keys no trust
   root knows are accepted but stay degraded ("untrusted key") wherever they render;
4. apply the remote's trusted purges to the local history and this clone's to what was
   fetched, then union-merge into the local ref (compare-and-swap, retried);
5. push, unforced — except a purge, pushed with a lease on the tip just fetched (the
   only forced update sync makes); when the remote moved meanwhile, start again from 1.

Watermarks are local state: ``.git/gitmem/watermarks.json``. One sync per clone at a
time (``.git/gitmem/sync.lock``); captures may run meanwhile.
"""

from __future__ import annotations

import random
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gitmem.core.errors import GitmemError, NegativeResult
from gitmem.core.types import GitOid
from gitmem.lifecycle.acceptance import Decision, Quarantined, Refused, decide, removed
from gitmem.store.git import last_line
from gitmem.store.merge import merge_into
from gitmem.store.purge import scrub_local
from gitmem.store.pushing import push_refs, record_push
from gitmem.store.quarantine import quarantine
from gitmem.store.repo import MEMORY_REF, REFS_PREFIX, UNKNOWN_DETAIL, Store, is_shared_ref
from gitmem.store.roots import TEAM_SIGNERS, keep_purges
from gitmem.store.shape import BrokenRef, commit_at
from gitmem.store.verify import memory_checker
from gitmem.store.watermarks import Watermarks, tracking_prefix
from gitmem.team.checkers import RefCheckers, load_checkers
from gitmem.team.fetching import Fetching

_ATTEMPTS = 50
_RETRYABLE = (
    "fetch first",
    "non-fast-forward",
    # The remote's compare-and-swap lost to another writer's push (git's words for a
    # ref locked or moved on the remote side while it updated it).
    "failed to update ref",
    "cannot lock ref",
    "failed to lock",
    "incorrect old value",
    # A purge's lease: the remote moved since the fetch.
    "stale info",
)

INTEGRITY = "integrity"
"""A problem kind: rewritten or removed history, a refused fetch, a conflicting path, a
junk ref."""
REMOTE = "remote"
"""A problem kind: the remote refused a push."""
HELD = "held"
"""A problem kind: memory not pushed because it carries a purge only this clone trusts."""


@dataclass(frozen=True)
class RefSync:
    ref: str
    remote_tip: GitOid | None
    local_before: GitOid | None
    local_after: GitOid | None
    merge: str
    """What happened locally: up-to-date, created, fast-forward, merged, local-only, refused."""
    pushed: bool = False
    new_records: int = 0
    untrusted: int = 0
    problem: str | None = None
    problem_kind: str | None = None
    purged: tuple[str, ...] = ()
    """The remote's purge events applied to the local history."""
    lease: GitOid | None = None
    """Set when the push must replace this remote tip (a purge): forced, with a lease."""
    quarantined: tuple[Quarantined, ...] = ()
    """What it took that fails its checks (:mod:`gitmem.lifecycle.acceptance`, rule 4)."""

    def to_json(self) -> dict[str, Any]:
        hidden = ("problem_kind", "lease", "quarantined")
        data = {k: v for k, v in asdict(self).items() if k not in hidden}
        return {
            **data,
            "purged": list(self.purged),
            "forced": self.lease is not None,
            "quarantined": [q.to_json() for q in self.quarantined],
        }


@dataclass(frozen=True)
class SyncReport:
    remote: str
    refs: tuple[RefSync, ...]
    configured: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.problem is None for r in self.refs)

    @property
    def exit_code(self) -> int:
        """0 when everything synced, 3 for integrity problems (anything quarantined
        included, though the rest was exchanged), 1 for a push refused or held back."""
        kinds = {r.problem_kind for r in self.refs if r.problem is not None}
        if INTEGRITY in kinds or any(r.quarantined for r in self.refs):
            return 3
        return 1 if kinds else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "remote": self.remote,
            "ok": self.ok,
            "configured": list(self.configured),
            "refs": [r.to_json() for r in self.refs],
        }


def _fetch(
    store: Store, remote: str, fetching: Fetching
) -> tuple[dict[str, GitOid], dict[str, str]]:
    """Fetch every ``refs/gitmem/*`` of *remote* (the fetch *fetching* started first, then
    again); each ref's tip, and why each ref that is not a plain ref to a commit (a junk
    ref) cannot be read.

    Raises:
        NegativeResult: the fetch failed (network, access).
    """
    prefix = tracking_prefix(remote)
    done = fetching.result()
    if done.returncode != 0:
        raise NegativeResult(f"git fetch {remote} failed: {last_line(done.stderr)}")
    tips: dict[str, GitOid] = {}
    junk: dict[str, str] = {}
    for name in store.refs(prefix):
        ref = REFS_PREFIX + name.removeprefix(prefix)
        try:
            tip = store.at(name).tip()
            if tip is not None:
                commit_at(store.repo, name, tip)
        except BrokenRef as e:
            junk[ref] = e.detail
            continue
        if not is_shared_ref(ref):
            junk[ref] = UNKNOWN_DETAIL
        elif tip is not None:
            tips[ref] = tip
    return tips, junk


def _take(
    store: Store,
    remote: str,
    ref: str,
    tip: GitOid | None,
    marks: Watermarks,
    author: str,
    accept_rewrite: bool,
    checkers: RefCheckers,
) -> RefSync:
    """Steps 2-4 for one ref: watermark, check (:mod:`gitmem.lifecycle.acceptance`), merge."""
    local = store.at(ref)
    try:
        before = local.shared_tip()
    except BrokenRef as e:
        why = _junk(ref, e.detail, "this clone")
        return RefSync(ref, tip, None, None, "skipped", problem=why, problem_kind=INTEGRITY)
    mark = marks.get(remote, ref)
    base = RefSync(ref, tip, before, before, "local-only")
    tracking = tracking_prefix(remote) + ref.removeprefix(REFS_PREFIX)
    if tip is None:
        if mark is None or accept_rewrite:
            return base
        decision: Decision = removed(remote, ref, mark)
    else:
        team = memory_checker(checkers.memory.team_only()) if ref == MEMORY_REF else None
        checker = checkers.for_ref(tracking)
        decision = decide(store, checker, remote, ref, tip, mark, accept_rewrite, team)
    if isinstance(decision, Refused):
        if decision.rewrite:
            look = "" if tip is None else f"inspect {tracking}; "
            problem = f"{decision.reason}; not merged, local records stay and are not pushed "
            problem += f"back ({look}`gitmem sync --accept-rewrite` merges it anyway and "
            problem += "pushes them back)"
        else:
            problem = f"{remote}'s {ref} was not merged: {decision.reason}"
        return replace(
            base,
            merge="refused",
            new_records=decision.records,
            problem_kind=INTEGRITY,
            problem=problem,
        )
    if decision.local != before and decision.local is not None:
        # The remote's purge, applied here: a forced move of the local ref, by swap.
        message = f"gitmem: apply {len(decision.applied)} purge(s) from {remote}"
        if not local.compare_and_swap(before, decision.local, message):
            return replace(
                base,
                merge="refused",
                problem_kind=REMOTE,
                problem=f"{ref} moved while a purge from {remote} was applied; run sync again",
            )
        scrub_local(store.local_dir, decision.scrub)
        keep_purges(store, decision.applied)
    try:
        result = merge_into(local, decision.merge, f"gitmem: sync {ref} from {remote}", author)
    except GitmemError as e:
        kind = INTEGRITY if e.exit_code == 3 else REMOTE
        return replace(base, merge="refused", problem_kind=kind, problem=str(e))
    marks.set(remote, ref, tip)
    quarantine(store.local_dir, remote, [q.to_json() for q in decision.quarantined], ref)
    taken = replace(
        base,
        local_after=result.after,
        merge=result.outcome,
        new_records=decision.records,
        untrusted=decision.untrusted,
        purged=decision.applied,
        lease=decision.lease,
        quarantined=decision.quarantined,
    )
    if not decision.held:
        return taken
    named = ", ".join(f"{p.address[:12]} by {p.writer}" for p in decision.held)
    return replace(
        taken,
        lease=None,
        problem_kind=HELD,
        problem=f"{ref} was merged here but not pushed to {remote}: it carries purge(s) "
        f"{named} that only this clone's personal trust root vouches for, and only a purge "
        f"the team root ({TEAM_SIGNERS} on the trust branch) trusts is ever forced onto a "
        "remote; it stays in this clone until that key is committed there",
    )


def _junk(ref: str, detail: str, where: str) -> str:
    why = (
        "gitmem reads no memory from it"
        if detail == UNKNOWN_DETAIL
        else ("a ref that is not a plain ref to a commit holds no memory")
    )
    return f"{where}'s {ref} {detail}: skipped, {why} (every other ref is exchanged)"


def sync(
    store: Store,
    remote: str,
    home: Path,
    author: str,
    accept_rewrite: bool = False,
    begun: Fetching | None = None,
) -> SyncReport:
    """Fetch, check, union-merge and push every ``refs/gitmem/*`` ref with *remote*, one
    ref at a time and ``refs/gitmem/memory`` first: a junk ref is reported and skipped,
    what fails its checks is quarantined, and neither holds back the others. With
    *begun*, the sync lock is held and the first fetch already runs (the caller leaves
    it when this returns); without, both are begun here.

    Raises:
        InputError: no such remote.
        NegativeResult: the fetch failed (network, access).
        GitError: git could not run.
    """
    with ExitStack() as held:
        fetching = begun or held.enter_context(Fetching(store, remote))
        marks = Watermarks(store.local_dir)
        checkers = load_checkers(home, store)
        outcomes: dict[str, RefSync] = {}
        went: set[str] = set()
        for attempt in range(_ATTEMPTS):
            remote_tips, junk = _fetch(store, remote, fetching)
            names = set(store.refs()) | set(remote_tips) | set(marks.refs(remote)) | set(junk)
            for ref in sorted(names, key=lambda r: (r != MEMORY_REF, r)):
                if ref in junk:
                    why = _junk(ref, junk[ref], remote)
                    outcomes[ref] = RefSync(ref, None, None, None, "skipped", problem=why)
                    outcomes[ref] = replace(outcomes[ref], problem_kind=INTEGRITY)
                    continue
                outcomes[ref] = _take(
                    store,
                    remote,
                    ref,
                    remote_tips.get(ref),
                    marks,
                    author,
                    accept_rewrite,
                    checkers,
                )
            marks.save()
            wanted = [
                o.ref
                for o in outcomes.values()
                if o.problem is None and o.local_after is not None and o.local_after != o.remote_tip
            ]
            if not wanted:
                break
            retry = False
            leases = {r: o.lease for r, o in outcomes.items() if o.lease is not None}
            results = push_refs(store, remote, wanted, leases)
            for ref in wanted:
                (accepted, summary), outcome = results[ref], outcomes[ref]
                if accepted:
                    went.add(ref)
                    record_push(store, remote, ref, outcome.local_after, marks)
                elif any(word in summary for word in _RETRYABLE):
                    retry = True
                    outcomes[ref] = replace(
                        outcome,
                        problem_kind=REMOTE,
                        problem=f"{remote} kept moving; {ref} was not pushed ({summary})",
                    )
                else:
                    outcomes[ref] = replace(
                        outcome,
                        problem_kind=REMOTE,
                        problem=f"{remote} refused {ref}: {summary}",
                    )
            marks.save()
            if not retry:
                break
            # Another clone pushed first: back off a random while, fetch its records and
            # merge them, then push again (as a capture's append retries a lost race).
            time.sleep(random.uniform(0.01, 0.05) * min(attempt + 1, 10))
    order = sorted(outcomes, key=lambda r: (r != MEMORY_REF, r))
    return SyncReport(remote, tuple(replace(outcomes[r], pushed=r in went) for r in order))
