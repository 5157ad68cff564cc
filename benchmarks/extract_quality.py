"""Quality of capture on the labelled corpus: precision, recall and false verbatim, per split.

    python benchmarks/extract_quality.py [-v] [--files] [--extractor NAME] [--split dev|test]
                                         [--dev-fold A|B] [FILE.jsonl ...]

The corpus is ``benchmarks/data/extract/``: the 24 transcripts there and under ``holdout/``,
and the 70 of ``corpus/`` (restore them with ``data/extract/restore.py``; they are not in
git). Every one has labels in ``labels/NAME.json``, written by ``/work/shared/LABELLING.md``
by people who do not change the extractor (the method is at the end of the corpus README).
The corpus is split **by repository** (``corpus/split.json``): the files under ``extract/``
and ``holdout/`` are development files, and ``corpus/MANIFEST.json`` gives each other file's
split. Rules are tuned on the development split only; for the test split this script prints
totals and nothing item by item (``-v`` and ``--files`` refuse test files).

**How items are produced.** As a real capture produces them: the transcript is loaded and
parsed, echoes of gitmem's output tagged, secrets masked (:func:`gitmem.capture.prepare.prepare`),
gitmem's own output removed; the extractor gives drafts; the drafts are masked and their
quotes verified and degraded by the capture's own rules
(:func:`gitmem.capture.checkpoint.mask_draft` and :func:`~gitmem.capture.checkpoint.build_items`,
the pure step of :func:`~gitmem.capture.checkpoint.build_checkpoint` that turns drafts into
the item blobs a checkpoint stores; carry, signing and the store are left out since they do
not change an item). Extractors:

* ``heuristic``: the default extractor as :func:`gitmem.capture.extract.run_extractor` runs
  it (the session's last word included), told the repository the session was committed to
  as a capture is told its repository's remote (``project``: which PRs and issues are its
  own);
* ``labels``: a scripted model that answers with the file's own labels, in the model
  extractor's output schema (kind, text, ``verbatim``, quote, importance), read by the
  model path's own parser (:func:`gitmem.capture.extract.schema.parse_output`). Its figures
  check this scorer and the verifier path: they should be near 1.0, and what falls short is
  what the verifier refuses (a label's text that adds a number or a negation its quote lacks
  is degraded to inferred; see "false verbatim").

**Matching** (LABELLING.md, "Matching"). Both sides are normalised: case folded, curly
quotes straightened, markdown emphasis (``*``, ``_`` used as emphasis, ``~~``) and
backticks removed, whitespace collapsed. A captured item matches a label when its quote or
its text

1. contains the label's quote on word boundaries, or
2. is contained in the label's quote (on word boundaries) and is at least 16 characters
   and 3 words long, or
3. shares at least half of the words with it (Jaccard ≥ 0.5 over the sets of words).

The item's quote is the verified quote it stores, or, for an item the verifier degraded to
inferred, the quote it was proposed with (kept in the blob as ``unverified_quote``).
Kinds are not compared.

**Scoring, strict about duplicates.** Each label is credited to at most one item and each
item to at most one label, by a maximum matching that first covers as many labels of
importance ≥ 2 as it can, then as many others. So a second captured item on a label
already credited is **noise**, however good its words: a capture that stores one claim
three times is charged twice. Then

* **precision** = items credited with a label (any importance) / items captured;
* **recall** = labels of importance ≥ 2 credited / labels of importance ≥ 2;
* **false verbatim** = captured ``✓ verbatim`` items whose quote is not in the transcript
  (each of its `` … ``-joined pieces a byte-for-byte substring of one message, in order,
  checked here without the verifier), or whose text adds a number or a negation its quote
  lacks (a number token of the text that the quote does not hold; a negation word in the
  text when the quote has none). The script exits 1 when there is any.

``-v`` lists the noise, the duplicates and the missed labels of development files;
``--files`` prints a row per development file. Under the development total a row per
development repository follows, to judge a rule by leave-one-repository-out: a rule worth
keeping helps in most repositories, not only in the one it was written against. Given
files are scored as development files; a test file given is refused.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.extract import run_extractor
from gitmem.capture.extract.lastword import last_word
from gitmem.capture.extract.schema import parse_output
from gitmem.capture.prepare import Prepared, prepare
from gitmem.capture.run import default_session
from gitmem.capture.transcripts import load_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Draft, Item, Trust
from gitmem.core.negation import NEGATION_RE, unhedged
from gitmem.core.numbers import number_tokens
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings

CORPUS = Path(__file__).parent / "data" / "extract"
LABELS = CORPUS / "labels"
DEV, TEST = "dev", "test"
EXTRACTORS = ("heuristic", "labels")
KIND_OF_LABEL = {"question": "uncertainty"}
"""A label's kind as gitmem's schema spells it (the rest are the same)."""
MIN_CONTAINED_CHARS = 16
MIN_CONTAINED_WORDS = 3
MIN_JACCARD = 0.5
RECALL_IMPORTANCE = 2
DEV_FOLDS = {
    "A": (
        "ClusterCockpit/cc-backend",
        "codemie-ai/codemie-code",
        "darthzen/neuvector-mcp",
        "gmeligio/flutter-docker-image",
        "marot/spotter",
        "nakamura-shuta/tij",
        "teslamint/entirecontext",
    ),
    "B": (
        "d-kimuson/claude-code-viewer",
        "dougnukem/orpheus",
        "ebridges/wakil",
        "entireio/cli",
        "entireio/skills",
        "keparlak/NumWordify",
        "punt-labs/langlearn-tts",
    ),
}
"""The development repositories in two halves (``--dev-fold``): a rule is written while looking
at fold A only and kept when fold B, which it was not written against, gains too. The two
entireio repositories share a fold, so a rule fitted to their shared style cannot pass as
general."""
NO_SETTINGS = Settings({}, {})


# ---------------------------------------------------------------------------- the corpus


def repositories() -> dict[str, str]:
    """Each transcript's repository, by file name (without ``.jsonl``): ``corpus/MANIFEST.json``
    for the corpus, the README's table for the files under ``extract/`` and ``holdout/``
    (all from marot/spotter or codemie-ai/codemie-code, as their names say)."""
    manifest = json.loads((CORPUS / "corpus" / "MANIFEST.json").read_text(encoding="utf-8"))
    repos = {e["name"].removesuffix(".jsonl"): e["repository"] for e in manifest["files"]}
    for path in [*CORPUS.glob("*.jsonl"), *(CORPUS / "holdout").glob("*.jsonl")]:
        name = path.name.removesuffix(".jsonl")
        repos[name] = next((r for key, r in _OWN_REPOS.items() if key in name), "?")
    return repos


@functools.cache
def _projects() -> dict[str, str]:
    return repositories()


_OWN_REPOS = {"-spotter-": "marot/spotter", "-codemie-": "codemie-ai/codemie-code"}


def corpus_files() -> dict[str, list[Path]]:
    """The transcripts of each split, by name."""
    manifest = json.loads((CORPUS / "corpus" / "MANIFEST.json").read_text(encoding="utf-8"))
    split = {entry["name"]: entry["split"] for entry in manifest["files"]}
    files: dict[str, list[Path]] = {DEV: [], TEST: []}
    files[DEV] += sorted(CORPUS.glob("*.jsonl")) + sorted((CORPUS / "holdout").glob("*.jsonl"))
    for name, part in sorted(split.items()):
        path = CORPUS / "corpus" / name
        if not path.is_file():
            raise SystemExit(
                f"extract_quality: {path} is missing; restore the corpus with "
                "python benchmarks/data/extract/restore.py"
            )
        files[part].append(path)
    return files


@dataclass
class Label:
    kind: str
    importance: int
    quote: str
    text: str
    norm: str
    words: frozenset[str]


def load_labels(path: Path) -> list[Label]:
    name = path.name.removesuffix(".jsonl")
    data: dict[str, Any] = json.loads((LABELS / f"{name}.json").read_text(encoding="utf-8"))
    return [
        Label(
            e["kind"], e["importance"], e["quote"], e["text"], norm(e["quote"]), words(e["quote"])
        )
        for e in data["items"]
    ]


# ------------------------------------------------------------------------- the matching

_QUOTES = str.maketrans({c: "'" for c in "‘’‚‛′"} | {c: '"' for c in "“”„‟″"})
_EMPHASIS_RE = re.compile(r"[*`]|~~|(?<!\w)_+|_+(?!\w)")
_SPACE_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"\w+")


def norm(text: str) -> str:
    """LABELLING.md's normal form: case and quote style folded, emphasis and backticks
    removed, whitespace collapsed."""
    text = _EMPHASIS_RE.sub("", text.casefold().translate(_QUOTES))
    return _SPACE_RE.sub(" ", text).strip()


def words(text: str) -> frozenset[str]:
    return frozenset(_WORD_RE.findall(norm(text)))


def contains(haystack: str, needle: str) -> bool:
    """*needle* in *haystack* on word boundaries (both already normalised)."""
    if not needle:
        return False
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        before = start == 0 or not (_word(haystack[start - 1]) and _word(needle[0]))
        after = end == len(haystack) or not (_word(haystack[end]) and _word(needle[-1]))
        if before and after:
            return True
        start = haystack.find(needle, start + 1)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def matches(sides: Iterable[str], label: Label) -> bool:
    """LABELLING.md's rule: does one of an item's *sides* (its quote, its text) match?"""
    for side in sides:
        mine = norm(side)
        if not mine:
            continue
        if contains(mine, label.norm):
            return True
        if (
            len(mine) >= MIN_CONTAINED_CHARS
            and len(_WORD_RE.findall(mine)) >= MIN_CONTAINED_WORDS
            and contains(label.norm, mine)
        ):
            return True
        theirs, own = label.words, words(side)
        if own and theirs and len(own & theirs) >= MIN_JACCARD * len(own | theirs):
            return True
    return False


def sides(item: Item) -> list[str]:
    """What an item is matched by: its quote (or the quote it was proposed with) and text."""
    quote = item.quote or item.extra.get("unverified_quote")
    return [s for s in (quote, item.text) if isinstance(s, str)]


def credit(items: Sequence[Item], labels: Sequence[Label]) -> dict[int, int]:
    """A maximum matching item → label: labels of importance ≥ 2 first (augmenting paths
    never unmatch a label, so the second pass keeps every label the first covered)."""
    edges = [[n for n, label in enumerate(labels) if matches(sides(item), label)] for item in items]
    owner: dict[int, int] = {}  # label → item

    def augment(item: int, allowed: Callable[[int], bool], seen: set[int]) -> bool:
        for label in edges[item]:
            if label in seen or not allowed(label):
                continue
            seen.add(label)
            if label not in owner or augment(owner[label], allowed, seen):
                owner[label] = item
                return True
        return False

    def important(n: int) -> bool:
        return labels[n].importance >= RECALL_IMPORTANCE

    for allowed in (important, lambda n: True):
        for item in range(len(items)):
            if item not in owner.values():
                augment(item, allowed, set())
    return {item: label for label, item in owner.items()}


# ----------------------------------------------------------------------- false verbatim


def false_verbatim(item: Item, texts: Sequence[str]) -> str | None:
    """Why a ``verbatim`` item is a false verbatim (None: it is not), judged without the
    verifier: its quote's pieces (joined by " … " in a stored span) must lie in order in
    one message, byte for byte; its text may add no number and no negation (a hedge
    such as "not sure" is not one)."""
    if item.trust != Trust.VERBATIM:
        return None
    quote = item.quote or ""
    if not quote or not any(_in_order(quote.split(" … "), text) for text in texts):
        return "quote not in the transcript"
    said = norm(quote)
    added = [n for n in number_tokens(norm(item.text)) if n not in number_tokens(said)]
    if added:
        return f"text adds the number {added[0]}"
    # A hedge ("not sure", "no idea") is not a negation, by the verifier's own definition
    # (gitmem.core.support); every other "not", "no", "never" the quote lacks counts.
    if NEGATION_RE.search(unhedged(item.text)) and not NEGATION_RE.search(unhedged(quote)):
        return "text adds a negation"
    return None


def _in_order(pieces: list[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        at = text.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


# -------------------------------------------------------------------------- extractors


def heuristic(prepared: Prepared, labels: Sequence[Label], project: str | None) -> list[Draft]:
    """The heuristic as a capture of *project* runs it, the session's last word included."""
    messages = prepared.clean_messages()
    with tempfile.TemporaryDirectory() as log:
        found = run_extractor(
            "heuristic", messages, NO_SETTINGS, CaptureLog(Path(log)), "q", project=project
        )
    return found.drafts


