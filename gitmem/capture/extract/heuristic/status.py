"""Routine status in a report: what says only that the checks pass, that the work is done,
or that the assistant is pleased ("All green.", "Both pass.", "Perfect!"), and so is no item
of its own (docs/heuristic.md, "The outcome")."""

from __future__ import annotations

import re

from gitmem.capture.extract.heuristic.languages import narrates, word_count

_CHECK = (
    r"(?:tests?|lint(?:ing)?|linters?|format(?:ting)?|fmt|vet|typecheck(?:ing)?|type\s+checks?|"
    r"builds?|credo|clippy|mypy|ruff)"
)
"""A check a report says passes, one of a list ("Tests and lint pass", "All tests, lint, and
formatting pass cleanly")."""
_RECORDED = (
    r"(?:\d+\s+files?\s+changed\b"
    r"|(?:all\s+|the\s+)?(?:changes\s+)?(?:committed|pushed)(?:\s*(?:,|and|&|\+)\s*(?:committed|pushed))*"
    r"(?:\s+to\s+(?:the\s+)?(?:remote|origin|branch))?[ \t]*[.!]?[*_]*[ \t]*$"
    r"|(?:コミット|プッシュ|commit|push)(?:が|も|と(?:プッシュ|push))?(?:完了|成功)(?:しました|です)?"
    r"[。.!！]?[ \t]*$)"
)
"""A sentence that only records that the work was committed or pushed ("Committed and pushed.",
"コミット完了しました。") or gives its diffstat ("10 files changed, +233 / -408"): the commit
says what changed. One that names the commit and nothing it holds ("Committed as
`34984dd`.") is :func:`bookkeeping`."""
RECORDED_RE = re.compile(_RECORDED, re.IGNORECASE)
# fmt: off
_BOOKKEEPING_WORDS = frozenset({
    "commit", "commits", "committed", "push", "pushed", "and", "as", "to", "on", "onto", "in",
    "into", "at", "branch", "files", "file", "changed", "insertions", "insertion", "deletions",
    "deletion", "lines", "line", "head", "done", "fixed", "merge", "merged", "both", "amended",
})
# fmt: on
"""The words a record of the commit holds besides its names ("Committed and pushed to
`x` as `9f8e7d6`.", "**Branch:** `x` → `main`, commit `6dd9970`, 2 files / 1174 deletions.")."""
# fmt: off
_BOOKKEEPING_OPENS = frozenset({
    "commit", "committed", "pushed", "branch", "done", "fixed", "merge", "merged", "both",
    "amended",
})
# fmt: on
_NAMES_RE = re.compile(r"`[^`\n]*`|\b[0-9a-f]{7,40}\b")
_SHA_RE = re.compile(r"\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")


NOTES_RE = re.compile(
    r"[ \t]*[*_]*(?:the\s+|my\s+)?(?:memory|memories|handoff|hand-off|retro(?:spective)?|"
    r"progress\s+(?:notes?|file|log))(?:\s+(?:file|files|note|notes|doc|entry))?[*_]*\s+"
    r"(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+|was\s+)?(?:now\s+)?"
    r"(?:updated|written|saved|complete|completed|recorded|refreshed|created)[*_]*"
    r"(?:[ \t]*(?:[—–:-]|to|at|in|under)[ \t]*(?:`[^`\n]+`|\[[^\]\n]*\]\([^)\n]*\)|[^\s`]+))?"
    r"[ \t]*[.!]?[*_]*[ \t]*$",
    re.IGNORECASE,
)
"""A sentence that only says the session's own notes were written, and where at most
("Memory updated.", "Handoff written to `~/.claude/handoffs/x.md`.", "Retrospective complete
— docs/retros/x.md"): what they record is said where it is said; not a deliverable saved
("Spec saved at `docs/specs/x.md`.")."""


def bookkeeping(sentence: str) -> bool:
    """Does *sentence* only record where the work went: a commit's sha, with its branch and
    diffstat at most, and no word of what it holds ("Committed `6706f449`.", "Committed as
    `34984dd`.", "Done — pushed as `731d39d`.", "**Branch:** `x` → `main`, commit `6dd9970`,
    2 files / 1174 deletions."), or the session's notes, with their path at most
    (:data:`NOTES_RE`)? The commit says what it holds; a sentence that says it too
    ("Committed as `900b1aa` with message `Add the search skill`.", "The fix landed in
    commit 3f9c2ab.") is read."""
    if NOTES_RE.match(sentence) is not None:
        return True
    if _SHA_RE.search(sentence) is None:
        return False
    words = re.findall(r"[^\W\d_]+", _NAMES_RE.sub(" ", sentence.casefold()))
    return bool(words) and words[0] in _BOOKKEEPING_OPENS and _BOOKKEEPING_WORDS.issuperset(words)


