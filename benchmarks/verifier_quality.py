"""Benchmark: how often the quote verifier says yes to faithful quotes of real
transcripts, and that it never says yes to unfaithful ones.

    python benchmarks/verifier_quality.py [FOLDER]

FOLDER (default ``benchmarks/data/real``, described in its README.md) holds public Claude
Code and Codex transcripts, parsed with gitmem's own parsers. From the user and assistant
messages of each, with a fixed seed, it cuts faithful quotes at whitespace:

- ``span``: a piece of one message, as written (line breaks and all);
- ``list``: a piece that crosses into a list, reflowed onto one line (each line-start
  bullet written `` - ``, each number `` N. ``, every other line break a space; a
  heading's ``#`` or a blockquote's ``>`` is left out, since the rule is for lists);
- ``negation``: a piece with a negation word inside;
- ``… elided``: any of those with one to three words in the middle replaced by an
  ellipsis (never a negation: dropping one is not faithful).

It reports the share of each that verifies, and for each that does, whether the
transcript's own text of the match (``QuoteCheck.span``, what gets stored and shown)
verifies again in the same message. Then it mutates them and counts every
mutation that still verifies (a false verbatim; the target is 0):

- ``digit``: one digit of a number changed;
- ``negation``: a negation inside the quote dropped behind an ellipsis;
- ``marker``: a `` - `` list marker inserted between two words of a one-line quote;
- ``word``: one word swapped for another word of the same transcript;
- ``number``: a quote of a number that starts or ends inside a longer one ("5 seconds"
  from "2.5 seconds", "500 users" from "37,500 users", "37 ms" from "-37 ms", "latency
  of 37" from "latency of 37.5"), drawn from every such number the messages hold.

A mutation is counted only when its words cannot be found in the transcript some other
way (:func:`_absent`, which ignores every list marker, or for a dropped negation words
that occur once), so that a yes would be false for certain; the rest are skipped.
"""

from __future__ import annotations

import random
import re
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from gitmem.capture.transcripts import parse_transcript
from gitmem.core.folding import fold, fold_inline
from gitmem.core.negation import NEGATION_RE
from gitmem.core.numbers import NUMBER_RE
from gitmem.core.quotes import MIN_PIN_CHARS, check_quote, split_fragments

SEED = 20260711
SPANS_PER_FILE = 60
"""Faithful pieces drawn per file and kind (``span``, ``list``), before their variants."""
FOLDER = Path(__file__).parent / "data" / "real"

Check = Callable[[str, Sequence[str]], bool]

_LIST_LINE_RE = re.compile(r"^[ ]*([-+*]|[0-9]{1,3}[.)])[ ]+(?=\S)", re.MULTILINE)
_REFLOW_RE = re.compile(r"\n[ ]*(?:([-+*])|([0-9]{1,3})[.)])[ ]+(?=\S)")
_BLOCK_RE = re.compile(r"\n[ ]*(?:\#{1,6}|>)[ ]*")
_QUOTE_MARKER_RE = re.compile(r" (?:[-+]|[0-9]{1,9}[.)])(?= |$)")
_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def verifies(quote: str, messages: Sequence[str]) -> bool:
    return check_quote(quote, messages).verbatim


def span_verifies(quote: str, messages: Sequence[str]) -> bool:
    """True when *quote* verifies and so does its span, in the same message."""
    check = check_quote(quote, messages, with_span=True)
    if check.span is None:
        return False
    again = check_quote(check.span, messages)
    return again.message_index == check.message_index


def reflow(text: str) -> str:
    """*text* on one line: a line-start bullet becomes `` - ``, a number `` N. ``, a
    heading or blockquote marker goes, any other line break becomes a space."""
    text = _BLOCK_RE.sub("\n", text)
    text = _REFLOW_RE.sub(lambda m: " - " if m.group(1) else f" {m.group(2)}. ", text)
    return re.sub(r"[ ]*\n\s*", " ", text)


