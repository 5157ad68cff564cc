"""Probe the claims of many items within one shared time budget, and say what it found.

The budget is the time spent inside :meth:`WorldChecker.check`, summed over every call
of one checker (one brief). Local probes run before forge calls in each call, and a
forge call always leaves a slice of the budget to the local probes of later items.
Once the budget is spent, a claim is answered "not checked" and nothing more is run.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import pygit2

from gitmem.brief.worldcheck.claims import Claim
from gitmem.brief.worldcheck.probes import CONFIRMED, CONTRADICTED, LocalProbes, Probe

if TYPE_CHECKING:  # the forge code loads only when a claim needs a forge
    from gitmem.brief.worldcheck.forge import Forge, ForgeAnswer

BUDGET_SPENT = "not checked: time budget spent"
_FORGE_CLAIMS = ("pr-state", "issue-state")
_MIN_FORGE_SECONDS = 0.02  # less than this and no forge CLI could answer
_LOCAL_RESERVE = 0.1  # of the budget, never handed to a forge call


class WorldCheck(NamedTuple):
    """The world-check of one item.

    ``status``: ``"contradicted"`` when any probe was contradicted (sand beats firm
    ground), ``"confirmed"`` when at least one was confirmed and none contradicted, None
    otherwise (no claim, or none could be checked). ``summary``: what changed, one
    sentence, when contradicted.
    """

    status: str | None
    probes: tuple[Probe, ...]
    summary: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "summary": self.summary,
            "probes": [
                {"claim": p.claim.to_dict(), "outcome": p.outcome, "detail": p.detail}
                for p in self.probes
            ],
        }


NOT_CHECKED = WorldCheck(None, (), None)


def aggregate(probes: Sequence[Probe]) -> WorldCheck:
    """One status for an item's probes; a single contradiction wins."""
    contradicted = [p for p in probes if p.outcome == CONTRADICTED]
    if contradicted:
        summary = "; ".join(p.detail for p in contradicted) + "."
        return WorldCheck(CONTRADICTED, tuple(probes), summary)
    confirmed = any(p.outcome == CONFIRMED for p in probes)
    return WorldCheck(CONFIRMED if confirmed else None, tuple(probes), None)


class WorldChecker:
    """Probes claims against one repository (and its forge) for one brief.

    Read-only: nothing is written to the repository, the store or the disk. Answers are
    cached per claim, so an item carried through many checkpoints is probed once.
    *forge* defaults to the ``gh``/``glab`` CLI of the repository (see
    :class:`~gitmem.brief.worldcheck.forge.CliForge`); pass
    :class:`~gitmem.brief.worldcheck.forge.NoForge` to stay offline.
    """

    def __init__(
        self, repo: pygit2.Repository, budget_seconds: float = 0.5, forge: Forge | None = None
    ) -> None:
        self.repo = repo
        self.budget = max(float(budget_seconds), 0.0)
        self.spent = 0.0
        self._local = LocalProbes(repo)
        self._forge = forge
        self._probes: dict[Claim, Probe] = {}
        self._answers: dict[tuple[str, int, str | None], ForgeAnswer] = {}

    def check(self, claims: Sequence[Claim]) -> WorldCheck:
        """Probe *claims* (local ones first) within what is left of the budget, and
        aggregate. Never raises: a probe that fails says so and counts as unchecked."""
        start = time.monotonic()
        try:
            found: dict[int, Probe] = {}
            for forge_pass in (False, True):
                for n, claim in enumerate(claims):
                    if (claim.type in _FORGE_CLAIMS) == forge_pass:
                        found[n] = self._probe(claim, start)
            return aggregate([found[n] for n in range(len(claims))])
        finally:
            self.spent += time.monotonic() - start

    @property
    def remaining(self) -> float:
        """Seconds of the budget not yet spent."""
        return max(self.budget - self.spent, 0.0)

    def _probe(self, claim: Claim, start: float) -> Probe:
        cached = self._probes.get(claim)
        if cached is not None:
            return cached
        now = time.monotonic()
        left = self.budget - self.spent - (now - start)
        if left <= 0:
            return Probe(claim, None, BUDGET_SPENT)
        try:
            if claim.type in _FORGE_CLAIMS:
                timeout = left - self.budget * _LOCAL_RESERVE
                if timeout < _MIN_FORGE_SECONDS and claim_key(claim) not in self._answers:
                    return Probe(claim, None, BUDGET_SPENT)
                probe = self._forge_probe(claim, timeout)
            else:
                probe = self._local.probe(claim, now + left)
        except Exception as e:  # a probe must never break the brief
            probe = Probe(claim, None, f"could not check: {e}")
        self._probes[claim] = probe
        return probe

    def _forge_probe(self, claim: Claim, timeout: float) -> Probe:
        kind = "pr" if claim.type == "pr-state" else "issue"
        number, repo = claim.fields["number"], claim.fields.get("repo")
        answer = self._answers.get(claim_key(claim))
        if answer is None:
            if self._forge is None:
                from gitmem.brief.worldcheck.forge import CliForge

                self._forge = CliForge.for_repo(self.repo)
            answer = self._forge.state(kind, number, repo, timeout)
            self._answers[claim_key(claim)] = answer
        label = _label(kind, number, answer.source)
        if answer.state is None:
            return Probe(claim, None, f"{label}: {answer.reason or 'no answer'}")
        claimed, state = claim.fields["state"], answer.state
        says = f", says {answer.source}" if answer.source else ""
        # A merged PR is closed too.
        if state == claimed or (claimed, state) == ("closed", "merged"):
            return Probe(claim, CONFIRMED, f"{label} is {state}{says}")
        return Probe(
            claim, CONTRADICTED, f"{label} is {state}, not {claimed}{says}", f"{label} {state}"
        )


def claim_key(claim: Claim) -> tuple[str, int, str | None]:
    """What a forge is asked about: a PR or an issue, its number, its repository."""
    kind = "pr" if claim.type == "pr-state" else "issue"
    return kind, claim.fields["number"], claim.fields.get("repo")


def resolve_hint(item_id: str, check: WorldCheck) -> str:
    """The commands that settle a contradicted item: resolve it, noting what changed,
    or reopen it with evidence. For example
    ``gitmem resolve 3d53f2a3 --note 'PR #214 merged'`` or
    ``gitmem reverify 3d53f2a3 --evidence …`` (each in backticks)."""
    changes = [p.change for p in check.probes if p.outcome == CONTRADICTED and p.change]
    ident = shlex.quote(item_id)
    resolve = f"gitmem resolve {ident}"
    if changes:
        # Single quotes: safe from every shell expansion ("MR !7" included); a backtick
        # would end the code span the hint is shown in.
        resolve += " --note " + shlex.quote("; ".join(changes).replace("`", "'"))
    return f"`{resolve}` or `gitmem reverify {ident} --evidence …`"


def _label(kind: str, number: int, source: str) -> str:
    if kind == "issue":
        return f"issue #{number}"
    return f"MR !{number}" if source == "glab" else f"PR #{number}"