NOTHING_RE = re.compile(
    r"[ \t]*[*_]*no\s+(?:further\s+|other\s+|code\s+)?(?:action|changes?|work|fix(?:es)?|updates?)"
    r"\s+(?:is\s+|are\s+|was\s+)?(?:needed|required|necessary)\b"
    r"|.*?\bnothing\s+(?:new|else|more|further|left)\s+(?:to\s+(?:do|change|fix|commit)\b|qualifies\b"
    r"|clears\b|(?:is\s+)?(?:needed|required)\b)"
    r"|.*?\b(?:is|was|are|were)\s+already\s+(?:resolved|handled|gone|closed|addressed)\b",
    re.IGNORECASE,
)
"""A sentence that says nothing is needed or left ("No action needed — the dependency is
already on the fixed version.", "… — nothing new clears it; …", "The cleanup the handoff
owed is already resolved; …"): the finding it rests on is said where it was found, and
what is done needs no carrying."""


def nothing_left(sentence: str) -> bool:
    """Does *sentence* say that nothing is needed or left to do (:data:`NOTHING_RE`)?"""
    return NOTHING_RE.match(sentence.strip()) is not None


STATUS_RE = re.compile(
    r"(?:all\s+|the\s+)?(?:\d+\s+)?(?:(?:unit|integration|e2e)\s+)?tests?\s+(?:pass(?:es|ed|ing)?|green)\b"
    r"|(?:lint|linting|credo|clippy|mypy|ruff|the\s+build|build|typecheck(?:ing)?)\s+(?:is\s+|are\s+)?"
    r"(?:clean|passes|passing|green|succeeds|ok)\b|\d+\s+tests?\s+passing\b"
    r"|(?:the\s+)?(?:working\s+tree|worktree|git\s+status)\s+is\s+clean\b"
    r"|(?:it|everything)(?:['’]s|\s+is)\s+(?:all\s+)?(?:working(?:\s+now)?|clean)\b"
    r"|(?:both|all|the)\s+(?:\w+\s+)?(?:issues|errors|problems|warnings|failures)\s+(?:are\s+|were\s+)?"
    r"(?:resolved|fixed|gone)\b|(?:\w+\s+){0,2}(?:errors|warnings|issues)\s+fixed\b"
    r"|(?:the\s+)?(?:`[^`]+`\s+|\w+\s+){0,2}fix(?:es)?\s+(?:is|are)\s+(?:now\s+)?(?:complete|done|in\s+place|ready)\b"
    r"|(?:all|both|everything)(?:\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten))?"
    r"(?:\s+(?:items?|threads?|comments?|checks?|tests?|points?|issues?|changes?|suggestions?))?"
    r"\s+(?:is\s+|are\s+|have\s+been\s+)?(?:now\s+)?(?:green|clean|pass(?:es|ed|ing)?|addressed|"
    r"replied\s+to)(?=[\s.!,;:]|$)"
    r"|(?:the\s+)?(?:\w+\s+)?tests?\s+(?:are\s+|is\s+)?(?:now\s+|all\s+)?(?:pass(?:es|ed|ing)?|green)\b"
    r"|(?:the\s+)?(?:implementation|work)\s+is\s+(?:now\s+)?(?:complete|done|finished)\b"
    r"|\d+[ \t]*(?:/|of|out[ \t]+of)[ \t]*\d+[*_]*(?:[ \t]+[^\s()]+){0,3}?[ \t]*(?:\([^()\n]*\))?"
    r"[ \t]*[.!]?[*_]*$"
    r"|\d+[ \t]+(?:tests?[ \t]+)?passed(?:[ \t]*,[ \t]*\d+[ \t]+\w+)*[ \t]*[.!]?[*_]*$"
    rf"|(?:all\s+|the\s+)?(?:(?:unit|integration|e2e)\s+)?{_CHECK}(?:\s*(?:,|and|&|\+)\s*"
    rf"(?:and\s+)?(?:the\s+)?{_CHECK})+\s+(?:all\s+)?(?:now\s+)?(?:pass(?:es|ed|ing)?|"
    r"are\s+(?:all\s+)?(?:clean|green|passing)|(?:is|are)\s+clean|green)\b"
    rf"|{_RECORDED}",
    re.IGNORECASE,
)
"""A sentence that only says the checks pass (one, or a list of them: "Tests and lint pass."),
that a fix is in, that all is green or addressed ("All green.", "Both pass.", "All four items
addressed."), or that the work is complete without naming it ("The implementation is
complete.")."""
DONE_RE = re.compile(
    r"(?:all\s+|the\s+|everything\b)[^.!?\n]{0,100}?\s*(?:is|are|has\s+been|have\s+been)\s+"
    r"(?:now\s+)?(?:fully\s+|all\s+|completely\s+)?(?:implemented|done|complete|completed|finished|"
    r"renamed|updated|pushed|committed|merged|closed)"
    r"(?:\s*(?:,|and)\s*(?:implemented|tested|pushed|committed|merged|closed))*[ \t]*[.!]?[ \t]*$",
    re.IGNORECASE,
)
"""A sentence that says the work is done, whatever it names ("The **x** epic is fully
implemented and pushed.", "All references to "x" have been renamed."): in the reply before a
last request to commit, what the closing reply settles, not what the work changed."""
CHECKS_RE = re.compile(
    r"[ \t]*(?:[-*+]|\d{1,2}[.)])?[ \t]*[*_]*(?:(?:verification|verified|validation)"
    r"(?:[ \t]+(?:output|passed|results?|run|done))?"
    r"|(?:tests?|checks?)[ \t]+(?:run|results?|passed))[*_]*[ \t]*(?::|[*_]*$)",
    re.IGNORECASE,
)
"""A unit or heading that reports the checks run ("Verification: I checked …", "Tests
run:"): routine status, like "all tests pass"."""
ACKNOWLEDGEMENT = (
    r"(?:(?:good|great|nice|fair|excellent|valid)\s+(?:point|question|catch|call|idea|find|spot)|"
    r"you['’]re\s+(?:absolutely\s+|quite\s+|totally\s+)?right|that['’]s\s+(?:right|fair|true)|"
    r"makes\s+sense|thanks|thank\s+you)"
)
"""The assistant acknowledging what the user said ("Good point", "You're right"): it opens
what the reply does next, and says nothing of its own."""
INTERJECTION_RE = re.compile(
    r"(?:(?:perfect|excellent|great|good|nice|awesome|ok(?:ay)?|alright|sure|got\s+it|"
    rf"understood|yes|right|done|all\s+done|fixed|committed|pushed|{ACKNOWLEDGEMENT})"
    r"[ \t]*[.!]+[ \t]*)+",
    re.IGNORECASE,
)