def pins(quote: str) -> bool:
    return any(len(fold(part)) >= MIN_PIN_CHARS for part in split_fragments(quote))


class Sample:
    """One transcript: its messages, their folded forms, and the pieces drawn from it."""

    def __init__(self, path: Path) -> None:
        transcript = parse_transcript(path.read_bytes(), path.name)
        self.messages = transcript.texts()
        self.said = [m.text for m in transcript.messages if m.role in ("user", "assistant")]
        self.folded = [_words_only(fold(message)) for message in self.messages]
        self.random = random.Random(SEED ^ zlib.crc32(path.name.encode()))
        vocabulary = {w.casefold() for text in self.said for w in _WORD_RE.findall(text)}
        self.words = sorted(vocabulary)

    def pieces(self, kind: str) -> list[tuple[str, list[tuple[int, int]]]]:
        """Up to :data:`SPANS_PER_FILE` pieces (the piece, its tokens relative to it) of
        one *kind*: ``span`` anywhere, ``list`` crossing into a list line, ``negation``
        with a negation word inside."""
        found: list[tuple[str, list[tuple[int, int]]]] = []
        candidates = {
            "span": self.said,
            "list": [text for text in self.said if _LIST_LINE_RE.search(text, 1)],
            "negation": [text for text in self.said if NEGATION_RE.search(fold(text))],
        }[kind]
        for _ in range(SPANS_PER_FILE * 20):
            if not candidates or len(found) == SPANS_PER_FILE:
                break
            text = self.random.choice(candidates)
            tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
            starts = _content_tokens(text, tokens)
            if len(starts) < 4:
                continue
            if kind == "span":
                first = self.random.choice(starts)
                last = min(first + self.random.randint(3, 20), starts[-1])
                last = max(n for n in starts if n <= last)
            else:
                if kind == "list":
                    places = [m.start() for m in _LIST_LINE_RE.finditer(text) if m.start() > 0]
                else:
                    places = [a for a, b in tokens if NEGATION_RE.search(fold(text[a:b]))]
                if not places:
                    continue
                place = self.random.choice(places)
                before = [n for n in starts if tokens[n][1] <= place]
                after = [n for n in starts if tokens[n][0] > place]
                if not before or not after:
                    continue
                first = self.random.choice(before[-6:])
                last = self.random.choice(after[:12])
            low = tokens[first][0]
            piece = text[low : tokens[last][1]]
            inner = [(a - low, b - low) for a, b in tokens[first : last + 1]]
            if pins(piece):
                found.append((piece, inner))
        return found

    def elided(self, piece: str, tokens: list[tuple[int, int]], lists: bool) -> str | None:
        """*piece* with one to three words in the middle cut out, or None when it is too
        short or every cut would drop a negation."""
        if len(tokens) < 6:
            return None
        size = self.random.randint(1, 3)
        cut = self.random.randint(1, len(tokens) - 1 - size)
        content = _content_tokens(piece, tokens)
        if cut - 1 not in content or cut + size not in content:
            return None  # an ellipsis right after a list marker is not a faithful cut
        gap = piece[tokens[cut - 1][1] : tokens[cut + size][0]]
        if NEGATION_RE.search(fold(gap)):
            return None
        left = piece[: tokens[cut - 1][1]]
        right = piece[tokens[cut + size][0] :]
        shape = reflow if lists else str
        quote = f"{shape(left)}… {shape(right)}"
        return quote if pins(quote) else None

    def number_cuts(self) -> list[tuple[str, bool]]:
        """Quotes that start or end inside a longer number (up to :data:`SPANS_PER_FILE`),
        each with whether it counts: it does when the cut words occur in the transcript
        only inside the whole number's quote, so a yes would be false."""
        found: list[tuple[str, bool]] = []
        for text in self.said:
            for number in NUMBER_RE.finditer(text):
                joins = [m.end() for m in re.finditer(r"^[-+]|[.,](?=\d)", number.group(0))]
                if not joins:
                    continue
                cut = number.start() + self.random.choice(joins)
                tail = [m.end() for m in re.finditer(r"\S+", text[number.end() :])][:5]
                head = [m.start() for m in re.finditer(r"\S+", text[: number.start()])][-5:]
                if tail and self.random.random() < 0.5:
                    end = number.end() + tail[-1]
                    whole, quote = text[number.start() : end], text[cut:end]
                elif head:
                    whole, quote = text[head[0] : number.end()], text[head[0] : cut - 1]
                    quote = quote if quote[-1:].isdecimal() else ""
                else:
                    continue
                if quote and pins(quote):
                    found.append((quote, self._count(quote) == self._count(whole)))
        self.random.shuffle(found)
        return found[:SPANS_PER_FILE]

    def _count(self, fragment: str) -> int:
        words = _words_only(fold_inline(fragment))
        return sum(text.count(words) for text in self.folded)

    def absent(self, fragment: str) -> bool:
        """True when *fragment*'s words, read with any list marker either way, are in no
        message: no reading of the markers could match it."""
        words = _words_only(fold_inline(fragment))
        return bool(words) and not any(words in text for text in self.folded)

    def once(self, fragment: str) -> bool:
        words = _words_only(fold_inline(fragment))
        return bool(words) and sum(text.count(words) for text in self.folded) == 1


