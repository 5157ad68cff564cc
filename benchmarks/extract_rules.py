"""Where the heuristic's items come from, and how well each rule family does, per repository.

    python benchmarks/extract_rules.py [--loo] [-v]

Development files only (the test split is never read here). For every development file of
the labelled corpus (``extract_quality.corpus_files``), the heuristic runs as a capture
runs it (``extract_quality.capture_items``), each stored item is traced back to the rule
family that found it (:func:`gitmem.capture.extract.heuristic.explain`: "label-decision",
"section-open_loop", "report-lead", "forge" …; the family is never stored), and the items
are credited against the labels as ``extract_quality.py`` credits them. It prints

* per development **repository**: labels, items, credited, precision and recall;
* per **rule family**: items and credited in each repository, in all of them, and in each
  half of them (``extract_quality.DEV_FOLDS``: a rule is written on fold A and checked on
  fold B; ``-v`` lists every item with its family and whether it was credited).

A rule whose precision is low in most repositories, or good only in the one it was written
against, is one to tighten or drop. ``--loo`` also prints the session cap
(``gitmem.capture.extract.heuristic.SESSION_ITEMS``): each file captured under each cap *k*
of :data:`CAPS` with the extractor's own ranking (credited/items per repository), then *k*
fitted on four repositories (the smallest with the best F0.5) and scored on the fifth; and,
as a comparison, a ranking learnt from the data (each draft ranked by its family's precision
on the other repositories, families below a floor dropped, the best *k* per session kept;
floor and *k* fitted by F0.5), scored the same way.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from extract_quality import (
    DEV,
    DEV_FOLDS,
    RECALL_IMPORTANCE,
    Label,
    capture_items,
    corpus_files,
    credit,
    load_labels,
    repositories,
)

from gitmem.capture.extract import heuristic
from gitmem.capture.extract.heuristic import explain
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.items import Item
from gitmem.core.quotes import fold

UNKNOWN = "?"
FLOORS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
CAPS = (1, 2, 3, 4, 5, 6, 7, 8, 10, 40)
BETA = 0.5


@dataclass
class File:
    name: str
    repo: str
    items: list[Item]
    rules: list[str]
    labels: list[Label]
    capped: dict[int, list[Item]]
    """For each session cap of :data:`CAPS`, the items a capture stores under it."""


def captured(path: Path, labels: list[Label], cap: int) -> list[Item]:
    """What a capture of *path* stores with the heuristic's session cap set to *cap*."""
    default = heuristic.SESSION_ITEMS
    heuristic.SESSION_ITEMS = cap
    try:
        return capture_items(path, "heuristic", labels)[0]
    finally:
        heuristic.SESSION_ITEMS = default


def load(caps: Sequence[int] = ()) -> list[File]:
    """The development files, captured with no session cap (and with each of *caps*)."""
    files: list[File] = []
    repos = repositories()
    for path in corpus_files()[DEV]:
        labels = load_labels(path)
        items = captured(path, labels, max(CAPS))
        prepared = prepare(load_transcript(path), {}, None)
        messages = prepared.clean_messages()
        name = path.name.removesuffix(".jsonl")
        traced = explain(messages, session_items=max(CAPS), project=repos[name])
        by_quote = {fold(d.quote or ""): rule for d, rule in traced}
        by_text = {fold(d.text): rule for d, rule in traced}
        rules = [
            by_quote.get(fold(i.quote or ""), by_text.get(fold(i.text), UNKNOWN)) for i in items
        ]
        capped = {cap: captured(path, labels, cap) for cap in caps}
        files.append(File(name, repos[name], items, rules, labels, capped))
    return files


@dataclass
class Tally:
    labels: int = 0
    items: int = 0
    credited: int = 0
    found: int = 0

    def add(self, other: Tally) -> None:
        self.labels += other.labels
        self.items += other.items
        self.credited += other.credited
        self.found += other.found

    @property
    def precision(self) -> float:
        return self.credited / self.items if self.items else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.labels if self.labels else 1.0

    @property
    def f(self) -> float:
        p, r = self.precision, self.recall
        return (1 + BETA**2) * p * r / (BETA**2 * p + r) if p + r else 0.0


Keep = Callable[[File], list[int]]
"""Which of a file's items a policy keeps (indices)."""


def tally(file: File, keep: Sequence[int] | None = None) -> tuple[Tally, dict[int, int]]:
    kept = list(range(len(file.items))) if keep is None else list(keep)
    items = [file.items[n] for n in kept]
    credited = credit(items, file.labels)
    t = Tally(labels=sum(1 for label in file.labels if label.importance >= RECALL_IMPORTANCE))
    t.items = len(items)
    t.credited = len(credited)
    t.found = sum(1 for m in credited.values() if file.labels[m].importance >= RECALL_IMPORTANCE)
    return t, {kept[n]: m for n, m in credited.items()}


def at_cap(files: Sequence[File], cap: int) -> Tally:
    """The figures of *files* as captured under the session cap *cap*."""
    out = Tally()
    for file in files:
        capped = File(file.name, file.repo, file.capped[cap], [], file.labels, {})
        out.add(tally(capped)[0])
    return out


def total(files: Sequence[File], keep: Keep | None = None) -> Tally:
    out = Tally()
    for file in files:
        out.add(tally(file, None if keep is None else keep(file))[0])
    return out


def fmt(t: Tally) -> str:
    return (
        f"{t.labels:6} {t.items:5} {t.credited:6} {t.found:5} "
        f"{t.precision:9.2f} {t.recall:6.2f} {t.f:6.2f}"
    )


