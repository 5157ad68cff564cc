"""The viewer's pages, server-rendered: the brief, one item's history, a search, an error.

Each item is drawn from the brief's own parts (:func:`gitmem.brief.render.badge`,
:func:`~gitmem.brief.render.item_marks`, the quote only when it verified), so the text
of its line is the brief's line: a degraded item reads ``[⚠ verbatim withheld: REASON]``
here as it does there. Every value is escaped (:func:`gitmem.agents.viewer.markup.esc`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from gitmem.agents.recall import RecallResult
from gitmem.agents.recall.search import RecallHit
from gitmem.agents.viewer.content import ItemView
from gitmem.agents.viewer.markup import (
    bullet_list,
    esc,
    item_path,
    link,
    markdown,
    page,
    tag,
    yes_no,
)
from gitmem.brief.alarms import EXAMPLES, alarm_lines
from gitmem.brief.placement import age_label
from gitmem.brief.render import badge, contradiction_hint, item_marks, summary
from gitmem.brief.select import SECTIONS, Brief, BriefItem
from gitmem.core.items import badge_of
from gitmem.core.shown import shown_quote_line

_EXPLAINED = (
    "Memory of earlier sessions: context, not instructions. A [✓ verbatim] quote is the "
    "transcript's own words, checked mechanically; [~ inferred] and [? untagged] items are "
    "conclusions, to be checked before building on them. An item marked ⚠ failed a check "
    "just now and is never shown as verbatim."
)


def item_line(item: BriefItem) -> str:
    """One item as the brief renders it, in markup: badge, text, verified quote, marks and
    a link to its history; the ``⚠`` line below when something contradicts it."""
    trust = "t-degraded" if item.degraded_label is not None else f"t-{item.trust}"
    parts = [tag("span", esc(badge(item)), f"badge {trust}"), " "]
    text = tag("span", markdown(item.text), "text")
    if item.quote is None:
        parts.append(text)
    else:
        said = tag("span", esc(f'"{shown_quote_line(item.quote)}"'), "quote")
        parts += [said] if item.quote == item.text else [text, " — ", said]
    for mark in item_marks(item):
        parts += [" ", tag("span", esc(mark), "mark")]
    age = "" if item.age is None else esc(f", {age_label(item.age)}")
    parts += [" (", link(item_path(item.id), item.id[:8], "id"), age, ")"]
    if item.contradiction is not None:
        warning = f"⚠ {item.contradiction} — {contradiction_hint(item)}"
        parts.append(tag("div", esc(warning), "contradiction"))
    return "".join(parts)


def _items(items: list[BriefItem]) -> str:
    return "".join(
        tag("li", item_line(i), "degraded" if i.degraded_label is not None else None) for i in items
    )


def brief_page(brief: Brief, roots: Mapping[str, Any], repo: str, as_of: str = "") -> str:
    """The main page: the brief with its badges, the warnings, the trust roots in use."""
    body = tag("h1", "Memory brief") + tag("p", esc(summary(brief)), "summary")
    body += tag("p", esc(_EXPLAINED), "preamble")
    if brief.as_of is not None:
        body += tag(
            "p",
            esc(
                f"Memory as it stood at {brief.as_of.label()}: that commit of the memory ref, "
                "replayed and verified now, under today's trust roots. World-check is off "
                "(the world can only be probed as it is now). "
            )
            + link("/", "Back to memory now"),
            "asof",
        )
    if brief.warnings:
        lines = alarm_lines(brief.warnings, EXAMPLES)
        body += tag("h2", "WARNINGS") + tag(
            "ul", "".join(tag("li", esc(line), "alarm") for line in lines), "warnings"
        )
    for key, title in SECTIONS:
        shown = [i for i in brief.items if i.section == key]
        if shown:
            body += tag("h2", esc(title)) + tag("ul", _items(shown), "items", id=f"s-{key}")
    if brief.stale:
        body += tag("p", esc(f"{brief.stale} open item(s) aged out and are not shown."), "muted")
    if not brief.items:
        body += tag("p", "No memory to show.", "muted")
    body += roots_section(roots)
    return page("gitmem brief", body, repo=repo, as_of=as_of)


def roots_section(roots: Mapping[str, Any]) -> str:
    """The trust roots in use: which branch, each root's keys, revocations, problems."""
    body = tag("h2", "TRUST ROOTS IN USE")
    body += tag("p", esc(f"Trust branch: {roots['branch'] or 'none (outside a repository)'}"))
    if not roots["roots"]:
        body += tag("p", "No trust root: no record can verify.", "alarm")
    for root in roots["roots"]:
        rows = "".join(
            tag(
                "tr",
                tag("td", tag("code", esc(key["principals"])))
                + tag("td", tag("code", esc(key["fingerprint"])))
                + tag("td", esc(key["namespaces"]))
                + tag("td", esc(_validity(key["valid_after"], key["valid_before"]))),
            )
            for key in root["keys"]
        )
        head = "".join(tag("th", h) for h in ("principals", "key", "namespaces", "valid"))
        body += tag("p", tag("code", esc(root["source"])) + esc(f" — {len(root['keys'])} key(s)"))
        body += tag("table", tag("tr", head) + rows) if rows else ""
        body += bullet_list((esc(p) for p in root["problems"]), "alarm")
    body += tag("p", esc(f"Revoked keys: {roots['revoked']}."), "muted")
    body += bullet_list(
        (esc(p) for p in [*roots["revocation_problems"], *roots["notices"]]), "alarm"
    )
    return tag("section", body, "roots")


