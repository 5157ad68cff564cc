"""The verified-model path under a noisy model: correct quotes keep their badge, wrong ones lose it.

    python benchmarks/model_path.py [--split test|dev] [--backend command|openai]

Both splits, the test split first, unless ``--split`` names one.

A scripted model answers for every labelled session of the split (the test split by
default; labels in ``benchmarks/data/extract/labels/``) with the session's labelled items,
written as a real model writes them, errors included. The answer goes through the real
model path: ``--backend command`` puts a small stand-in CLI on ``PATH`` and runs gitmem's
``command`` extractor (a real subprocess reading the prompt on stdin); ``--backend openai``
serves the answer from a loopback HTTP server to gitmem's ``openai`` extractor (a real
socket). Then the capture's own steps turn the drafts into items: masking, quote
verification, the degrade rules (:func:`gitmem.capture.checkpoint.build_items`, the pure
step of a capture; nothing is written).

Each labelled item gets one mutation, in turn, from those that apply to it; the script
knows which are still correct quotes and which are not:

* correct, only reformatted — must keep ``✓ verbatim`` (**retention**): ``exact``;
  ``curly`` (straight and curly quotes swapped, dashes made hyphens, line breaks and runs of
  spaces changed); ``markdown`` (emphasis, backticks, list, heading and quote markers
  dropped; a code span's text kept as it stands, since markdown reads no emphasis there);
  ``joined`` (the sentence with the one after it in the same message, the line break
  between them a space); ``respelt`` (one way a model respells what it copies, the first
  in turn that applies: a link's markdown dropped, ``[the guide](https://…)`` as "the
  guide"; an emoji dropped, but never a cross mark, which says "not"; line breaks written
  as the two characters ``\n``, as a model that escapes its JSON twice writes them; "—" as
  " -- "; "→" as "->"; ``&``, ``<`` and ``>`` written as HTML entities; a table's pipes
  and ``<br>`` tags dropped);
* altered or invented — must lose it (**false verbatim** when kept): ``merged`` (two
  sentences of different messages merged into one quote); ``elision`` (an ellipsis
  where a "not" stood); ``number`` (a number changed, in the quote and the text);
  ``paraphrase`` (the item's own summary passed off as the quote); ``invented`` (a
  sentence nobody said); ``question`` and ``question-part`` (a decision quoted from an
  interrogative sentence of the session, whole or without its question words: "use httpx"
  from "Should we use httpx?"); ``asked-label`` (a labelled decision or fact whose quote is
  a question, which the verifier must not badge either); ``tool-result`` (a line of tool
  output, a TODO in a file the agent read, quoted as what was said: the session gets one
  tool call and its output, since the corpus keeps only the conversation);
  ``limit-elision`` (an ellipsis where "only", "unless", "except", "if" or "until"
  stood); ``host-text``
  (a line of what the host wrote into the user's turn, a Codex AGENTS.md block or a
  Claude Code reminder, quoted as what was said: the session gets one of each);
  ``asked-answer`` (a decision quoted from the question a question tool's answer
  repeats, "Should we use httpx?"="requests" quoted as "use httpx"); ``negated`` (a
  decision quoted from a sentence of the session after its negation: "use Redis for the
  cache." from "Don't use Redis for the cache.");
* correct quote, reversed text — the badge may stay only on the quote itself, which then
  becomes the item's text (**false verbatim** when the flipped text is shown with it):
  ``flipped-text`` (a word of the quote turned into its opposite in the item's text,
  "enable" into "disable", "faster" into "slower", "5 ms" into "5 s", "Monday" into
  "Friday", "three" into "four"; or a possibility, "could" or "might", stated as settled).

* correct words cut from the condition their sentence puts on them — the badge may stay
  only on the whole sentence, condition included, as the item's text (**false verbatim**
  when the cut words are shown badged): ``condition`` (a decision quoted from a sentence
  of the session that opens with "If …,", or ends with "if …" or "unless …", without its
  condition).

The last six are asked in a second call per session, and ``respelt`` in a third, so the
figures of the others stay comparable with earlier runs.

An item's text is its quote in plain words (markdown and line breaks gone), so that only
the quote is on trial. Printed per mutation: items stored, how many kept ``✓ verbatim``, the
retention or the false verbatim count, and how many proposals the session's last word
left out (a later item said the same or superseded it: stored neither way); totals last.
Only totals are printed, never an item (the test split is not read item by item). Exit
status 1 when a false verbatim is found.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import socketserver
import stat
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extract_quality import DEV, TEST, Label, corpus_files, false_verbatim, load_labels

from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.extract import run_extractor
from gitmem.capture.prepare import Prepared, prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item, Trust
from gitmem.core.negation import CROSS_MARKS, NEGATION_RE
from gitmem.core.numbers import NUMBER_RE
from gitmem.core.quotes import fold
from gitmem.core.transcript import ANSWER, Message, Transcript, said_text
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings

KEEP = ("exact", "curly", "markdown", "joined", "respelt")
DEGRADE = ("merged", "elision", "number", "paraphrase", "invented", "question", "question-part")
DEGRADE += ("asked-label", "tool-result")
# Asked in a second call per session, so that they leave the figures above as they were.
DEGRADE += ("limit-elision", "host-text", "asked-answer", "negated")
QUOTE_ONLY = ("flipped-text",)
"""The quote is correct and its text turns it around: the badge may stay only on the
quote itself as the item's text, never beside the flipped text."""
SENTENCE_ONLY = ("condition",)
"""The quote is cut from the condition its sentence puts on it: the badge may stay only on
the whole sentence (the quote and more, the condition included) as the item's text."""
PER_LABEL = ("exact", "curly", "markdown", "joined", "merged", "elision", "number")
PER_LABEL += ("paraphrase", "invented")
QUESTIONS_PER_FILE = 2
MAX_ITEMS = 50
KIND_OF_LABEL = {"question": "uncertainty"}