def _words_only(folded: str) -> str:
    return _QUOTE_MARKER_RE.sub("", " " + folded).strip()


def _content_tokens(text: str, tokens: list[tuple[int, int]]) -> list[int]:
    """The tokens a quote may start or end at: holding a letter or a digit, and not a
    numbered list marker."""
    return [
        n
        for n, (a, b) in enumerate(tokens)
        if any(char.isalnum() for char in text[a:b])
        and not re.fullmatch(r"[0-9]{1,3}[.)]", text[a:b])
    ]


def mutations(sample: Sample, quote: str, kind: str) -> list[tuple[str, str | None]]:
    """(mutation kind, mutated quote or None when skipped) for one faithful *quote* of
    the given *kind*."""
    rand = sample.random
    found: list[tuple[str, str | None]] = []
    markers = [range(*m.span()) for m in re.finditer(r"(?<!\S)[0-9]{1,9}[.)](?!\S)", quote)]
    digits = [
        n
        for n, char in enumerate(quote)
        if char.isdecimal() and not any(n in marker for marker in markers)
    ]  # a digit of a number, not of a list marker (those are the ``marker`` mutation's)
    if digits:
        at = rand.choice(digits)
        new = rand.choice([d for d in "0123456789" if d != quote[at]])
        changed = quote[:at] + new + quote[at + 1 :]
        fragment = _fragment_at(changed, at)
        found.append(("digit", changed if sample.absent(fragment) else None))
    negated = [
        m
        for m in re.finditer(NEGATION_RE.pattern, quote, re.IGNORECASE)
        if m.start() > 0 and m.end() < len(quote)
    ]
    if negated and "…" not in quote:
        word = rand.choice(negated)
        left, right = quote[: word.start()].rstrip(), quote[word.end() :].lstrip()
        dropped = f"{left}… {right}"
        clean = left and right and sample.once(left) and sample.once(right)
        found.append(("negation", dropped if clean and pins(dropped) else None))
    if kind == "span" and "\n" not in quote:
        spaces = [m.start() for m in re.finditer(r"(?<=\w) (?=\w)", quote)]
        if spaces:
            at = rand.choice(spaces)
            inserted = f"{quote[:at]} -{quote[at:]}"
            found.append(("marker", inserted if sample.once(quote) else None))
    words = [
        m for m in _WORD_RE.finditer(quote) if not NEGATION_RE.fullmatch(m.group(0).casefold())
    ]
    if words and "…" not in quote:
        word = rand.choice(words)
        other = rand.choice(sample.words)
        swapped = quote[: word.start()] + other + quote[word.end() :]
        ok = other != word.group(0).casefold() and sample.absent(swapped)
        found.append(("word", swapped if ok else None))
    return found


