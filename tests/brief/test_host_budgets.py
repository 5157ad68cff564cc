"""Every agent host's cap holds, in the host's own unit, over 1,000 generated stores, and
every item or warning a brief leaves out is announced in its last line.

The stores are generated as what the brief is rendered from (items, warnings, purged
lines, aged-out counts), not as git stores: the render and budget code under test is the
real one, and 1,000 git stores would take minutes. Texts mix English, hex ids, paths,
URLs, quotes, digits, CJK and emoji, the content that costs tokens the most.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest
from helpers import run

from gitmem.brief.budget import HOST_BUDGETS, HOST_CAPS, HOSTS, Budget, Unit, host_budget
from gitmem.brief.render import render_markdown, render_text
from gitmem.brief.select import Brief, BriefItem, BriefWarning, PurgedItem
from gitmem.core.items import Kind, Trust
from gitmem.core.tokens import estimate_tokens

STORES = 1_000
WORDS = re.findall(
    r"\w+",
    "the parser keeps its cache local and we drop the regex fallback because review "
    "requested tokenizer release branch deploy merged open loop decision retry limit",
)
LEFT_OUT = re.compile(r"^… (?:(\d+) more item\(s\))?(?: and )?(?:(\d+) warning\(s\))? not shown")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _fragment(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return _hex(rng, rng.choice((8, 12, 40, 64)))
    if kind == 1:
        parts = ["".join(rng.choices(string.ascii_lowercase + "_-", k=rng.randint(2, 10)))]
        return "/".join(parts * rng.randint(1, 5)) + rng.choice((".py", ".md", "/", ""))
    if kind == 2:
        return f"https://github.com/{_hex(rng, 6)}/repo/pull/{rng.randint(1, 99999)}"
    if kind == 3:
        return "“" + " ".join(rng.choices(WORDS, k=rng.randint(1, 6))) + "”"
    if kind == 4:
        return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(rng.randint(1, 12)))
    if kind == 5:
        return "".join(chr(rng.randint(0x1F300, 0x1F6FF)) for _ in range(rng.randint(1, 5)))
    if kind == 6:
        return str(rng.randint(0, 10 ** rng.randint(1, 9)))
    if kind == 7:
        return "".join(rng.choices(string.ascii_letters + string.digits + "+/=", k=24))
    return " ".join(rng.choices(WORDS, k=rng.randint(1, 12)))


def _text(rng: random.Random) -> str:
    return " ".join(_fragment(rng) for _ in range(rng.randint(1, 14)))


def _item(rng: random.Random, n: int) -> BriefItem:
    kind = rng.choice(list(Kind))
    verbatim = rng.random() < 0.5
    degraded = rng.random() < 0.1
    text = _text(rng)
    section = "verify" if rng.random() < 0.2 else str(kind)
    return BriefItem(
        id=_hex(rng, 64),
        kind=kind,
        text=text,
        quote=(text if rng.random() < 0.5 else _text(rng)) if verbatim and not degraded else None,
        captured_trust=Trust.VERBATIM if verbatim else Trust.INFERRED,
        trust=Trust.VERBATIM if verbatim and not degraded else Trust.INFERRED,
        degraded_reason="edited" if degraded else None,
        degraded_label="record edited" if degraded else None,
        section=section,
        origin_session=f"s{rng.randint(0, 9)}",
        checkpoint=_hex(rng, 64),
        created=f"2026-11-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00.000000Z",
        writer="alice@example.com",
        importance=rng.randint(0, 3),
        carried=rng.random() < 0.3,
        corroboration=rng.choice((1, 1, 2, 5)),
        contradiction=_text(rng) if rng.random() < 0.05 else None,
        age=rng.randint(0, 10**7) if rng.random() < 0.8 else None,
        branch="feature/" + _hex(rng, 4) if rng.random() < 0.1 else None,
    )


def _warning(rng: random.Random) -> BriefWarning:
    code = rng.choice(("untrusted key", "record edited", "trust-root", "stray-path"))
    writer = rng.choice(("bob", "carol", "mallory")) + "@example.com"
    return BriefWarning(
        code,
        f"{_text(rng)} ({code})",
        path=f"checkpoints/{_hex(rng, 2)}/{_hex(rng, 62)}.json",
        record=_hex(rng, 64),
        writer=writer,
        key=f"SHA256:{_hex(rng, 43)}",
        created="2026-11-01T00:00:00.000000Z",
        detail=_text(rng),
    )


def generated_brief(seed: int) -> Brief:
    """One generated store's brief: from nothing to a flood of items and warnings."""
    rng = random.Random(seed)
    size = rng.choice((0, 1, 3, 10, 30, 80, 200))
    items = tuple(_item(rng, n) for n in range(size))
    warnings = tuple(_warning(rng) for _ in range(rng.choice((0, 0, 1, 5, 60))))
    purged = tuple(
        PurgedItem(_hex(rng, 64), "[purged by alice on 2026-11-02]", _hex(rng, 64))
        for _ in range(rng.choice((0, 0, 2, 9)))
    )
    return Brief(
        items=items,
        warnings=warnings,
        checkpoints=max(size, 1) * rng.randint(1, 4),
        verified=size,
        failed=len(warnings),
        latest="2026-11-30T03:15:40.000000Z" if size else None,
        stale=rng.choice((0, 0, 4)),
        purged=purged,
    )


