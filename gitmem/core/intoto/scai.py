"""A memory item as an in-toto SCAI attribute report (predicate ``scai/v0.3``), for
generic policy engines: "this claim has evidence".

Same subjects as the memory-item statement (:func:`gitmem.core.intoto.memory.subjects_of`).
An item the reader's brief shows verbatim asserts the attribute
:data:`VERBATIM_QUOTE`: its target is the quote's own bytes, its conditions say where
the transcript says them (message and byte ranges) and what the item claims, and its
evidence is the transcript snapshot (a pointer: name, SHA-256, media type; the bytes
are in the memory ref and in the memory-item export). Any other item asserts only its
trust class as shown (``gitmem/inferred``, ``gitmem/untagged``), with why it was
degraded. SCAI follows in-toto's monotonic principle: a policy that allows on
``gitmem/verbatim-quote`` cannot be turned from deny to allow by ignoring anything here.

Pure: values in, JSON-ready statements out.
"""

from __future__ import annotations

from typing import Any

from gitmem.core.intoto.memory import Exporter, MemoryItem, subjects_of
from gitmem.core.intoto.statement import descriptor, statement
from gitmem.core.items import Trust

SCAI = "https://in-toto.io/attestation/scai/v0.3"
VERBATIM_QUOTE = "gitmem/verbatim-quote"
"""The attribute of an item whose quote is the transcript's own words, checked."""
QUOTE_MEDIA = "text/plain; charset=utf-8"


def scai_statement(item: MemoryItem, exporter: Exporter) -> dict[str, Any]:
    """The SCAI attribute report of *item*, exported by *exporter*. Raises nothing."""
    claim = {
        "kind": item.kind,
        "text": item.text,
        "session": item.session,
        "item": item.item.digest,
        "trust": item.trust,
    }
    quote = item.quote
    if item.trust == Trust.VERBATIM and quote is not None:
        evidence = next((s for s in item.snapshots if s.digest == quote.snapshot), None)
        attribute: dict[str, Any] = {
            "attribute": VERBATIM_QUOTE,
            "target": descriptor("quote", quote.text.encode("utf-8"), media=QUOTE_MEDIA),
            "conditions": {
                **claim,
                "message": quote.message,
                "ranges": [list(r) for r in quote.ranges],
            },
        }
        if evidence is not None:
            pointer = evidence._replace(data=None).to_json()
            attribute["evidence"] = pointer
    else:
        label, reason = item.degraded or (None, None)
        attribute = {
            "attribute": f"gitmem/{item.trust}",
            "conditions": {**claim, "degraded": label, "reason": reason},
        }
    # The producer is the writer, named by the signed checkpoint that made the item
    # (a descriptor needs a uri, a digest or content; a principal has no digest).
    producer = {
        "name": item.writer,
        "digest": {"sha256": item.checkpoint.record.digest},
        "annotations": {"key": item.key, "exporter": exporter.principal, "at": exporter.at},
    }
    return statement(subjects_of(item), SCAI, {"attributes": [attribute], "producer": producer})
