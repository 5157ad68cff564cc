"""A long session read by the host's CLI in windows: the merged items hold each claim once.

    python benchmarks/model_windows.py [--split test|dev] [--window CHARS] [-v]

Both splits, the test split first, unless ``--split`` names one. Only totals are printed,
never an item (the test split is not read item by item); ``-v`` with ``--split dev``
lists each claim stored twice, the item credited first and the one again.

The issue's target: "the merged items of a long session contain no claim twice". A host
CLI (``--extractor claude``) reads a session longer than one call in windows
(:func:`gitmem.capture.extract.windows`), one call each, and the items of all windows are
merged by the session's last word (:func:`gitmem.capture.extract.lastword.last_word`).
Here every labelled session of the corpus is read in windows of ``--window`` characters
(default 5,000, so that most sessions take several calls; gitmem's own window is
150,000) by a scripted ``claude`` on ``PATH`` that keeps the CLI's contract (the prompt on
stdin, one JSON result object on stdout) and answers each window as a model that sees
only that window would:

* a labelled item whose quote is in the window: the label's kind, text and quote;
* a labelled item whose quote is not in the window but which the window says again (a
  sentence of one of its messages holding at least :data:`RESTATED` of the quote's
  words, at least :data:`MIN_WORDS` of them): the same claim in the window's words, that
  sentence as both its text and its quote (a recap, a reply that repeats the decision,
  a later status line).

A sentence is quoted once a window (not for a second claim). Each window's prompt shows
the items the earlier windows gave (:func:`gitmem.capture.extract.prompt.build_prompt`,
``listed``) and asks that they not be listed again; the stand-in runs twice, as a model
that ignores that list (``repeats``: a claim said in three windows is proposed three
times, in three wordings, and what is left is what the merge alone removes) and as one
that follows it (``follows``: a claim the list holds is not proposed again). Then the
capture's own steps store the items (masking, quote verification,
:func:`gitmem.capture.checkpoint.build_items`), and the items are credited against the
labels as ``extract_quality.py`` credits them (one item per label; a second item on a
credited label is a **claim twice**). Printed per split: sessions, those read in two or
more windows, calls, proposals, the claims proposed twice or more across windows, items
stored, labels credited, and the claims stored twice (the target: 0), a column per
stand-in. Exit status 1 when a model that follows the prompt leaves a claim twice.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from extract_quality import DEV, TEST, Label, corpus_files, credit, load_labels, matches, sides

import gitmem.capture.extract as extract
from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.extract import run_extractor
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings

WINDOW = 5_000
RESTATED = 0.7
"""The share of a label quote's words a sentence must hold to say the claim again."""
MODELS = ("repeats", "follows")
"""How the stand-in treats the items the earlier windows gave, which each window's prompt
shows: ``repeats`` lists a claim again whenever its window says it (a model that ignores
the list: what the merge alone leaves), ``follows`` does not list a claim the list holds
(by the same test as a restatement), as the prompt asks."""
MIN_WORDS = 4
"""A label quote with fewer words is never found said again (too little to tell)."""

STAND_IN = r'''#!{python}
"""A scripted `claude -p --output-format json`: answers each window with the labels it
says (see benchmarks/model_windows.py)."""
import json, os, re, sys

KIND = {{"question": "uncertainty"}}
WORD = re.compile(r"\w+")
SENTENCE = re.compile(r"\S(?:[^\n]*?)(?:[.!?](?=\s|$)|$)", re.M)
BLOCK = re.compile(
    r"^=== message \d+ of \d+.*? (\w{{16}}) ===\n(.*?)\n=== end of message \d+ \1 ===$",
    re.M | re.S,
)


def words(text):
    return {{w.casefold() for w in WORD.findall(text)}}


LISTED = re.compile(
    r"^=== items already listed (\w{{16}}) ===\n(.*?)^=== end of items already listed \1 ===$",
    re.M | re.S,
)


def said_again(wanted, text):
    return len(wanted) >= {min_words} and len(wanted & words(text)) / len(wanted) >= {restated}


prompt = sys.stdin.read()
texts = [m.group(2) for m in BLOCK.finditer(prompt)]
block = LISTED.search(prompt)
listed = [json.loads(line)["text"] for line in block.group(2).splitlines()] if block else []
labels = json.load(open(os.environ["WINDOWS_LABELS"], encoding="utf-8"))
follows = os.environ["WINDOWS_MODEL"] == "follows"
items, restated = [], []
for label in labels:
    kind = KIND.get(label["kind"], label["kind"])
    if follows and any(t == label["text"] or said_again(words(label["quote"]), t) for t in listed):
        continue  # an earlier part listed this claim: not again
    if any(label["quote"] in text for text in texts):
        items.append({{"kind": kind, "text": label["text"], "trust": "verbatim",
                      "quote": label["quote"]}})
    else:
        restated.append((kind, label))
quoted = [item["quote"] for item in items]
for kind, label in restated:
    wanted = words(label["quote"])
    if len(wanted) < {min_words}:
        continue
    best, share = None, 0.0
    for text in texts:
        for match in SENTENCE.finditer(text):
            sentence = match.group().strip()
            got = len(wanted & words(sentence)) / len(wanted)
            if got > share and 20 <= len(sentence) <= 300:
                best, share = sentence, got
    # a sentence is quoted once a window: not for a second claim
    if best is not None and said_again(wanted, best) and not any(
        best in q or q in best for q in quoted
    ):
        items.append({{"kind": kind, "text": best, "trust": "verbatim", "quote": best}})
        quoted.append(best)
answer = json.dumps({{"items": items[:50]}})
usage = {{"input_tokens": len(prompt) // 4, "output_tokens": len(answer) // 4}}
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": answer,
                  "structured_output": json.loads(answer), "usage": usage}}))
with open(os.environ["WINDOWS_CALLS"], "a", encoding="utf-8") as calls:
    calls.write(answer + "\n")
'''


