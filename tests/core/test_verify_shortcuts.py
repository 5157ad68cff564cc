"""The shortcuts ``gitmem verify`` takes on its hot paths give what the long way gives: an
item parsed with the address its check hashed already, a kind and a trust class looked
up by value, a quote's fragments folded once, and a fragment read inline without a
second fold when that fold cannot differ."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core.align import _reads_inline, parse_fragment
from gitmem.core.canonical import encode, sha256_hex
from gitmem.core.errors import FormatError
from gitmem.core.folding import fold, fold_inline
from gitmem.core.integrity import ITEM_EDITED, ITEM_UNREADABLE, check_item
from gitmem.core.items import ITEM_SCHEMA, Item, Kind, Trust, parse_item
from gitmem.core.numbers import NUMBER_RE
from gitmem.core.quotes import (
    _folded_fragments,
    check_quotes,
    check_stored_quotes,
    split_fragments,
    strip_gitmem_context,
)

ITEM = Item(
    kind=Kind.DECISION,
    text="ship it",
    trust=Trust.VERBATIM,
    origin_session="s1",
    quote="we ship it on friday",
    quote_verified=True,
)


def test_an_item_parsed_with_its_hash_is_the_item_parsed_without() -> None:
    data = ITEM.canonical_bytes()
    given_hash = parse_item(data, sha256_hex(data))
    assert given_hash == parse_item(data) == ITEM
    assert given_hash.address == sha256_hex(data) == ITEM.address


def test_the_item_check_still_refuses_what_it_refused() -> None:
    data = ITEM.canonical_bytes()
    assert check_item(ITEM.address, data).item == ITEM
    assert check_item(ITEM.address, data + b" ").problem == ITEM_EDITED
    odd = encode({**ITEM.to_dict(), "kind": ["decision"]})
    check = check_item(sha256_hex(odd), odd)
    assert check.problem == ITEM_UNREADABLE
    assert check.detail.startswith("item kind ['decision'] is not one of decision")


@pytest.mark.parametrize("kind", ["decision", "open_loop", "fact"])
def test_a_kind_is_read_as_its_member(kind: str) -> None:
    item = Item.from_dict({**ITEM.to_dict(), "kind": kind})
    assert item.kind is Kind(kind)


@pytest.mark.parametrize("kind", [None, 1, True, ["decision"], {"a": 1}, "Decision", ""])
def test_a_kind_that_is_no_member_is_refused(kind: object) -> None:
    with pytest.raises(FormatError, match=r"^item kind .* is not one of decision"):
        Item.from_dict({**ITEM.to_dict(), "kind": kind})


@pytest.mark.parametrize(
    ("trust", "read"),
    [
        ("verbatim", Trust.VERBATIM),
        ("inferred", Trust.INFERRED),
        ("untagged", Trust.UNTAGGED),
        ("VERBATIM", Trust.UNTAGGED),
        (None, Trust.UNTAGGED),
        (["verbatim"], Trust.UNTAGGED),
        ({"verbatim": 1}, Trust.UNTAGGED),
        (1, Trust.UNTAGGED),
    ],
)
def test_a_trust_class_is_read_by_value_and_anything_else_is_untagged(
    trust: object, read: Trust
) -> None:
    data = {**ITEM.to_dict(), "trust": trust, "schema": ITEM_SCHEMA}
    assert Item.from_dict(data).trust is read


TEXT = st.text(
    alphabet=st.sampled_from([*"ab1 -+#>*`_~.:)\n\t\r\x1c\x1f", "İ", "ﬁ", "\u200b", "…"]),
    max_size=24,
)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_a_fragment_read_inline_without_folding_again_reads_as_folded(raw: str) -> None:
    if _reads_inline(raw):
        assert fold_inline(raw) == fold(raw)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_a_fragment_given_its_fold_parses_as_one_that_folds_itself(raw: str) -> None:
    assert parse_fragment(raw, fold(raw)) == parse_fragment(raw)


@pytest.mark.parametrize("raw", ["ship it", "x", "a-b", "ok: 2. then"])
def test_plain_ascii_reads_inline(raw: str) -> None:
    assert _reads_inline(raw)


@pytest.mark.parametrize("raw", ["", " x", "- item", "2. then", "# title", "> q", "*x*", "İx"])
def test_a_possible_marker_or_a_wider_text_is_folded_inline(raw: str) -> None:
    assert not _reads_inline(raw)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab137 .…*-)")), max_size=30))
def test_the_fragments_folded_once_are_the_split_fragments(quote: str) -> None:
    pairs = _folded_fragments(quote)
    assert [piece for piece, _ in pairs] == split_fragments(quote)
    assert [body for _, body in pairs] == [fold(piece) for piece, _ in pairs]


def test_quotes_check_as_before_across_the_shortcuts() -> None:
    messages = ["Plan:\n- migrate the db\n- deploy", "2. then we ship **the parser** on friday"]
    quotes = ["migrate the db … deploy", "2. then we ship the parser", "- deploy", "ship… friday"]
    checks = check_quotes([*quotes, "then we ship… friday"], messages)
    assert [(c.verbatim, c.reason) for c in checks] == [
        (True, "all 2 fragments found in order in message 0"),
        (True, "found in message 1"),
        (False, "too generic: the quote has fewer than 8 characters after folding"),
        (False, "too generic: no fragment has 8 or more characters after folding"),
        (True, "all 2 fragments found in order in message 1"),
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"ab1 .…*-)<>"]), max_size=30))
def test_a_quote_without_an_ellipsis_is_cut_as_the_pattern_cuts_it(quote: str) -> None:
    pieces = (piece.strip() for piece in re.split(r"…|\.{3,}", quote))
    expected = [p for p in pieces if fold(p) or NUMBER_RE.search(fold_inline(p))]
    assert split_fragments(quote) == expected


TAGS = st.lists(st.sampled_from(["a b", "<", ">", "/", "<gitmem-context>", "</GITMEM-CONTEXT>"]))


@settings(max_examples=300, deadline=None)
@given(TAGS.map("".join))
def test_gitmems_output_is_stripped_as_before(text: str) -> None:
    stripped = strip_gitmem_context(text)
    if "<" not in text:
        assert stripped is text
    assert "gitmem-context>" not in stripped.lower()


@pytest.mark.parametrize(
    "quote",
    [
        "migrate the db … deploy",
        "2. then we ship the parser",
        "- deploy",
        "ship… friday",
        "then we ship… friday",
        "we never ship the parser",
        "the db\n- deploy",
        "",
        "<gitmem-context>we ship</gitmem-context>",
    ],
)
def test_a_stored_quote_gets_the_verdict_and_reason_a_full_check_gives(quote: str) -> None:
    messages = ["Plan:\n- migrate the db\n- deploy", "2. then we ship **the parser** on friday"]
    snapshot = "".join(
        encode({"role": "user", "text": m}).decode() + "\n" for m in messages
    ).encode()
    (full,) = check_quotes([quote], messages)
    (stored,) = check_stored_quotes([quote], snapshot, "claude")
    assert (stored.problem is None, stored.reason) == (full.verbatim, full.reason)