def announced(text: str, brief: Brief) -> None:
    """Every item and warning *text* leaves out is counted in its last line."""
    lines = text.splitlines()
    assert lines[0] == "<gitmem-context>" and lines[-1] == "</gitmem-context>"
    missing = sum(1 for i in brief.items if f"({i.id[:8]}" not in text)
    warnings_shown = any(line.startswith("- ⚠") for line in lines)
    dropped_warnings = len(brief.warnings) if brief.warnings and not warnings_shown else 0
    if not (missing or dropped_warnings):
        assert "not shown (budget" not in text
        return
    last = lines[-2]
    match = LEFT_OUT.match(last)
    assert match, last
    assert int(match.group(1) or 0) == missing, (missing, last)
    assert int(match.group(2) or 0) == dropped_warnings, (dropped_warnings, last)
    assert "`gitmem brief --budget 0` shows everything." in last


def test_every_host_has_a_budget_under_its_cap_in_the_same_unit() -> None:
    assert set(HOST_BUDGETS) == set(HOST_CAPS) == set(HOSTS)
    for host in HOSTS:
        assert HOST_BUDGETS[host].unit == HOST_CAPS[host].unit
        assert HOST_BUDGETS[host].limit < HOST_CAPS[host].limit
    assert host_budget("claude") == Budget(9_000, Unit.CHARACTERS)
    assert host_budget("codex") == Budget(2_300, Unit.TOKENS)


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_no_brief_of_a_generated_store_passes_any_hosts_cap(chunk: int) -> None:
    for seed in range(chunk * STORES // 4, (chunk + 1) * STORES // 4):
        brief = generated_brief(seed)
        for host in HOSTS:
            budget = host_budget(host)
            text = render_text(brief, budget)
            assert budget.cost(text) <= budget.limit, (seed, host)
            assert HOST_CAPS[host].cost(text) <= HOST_CAPS[host].limit
            announced(text, brief)
        if seed % 10 == 0:  # markdown and the byte budget, on a tenth of them
            for render in (render_text, render_markdown):
                assert len(render(brief, 9_000).encode()) <= 9_000


@pytest.mark.slow
def test_the_generated_stores_reach_every_case() -> None:
    """The generator is worth its name: some briefs leave items out, some shorten a text,
    some summarise their warnings, some fit whole; the sections vary."""
    seen = {"items": 0, "summarised": 0, "shortened": 0, "whole": 0}
    sections: set[str] = set()
    for seed in range(200):
        brief = generated_brief(seed)
        text = render_text(brief, host_budget("codex"))
        last = text.splitlines()[-2]
        seen["items"] += "more item(s)" in last
        seen["summarised"] += "… and " in text and "more" in text
        seen["shortened"] += "…[shortened]" in text
        seen["whole"] += "not shown (budget" not in text
        sections |= {i.section for i in brief.items}
    assert all(seen.values()), seen
    assert len(sections) >= 5


def test_a_codex_brief_of_a_full_store_is_far_from_9000_bytes() -> None:
    """The reason for the token budget: a brief of ids, paths and quotes runs at about 3
    bytes a token, so 9,000 bytes would be about 3,000 tokens, past Codex's 2,500."""
    brief = generated_brief(next(s for s in range(100) if len(generated_brief(s).items) >= 80))
    by_bytes = render_text(brief, 9_000)
    by_tokens = render_text(brief, host_budget("codex"))
    assert estimate_tokens(by_bytes) > 2_500 >= estimate_tokens(by_tokens)


def test_brief_host_picks_the_hosts_budget_and_refuses_a_second_one(
    repo: Path, tmp_path: Path
) -> None:
    assert run("-C", str(repo), "init", "--name", "alice@example.com").exit_code == 0
    items = [
        {"kind": "decision", "text": f"Keep a3f9c2d1e0b7{n:04x} in src/pkg_{n}/mod.py, PR #{n}"}
        for n in range(150)
    ]
    (tmp_path / "items.json").write_text(json.dumps(items))
    (tmp_path / "t.md").write_text("a session\n")
    done = run(
        "-C",
        str(repo),
        "capture",
        "--transcript",
        str(tmp_path / "t.md"),
        "--items",
        str(tmp_path / "items.json"),
    )
    assert done.exit_code == 0, done.stderr
    for host in HOSTS:
        done = run("-C", str(repo), "brief", "--host", host)
        assert done.exit_code == 0
        budget = host_budget(host)
        assert budget.cost(done.stdout) <= budget.limit
        assert f"(budget {budget.label()})" in done.stdout.splitlines()[-2]
    codex = run("-C", str(repo), "brief", "--host", "codex").stdout
    assert len(codex.encode()) < 9_000 * 0.9  # tokens, not bytes, decided where it stops
    both = run("-C", str(repo), "brief", "--host", "codex", "--budget", "900")
    assert both.exit_code == 2 and "--host" in both.stderr and both.stderr.count("\n") == 1