FEW_WORDS = 3
"""A report unit of at most this many words that names nothing says too little to carry."""
_NAMED_RE = re.compile(r"[`\d/_#@]|[a-z][A-Z]")


def says_little(text: str) -> bool:
    """Is *text* (an item's) too short to name what it is about: at most :data:`FEW_WORDS`
    words and no name in code, number or path ("Ready to commit.", "APPROVED",
    "Stepping back properly.")?"""
    return word_count(text) <= FEW_WORDS and _NAMED_RE.search(text) is None


def routine(sentence: str, wrapped: bool = False) -> bool:
    """Is *sentence* only an interjection or routine status ("Both pass.", "All green.")?"""
    sentence = sentence.strip().lstrip("*_ ")
    lead = INTERJECTION_RE.match(sentence)
    if lead is not None and lead.end() >= len(sentence.rstrip()):
        return True
    return status(sentence, wrapped)


ALL_PASS_RE = re.compile(
    r"(?:all|both)\s+(?:(?:of\s+)?the\s+)?(?:\d+\s+)?(?:[^\s.,;:!?]+\s+){0,2}?"
    r"(?:tests?|checks?|gates?|lints?|specs?|test\s+cases?)\s+(?:now\s+|still\s+)?"
    r"(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|(?:are\s+)?green)\b",
    re.IGNORECASE,
)
"""A sentence that says every check of a kind passes, whatever qualifies them ("All 59
existing tests pass.", "All hook-related tests pass.", "All quality gates pass.", "All local
checks pass.")."""
# fmt: off
_CHECK_WORDS = frozenset({
    "all", "both", "every", "everything", "the", "code", "changes", "it", "and", "now", "still",
    "also", "build", "builds", "compile", "compiles", "test", "tests", "suite", "vet", "lint",
    "lints", "linting", "linter", "linters", "check", "checks", "gate", "gates", "quality",
    "ci", "local", "unit", "integration", "existing", "new", "full", "go", "pass", "passes",
    "passed", "passing", "succeeded", "succeeds", "successful", "successfully", "green",
    "clean", "cleanly", "fine", "is", "are", "was", "with", "zero", "no", "issues",
    "failures", "errors", "warnings", "in", "s", "looks", "fix", "working", "works",
    "branch", "main", "master", "tree", "worktree", "sync", "synced", "up", "to", "date",
    "origin", "remote", "its", "pushed", "head", "unpushed", "commits", "nothing", "commit",
})
_CHECK_SAYS = frozenset({
    "build", "compile", "compiles", "pass", "passes", "passed", "passing", "succeeded",
    "succeeds", "successful", "successfully", "green", "clean", "cleanly", "working", "works",
    "sync", "synced", "date", "pushed",
})
# fmt: on
"""The words of a sentence that only says the checks came out well ("Both build and vet pass.",
"All changes compile cleanly.", "Everything builds and tests pass.", "Build succeeded in 60s.",
"The code now passes `mise run lint` with 0 issues!") or that the branch is in sync ("Main is
up to date with origin.", "Branch is in sync with origin, working tree clean."), and those of
them that say how they came out. Not "ahead", "behind", "uncommitted": those leave work."""