def stand_in(bin_dir: Path) -> Path:
    """The scripted ``claude``, written into *bin_dir* (made here)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    script = bin_dir / "claude"
    text = STAND_IN.format(python=sys.executable, min_words=MIN_WORDS, restated=RESTATED)
    script.write_text(text, encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


class Totals:
    def __init__(self) -> None:
        self.sessions = self.windowed = self.calls = self.proposals = 0
        self.proposed_twice = self.items = self.credited = self.twice = 0


def twice(items: Sequence[Item], labels: Sequence[Label]) -> tuple[int, list[tuple[Item, Item]]]:
    """(labels credited, each item beyond the first on a credited label with the item
    credited for that label)."""
    credited = credit(items, labels)
    first = {label: n for n, label in credited.items()}
    extra = []
    for n, item in enumerate(items):
        if n in credited:
            continue
        again = next((m for m in first if matches(sides(item), labels[m])), None)
        if again is not None:
            extra.append((items[first[again]], item))
    return len(credited), extra


def proposed_twice(answers: list[dict[str, object]], labels: Sequence[Label]) -> int:
    """Labels that two or more proposals of the session's windows say (each proposal
    matched as the scorer matches an item: by its quote and text)."""
    said: dict[int, int] = {}
    for proposal in answers:
        sides_ = [str(proposal["quote"]), str(proposal["text"])]
        for n, label in enumerate(labels):
            if matches(sides_, label):
                said[n] = said.get(n, 0) + 1
    return sum(1 for count in said.values() if count > 1)


def run_split(split: str, model: str, verbose: bool = False) -> Totals:
    """The totals of every labelled session of *split* read by the stand-in in *model*
    mode (:data:`MODELS`); with *verbose*, each claim stored twice printed."""
    os.environ["WINDOWS_MODEL"] = model
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="gitmem-model-windows-") as tmp:
        folder = Path(tmp)
        bin_dir = stand_in(folder / "bin").parent
        os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
        log = CaptureLog(folder / "local")
        settings = Settings(
            {"host.timeout": 60, "host.calls": 100_000}, {}
        )  # every window to the CLI
        for path in corpus_files()[split]:
            labels = load_labels(path)
            labels_file = folder / "labels.json"
            labels_file.write_text(
                json.dumps([{"kind": x.kind, "text": x.text, "quote": x.quote} for x in labels]),
                encoding="utf-8",
            )
            calls_file = folder / "calls.jsonl"
            calls_file.write_text("", encoding="utf-8")
            os.environ["WINDOWS_LABELS"], os.environ["WINDOWS_CALLS"] = (
                str(labels_file),
                str(calls_file),
            )
            prepared = prepare(load_transcript(path), {}, None)
            found = run_extractor("claude", prepared.clean_messages(), settings, log, "windows")
            if found.fallback is not None:
                raise SystemExit(f"{path.name}: the stand-in failed: {found.fallback}")
            masked = [mask_draft(d, prepared.secrets) for d in found.drafts]
            snapshot = sha256_hex(prepared.snapshot)
            items = build_items(masked, prepared.transcript, "model-windows", snapshot)
            answers = [
                entry
                for line in calls_file.read_text(encoding="utf-8").splitlines()
                for entry in json.loads(line)["items"]
            ]
            calls = len(calls_file.read_text(encoding="utf-8").splitlines())
            credited, pairs = twice(items, labels)
            if verbose:
                for one, other in pairs:
                    print(f"  {model} {path.name}: {one.quote!r}\n      and {other.quote!r}")
            totals.sessions += 1
            totals.windowed += calls > 1
            totals.calls += calls
            totals.proposals += len(answers)
            totals.proposed_twice += proposed_twice(answers, labels)
            totals.items += len(items)
            totals.credited += credited
            totals.twice += len(pairs)
    return totals


def report(split: str, window: int, by_model: dict[str, Totals]) -> None:
    print(f"host CLI read in windows of {window:,} characters, {split} split")
    print(f"{'stand-in model':40} " + " ".join(f"{m:>8}" for m in by_model))
    rows = (
        ("sessions", "sessions"),
        ("  read in two windows or more", "windowed"),
        ("calls (windows)", "calls"),
        ("proposals, all windows", "proposals"),
        ("  claims proposed in two or more", "proposed_twice"),
        ("items stored after the merge", "items"),
        ("  labels credited", "credited"),
        ("  claims stored twice (target 0)", "twice"),
    )
    for name, field in rows:
        print(f"{name:40} " + " ".join(f"{getattr(t, field):8}" for t in by_model.values()))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(TEST, DEV), help="only this split")
    parser.add_argument("--window", type=int, default=WINDOW, help="characters per call")
    parser.add_argument(
        "-v", action="store_true", help="list every claim stored twice (dev split only)"
    )
    args = parser.parse_args(argv)
    if args.v and args.split != DEV:
        parser.error("-v lists items, and only the dev split is read item by item (--split dev)")
    if args.window < 1_000:
        parser.error("--window must be at least 1,000 characters")
    # gitmem's own window is 150,000 characters: most sessions of the corpus fit in one
    extract.windows = functools.partial(extract.windows, limit=args.window)  # type: ignore[assignment]
    stored_twice = 0
    for split in (TEST, DEV) if args.split is None else (args.split,):
        by_model = {model: run_split(split, model, args.v) for model in MODELS}
        report(split, args.window, by_model)
        stored_twice += by_model["follows"].twice
    return 1 if stored_twice else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
