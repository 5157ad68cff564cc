"""Quality of the heuristic extractor on a hand-labelled corpus of real sessions.

    python benchmarks/extract_quality.py [-v] [FILE.jsonl ...]

The corpus is ``benchmarks/data/extract/`` (sources, licences and the labelling rules in
its README), with a held-out part in ``holdout/`` (labelled after the extractor's rules
were frozen, so its totals are the honest estimate; the rest was looked at while the
rules were written). Each ``NAME.jsonl`` transcript has a ``NAME.labels.json`` beside it with
``expected`` items (kind and the exact span of the transcript that says it) and
``acceptable`` spans (sensible items nobody has to find: a finished step, a fact).

Each transcript is read as a capture reads it (parsed, echoes tagged, secrets masked,
gitmem's own output dropped) and given to the extractor. Then, per file and in total:

* **precision**: the share of extracted items that are not noise, i.e. that match an
  expected or an acceptable label;
* **recall**: the share of expected items matched;
* **false verbatim**: items claiming ``verbatim`` whose quote the verifier rejects
  (must be 0; the script exits 1 otherwise).

Matching rule: an item matches a label when its quote and the label's span lie in the
same message and overlap by at least half of the shorter of the two; an expected label
must also have the item's kind (``question`` is the extractor's ``uncertainty``). Each
label is matched at most once; an item matches the expected label it overlaps most,
else an acceptable one; a second item on a label already taken is noise (a duplicate).
``-v`` lists every noise item and every missed label.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.items import Draft, Kind, Trust
from gitmem.core.quotes import check_quote

CORPUS = Path(__file__).parent / "data" / "extract"
KINDS = {"decision": Kind.DECISION, "open_loop": Kind.OPEN_LOOP, "question": Kind.UNCERTAINTY}
KINDS.update({"uncertainty": Kind.UNCERTAINTY, "fact": Kind.FACT})

Span = tuple[int, int, int]
"""(message index, start, end) of a span in the transcript's messages."""


@dataclass
class Label:
    kind: Kind | None
    """None for an acceptable span."""
    quote: str
    spans: list[Span]
    matched: bool = False


@dataclass
class Score:
    name: str
    labels: int = 0
    items: int = 0
    found: int = 0
    acceptable: int = 0
    noise: list[Draft] = field(default_factory=list)
    false_verbatim: list[Draft] = field(default_factory=list)
    missed: list[Label] = field(default_factory=list)
    seconds: float = 0.0
    chars: int = 0

    def add(self, other: Score) -> None:
        self.labels += other.labels
        self.items += other.items
        self.found += other.found
        self.acceptable += other.acceptable
        self.noise += other.noise
        self.false_verbatim += other.false_verbatim
        self.missed += other.missed
        self.seconds += other.seconds
        self.chars += other.chars

    @property
    def precision(self) -> float:
        return (self.found + self.acceptable) / self.items if self.items else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.labels if self.labels else 1.0


def spans_of(quote: str, texts: list[str]) -> list[Span]:
    found = []
    for index, text in enumerate(texts):
        at = text.find(quote)
        while at >= 0:
            found.append((index, at, at + len(quote)))
            at = text.find(quote, at + 1)
    return found


def overlap(a: Span, b: Span) -> int:
    """Characters shared, when the two spans are in one message and share at least half
    of the shorter; else 0."""
    if a[0] != b[0]:
        return 0
    shared = min(a[2], b[2]) - max(a[1], b[1])
    return shared if shared * 2 >= min(a[2] - a[1], b[2] - b[1]) else 0


def load_labels(path: Path, texts: list[str]) -> list[Label]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    labels = []
    for entry in data.get("expected", []):
        labels.append(Label(KINDS[entry["kind"]], entry["quote"], []))
    labels += [Label(None, quote, []) for quote in data.get("acceptable", [])]
    for label in labels:
        label.spans = spans_of(label.quote, texts)
        if not label.spans:
            raise SystemExit(f"{path.name}: label not in the transcript: {label.quote!r}")
    return labels


def score(path: Path) -> Score:
    transcript = load_transcript(path)
    messages = prepare(transcript, {}, None).clean_messages()
    texts = [m.text for m in messages]
    labels = load_labels(path.with_suffix(".labels.json"), texts)
    result = Score(path.stem, labels=sum(1 for label in labels if label.kind is not None))
    result.seconds = float("inf")
    for _ in range(3):  # the best of three, as the other benchmarks time
        began = time.perf_counter()
        drafts = extract(messages)
        result.seconds = min(result.seconds, time.perf_counter() - began)
    result.chars = sum(len(text) for text in texts)
    result.items = len(drafts)
    for draft in drafts:
        quote = draft.quote or ""
        if draft.trust == Trust.VERBATIM and not check_quote(quote, texts).verbatim:
            result.false_verbatim.append(draft)
        label = best_label(draft, spans_of(quote, texts), labels)
        if label is None:
            result.noise.append(draft)
        elif label.kind is None:
            result.acceptable += 1
        else:
            result.found += 1
    result.missed = [label for label in labels if label.kind is not None and not label.matched]
    return result


def best_label(draft: Draft, spans: list[Span], labels: list[Label]) -> Label | None:
    def best(candidates: list[Label]) -> Label | None:
        scored = [
            (max((overlap(s, t) for s in spans for t in label.spans), default=0), n)
            for n, label in enumerate(candidates)
        ]
        shared, n = max(scored, default=(0, -1))
        return candidates[n] if shared > 0 else None

    open_labels = [label for label in labels if not label.matched]
    label = best([x for x in open_labels if x.kind == draft.kind])
    label = label or best([x for x in open_labels if x.kind is None])
    if label is not None:
        label.matched = True
    return label


def row(score: Score) -> str:
    return (
        f"{score.name[:48]:48} {score.labels:6} {score.items:5} {score.found:5} "
        f"{score.acceptable:4} {len(score.noise):5} {score.precision:9.2f} {score.recall:6.2f} "
        f"{len(score.false_verbatim):6}"
    )


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    given = [Path(a) for a in argv if a != "-v"]
    parts = (
        [("given", given)]
        if given
        else [
            ("development", sorted(CORPUS.glob("*.jsonl"))),
            ("held out", sorted((CORPUS / "holdout").glob("*.jsonl"))),
        ]
    )
    header = f"{'file':48} {'labels':>6} {'items':>5} {'found':>5} {'ok':>4} {'noise':>5} "
    print(header + f"{'precision':>9} {'recall':>6} {'falsev':>6}")
    total = Score("TOTAL")
    for name, paths in parts:
        part = Score(f"total ({name})")
        for path in paths:
            result = score(path)
            part.add(result)
            print(row(result))
            if verbose:
                report(result)
        print(row(part))
        total.add(part)
    if len(parts) > 1:
        print(row(total))
    count = sum(len(paths) for _, paths in parts)
    megabytes = total.chars / 1e6
    print(
        f"extraction: {total.seconds * 1000:.1f} ms for {count} transcripts "
        f"({megabytes:.2f} M characters, {total.seconds * 1000 / megabytes:.0f} ms per million)"
    )
    return 1 if total.false_verbatim else 0


def report(result: Score) -> None:
    for draft in result.noise:
        print(f"    noise   {draft.kind:11} {(draft.quote or '')[:110]!r}")
    for label in result.missed:
        print(f"    missed  {label.kind:11} {label.quote[:110]!r}")
    for draft in result.false_verbatim:
        print(f"    FALSE VERBATIM {draft.quote!r}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