_SENTENCE_RE = re.compile(r"[^.!?\n]{12,}?[.!?](?=\s|$)")
_QUESTION_RE = re.compile(r"(?:^|(?<=[.!\n] ))([A-Z][^.!?\n]{15,160}\?)")
_QUESTION_WORDS_RE = re.compile(
    r"^(?:should|shall|can|could|would|will|do|does|did|is|are)\s+(?:we|i|you|it|the\s+\w+)\s+",
    re.IGNORECASE,
)
_EMPHASIS_RE = re.compile(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)|`")
_CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")
_LIST_RE = re.compile(
    r"^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,2}[.)]|#{1,6})[ \t]+|^[ \t]*(?:>[ \t]*)+", re.MULTILINE
)
_CLOSERS = " \t*_`\"')]”’"
_CURLY = str.maketrans({"'": "’", '"': "”", "’": "'", "‘": "'", "“": '"', "”": '"'})

TOOL_OUTPUT = (
    "export/legacy.py:88:    # TODO: remove the legacy exporter once the v2 format ships\n"
    "export/legacy.py:91:    raise NotImplementedError('legacy rows are read-only')\n"
    "tests: 143 passed, 2 skipped in 8.31s\n"
)
TOOL_QUOTES = (
    ("open_loop", "TODO: remove the legacy exporter once the v2 format ships"),
    ("fact", "tests: 143 passed, 2 skipped in 8.31s"),
)
HOST_TEXT = (
    "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n"
    "Always squash commits before merging anything to main.\n</INSTRUCTIONS>",
    "<system-reminder>\nThe user has decided to store every export as Parquet files.\n"
    "</system-reminder>",
)
HOST_QUOTES = (
    ("decision", "Always squash commits before merging anything to main."),
    ("decision", "The user has decided to store every export as Parquet files."),
)
LIMITS_RE = re.compile(r"\b(?:only|unless|except|if|until)\b")
_CONDITION_RE = re.compile(
    r"(?:^|(?<=[.!\n] ))(?:If|Unless) [^,.!?\n]{5,80}, ([a-z][^.!?\n]{15,160}[.!])"
)
_TRAILING_CONDITION_RE = re.compile(
    r"(?:^|(?<=[.!\n] ))([A-Z][^,.!?\n]{15,160}?),? (?:if|unless) [^.!?\n]{5,80}[.!]"
)
FLIPS = (
    *(("enable", "disable"), ("enabled", "disabled"), ("add", "remove"), ("added", "removed")),
    *(("before", "after"), ("faster", "slower"), ("true", "false"), ("first", "last")),
    *(("more", "fewer"), ("start", "stop"), ("keep", "drop"), ("open", "closed")),
    *(("increase", "decrease"), ("include", "exclude"), ("public", "private")),
    ("minutes", "seconds"),
    *(("Monday", "Friday"), ("June", "July"), ("stop", "keep"), ("three", "four")),
)
"""Word pairs a flipped text swaps (the benchmark's own list, not the verifier's)."""
_FLIP = {**dict(FLIPS), **{b: a for a, b in FLIPS}}
_FLIP_RE = re.compile(r"\b(" + "|".join(sorted(_FLIP, key=len, reverse=True)) + r")\b")
_FLIP_UNIT = {"ms": "s", "s": "ms", "KB": "MB", "MB": "KB", "%": " points"}
_UNIT_FLIP_RE = re.compile(r"\d ?(ms|s|KB|MB|%)(?![\w'’])")
EXTRAS_PER_FILE = 2
_NEGATED_RE = re.compile(
    r"(?:^|(?<=[.!\n] ))[A-Z][^,;:.!?\n]{0,60}?\b(?:not|never|no longer|(?:do|does|did|is|are|was"
    r"|were|should|would|could|ca|wo|must|has|have)n['’]t)\s+([a-z][^,;:.!?\n]{15,160}[.!])"
)
_MODAL_RE = re.compile(r"\b(?:could|might|maybe|perhaps|possibly) ")
SPEAKERS = ("user", "assistant")
_ANSWERED_RE = re.compile(r'"([^"\n]{12,200}\?)"="([^"\n]*)"')


