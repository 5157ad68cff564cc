"""The stored quotes of a ref checked against their snapshots: each snapshot read once
and, whichever checkpoints quote it, parsed and folded once; problems go to the
checkpoint that put the quote by, an edited snapshot is named, and a snapshot the walk
does not hold is read by address."""

from __future__ import annotations

import json

import pytest

from gitmem.core.canonical import sha256_hex
from gitmem.core.quotes import StoredQuote
from gitmem.core.types import Sha256Hex
from gitmem.store import quotecheck
from gitmem.store.quotecheck import Found, PutBy, check_quotes


def messages(*texts: str) -> bytes:
    return b"".join(json.dumps({"role": "user", "text": t}).encode() + b"\n" for t in texts)


def address(n: int) -> Sha256Hex:
    return Sha256Hex(sha256_hex(str(n).encode()))


def test_one_check_per_snapshot_and_problems_to_whoever_put_the_quote_by(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shared = messages("We keep the parser in src/parse.py for now.", "Cache misses stay rare.")
    other = messages("The release waits for the benchmark run.")
    edited_bytes = messages("The release waits.")
    digest, other_digest, gone = sha256_hex(shared), sha256_hex(other), address(99)
    edited = Sha256Hex(sha256_hex(b"what it held when it was written"))
    walk: list[tuple[Sha256Hex, bytes | None]] = [
        (digest, shared),
        (other_digest, other),
        (edited, edited_bytes),
    ]
    quotes = {
        address(1): "keep the parser in src/parse.py",
        address(2): "cache misses stay rare",
        address(3): "the parser lives in lib/",  # not said
        address(4): "release waits for the benchmark run",
        address(5): "the release waits",
        address(6): "anything at all",
    }
    put_by = {
        digest: [
            PutBy("checkpoints/aa/one.json", "claude", "s.jsonl", [address(1), address(3)]),
            PutBy("checkpoints/bb/two.json", "claude", "s.jsonl", [address(2)]),
            PutBy("checkpoints/cc/six.json", None, "s.jsonl", [address(1)]),  # no format
        ],
        other_digest: [PutBy("checkpoints/dd/four.json", "claude", "o", [address(4)])],
        edited: [PutBy("checkpoints/ee/five.json", "claude", "e", [address(5)])],
        gone: [PutBy("checkpoints/ff/gone.json", "claude", "g", [address(6)])],
    }
    checked: list[tuple[list[str], str | None]] = []
    real = quotecheck.check_stored_quotes

    def counted(
        quotes: list[str], snapshot: bytes | None, fmt: str | None, *rest: str, **kw: bool
    ) -> list[StoredQuote]:
        checked.append((list(quotes), fmt))
        return real(quotes, snapshot, fmt, *rest, **kw)

    monkeypatch.setattr(quotecheck, "check_stored_quotes", counted)
    read: list[Sha256Hex] = []
    found = check_quotes(walk, put_by, quotes.__getitem__, lambda d: read.append(d) or None, 2)

    assert found.snapshots == 3 and put_by == {} and read == [gone]
    # the shared snapshot: one check for the two checkpoints that read it one way, one
    # for the checkpoint that names no format
    assert checked[:2] == [
        ([quotes[address(n)] for n in (1, 3, 2)], "claude"),
        ([quotes[address(1)]], None),
    ]
    assert len(checked) == 5
    assert found.edited == [
        Found(f"snapshots/{edited[:2]}/{edited[2:]}.txt", "snapshot edited", found.edited[0].detail)
    ]
    problems = {path: [(f.path, f.problem) for f in fs] for path, fs in found.by_record}
    item = lambda n: f"items/{address(n)[:2]}/{address(n)[2:]}.json"  # noqa: E731
    assert problems == {
        "checkpoints/aa/one.json": [(item(3), "quote not in snapshot")],
        "checkpoints/cc/six.json": [(item(1), "quote not in snapshot")],
        "checkpoints/ee/five.json": [(item(5), "quote not in snapshot")],
        "checkpoints/ff/gone.json": [(item(6), "snapshot missing")],
    }
    assert [path for path, _ in found.by_record] == list(problems)  # in the order checked
