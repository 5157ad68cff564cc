"""The heuristic extractor: markers in, verbatim drafts out (docs/heuristic.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS
from helpers.drafts import assert_verbatim
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.extract.heuristic import MAX_QUOTE_CHARS, MAX_TEXT_CHARS, extract
from gitmem.capture.items import parse_items
from gitmem.core.items import Draft
from gitmem.core.transcript import Message

DATA = TESTS / "data" / "heuristic"
FIXTURES = sorted(p for p in DATA.iterdir() if p.suffix in (".md", ".txt"))


def one(text: str, role: str | None = "assistant") -> list[Draft]:
    return extract([Message(role, text)])


def summary(drafts: list[Draft]) -> list[tuple[str, str, str | None]]:
    return [(d.kind, d.text, d.quote) for d in drafts]


# --- fixtures ---------------------------------------------------------------------------


def test_session_fixture_gives_exactly_these_items() -> None:
    messages = [Message(None, (DATA / "session.md").read_text(encoding="utf-8"))]
    expected = json.loads((DATA / "session.expected.json").read_text(encoding="utf-8"))
    drafts = extract(messages)
    got = [{"kind": d.kind, "text": d.text, "quote": d.quote, "extra": d.extra} for d in drafts]
    assert got == expected
    assert_verbatim(drafts, messages)


def test_session_fixture_leaves_out_what_it_must() -> None:
    quotes = " ".join(d.quote or "" for d in one((DATA / "session.md").read_text("utf-8")))
    assert "sample code" not in quotes  # a TODO inside a fenced block
    assert "Python 3.9" not in quotes  # gitmem's own output, echoed back
    assert "Re-run the benchmark" not in quotes  # a finished task
    assert "TODO: fix" not in quotes  # too short to mean anything
    assert "hard decision" not in quotes  # "decision" in passing
    assert "make sense" not in quotes and "Why not" not in quotes  # chit-chat


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "commit-todo.txt",
            [
                ("open_loop", "Port the old error messages", "TODO: port the old error messages"),
                ("open_loop", "Refs #214", "Refs #214"),
            ],
        ),
        (
            "commit-merge.txt",
            [
                (
                    "fact",
                    "Merge pull request #231 from acme/fix/tokenizer-depth",
                    "Merge pull request #231 from acme/fix/tokenizer-depth",
                )
            ],
        ),
        (
            "commit-decision.txt",
            [
                (
                    "open_loop",
                    "Drop the Python 3.9 wheels (#240)",
                    "Drop the Python 3.9 wheels (#240)",
                ),
                (
                    "decision",
                    "We decided to stop building 3.9 wheels: the CI matrix takes twice as long "
                    "and nobody downloads them.",
                    "We decided to stop building 3.9 wheels: the CI matrix takes twice as long\n"
                    "and nobody downloads them.",
                ),
                (
                    "fact",
                    "Moved the build script to scripts/build_wheels.sh.",
                    "Moved the build script to scripts/build_wheels.sh.",
                ),
                (
                    "open_loop",
                    "Remove the 3.9 classifier from pyproject.toml in the next release.",
                    "Follow-up: remove the 3.9 classifier from pyproject.toml in the next release.",
                ),
                ("open_loop", "Closes #198", "Closes #198"),
            ],
        ),
    ],
)
def test_commit_messages(name: str, expected: list[tuple[str, str, str]]) -> None:
    message = Message(None, (DATA / name).read_text(encoding="utf-8"))
    drafts = extract([message])
    assert summary(drafts) == expected
    assert_verbatim(drafts, [message])


def test_commit_message_claims() -> None:
    merge = extract([Message(None, (DATA / "commit-merge.txt").read_text("utf-8"))])
    assert merge[0].extra == {
        "importance": 2,
        "external_state": True,
        "claims": [{"type": "pr-state", "number": 231, "state": "merged"}],
    }
    todo = extract([Message(None, (DATA / "commit-todo.txt").read_text("utf-8"))])
    assert todo[0].extra == {"importance": 1}
    # "Refs #214" names an issue or PR but says nothing of its state: no state claim.
    assert todo[1].extra == {"importance": 2, "external_state": True}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_quote_is_verbatim_and_every_draft_is_a_valid_item(path: Path) -> None:
    messages = [Message(None, path.read_text(encoding="utf-8"))]
    drafts = extract(messages)
    assert drafts
    assert_verbatim(drafts, messages)
    as_file = [
        {"kind": d.kind, "text": d.text, "trust": d.trust, "quote": d.quote, **d.extra}
        for d in drafts
    ]
    assert parse_items(json.dumps(as_file), path.name) == drafts


# --- marker families ----------------------------------------------------------------------

MARKERS = [
    # decisions
    ("Decision: keep the old wire format.", "decision", "Keep the old wire format."),
    ("**Decision:** keep the old wire format.", "decision", "Keep the old wire format."),
    ("Final decision — keep the old wire format.", "decision", "Keep the old wire format."),
    (
        "Agreed: the brief never writes to the store.",
        "decision",
        "The brief never writes to the store.",
    ),
    ("We decided to keep the old wire format.", "decision", None),
    ("So we've decided against a second index.", "decision", None),
    ("The team agreed on a weekly release.", "decision", None),
    ("Decided to drop the daemon entirely.", "decision", None),
    ("We'll go with SQLite for the index.", "decision", None),
    ("We're going with SQLite for the index.", "decision", None),
    ("Let's go with option B for the sync protocol.", "decision", None),
    ("Let’s keep the old tokenizer for one more release.", "decision", None),
    ("Let's use canonical JSON for every record.", "decision", None),
    ("Let's not touch the release scripts this week.", "decision", None),
    ("Yes, let's stick with ruff for formatting.", "decision", None),
    ("We will not support Python 3.9.", "decision", None),
    ("We won't ship the daemon in this release.", "decision", None),
    ("From now on, every record is canonical JSON.", "decision", None),
    ("Use canonical JSON from now on.", "decision", None),
    ("Going forward, hooks exit 0 whatever happens.", "decision", None),
    # open loops
    ("TODO: port the old error messages", "open_loop", "Port the old error messages"),
    ("TODO(alice): port the old error messages", "open_loop", "Port the old error messages"),
    ("TODO port the old error messages", "open_loop", "Port the old error messages"),
    ("FIXME: the retry loop never gives up", "open_loop", "The retry loop never gives up"),
    ("Next steps: write the sync command.", "open_loop", "Write the sync command."),
    ("Next step - write the sync command.", "open_loop", "Write the sync command."),
    ("Follow-up: remove the 3.9 classifier.", "open_loop", "Remove the 3.9 classifier."),
    ("Remaining: the Windows path handling.", "open_loop", "The Windows path handling."),
    ("Blocked on: the signing key rotation.", "open_loop", "The signing key rotation."),
    ("Open items: the Windows path handling.", "open_loop", "The Windows path handling."),
    ("To do: the Windows path handling.", "open_loop", "The Windows path handling."),
    ("We still need to wire the hook into the installer.", "open_loop", None),
    ("The Windows build is still failing on CI.", "open_loop", None),
    ("Garbage collection is not implemented yet.", "open_loop", None),
    ("- [ ] add a fuzz test for deep nesting", "open_loop", "Add a fuzz test for deep nesting"),
    # uncertainties
    ("Open question: do we version the ref name?", "uncertainty", "Do we version the ref name?"),
    (
        "Unclear: whether the index survives a gc.",
        "uncertainty",
        "Whether the index survives a gc.",
    ),
    ("I'm not sure whether the ref survives a gc.", "uncertainty", None),
    ("Not entirely sure the ref survives a gc.", "uncertainty", None),
    ("It is unclear why the test flakes on CI.", "uncertainty", None),
    ("The speedup on ARM is unverified.", "uncertainty", None),
    ("The Windows path is untested.", "uncertainty", None),
    ("I have not tested the Windows build.", "uncertainty", None),
    ("I haven't verified the signature path.", "uncertainty", None),
    ("I didn't test the Windows build.", "uncertainty", None),
    ("I did not check the Windows build.", "uncertainty", None),
    ("The Windows build has not been verified.", "uncertainty", None),
    ("We couldn't reproduce the crash locally.", "uncertainty", None),
    ("I don't know whether the hook runs on rebase.", "uncertainty", None),
    ("The release date is TBD.", "uncertainty", None),
    ("Should we keep the cache in .git?", "uncertainty", None),
    ("Do we need to support Python 3.10?", "uncertainty", None),
    ("What should we do about the legacy format?", "uncertainty", None),
]


@pytest.mark.parametrize(("sentence", "kind", "text"), MARKERS)
def test_each_marker_gives_its_kind(sentence: str, kind: str, text: str | None) -> None:
    drafts = one(sentence)
    assert [d.kind for d in drafts] == [kind]
    assert drafts[0].text == (text or sentence)
    assert drafts[0].extra["importance"] == {"decision": 2, "open_loop": 1}.get(kind, 0)
    assert_verbatim(drafts, [Message("assistant", sentence)])


def test_a_label_quote_keeps_the_label_and_the_text_drops_it() -> None:
    (draft,) = one("- **TODO:** port the old error messages")
    assert draft.quote == "**TODO:** port the old error messages"
    assert draft.text == "Port the old error messages"


def test_surrounding_emphasis_is_trimmed_from_the_quote_only_at_the_ends() -> None:
    (draft,) = one("**We decided to keep `canonical_bytes` as it is.**")
    assert draft.quote == "We decided to keep `canonical_bytes` as it is."


def test_a_label_runs_on_over_its_line_until_another_marker() -> None:
    drafts = one(
        "Decision: use SQLite. It is already a dependency. TODO: benchmark it on Windows.\n"
        "The rest of this line is another paragraph line."
    )
    assert summary(drafts) == [
        (
            "decision",
            "Use SQLite. It is already a dependency.",
            "Decision: use SQLite. It is already a dependency.",
        ),
        ("open_loop", "Benchmark it on Windows.", "TODO: benchmark it on Windows."),
    ]


def test_a_sentence_wrapped_over_lines_is_one_quote() -> None:
    text = "We decided to keep the reflog\nentries for ninety days, not thirty.\nNext line."
    (draft,) = one(text)
    assert draft.quote == "We decided to keep the reflog\nentries for ninety days, not thirty."
    assert draft.text == "We decided to keep the reflog entries for ninety days, not thirty."


# --- sections ----------------------------------------------------------------------------


def test_a_section_label_gives_its_kind_to_the_list_under_it() -> None:
    text = (
        "## Next steps\n"
        "- Port the old error messages to the new type\n"
        "  (they live in legacy/errors.py)\n"
        "- [x] Re-run the benchmark suite\n"
        "\n"
        "- Ask Dana about the Windows wheels\n"
        "\n"
        "Some closing remark about the weather today.\n"
        "- A list item after the section has ended\n"
        "\n"
        "**Decisions:**\n"
        "1. Keep depth in a Python int\n"
        "\n"
        "Open questions:\n"
        "* Is the cap needed at all for the C path\n"
    )
    assert summary(one(text)) == [
        (
            "open_loop",
            "Port the old error messages to the new type (they live in legacy/errors.py)",
            "Port the old error messages to the new type\n  (they live in legacy/errors.py)",
        ),
        ("open_loop", "Ask Dana about the Windows wheels", "Ask Dana about the Windows wheels"),
        ("decision", "Keep depth in a Python int", "Keep depth in a Python int"),
        (
            "uncertainty",
            "Is the cap needed at all for the C path",
            "Is the cap needed at all for the C path",
        ),
    ]


# --- references and claims ---------------------------------------------------------------

GITLAB = "git.example.org/acme/tools/gitmem"  # gh and glab --repo form: HOST/OWNER/REPO
REFERENCES: list[tuple[str, str, list[dict[str, Any]]]] = [
    ("I opened PR #123 for the sync command.", "open_loop", [
        {"type": "pr-state", "number": 123, "state": "open"}
    ]),
    ("PR #60 is waiting, review requested 2026-07-01.", "open_loop", [
        {"type": "pr-state", "number": 60, "state": "open"}
    ]),
    ("PR #123 was merged this morning.", "fact", [
        {"type": "pr-state", "number": 123, "state": "merged"}
    ]),
    ("The pull request #12 got closed without a merge.", "fact", [
        {"type": "pr-state", "number": 12, "state": "closed"}
    ]),
    ("Issue #45 was closed as a duplicate.", "fact", [
        {"type": "issue-state", "number": 45, "state": "closed"}
    ]),
    ("MR !7 is still open on GitLab.", "open_loop", [
        {"type": "pr-state", "number": 7, "state": "open"}
    ]),
    ("Merged https://github.com/acme/gitmem/pull/42 this morning.", "fact", [
        {"type": "pr-state", "number": 42, "state": "merged", "repo": "acme/gitmem"}
    ]),
    ("Opened https://git.example.org/acme/tools/gitmem/-/merge_requests/7 today.", "open_loop", [
        {"type": "pr-state", "number": 7, "state": "open", "repo": GITLAB}
    ]),
    # No state said, or only a hypothetical one: no state claim.
    ("See PR #123 for the details.", "open_loop", []),
    ("PR #123 is not merged yet.", "open_loop", []),
    ("Once PR #123 is merged, rebase onto main.", "open_loop", []),
    ("PR #12 and PR #13 were merged.", "fact", []),
    ("Fixes acme/gitmem#88", "open_loop", []),
    ("Closes #198", "open_loop", []),
    ("See https://github.com/acme/gitmem/issues/9 for the log.", "open_loop", []),
    # Branches, files, commits.
    ("I pushed the fix to branch `release/2.4`.", "fact", [
        {"type": "branch-exists", "branch": "release/2.4"}
    ]),
    ("We're on branch fix/tokenizer now.", "fact", [
        {"type": "branch-exists", "branch": "fix/tokenizer"}
    ]),
    ("The `feature/sync` branch has the prototype.", "fact", [
        {"type": "branch-exists", "branch": "feature/sync"}
    ]),
    ("The main branch is protected against force pushes.", "fact", [
        {"type": "branch-exists", "branch": "main"}
    ]),
    ("I created `gitmem/extract/heuristic.py` and `tests/test_heuristic.py`.", "fact", [
        {"type": "file-exists", "path": "gitmem/extract/heuristic.py"},
        {"type": "file-exists", "path": "tests/test_heuristic.py"},
    ]),
    ("`tests/test_depth.py` was added with a 500-level case.", "fact", [
        {"type": "file-exists", "path": "tests/test_depth.py"}
    ]),
    ("Moved `docs/old.md` to `docs/heuristic.md`.", "fact", [
        {"type": "file-exists", "path": "docs/heuristic.md"}
    ]),
    ("The fix landed in commit 3f9c2ab.", "fact", [
        {"type": "commit-exists", "sha": "3f9c2ab"}
    ]),
    ("Committed as 3f9c2ab1d2e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8 with the depth guard.", "fact", [
        {"type": "commit-exists", "sha": "3f9c2ab1d2e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8"}
    ]),
    ("Decision: merge PR #12 before the release branch `release/3.0` is cut.", "decision", []),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "kind", "claims"), REFERENCES)
def test_references_make_claims_only_for_what_the_line_says(
    sentence: str, kind: str, claims: list[dict[str, Any]]
) -> None:
    (draft,) = one(sentence)
    assert draft.kind == kind
    assert draft.extra.get("claims", []) == claims
    assert draft.extra["external_state"] is True
    forge = any(word in sentence for word in ("PR", "pull", "MR", "merge_requests", "#", "issues"))
    expected = 2 if forge or kind == "decision" else (1 if kind == "open_loop" else 0)
    assert draft.extra["importance"] == expected


def test_items_without_references_leave_external_state_to_the_brief() -> None:
    (draft,) = one("Decision: we deploy on Tuesdays only.")
    assert "external_state" not in draft.extra and "claims" not in draft.extra


# --- what is never emitted ---------------------------------------------------------------

NEGATIVES = [
    "That was a hard decision, honestly.",
    "We need to make a decision about the index format soon.",
    "The decision log lives in docs/adr.",
    "TODO: fix",
    "TODO: fix it",
    "TODO",
    "Let's use it.",
    "We won't know until the benchmark runs.",
    "Why does the parser drop the last token?",
    "Does that make sense?",
    "Want me to open a PR?",
    "Should I also update the docs?",
    "Why not?",
    "Can you run the tests again?",
    "What could possibly go wrong?",
    "Let me switch to branch `release/2.4`.",
    "The branch `old/thing` was deleted.",
    "We should create the `release/3.0` branch tomorrow.",
    "I read `gitmem/store.py` carefully.",
    "It is copied into `$GITMEM_HOME/keys/` on first use.",
    "I created /tmp/scratch.py for the experiment.",
    "Objects are written first, then `gitmem/store.py` updates the ref.",
    "Please commit defaced changes.",
    "Grep for `TODO:` markers before the release.",
    "Run `git commit` once the tests pass.",
    "TODO: rotate [redacted:aws-access-key] before Friday.",
    "- [x] Re-run the benchmark suite on the release branch",
]


@pytest.mark.parametrize("sentence", NEGATIVES)
def test_nothing_is_emitted_for(sentence: str) -> None:
    assert one(sentence) == []


def test_fenced_code_is_skipped_even_when_unterminated() -> None:
    text = (
        "Before the code.\n"
        "```python\n"
        "# TODO: this is sample code, not a marker\n"
        "```\n"
        "TODO: port the old error messages\n"
        "~~~~\n"
        "Decision: this is inside a tilde fence\n"
        "~~~\n"
        "still inside, a shorter fence does not close it; TODO: nothing here counts\n"
        "~~~~\n"
        "```\n"
        "FIXME: an unterminated fence runs to the end of the message\n"
    )
    assert summary(one(text)) == [
        ("open_loop", "Port the old error messages", "TODO: port the old error messages")
    ]


def test_gitmem_context_spans_are_never_quoted() -> None:
    echoed = (
        "<gitmem-context source='brief'>\n"
        "- [✓ verbatim] Decision: we will not support Python 3.9\n"
        "</gitmem-context>\n"
        "TODO: port the old error messages\n"
        "<gitmem-context>\n"
        "- [~ inferred] TODO: an unterminated span runs to the end of its message\n"
    )
    drafts = one(echoed)
    assert summary(drafts) == [
        ("open_loop", "Port the old error messages", "TODO: port the old error messages")
    ]
    # A sentence cut in two by a span is not stitched back together.
    split = "We decided to keep <gitmem-context>x</gitmem-context> the old wire format."
    assert all("<gitmem-context" not in (d.quote or "") for d in one(split))
    assert_verbatim(one(split), [Message("assistant", split)])


@pytest.mark.parametrize("role", ["tool_use", "tool_result", "tool", "function", "system"])
def test_tool_and_system_messages_are_not_read(role: str) -> None:
    assert extract([Message(role, "TODO: port the old error messages")]) == []


@pytest.mark.parametrize("role", [None, "user", "assistant", "human", "model"])
def test_conversation_messages_are_read(role: str | None) -> None:
    assert len(extract([Message(role, "TODO: port the old error messages")])) == 1


def test_a_quote_never_spans_two_messages() -> None:
    messages = [
        Message("user", "We decided to keep the old wire"),
        Message("assistant", "format for one more release."),
    ]
    drafts = extract(messages)
    assert summary(drafts) == [
        ("decision", "We decided to keep the old wire", "We decided to keep the old wire")
    ]
    assert_verbatim(drafts, messages)


# --- length limits ------------------------------------------------------------------------


def test_a_long_line_is_cut_at_a_sentence_boundary() -> None:
    filler = "The parser keeps a stack of open brackets and pops it on every close. " * 6
    text = "Decision: " + filler + "The end."
    (draft,) = one(text)
    assert draft.quote is not None
    assert len(draft.quote) <= MAX_QUOTE_CHARS
    assert draft.quote.endswith("close.")
    assert text.startswith(draft.quote)
    assert len(draft.text) <= MAX_TEXT_CHARS + 1


def test_a_long_sentence_is_cut_at_a_word_boundary_and_the_text_is_capped() -> None:
    words = " ".join(f"word{n}" for n in range(100))
    (draft,) = one(f"TODO: {words}")
    assert draft.quote is not None
    assert len(draft.quote) <= MAX_QUOTE_CHARS
    last = draft.quote.rsplit(" ", 1)[-1]
    assert last in words.split()  # a whole word, never half of one
    assert draft.text.endswith("…") and len(draft.text) <= MAX_TEXT_CHARS + 1
    assert_verbatim([draft], [Message("assistant", f"TODO: {words}")])


# --- dedupe, ranking, cap -----------------------------------------------------------------


def test_the_same_statement_is_kept_once_the_latest() -> None:
    messages = [
        Message("assistant", "TODO: port the old error messages"),
        Message("user", "- [ ] Port the old error messages"),
        Message("assistant", "Note: port the old error messages"),
    ]
    drafts = extract(messages)
    assert summary(drafts) == [
        ("open_loop", "Port the old error messages", "Port the old error messages")
    ]
    # The same claim said twice is one item, whatever its kinds (tests/capture/test_lastword.py).
    same_claim_other_kind = [
        Message("assistant", "TODO: decide whether the retry loop is unbounded"),
        Message("assistant", "Open question: whether the retry loop is unbounded"),
    ]
    assert [d.kind for d in extract(same_claim_other_kind)] == ["uncertainty"]


def _numbered(kind_prefix: str, count: int) -> list[Message]:
    return [Message("assistant", f"{kind_prefix} number {n} of the list") for n in range(count)]


def test_the_cap_keeps_the_most_important_then_the_latest_in_transcript_order() -> None:
    messages = [
        Message("assistant", "Decision: the first decision of the session"),
        *_numbered("TODO: open loop", 5),
        Message("assistant", "I'm not sure about uncertainty number one here"),
        Message("assistant", "Decision: the second decision of the session"),
    ]
    drafts = extract(messages, max_items=4)
    assert [d.text for d in drafts] == [
        "The first decision of the session",
        "Open loop number 3 of the list",
        "Open loop number 4 of the list",
        "The second decision of the session",
    ]
    assert extract(messages, max_items=0) == []
    assert len(extract(messages)) == 8
    with pytest.raises(ValueError, match="max_items"):
        extract(messages, max_items=-1)


def test_at_equal_importance_a_user_statement_outranks_an_assistant_one() -> None:
    messages = [
        Message("user", "Let's go with SQLite for the local index."),
        Message("assistant", "Let's go with a JSON file for the local index."),
    ]
    assert [d.text for d in extract(messages, max_items=1)] == [
        "Let's go with SQLite for the local index."
    ]
    plain = (
        "**user:** Let's go with SQLite for the local index.\n\n"
        "**assistant:** Let's go with a JSON file for the local index.\n"
    )
    assert [d.text for d in extract([Message(None, plain)], max_items=1)] == [
        "Let's go with SQLite for the local index."
    ]


# --- the guarantee, over generated transcripts --------------------------------------------

_SNIPPETS = [
    "Decision: keep the wire format",
    "**Decision:** use SQLite",
    "We decided to drop the daemon.",
    "Let's go with option B",
    "from now on",
    "TODO: port the old error messages",
    "TODO(bob): x",
    "- [ ] add a fuzz test",
    "- [x] done already",
    "## Next steps\n- write the sync command\n",
    "Open question: do we need it?",
    "Should we keep the cache?",
    "I'm not sure whether",
    "might be",
    "I have not tested it",
    "PR #12 was merged",
    "MR !7",
    "Refs #214",
    "https://github.com/o/r/pull/9",
    "branch `release/2.4`",
    "created `a/b.py`",
    "moved a.py to `b/c.py`",
    "commit 3f9c2ab",
    "```\nTODO: in a fence\n```",
    "<gitmem-context>TODO: echoed output</gitmem-context>",
    "<gitmem-context>",
    "</gitmem-context>",
    "[redacted:token]",
    "snake_case_name",
    "__init__",
    "~~struck~~",
    "e.g. this",
    "…",
    "...",
    "“curly” ‘quotes’ — dashes",
    "İstanbul ß Straße",
]
_NOISE = st.text(
    alphabet=st.sampled_from(list("abcXYZ019 .,;:!?*_`~#>-+[]()'\"’“”—\n\t…İß/@\\|<>")),
    max_size=24,
)
_MESSAGE_TEXT = st.lists(st.one_of(st.sampled_from(_SNIPPETS), _NOISE), max_size=10).map("".join)
_MESSAGES = st.lists(
    st.builds(
        Message,
        role=st.sampled_from([None, "user", "assistant", "tool_result"]),
        text=_MESSAGE_TEXT,
    ),
    max_size=4,
)


@pytest.mark.slow
@settings(max_examples=400)
@given(messages=_MESSAGES, cap=st.integers(min_value=0, max_value=6))
def test_every_quote_is_verbatim_in_generated_transcripts(
    messages: list[Message], cap: int
) -> None:
    drafts = extract(messages, max_items=cap)
    assert len(drafts) <= cap
    assert_verbatim(drafts, messages)
    keys = [(d.kind, d.text) for d in drafts]
    assert len(keys) == len(set(keys))
    for draft in drafts:
        assert draft.text.strip() and "<gitmem-context" not in (draft.quote or "")
        assert draft.extra["importance"] in (0, 1, 2)
    assert extract(messages, max_items=cap) == drafts  # deterministic


def test_a_whole_long_message_is_unpunctuated_as_its_sentences_are() -> None:
    # A message over 64 KB is unpunctuated in one pass (a long plain transcript is one
    # message): every character must come out as the sentence-by-sentence way gives it.
    from gitmem.capture.extract.heuristic.markers import unpunctuate

    sentence = 'TODO: fix "parse()" in [src/a.py]; #3 > #2, ok? yes! `x` * y.\n'
    assert len(sentence) * 2000 > 65536 and sentence.isascii()
    assert unpunctuate(sentence * 2000) == unpunctuate(sentence) * 2000
    assert unpunctuate("a.b" * 30000) == "a b" * 30000