@dataclass(frozen=True)
class Proposal:
    mutation: str
    kind: str
    text: str
    quote: str

    def answer(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "trust": "verbatim", "quote": self.quote}


# ----------------------------------------------------------------------- the mutations


def plain(quote: str) -> str:
    """The quote in plain words: what a model writes as the item's text. A code span's
    text is kept as it stands (markdown reads no emphasis inside one: `mcp__x__*`)."""
    parts = _CODE_SPAN_RE.split(quote)
    text = "".join(part if n % 2 else _EMPHASIS_RE.sub("", part) for n, part in enumerate(parts))
    text = _LIST_RE.sub("", text)
    return " ".join(text.split())[:400] or quote


def occurrences(quote: str, texts: list[str]) -> int:
    """How many times *quote* is said in *texts*, folded."""
    folded = fold(quote)
    return sum(fold(text).count(folded) for text in texts)


def said_anywhere(quote: str, texts: list[str]) -> bool:
    folded = fold(quote)
    return any(folded in fold(text) for text in texts)


def mutate(mutation: str, label: Label, texts: list[str], n: int) -> Proposal | None:
    """The *mutation* of *label*'s quote, or None when it does not apply to it."""
    quote, kind = label.quote, KIND_OF_LABEL.get(label.kind, label.kind)
    made: str | None = None
    if mutation == "exact":
        made = quote
    elif mutation == "curly":
        made = quote.translate(_CURLY).replace("—", "-").replace("–", "-")
        made = made.replace("\n", " ").replace(" ", "  ", 1).replace("\t", " ")
    elif mutation == "markdown":
        made = plain(quote)
        if made == " ".join(quote.split()):
            return None
    elif mutation == "joined":
        made = _joined(quote, texts)
    elif mutation == "merged":
        other = _other_sentence(quote, texts, n)
        made = None if other is None else f"{quote.rstrip()} {other}"
    elif mutation == "elision":
        made = _elided(quote)
    elif mutation == "number":
        made = _renumbered(quote)
    elif mutation == "paraphrase":
        made = label.text if not said_anywhere(label.text, texts) else None
        return None if made is None else Proposal(mutation, kind, label.text, made)
    elif mutation == "limit-elision":
        made = _elided(quote, LIMITS_RE)
    elif mutation == "flipped-text":
        text = _flipped(plain(quote))
        return None if text is None else Proposal(mutation, kind, text, quote)
    elif mutation == "invented":
        word = max(re.findall(r"[A-Za-z]{5,}", quote) or ["module"], key=len)
        made = f"We agreed to rewrite the {word} layer in Rust before release 9.{n}."
    if made is None or made == "":
        return None
    return Proposal(mutation, kind, plain(made), made)


