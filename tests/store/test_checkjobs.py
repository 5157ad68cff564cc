"""What a verify's helper sends back of each record (gitmem.store.checkjobs.facts_of)."""

from __future__ import annotations

import pickle

from gitmem.core.canonical import decode
from gitmem.core.items import Item
from gitmem.core.records import record_of
from gitmem.core.types import Sha256Hex
from gitmem.store.checkjobs import Origin, facts_of
from tests.helpers.record_values import checkpoint, item


def _stored(n: int, carried: tuple[Item, ...]) -> list[tuple[Sha256Hex, bytes]]:
    """*n* checkpoints each carrying *carried*: (address, bytes) each."""
    written = [
        checkpoint(item(f"new decision number {k}"), carry=carried, session=f"s{k}")
        for k in range(n)
    ]
    return [(w.address, w.record.canonical_bytes()) for w in written]


def test_carried_addresses_are_one_string_however_many_checkpoints_name_them() -> None:
    carried = tuple(item(f"an open loop about part {k}") for k in range(40))
    stored = _stored(20, carried)
    # every record parsed from its own bytes, as a helper reads each from git
    same: dict[Sha256Hex, Sha256Hex] = {}
    facts = [facts_of(record_of(decode(data)), address, same) for address, data in stored]
    first, last = facts[0], facts[-1]
    assert first.named[1:] == last.named[1:] == tuple(i.address for i in carried)
    assert all(a is b for a, b in zip(first.named[1:], last.named[1:], strict=True))
    assert first.adds == first.named[:1] and first.adds != last.adds
    # so the answers of a share pickle each carried address once
    alone = [facts_of(record_of(decode(data)), address) for address, data in stored]
    assert alone == facts
    assert len(pickle.dumps(facts)) * 3 < len(pickle.dumps(alone))


def test_a_checkpoint_says_which_snapshot_its_quotes_are_checked_against() -> None:
    written = checkpoint(item("ship the parser"), session="s1")
    record = record_of(decode(written.record.canonical_bytes()))
    facts = facts_of(record, written.address, {})
    source = written.record.source
    assert source is not None
    assert facts.source == Origin(source.snapshot, source.format, source.name)
    assert facts.type == "checkpoint" and facts.purge is None