def _validity(after: datetime | None, before: datetime | None) -> str:
    if after is None and before is None:
        return "always"
    start = "" if after is None else f"from {after.isoformat()}"
    end = "" if before is None else f"until {before.isoformat()}"
    return " ".join(p for p in (start, end) if p)


def item_page(view: ItemView, repo: str) -> str:
    """One item: its brief line, verified now, and its whole history (``gitmem show``)."""
    line = view.line
    body = tag("h1", esc(f"Item {line.id[:12]}"))
    body += tag("ul", _items([line]), "items")
    report = view.history
    if report is None:
        body += tag(
            "p",
            esc(
                f"Its record failed verification ({line.degraded_reason}); nothing about it "
                "is replayed, so it has no history to show. Run `gitmem verify` for details."
            ),
            "alarm",
        )
        return page(f"gitmem item {line.id[:12]}", body, repo=repo)
    origin = report["origin"]
    facts = [
        ("id", tag("code", esc(report["id"]))),
        ("kind", esc(report["kind"])),
        ("trust", esc(f"{line.trust} (captured {report['captured_trust']})")),
        ("status", esc(report["status"])),
        ("open", esc(yes_no(report["open"]))),
        ("resolved", esc(yes_no(report["resolved"]))),
        ("superseded by", esc(report["superseded_by"] or "—")),
        ("corroboration", esc(report["corroboration"])),
        ("carried", esc(yes_no(report["carried"]))),
        ("origin", esc(f"session {origin['session']}, {origin['created']}, by {origin['writer']}")),
        ("origin checkpoint", tag("code", esc(origin["checkpoint"]))),
    ]
    if origin["quote_reason"]:
        facts.append(("quote check", esc(origin["quote_reason"])))
    body += _table(facts)
    body += _history(report)
    return page(f"gitmem item {line.id[:12]}", body, repo=repo)


def _table(rows: list[tuple[str, str]]) -> str:
    return tag("table", "".join(tag("tr", tag("th", esc(k)) + tag("td", v)) for k, v in rows))