def _joined(quote: str, texts: list[str]) -> str | None:
    """The quote and the sentence after it in its message, the gap between them a space."""
    for text in texts:
        at = text.find(quote)
        if at < 0:
            continue
        end = at + len(quote)
        gap = re.match(r"[ \t]*\n?[ \t]*", text[end:])
        width = gap.end() if gap is not None else 0
        after = _SENTENCE_RE.match(text, end + width)
        if width == 0 or after is None or after.group().endswith("?"):
            return None
        return f"{quote} {after.group().strip()}"
    return None


def _other_sentence(quote: str, texts: list[str], n: int) -> str | None:
    """A sentence of another message than the quote's."""
    own = next((i for i, text in enumerate(texts) if quote in text), None)
    candidates = [
        m.group().strip()
        for i, text in enumerate(texts)
        if i != own
        for m in _SENTENCE_RE.finditer(text)
        if len(m.group().split()) >= 5
    ]
    return candidates[n % len(candidates)] if candidates else None


def _elided(quote: str, words: Any = NEGATION_RE) -> str | None:
    """An ellipsis where one of *words* (a negation word) stood, with words on both sides."""
    for match in words.finditer(quote.casefold()):
        before, after = quote[: match.start()].rstrip(), quote[match.end() :].lstrip()
        if len(fold(before)) >= 8 and len(fold(after)) >= 3:
            return f"{before} … {after}"
    return None


def _flipped(text: str) -> str | None:
    """*text* with its first word of :data:`FLIPS` turned into the other."""
    modal = _MODAL_RE.search(text)
    if modal is not None:  # "we could drop X" as "we drop X"
        return text[: modal.start()] + text[modal.end() :]
    unit = _UNIT_FLIP_RE.search(text)
    if unit is not None:  # "5 ms" as "5 s"
        return text[: unit.start(1)] + _FLIP_UNIT[unit.group(1)] + text[unit.end(1) :]
    match = _FLIP_RE.search(text)
    if match is None:
        return None
    return text[: match.start()] + _FLIP[match.group(1)] + text[match.end() :]


def _renumbered(quote: str) -> str | None:
    match = next(NUMBER_RE.finditer(quote), None)
    if match is None:
        return None
    number = match.group()
    digit = next(i for i in range(len(number) - 1, -1, -1) if number[i].isdigit())
    changed = number[:digit] + str((int(number[digit]) + 1) % 10) + number[digit + 1 :]
    return quote[: match.start()] + changed + quote[match.end() :]


_LINK_RE = re.compile(r"\[([^\]\n]+)\]\([^)\s]+\)")
_EMOJI_RE = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2b50]\ufe0f?")
_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
RESPELLINGS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("link", lambda quote: _LINK_RE.sub(r"\1", quote)),
    ("emoji", lambda quote: _dropped_emoji(quote)),
    ("escaped", lambda quote: quote.replace("\n", "\\n") if "\n" in quote.strip() else quote),
    ("dash", lambda quote: quote.replace(" — ", " -- ")),
    ("arrow", lambda quote: quote.replace(" → ", " -> ")),
    ("entities", lambda quote: _entities(quote)),
    ("table", lambda quote: _untabled(quote)),
)
"""How a model respells what it copies (the benchmark's own list, not the verifier's)."""


def _dropped_emoji(quote: str) -> str:
    """*quote* without its emoji (and the space each leaves doubled), its cross marks kept."""
    kept = _EMOJI_RE.sub(lambda m: m.group() if m.group()[0] in CROSS_MARKS else "", quote)
    return re.sub(r"(?<=\S)  +(?=\S)", " ", kept).strip() if kept != quote else quote


def _untabled(quote: str) -> str:
    """*quote* with its table rows' pipes dropped and its ``<br>`` tags made spaces, the
    spaces left doubled made one: a table's markdown dropped."""
    if "|" not in quote and "<br" not in quote:
        return quote
    lines = []
    for line in re.sub(r"<br\s*/?>", " ", quote).split("\n"):
        if line.count("|") >= 2 and not re.fullmatch(r"[\s|:-]+", line):
            line = " ".join(line.replace("|", " ").split())
        lines.append(line)
    return "\n".join(line for line in lines if not re.fullmatch(r"[\s|:-]+", line) or not line)