def _fragment_at(quote: str, at: int) -> str:
    """The fragment of *quote* (between ellipses) holding offset *at*."""
    start = max(quote.rfind("…", 0, at), quote.rfind("...", 0, at))
    end = quote.find("…", at)
    return quote[start + 1 : end if end >= 0 else len(quote)]


def measure(path: Path, check: Check, spans: bool) -> tuple[Counter[str], Counter[str]]:
    """(faithful: kind → count and kind+"/ok" → verified), (mutations: kind → tested,
    kind+"/false" → still verified, kind+"/skipped")."""
    sample = Sample(path)
    faithful: Counter[str] = Counter()
    mutated: Counter[str] = Counter()
    for kind in ("span", "list", "negation"):
        for piece, tokens in sample.pieces(kind):
            lists = kind == "list"
            quotes = [(kind, reflow(piece) if lists else piece)]
            elided = sample.elided(piece, tokens, lists)
            if elided is not None:
                quotes.append((f"{kind} … elided", elided))
            for name, quote in quotes:
                faithful[name] += 1
                ok = check(quote, sample.messages)
                faithful[name + "/ok"] += ok
                if spans and ok:
                    faithful["span round trip"] += 1
                    faithful["span round trip/ok"] += span_verifies(quote, sample.messages)
                for mutation, changed in mutations(sample, quote, name):
                    if changed is None:
                        mutated[mutation + "/skipped"] += 1
                        continue
                    mutated[mutation] += 1
                    mutated[mutation + "/false"] += check(changed, sample.messages)
    for quote, counts in sample.number_cuts():
        if not counts:
            mutated["number/skipped"] += 1
            continue
        mutated["number"] += 1
        mutated["number/false"] += check(quote, sample.messages)
    return faithful, mutated


FAITHFUL = ["span", "span … elided", "list", "list … elided", "negation", "negation … elided"]
MUTATIONS = ["digit", "negation", "marker", "word", "number"]


def report(folder: Path, check: Check, spans: bool = True) -> None:
    """Print the table for the transcripts in *folder*, checking with *check*; *spans*
    adds the round trip of each verified quote's span (the current verifier's)."""
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        sys.exit(f"no *.jsonl transcripts in {folder} (see benchmarks/data/real/README.md)")
    totals: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    print(f"{'file':34} " + " ".join(f"{k:>15}" for k in FAITHFUL) + "   false verbatim")
    for path in files:
        faithful, mutated = measure(path, check, spans)
        totals[0].update(faithful)
        totals[1].update(mutated)
        _row(path.name, faithful, mutated)
    _row("TOTAL", *totals)
    if spans:
        trips, ok = totals[0]["span round trip"], totals[0]["span round trip/ok"]
        print(f"\nspans of the verified quotes that verify again: {ok} / {trips}")
    print("\nmutations tested (false verbatim / tested, skipped):")
    for kind in MUTATIONS:
        tested, false = totals[1][kind], totals[1][kind + "/false"]
        print(f"  {kind:9} {false} / {tested}  (skipped {totals[1][kind + '/skipped']})")


def _row(name: str, faithful: Counter[str], mutated: Counter[str]) -> None:
    cells = []
    for kind in FAITHFUL:
        total, ok = faithful[kind], faithful[kind + "/ok"]
        cells.append(f"{ok:>4}/{total:<4} {100 * ok / total:3.0f}%" if total else f"{'-':>15}")
    false = sum(mutated[k + "/false"] for k in MUTATIONS)
    tested = sum(mutated[k] for k in MUTATIONS)
    print(f"{name[:34]:34} " + " ".join(f"{c:>15}" for c in cells) + f"   {false} of {tested}")


if __name__ == "__main__":
    report(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER, verifies)
