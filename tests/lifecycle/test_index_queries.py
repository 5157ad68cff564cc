"""The index answers the brief's questions without reading every record.

A brief must not grow with history (issue 11): each query the brief path sends to the
index is looked up through an SQLite index, never a full scan of a table that holds a row
per record or per item ever captured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.capturing import capture

from gitmem.lifecycle.index import Index
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

GROWING = ("records", "states", "named", "blobs")
"""Tables with a row per record or item of the whole history."""


def one_decision(gm: Any, repo: Path, home: Path, said: str, text: str) -> Index:
    """The index of *repo* after one capture of a decision *text* from a transcript
    saying *said*."""
    transcript = repo.parent / "t.md"
    transcript.write_text(said)
    items = [{"kind": "decision", "text": text}]
    capture(gm, transcript, items)
    store = Store.discover(repo)
    return Index.open(store, load_trust_roots(home, store))


def test_the_brief_path_scans_no_growing_table(gm: Any, initialised: Path, home: Path) -> None:
    said = "We agreed: deploys stop on Fridays.\n"
    index = one_decision(gm, initialised, home, said, "No deploys on Fridays")
    try:
        plans = {
            sql: index._db.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
            for sql in _brief_queries(index)
        }
    finally:
        index.close()
    assert len(plans) >= 8
    scans = [
        (sql, detail)
        for sql, rows in plans.items()
        for *_, detail in rows
        if detail.split()[:1] == ["SCAN"] and _table(detail.split()[1], sql) in GROWING
    ]
    assert scans == []


def test_the_brief_path_costs_the_same_over_a_long_history(
    gm: Any, initialised: Path, home: Path
) -> None:
    """What the brief asks the index takes as many SQLite steps after a long history of
    events, item blobs and closed items as after one capture. A query plan's SEARCH can
    still walk every row of history (the failed purges were looked up through the index
    on the record type: every event ever written; the orphans compared every blob with
    the named ones), so the steps are counted, not the plans read. The checkpoints are
    not added: the brief counts them (one index count, as the index's own damage check
    does)."""
    said = "We agreed: deploys stop on Fridays.\n"
    index = one_decision(gm, initialised, home, said, "No deploys on Fridays")
    try:
        asked = _brief_queries(index)
        before = {sql: _steps(index, sql) for sql in asked}
        _add_history(index, 2000)
        after = {sql: _steps(index, sql) for sql in asked}
    finally:
        index.close()
    assert len(asked) >= 8
    grown = {sql[:80]: after[sql] - before[sql] for sql in asked if after[sql] > before[sql] + 50}
    assert grown == {}


def _brief_queries(index: Index) -> list[str]:
    """The statements the brief sends to *index* (parameters bound)."""
    sent: list[str] = []
    index._db.set_trace_callback(sent.append)
    try:
        index.state(current_only=True)
        index.counts()
        index.failed()
        index.failed_items()
        index.strays()
        index.orphans()
        index.failed_purges()
    finally:
        index._db.set_trace_callback(None)
    return list(dict.fromkeys(sql for sql in sent if sql.lstrip().upper().startswith("SELECT")))


def _steps(index: Index, sql: str) -> int:
    """SQLite virtual-machine steps that running *sql* to the end takes."""
    count = [0]

    def step() -> int:
        count[0] += 1
        return 0

    index._db.set_progress_handler(step, 1)
    try:
        index._db.execute(sql).fetchall()
    finally:
        index._db.set_progress_handler(None, 1)
    return count[0]


def _add_history(index: Index, n: int) -> None:
    """*n* genuine events, *n* item blobs that records name, and *n* closed items: what a
    long history holds and a brief does not show."""
    db = index._db
    with db:
        db.executemany(
            "INSERT INTO records (address, type, created, data, problem, detail) "
            "VALUES (?, 'event', ?, ?, NULL, '')",
            [(f"{i:064x}", f"2020-01-01T00:00:{i % 60:02d}Z", b"{}") for i in range(n)],
        )
        db.executemany("INSERT INTO blobs VALUES (?, ?)", [(f"{i:063x}b", b"{}") for i in range(n)])
        db.executemany(
            "INSERT INTO named VALUES (?, NULL, '', ?)",
            [(f"{i:063x}b", f"{i:064x}") for i in range(n)],
        )
        db.executemany(
            "INSERT INTO states VALUES (?, 0, 0, '2020-01-01T00:00:00Z', '{}', '[]')",
            [(f"{i:063x}b",) for i in range(n)],
        )


def _table(name: str, sql: str) -> str:
    """The table a query plan's *name* stands for (``FROM states s``: s is states)."""
    words = sql.replace(",", " ").split()
    for at, word in enumerate(words[1:], start=1):
        if word == name and words[at - 1] in GROWING:
            return words[at - 1]
    return name


def test_recall_ranks_its_hits_from_the_full_text_index_alone(
    gm: Any, initialised: Path, home: Path
) -> None:
    said = "We agreed: retries back off.\n"
    index = one_decision(gm, initialised, home, said, "Retries back off exponentially")
    sent: list[str] = []
    try:
        index._db.set_trace_callback(sent.append)
        total, hits = index.search("retry", 10)
        index._db.set_trace_callback(None)
        ranked = [sql for sql in sent if sql.startswith("SELECT") and "ORDER BY" in sql]
        plan = [d for *_, d in index._db.execute(f"EXPLAIN QUERY PLAN {ranked[0]}")]
    finally:
        index.close()
    assert (total, [h.item.text for h in hits]) == (1, ["Retries back off exponentially"])
    # a common word matches thousands of items: no lookup in another table per hit
    assert [d.split()[:2] for d in plan] == [["SCAN", "recall"], ["USE", "TEMP"]], plan


def test_what_a_capture_asks_is_looked_up_by_the_column_it_names(
    gm: Any, initialised: Path, home: Path
) -> None:
    """Whether memory holds a transcript, a commit or a session already (every capture
    and every file of an import asks) is one lookup in that column's index, never a walk
    of every checkpoint (which SQLite, without statistics, took the index on the record
    type for)."""
    said = "We agreed: retries back off.\n"
    index = one_decision(gm, initialised, home, said, "Retries back off exponentially")
    sent: list[str] = []
    try:
        index._db.set_trace_callback(sent.append)
        index.checkpoint_of(snapshot="a" * 64, session="s")
        index.checkpoint_of(commit="b" * 40)
        index.checkpoint_of(session="s")
        index._db.set_trace_callback(None)
        plans = [index._db.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall() for sql in sent]
    finally:
        index.close()
    named = {"records_snapshot", "records_session", "records_commit"}
    used = [[d for *_, d in rows if d.startswith(("SEARCH", "SCAN"))] for rows in plans]
    assert len(used) == 3 and all(
        len(steps) == 1 and steps[0].split()[:4] == ["SEARCH", "records", "USING", "INDEX"]
        for steps in used
    ), used
    assert all(steps[0].split()[4] in named for steps in used), used