def _entities(quote: str) -> str:
    for char, entity in _ENTITIES:
        quote = quote.replace(char, entity)
    return quote


def respelt(label: Label, n: int) -> Proposal | None:
    """*label*'s quote respelt the first way of :data:`RESPELLINGS`, from the *n*-th in
    turn, that changes it; None when none does."""
    kind = KIND_OF_LABEL.get(label.kind, label.kind)
    for step in range(len(RESPELLINGS)):
        _, spell = RESPELLINGS[(n + step) % len(RESPELLINGS)]
        made = spell(label.quote)
        if made != label.quote and fold(made):
            return Proposal("respelt", kind, plain(label.quote), made)
    return None


def questions(messages: list[Message]) -> Iterator[str]:
    """Interrogative sentences the session's people said."""
    for message in messages:
        if message.role in ("user", "assistant"):
            for match in _QUESTION_RE.finditer(message.text):
                yield match.group(1)


def proposals(labels: list[Label], messages: list[Message]) -> list[Proposal]:
    """One proposal per label, each with the next mutation in turn that applies; then a
    few quotes of questions and of tool output."""
    texts = [m.text for m in messages]
    out: list[Proposal] = []
    turn = 0
    for n, label in enumerate(labels):
        kind = KIND_OF_LABEL.get(label.kind, label.kind)
        if kind in ("decision", "fact") and label.quote.rstrip(_CLOSERS).endswith("?"):
            # A decision or fact quoted from a question may not keep the badge.
            out.append(Proposal("asked-label", kind, plain(label.quote), label.quote))
            continue
        for step in range(len(PER_LABEL)):
            mutation = PER_LABEL[(turn + step) % len(PER_LABEL)]
            made = mutate(mutation, label, texts, n)
            if made is not None:
                out.append(made)
                turn = (turn + step + 1) % len(PER_LABEL)
                break
    asked = 0
    for question in questions(messages):
        quote = question if asked % 2 == 0 else _QUESTION_WORDS_RE.sub("", question).rstrip("?")
        if asked == QUESTIONS_PER_FILE or occurrences(quote, texts) != 1:
            continue  # said once, so no statement elsewhere can back it
        text = _QUESTION_WORDS_RE.sub("", question).rstrip("?").strip()
        mutation = "question" if asked % 2 == 0 else "question-part"
        out.append(Proposal(mutation, "decision", text[:1].upper() + text[1:], quote))
        asked += 1
    for kind, quote in TOOL_QUOTES:
        out.append(Proposal("tool-result", kind, quote, quote))
    seen: set[tuple[str, str]] = set()
    unique = []
    for proposal in out:  # a capture keeps one item per (kind, text)
        if (proposal.kind, proposal.text) not in seen:
            seen.add((proposal.kind, proposal.text))
            unique.append(proposal)
    return unique[:MAX_ITEMS]


def extras(labels: list[Label], messages: list[Message]) -> list[Proposal]:
    """The second call's proposals: a few elisions over a limit and flipped texts of the
    labels, decisions cut from a condition of the session, and quotes of host text."""
    texts = [m.text for m in messages]
    out: list[Proposal] = []
    for mutation in ("limit-elision", "flipped-text"):
        made = (mutate(mutation, label, texts, n) for n, label in enumerate(labels))
        out += [p for p in made if p is not None][:EXTRAS_PER_FILE]
    cut = 0
    for message in messages:
        if message.role not in SPEAKERS:
            continue
        text = message.text
        for match in [*_CONDITION_RE.finditer(text), *_TRAILING_CONDITION_RE.finditer(text)]:
            quote = match.group(1)
            if cut < EXTRAS_PER_FILE and occurrences(quote, texts) == 1:
                out.append(Proposal("condition", "decision", plain(quote), quote))
                cut += 1
    cut = 0
    for message in messages:
        for match in _NEGATED_RE.finditer(message.text if message.role in SPEAKERS else ""):
            quote = match.group(1)
            if cut < EXTRAS_PER_FILE and occurrences(quote, texts) == 1:
                out.append(Proposal("negated", "decision", plain(quote), quote))
                cut += 1
    out += [Proposal("host-text", kind, quote, quote) for kind, quote in HOST_QUOTES]
    asked = 0
    spoken = [said_text(m) for m in messages]  # the question tool's own call repeats it
    for message in messages:
        for pair in _ANSWERED_RE.finditer(message.text if message.role == ANSWER else ""):
            quote = _QUESTION_WORDS_RE.sub("", pair.group(1)).rstrip("?").strip()
            if asked < EXTRAS_PER_FILE and len(quote) >= 12 and occurrences(quote, spoken) == 1:
                text = quote[:1].upper() + quote[1:]
                out.append(Proposal("asked-answer", "decision", text, quote))
                asked += 1
    return out