def replay_labels(prepared: Prepared, labels: Sequence[Label], project: str | None) -> list[Draft]:
    """The labels, written as a model answers and parsed by the model path's parser."""
    answer = {
        "items": [
            {
                "kind": KIND_OF_LABEL.get(label.kind, label.kind),
                "text": label.text,
                "trust": "verbatim",
                "quote": label.quote,
                "importance": label.importance,
            }
            for label in labels
        ]
    }
    drafts = parse_output(json.dumps(answer, ensure_ascii=False).encode("utf-8"))
    return last_word(drafts, prepared.clean_messages())  # as run_extractor does a reply


RUN: dict[str, Callable[[Prepared, Sequence[Label], str | None], list[Draft]]] = {
    "heuristic": heuristic,
    "labels": replay_labels,
}


# ---------------------------------------------------------------------------- scoring


@dataclass
class Score:
    name: str
    labels: int = 0
    """Labels of importance ≥ 2."""
    items: int = 0
    credited: int = 0
    found: int = 0
    """Labels of importance ≥ 2 credited."""
    verbatim: int = 0
    noise: list[tuple[Item, str]] = field(default_factory=list)
    missed: list[Label] = field(default_factory=list)
    false: list[tuple[Item, str]] = field(default_factory=list)
    seconds: float = 0.0
    chars: int = 0

    def add(self, other: Score) -> None:
        for name in ("labels", "items", "credited", "found", "verbatim", "seconds", "chars"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.noise += other.noise
        self.missed += other.missed
        self.false += other.false

    @property
    def precision(self) -> float:
        return self.credited / self.items if self.items else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.labels if self.labels else 1.0


def capture_items(
    path: Path, extractor: str, labels: Sequence[Label]
) -> tuple[list[Item], list[str], float]:
    """The items a capture of *path* stores, the message texts, and the extractor's time."""
    transcript = load_transcript(path)
    prepared = prepare(transcript, {}, None)
    began = time.perf_counter()
    project = _projects().get(path.name.removesuffix(".jsonl"))
    drafts = RUN[extractor](prepared, labels, project)
    seconds = time.perf_counter() - began
    session = default_session(prepared.transcript, path)
    masked = [mask_draft(d, prepared.secrets) for d in drafts]
    items = build_items(masked, prepared.transcript, session, sha256_hex(prepared.snapshot))
    return items, [m.text for m in prepared.transcript.messages], seconds


def score(path: Path, extractor: str) -> Score:
    labels = load_labels(path)
    items, texts, seconds = capture_items(path, extractor, labels)
    result = Score(path.name.removesuffix(".jsonl"), seconds=seconds)
    result.chars = sum(len(t) for t in texts)
    result.labels = sum(1 for label in labels if label.importance >= RECALL_IMPORTANCE)
    result.items = len(items)
    credited = credit(items, labels)
    result.credited = len(credited)
    taken = set(credited.values())
    result.found = sum(1 for n in taken if labels[n].importance >= RECALL_IMPORTANCE)
    result.missed = [
        label
        for n, label in enumerate(labels)
        if n not in taken and label.importance >= RECALL_IMPORTANCE
    ]
    for n, item in enumerate(items):
        result.verbatim += item.trust == Trust.VERBATIM
        if n not in credited:
            dup = any(matches(sides(item), labels[m]) for m in taken)
            result.noise.append((item, "duplicate" if dup else "noise"))
        why = false_verbatim(item, texts)
        if why is not None:
            result.false.append((item, why))
    return result


HEADER = (
    f"{'':44} {'labels':>6} {'items':>5} {'credit':>6} {'found':>5} {'noise':>5} {'dup':>4} "
    f"{'precision':>9} {'recall':>6} {'falsev':>6} {'✓ kept':>6}"
)


def row(s: Score) -> str:
    kept = f"{s.verbatim / s.items:6.2f}" if s.items else f"{'-':>6}"
    return (
        f"{s.name[:44]:44} {s.labels:6} {s.items:5} {s.credited:6} {s.found:5} "
        f"{len(s.noise):5} {sum(why == 'duplicate' for _, why in s.noise):4} "
        f"{s.precision:9.2f} {s.recall:6.2f} {len(s.false):6} {kept}"
    )


def report(result: Score) -> None:
    for item, why in result.noise:
        print(f"    {why:9} {item.kind:11} {item.trust[:3]} {(item.quote or item.text)[:110]!r}")
    for label in result.missed:
        print(f"    missed    {label.kind:11} {label.importance} {label.quote[:110]!r}")
    for item, why in result.false:
        print(f"    FALSE VERBATIM ({why}) {item.text[:80]!r} / {item.quote!r}")


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        print(__doc__.split("\n\n", 2)[1].strip("\n"))
        return 0
    verbose = "-v" in argv
    per_file = verbose or "--files" in argv
    chosen = list(EXTRACTORS)
    args = [a for a in argv if a not in ("-v", "--files")]
    if "--extractor" in args:
        at = args.index("--extractor")
        chosen = [args[at + 1]] if at + 1 < len(args) else []
        del args[at : at + 2]
        if not chosen or chosen[0] not in EXTRACTORS:
            print(
                f"extract_quality: --extractor takes one of {', '.join(EXTRACTORS)}",
                file=sys.stderr,
            )
            return 2
    splits = (DEV, TEST)
    if "--split" in args:
        at = args.index("--split")
        splits = tuple(args[at + 1 : at + 2])
        del args[at : at + 2]
        if splits not in ((DEV,), (TEST,)):
            print("extract_quality: --split takes dev or test", file=sys.stderr)
            return 2
    fold, half = None, ""
    if "--dev-fold" in args:
        at = args.index("--dev-fold")
        half = "".join(args[at + 1 : at + 2])
        fold = DEV_FOLDS.get(half)
        del args[at : at + 2]
        if fold is None:
            print("extract_quality: --dev-fold takes A or B", file=sys.stderr)
            return 2
        splits = (DEV,)
    unknown = [a for a in args if a.startswith("-")]
    missing = [a for a in args if not a.startswith("-") and not Path(a).is_file()]
    if unknown or missing:
        what = f"unknown option {unknown[0]}" if unknown else f"no such file: {missing[0]}"
        print(f"extract_quality: {what}", file=sys.stderr)
        return 2
    files = corpus_files()
    if args:
        given = [Path(a).resolve() for a in args]
        test = {p.resolve() for p in files[TEST]}
        if any(p in test for p in given):
            print("extract_quality: a test file is scored only in the totals", file=sys.stderr)
            return 2
        files = {DEV: [Path(a) for a in args], TEST: []}
    repos = repositories()
    if fold is not None:
        files = {DEV: [p for p in files[DEV] if repos[p.name.removesuffix(".jsonl")] in fold]}
    failed = False
    print(HEADER)
    for extractor in chosen:
        for part in splits:
            if not files[part]:
                continue
            name = f"{part} fold {half}" if half else part
            total = Score(f"{extractor} · {name} ({len(files[part])} files)")
            per_repo: dict[str, Score] = {}
            for path in files[part]:
                result = score(path, extractor)
                total.add(result)
                repo = repos.get(result.name, "?")
                per_repo.setdefault(repo, Score(f"  {repo}")).add(result)
                if part == DEV and per_file:
                    print(row(result))
                    if verbose:
                        report(result)
            print(row(total))
            if part == DEV:
                for repo in sorted(per_repo):
                    print(row(per_repo[repo]))
            failed = failed or bool(total.false)
            speed = total.seconds * 1000 / (total.chars / 1e6) if total.chars else 0.0
            if extractor == "heuristic":
                took = f"{total.seconds * 1000:.0f} ms, {speed:.0f} ms per million characters"
                print(f"{'':44} extraction {took}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
