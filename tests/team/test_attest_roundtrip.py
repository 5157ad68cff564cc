"""Round trip at 1,000 items: a memory built through the library's capture path (200
sessions of 5 items, open items carried, ageing and supersessions written, one item
resolved), exported whole, imported into a fresh clone; the clone's brief, verify and
own export say what the source's do."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers import Result
from helpers.attesting import envelopes, export, fresh_clone, in_clone, statement_of

from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft, Kind, Trust
from gitmem.store.repo import Store

SESSIONS = 200


def said(n: int) -> str:
    return (
        f"Session {n}. We decided to keep module_{n} in src/module_{n}.py for now.\n"
        f"TODO: benchmark the parser on corpus {n} before the release.\n"
        f"I am not sure whether cache {n} survives a restart.\n"
    )


def drafts(n: int) -> list[Draft]:
    said = [
        (Kind.DECISION, f"Keep module_{n}", f"keep module_{n} in src"),
        (Kind.OPEN_LOOP, f"Benchmark corpus {n}", f"benchmark the parser on corpus {n}"),
        (Kind.UNCERTAINTY, f"Cache {n} may not survive", f"whether cache {n} survives"),
    ]
    inferred = [(Kind.BELIEF, f"Module {n} is stable"), (Kind.FACT, f"Session {n} happened")]
    return [Draft(kind, text, Trust.VERBATIM, quote, {}) for kind, text, quote in said] + [
        Draft(kind, text, Trust.INFERRED, None, {}) for kind, text in inferred
    ]


def build(repo: Path, home: Path) -> None:
    context = Context.open(Store.discover(repo), home)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(SESSIONS):
        capture_transcript(
            context,
            parse_transcript(said(n).encode(), f"session-{n}.md"),
            None,
            source=f"test s-{n}",
            drafts=drafts(n),
            session=f"s-{n}",
            again=True,  # every session is new: nothing to skip
            now=start + timedelta(minutes=n),
        )


def shown(result: Result) -> list[dict[str, Any]]:
    assert result.exit_code == 0, result.stderr
    data: Any = result.json()
    return [{k: v for k, v in item.items() if k != "age"} for item in data["items"]]


def predicates(bundle: Path) -> list[dict[str, Any]]:
    found = []
    for envelope in envelopes(bundle):
        predicate = statement_of(envelope)["predicate"]
        predicate.pop("exportedAt")
        found.append(predicate)
    return found


@pytest.mark.slow
def test_a_thousand_items_travel_and_the_clone_says_what_the_source_says(
    initialised: Path, gm: Any, home: Path
) -> None:
    build(initialised, home)
    brief = ("brief", "--json", "--budget", "0")
    some = next(i for i in shown(gm(*brief)) if i["kind"] == Kind.OPEN_LOOP)
    assert gm("resolve", some["id"][:12]).exit_code == 0
    bundle = initialised.parent / "all.intoto.jsonl"
    export(gm, bundle, "--all")
    assert len(envelopes(bundle)) == SESSIONS * 5
    clone = fresh_clone(initialised)
    done = in_clone(clone, "import", "--format", "intoto", str(bundle), "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["items"] == SESSIONS * 5
    assert shown(gm(*brief)) == shown(in_clone(clone, *brief)) != []
    source, target = gm("verify", "--json").json(), in_clone(clone, "verify", "--json").json()
    assert isinstance(source, dict) and isinstance(target, dict)
    assert source["ok"] and target["ok"]
    for field in ("records", "receipts", "snapshots", "problems", "untrusted"):
        assert target[field] == source[field], field
    again = clone.parent / "again.intoto.jsonl"
    export(lambda *a: in_clone(clone, *a), again, "--all")
    assert predicates(again) == predicates(bundle)