def with_tool_output(transcript: Transcript) -> Transcript:
    """The session with one tool call and its output added before its last message, and
    the host's text (:data:`HOST_TEXT`) in the user's turn before its first."""
    call = Message("tool_use", 'Bash\n{"command": "grep -rn TODO export/; pytest -q"}')
    result = Message("tool_result", TOOL_OUTPUT)
    host = [Message("user", text) for text in HOST_TEXT]
    messages = list(transcript.messages)
    return transcript.with_messages([*host, *messages[:-1], call, result, *messages[-1:]])


# --------------------------------------------------------------------------- backends

STAND_IN = """#!{python}
import sys
sys.stdin.buffer.read()  # the prompt, as a real CLI reads it
with open(sys.argv[1], "rb") as answer:
    sys.stdout.buffer.write(answer.read())
"""


def command_backend(folder: Path) -> Callable[[bytes], Settings]:
    """A stand-in model CLI on PATH; each call answers with the bytes given."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "scripted-model"
    script.write_text(STAND_IN.format(python=sys.executable), encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    answer = folder / "answer.json"

    def settings(raw: bytes) -> Settings:
        answer.write_bytes(raw)
        return Settings({"command": f"scripted-model {answer}", "timeout": 60}, {})

    return settings


class _Answer(http.server.BaseHTTPRequestHandler):
    reply = b""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        content = type(self).reply.decode("utf-8")
        body = json.dumps({"choices": [{"message": {"content": content}}]}).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


def openai_backend() -> tuple[Callable[[bytes], Settings], socketserver.TCPServer]:
    """A loopback OpenAI-compatible server; each call answers with the bytes given."""
    server = socketserver.TCPServer(("127.0.0.1", 0), _Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/v1"

    def settings(raw: bytes) -> Settings:
        _Answer.reply = raw
        values = {"openai.base_url": base, "openai.model": "scripted", "timeout": 60}
        return Settings(values, {})

    return settings, server


# ---------------------------------------------------------------------------- the run


def captured(
    prepared: Prepared, answer: bytes, name: str, settings: Settings, log: CaptureLog
) -> list[Item]:
    found = run_extractor(name, prepared.clean_messages(), settings(answer), log, "model_path")
    drafts = found.drafts
    masked = [mask_draft(d, prepared.secrets) for d in drafts]
    snapshot = sha256_hex(prepared.snapshot)
    return build_items(masked, prepared.transcript, "model-path", snapshot)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--split", choices=(TEST, DEV), help="only this split (default: test, then dev)"
    )
    parser.add_argument("--backend", choices=("command", "openai"), default="command")
    parser.add_argument("-v", action="store_true", help="list every miss (dev split only)")
    args = parser.parse_args(argv)
    if args.v and args.split != DEV:
        parser.error("-v lists items, and only the dev split is read item by item (--split dev)")
    found = 0
    for split in (TEST, DEV) if args.split is None else (args.split,):
        counts = run_split(split, args.backend, args.v)
        report(*counts, split, args.backend)
        found += sum(counts[2].values())
    return 1 if found else 0


Counts = tuple[Counter[str], Counter[str], Counter[str], Counter[str]]


def run_split(split: str, backend: str, verbose: bool) -> Counts:
    """(items, kept, false, dropped) per mutation, for every labelled session of *split*
    answered by the scripted model through *backend*; with *verbose*, each miss printed."""
    items: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    false: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="gitmem-model-path-") as tmp:
        folder = Path(tmp)
        log = CaptureLog(folder / "local")
        server = None
        if backend == "command":
            settings = command_backend(folder)
        else:
            settings, server = openai_backend()
        try:
            for path in corpus_files()[split]:
                labels = load_labels(path)
                transcript = with_tool_output(load_transcript(path))
                prepared = prepare(transcript, {}, None)
                said = list(prepared.clean_messages())
                texts = [m.text for m in prepared.transcript.messages]
                spelt = [respelt(label, n) for n, label in enumerate(labels)]
                third = [p for p in spelt if p is not None]
                for proposed in (proposals(labels, said), extras(labels, said), third):
                    if not proposed:
                        continue
                    answer = json.dumps({"items": [p.answer() for p in proposed]})
                    stored = captured(prepared, answer.encode("utf-8"), backend, settings, log)
                    # An item whose text gave way to its quote keeps the text as its summary.
                    by_text = {(i.kind, i.extra.get("summary", i.text)): i for i in stored}
                    for proposal in proposed:
                        item = by_text.get((proposal.kind, proposal.text))
                        if item is None:  # a later item had the last word on it
                            dropped[proposal.mutation] += 1
                            continue
                        items[proposal.mutation] += 1
                        verbatim = item.trust == Trust.VERBATIM
                        kept[proposal.mutation] += verbatim
                        wrong = proposal.mutation in DEGRADE and verbatim
                        # a flipped text shown beside the badge
                        shown = verbatim and item.text == proposal.text
                        wrong |= proposal.mutation in QUOTE_ONLY and shown
                        if proposal.mutation in SENTENCE_ONLY and verbatim:
                            wrong = not widened(proposal.quote, item)
                        # and the scorer's own check, made without the verifier
                        if wrong or false_verbatim(item, texts) is not None:
                            false[proposal.mutation] += 1
                        if verbose and (wrong or (proposal.mutation in KEEP and not verbatim)):
                            said_as = f"{proposal.mutation}: {proposal.quote!r}"
                            if proposal.mutation in QUOTE_ONLY:
                                said_as += f" shown as {proposal.text!r}"
                            print(f"  {said_as} ({item.quote_reason})")
        finally:
            if server is not None:
                server.shutdown()
    return items, kept, false, dropped


def widened(quote: str, item: Item) -> bool:
    """Is *item* the whole sentence *quote* was cut from: its quote holds *quote* and more,
    and is what the item shows?"""
    cut, stored = fold(quote).rstrip(" ."), fold(item.quote or "")
    return item.text == item.quote and cut in stored and len(stored) > len(cut)


def report(
    items: Counter[str],
    kept: Counter[str],
    false: Counter[str],
    dropped: Counter[str],
    split: str,
    backend: str,
) -> None:
    print(f"model path ({backend} backend), {split} split")
    head = f"{'mutation':13} {'must':8} {'items':>6} {'✓ kept':>7} {'retention':>10} {'falsev':>7}"
    print(f"{head} {'dropped':>8}")
    for mutation in (*KEEP, *DEGRADE, *QUOTE_ONLY, *SENTENCE_ONLY):
        must = "keep" if mutation in KEEP else "quote" if mutation in QUOTE_ONLY else "degrade"
        must = "sentence" if mutation in SENTENCE_ONLY else must
        share = f"{kept[mutation] / items[mutation]:10.3f}" if mutation in KEEP else f"{'':10}"
        if not items[mutation]:
            share = f"{'-':>10}"
        line = f"{mutation:13} {must:8} {items[mutation]:6} {kept[mutation]:7} {share}"
        print(f"{line} {false[mutation]:7} {dropped[mutation]:8}")
    correct = sum(items[m] for m in KEEP)
    retained = sum(kept[m] for m in KEEP)
    wrong = sum(items[m] for m in (*DEGRADE, *QUOTE_ONLY, *SENTENCE_ONLY))
    others = sum(kept[m] for m in (*DEGRADE, *QUOTE_ONLY, *SENTENCE_ONLY))
    print(
        f"{'total':13} {'':8} {correct + wrong:6} {retained + others:7} "
        f"{retained / correct if correct else 1.0:10.3f} {sum(false.values()):7} "
        f"{sum(dropped.values()):8}"
    )
    print(f"retention of correct quotes: {retained}/{correct}; altered or invented: {wrong}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
