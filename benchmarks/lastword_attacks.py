"""Benchmark: the session's last word under attack, statements said in other words.

    python benchmarks/lastword_attacks.py [--show]

``benchmarks/data/lastword/attacks.json`` holds short sessions written by hand from
general knowledge (no transcript copied), each with the drafts a model would propose and
what must become of each: ``drop`` (a later statement reverses, replaces or closes it),
``keep`` (nothing later does) or ``any``. The categories: an override in other words
("forget Redis", "on reflection, keep…", "revert to what we had"), a question tool's
answer changed later, a changed plan, a loop closed in other words ("the flaky test is
gone now", "README updated"), a loop re-opened, a partial closure ("2 of 3 done"), a
user's "no" to one of several options, and what must be left alone (an unrelated "no", a
decision about another subject sharing a word, a condition, a question, reported speech).

Each case's drafts go through :func:`gitmem.capture.extract.lastword.last_word` with its
messages. Printed per category: the drafts that must go, superseded or missed; the
drafts that must stay, kept or wrongly dropped. ``--show`` names each miss and each
wrong drop. A draft whose quote is not found in its session is a broken case: it is
named, and the exit status is 2.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from gitmem.capture.extract.lastword import last_word, quote_places
from gitmem.core.items import Draft
from gitmem.core.transcript import Message, said_text

DATA = Path(__file__).parent / "data" / "lastword" / "attacks.json"


def main(argv: list[str]) -> int:
    show = "--show" in argv
    cases = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
    counts: dict[str, Counter[str]] = {}
    rounds: dict[int, Counter[str]] = {}
    broken, notes = 0, []
    for case in cases:
        messages = [Message(role, text) for role, text in case["messages"]]
        drafts = [
            Draft(kind, text, "verbatim", quote, {}) for kind, text, quote, _ in case["drafts"]
        ]
        places = quote_places([d.quote for d in drafts], [said_text(m) for m in messages])
        for draft, place in zip(drafts, places, strict=True):
            if place is None:
                broken += 1
                print(f"broken case {case['id']}: no place for {draft.quote!r}")
        left = last_word(drafts, messages)
        tally = counts.setdefault(case["category"], Counter())
        by_round = rounds.setdefault(case.get("round", 1), Counter())
        for draft, (*_, must) in zip(drafts, case["drafts"], strict=True):
            stayed = any(d is draft for d in left)
            if must == "drop":
                outcome = "missed" if stayed else "superseded"
            elif must == "keep":
                outcome = "kept" if stayed else "wrongly dropped"
            else:
                continue
            tally[outcome] += 1
            by_round[outcome] += 1
            if outcome in ("missed", "wrongly dropped"):
                notes.append(f"{outcome:15} {case['id']}: {draft.text}")
    print(f"{len(cases)} sessions, {sum(len(c['drafts']) for c in cases)} drafts")
    heads = ("must go", 8), ("superseded", 10), ("missed", 7), ("must stay", 9)
    print(f"{'category':15} " + " ".join(f"{h:>{w}}" for h, w in heads) + " wrongly dropped")
    total: Counter[str] = Counter()
    for category, tally in counts.items():
        total.update(tally)
        print(_row(category, tally))
    print(_row("total", total))
    for number, tally in sorted(rounds.items()):
        print(_row(f"  round {number}", tally))
    if show:
        print("\n".join(notes))
    return 2 if broken else 0


def _row(name: str, tally: Counter[str]) -> str:
    go = tally["superseded"] + tally["missed"]
    stay = tally["kept"] + tally["wrongly dropped"]
    return (
        f"{name:15} {go:8} {tally['superseded']:10} {tally['missed']:7} {stay:9} "
        f"{tally['wrongly dropped']:15}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