def per_rule(files: Sequence[File]) -> dict[str, dict[str, list[int]]]:
    """rule → repo → [items, credited]."""
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for file in files:
        _, credited = tally(file)
        for n, rule in enumerate(file.rules):
            cell = table[rule][file.repo]
            cell[0] += 1
            cell[1] += n in credited
    return table


def reliability(files: Sequence[File]) -> dict[str, float]:
    """Each family's precision over *files* (smoothed towards the overall precision, so a
    family seen twice is not ranked first or last on two items)."""
    table = per_rule(files)
    overall = total(files)
    prior = overall.precision
    out: dict[str, float] = {}
    for rule, repos in table.items():
        items = sum(c[0] for c in repos.values())
        good = sum(c[1] for c in repos.values())
        out[rule] = (good + 2 * prior) / (items + 2)
    return out


def policy(rel: dict[str, float], floor: float, cap: int) -> Keep:
    default = min(rel.values(), default=0.0)

    def keep(file: File) -> list[int]:
        scored = [(rel.get(rule, default), n) for n, rule in enumerate(file.rules)]
        ok = [(r, n) for r, n in scored if r >= floor]
        best = sorted(ok, key=lambda x: (-x[0], -x[1]))[:cap]
        return sorted(n for _, n in best)

    return keep


def fit(files: Sequence[File]) -> tuple[float, int, dict[str, float]]:
    rel = reliability(files)
    best = max(
        ((total(files, policy(rel, f, k)).f, -f, -k, f, k) for f in FLOORS for k in CAPS),
    )
    return best[3], best[4], rel


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        print(__doc__.split("\n\n", 2)[1].strip("\n"))
        return 0
    unknown = [a for a in argv if a not in ("--loo", "-v")]
    if unknown:
        print(f"extract_rules: unknown argument {unknown[0]}", file=sys.stderr)
        return 2
    files = load(CAPS if "--loo" in argv else ())
    repos = sorted({f.repo for f in files})
    print(f"{'repository':32} labels items credit found precision recall   F0.5")
    for repo in repos:
        print(f"{repo:32} {fmt(total([f for f in files if f.repo == repo]))}")
    print(f"{'all dev':32} {fmt(total(files))}")
    print()
    short = [r.split("/")[1][:10] for r in repos]
    halves = " ".join(f"{'fold ' + half:>10}" for half in DEV_FOLDS)
    print(
        f"{'rule family':20} " + " ".join(f"{s:>10}" for s in short) + f" {'all':>10}    P {halves}"
    )
    table = per_rule(files)
    for rule in sorted(table, key=lambda r: -sum(c[0] for c in table[r].values())):
        cells = [table[rule].get(repo, [0, 0]) for repo in repos]
        items = sum(c[0] for c in cells)
        good = sum(c[1] for c in cells)
        row = " ".join(f"{c[1]:>4}/{c[0]:<5}" if c[0] else f"{'-':>10}" for c in cells)
        # A family precise in one fold only fits the repositories it was written against.
        folds = [
            [sum(c[n] for r, c in zip(repos, cells, strict=True) if r in fold) for n in (1, 0)]
            for fold in DEV_FOLDS.values()
        ]
        split = " ".join(f"{g:>4}/{i:<5}" if i else f"{'-':>10}" for g, i in folds)
        print(f"{rule:20} {row} {good:>4}/{items:<5} {good / items:4.2f} {split}")
    if "-v" in argv:
        for file in files:
            _, credited = tally(file)
            for n, (item, rule) in enumerate(zip(file.items, file.rules, strict=True)):
                mark = "ok   " if n in credited else "noise"
                quote = (item.quote or item.text)[:150]
                print(f"{rule:18} {mark} {file.name[:28]:28} {item.kind:11} {quote!r}")
    if "--loo" in argv:
        print()
        print("leave one repository out: held-out figures as it is, then with the family")
        print("ordering, floor and per-session cap fitted on the other repositories")
        print(f"{'held out':32} {'':6} {'as is':>36}   {'fitted':>36}  floor cap")
        sums = [Tally(), Tally()]
        for repo in repos:
            train = [f for f in files if f.repo != repo]
            held = [f for f in files if f.repo == repo]
            floor, cap, rel = fit(train)
            as_is, fitted = total(held), total(held, policy(rel, floor, cap))
            sums[0].add(as_is)
            sums[1].add(fitted)
            print(f"{repo:32} {fmt(as_is)}   {fmt(fitted)}  {floor:5.1f} {cap:3}")
        print(f"{'sum of held-out':32} {fmt(sums[0])}   {fmt(sums[1])}")
        print()
        print("the extractor's own ranking (marked families first) under a session cap k:")
        print("credited/items (found) per repository")
        print(f"{'k':>3} " + " ".join(f"{s:>12}" for s in short) + f" {'all':>12}  F0.5")
        for k in CAPS:
            cells = [at_cap([f for f in files if f.repo == r], k) for r in repos]
            every = at_cap(files, k)
            row = " ".join(f"{f'{t.credited}/{t.items} ({t.found})':>12}" for t in [*cells, every])
            print(f"{k:3} {row}  {every.f:4.2f}")
        print()
        print("leave one repository out: the extractor's own ranking (marked families first)")
        print(
            f"with the session cap k fitted on the other repositories (the smallest best F{BETA})"
        )
        print(f"{'held out':32} {'':6} {'at k':>36}  k")
        sums = [Tally(), Tally()]
        for repo in repos:
            train = [f for f in files if f.repo != repo]
            held = [f for f in files if f.repo == repo]
            scores = {k: at_cap(train, k).f for k in CAPS}
            k = min(k for k in CAPS if scores[k] == max(scores.values()))
            result = at_cap(held, k)
            sums[1].add(result)
            print(f"{repo:32} {fmt(result)}  {k:2}")
        print(f"{'sum of held-out':32} {fmt(sums[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