def checks_pass(sentence: str) -> bool:
    """Does *sentence* only say that the checks pass, the code builds or the branch is in
    sync, naming nothing of the work (:data:`ALL_PASS_RE`, or every word one of
    :data:`_CHECK_WORDS`, a command in code and numbers aside)? "Both build and tests pass.",
    "All changes compile cleanly.", "Clean build.", "Main is up to date with origin."; not
    "The fix works on Linux but not on macOS." nor "Both changes applied and tests pass:"."""
    if sentence.rstrip(" *_)").endswith("?"):
        return False  # "Is everything working now?" asks
    if ALL_PASS_RE.match(sentence) is not None:
        return True
    words = re.findall(r"[^\W\d_]+", _NAMES_RE.sub(" ", sentence.casefold()))
    return bool(words) and _CHECK_WORDS.issuperset(words) and not _CHECK_SAYS.isdisjoint(words)


def status(sentence: str, wrapped: bool = False) -> bool:
    """Routine status ("all tests pass", :func:`checks_pass`); in the reply before a last
    request to commit (*wrapped*), also that the work is done (:data:`DONE_RE`)."""
    sentence = sentence.strip().lstrip("*_ ")
    if STATUS_RE.match(sentence) is not None or bookkeeping(sentence) or checks_pass(sentence):
        return True
    return wrapped and DONE_RE.match(sentence) is not None


NARRATION_RE = re.compile(
    rf"(?:{ACKNOWLEDGEMENT}[ \t]*[,;:—–-][ \t]*)?"
    r"(?:now\s+|first,?\s+|next,?\s+|so\s+)?(?:let\s+me|let['’]s|i['’]ll|i\s+will|i['’]m\s+going\s+to|"
    r"i\s+am\s+going\s+to|i\s+need\s+to|now\s+i\s+(?:have|understand|can|see|know)|"
    r"i\s+(?:now\s+)?have\s+(?:all|enough|a\s+(?:comprehensive|complete|clear|good))|"
    r"i['’]ve\s+(?:thoroughly\s+|now\s+)?(?:explored|analy[sz]ed|reviewed|gathered|read|looked|"
    r"identified)|(?:the\s+)?user(?:['’]s\s+original\s+request\s+was|\s+(?:asked|requested|said|"
    r"wants|wanted|approved|chose|confirmed))|"
    r"here['’]s|here\s+is|here\s+are|below\s+is|the\s+following|based\s+on\s+(?:my|the|this|"
    r"these|all|your)\b)",
    re.IGNORECASE,
)
"""A report's sentence that narrates ("Let me …", "Now I have all the information …", "Here's a
summary:")."""


def narration(sentence: str) -> bool:
    """Does the assistant's *sentence* of a report narrate what it does next or what it has
    read, in English (:data:`NARRATION_RE`) or another language
    (:func:`~gitmem.capture.extract.heuristic.languages.narrates`)?"""
    return NARRATION_RE.match(sentence.lstrip("*_ ")) is not None or narrates(sentence)