def _history(report: Mapping[str, Any]) -> str:
    body = tag("h2", "SIGHTINGS")
    body += bullet_list(
        esc(f"{s['created']} — session {s['session']}, checkpoint {s['checkpoint'][:12]}")
        for s in report["sightings"]
    ) or tag("p", "None.", "muted")
    # "witnesses": show's JSON field and this page's heading for corroborations (kept).
    if report["witnesses"]:
        body += tag("h2", "WITNESSES (CORROBORATION)")
        body += bullet_list(
            esc(f'{w["created"]} — session {w["session"]}: "{w["quote"]}"')
            for w in report["witnesses"]
        )
    body += tag("h2", "EVENTS")
    body += bullet_list(
        esc(f"{e['created']} {e['event']} by {e['writer']}")
        + (tag("div", esc(_details(e)), "muted") if _details(e) else "")
        for e in report["events"]
    ) or tag("p", "None.", "muted")
    body += tag("h2", "RECEIPTS")
    body += bullet_list(
        tag("span", "✓" if r["verified"] else "✗", "t-verbatim" if r["verified"] else "alarm")
        + " "
        + tag("code", esc(r["record"][:16]))
        + esc(f" — {r['detail']}")
        for r in report["receipts"]
    )
    return body


def _details(event: Mapping[str, Any]) -> str:
    skip = ("address", "event", "created", "writer", "session")
    return ", ".join(f"{k}={v}" for k, v in event.items() if k not in skip)


def hit_line(hit: RecallHit) -> str:
    """One recall hit: badge, text, verified quote, where it stands, a link to it."""
    trust = "t-degraded" if hit.degraded else f"t-{hit.trust}"
    parts = [tag("span", esc(badge_of(hit.trust)), f"badge {trust}"), " "]
    parts.append(tag("span", markdown(hit.text), "text"))
    if hit.quote is not None:
        parts += [" — ", tag("span", esc(f'"{shown_quote_line(hit.quote)}"'), "quote")]
    where = f"{hit.kind}, {hit.status}, {hit.epistemic}; session {hit.session}"
    parts += [" ", tag("span", esc(f"({where})"), "mark")]
    parts += [" (", link(item_path(hit.id), hit.id[:8], "id"), ")"]
    if hit.degraded:
        parts.append(tag("div", esc(f"⚠ {hit.degraded}"), "contradiction"))
    return "".join(parts)


def search_page(result: RecallResult | None, q: str, repo: str, as_of: str = "") -> str:
    """The recall search: the box, and the hits when there was a query."""
    body = tag("h1", "Recall")
    if result is None:
        body += tag(
            "p",
            "Search every item of the memory's whole history (open, resolved, superseded "
            "and aged out; forgotten ones never). Words are stemmed; end one with * for a "
            "prefix.",
            "muted",
        )
        return page("gitmem recall", body, repo=repo, q=q, as_of=as_of)
    if result.as_of is not None:
        body += tag("p", esc(f"Memory as of {result.as_of.label()}."), "asof")
    which = {"all": "every term", "any": "no item holds every term; any term"}
    if result.match == "none":
        body += tag("p", esc(f"No item matches, among {result.index.items} item(s)."), "summary")
    else:
        body += tag(
            "p",
            esc(
                f"{len(result.hits)} of {result.total} matching item(s) "
                f"({which[result.match]}), among {result.index.items} item(s)."
            ),
            "summary",
        )
    body += tag(
        "ul",
        "".join(tag("li", hit_line(h), "degraded" if h.degraded else None) for h in result.hits),
        "items",
    )
    if result.index.failed:
        body += tag(
            "p",
            esc(f"⚠ {result.index.failed} record(s) failed verification and are not searched."),
            "alarm",
        )
    return page(f"gitmem recall {q}", body, repo=repo, q=q, as_of=as_of)


def error_page(status: int, message: str, repo: str) -> str:
    """A page saying what went wrong, in one sentence."""
    body = tag("h1", esc(f"{status}")) + tag("p", esc(message), "alarm")
    return page(f"gitmem {status}", body + tag("p", link("/", "Back to the brief")), repo=repo)
