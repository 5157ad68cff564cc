"""A ``gitmem verify`` run as an in-toto Test Result (predicate ``test-result/v0.1``):
a CI artefact whose subjects are the commits of the memory refs it checked.

Two tests per ref: ``integrity:<ref>`` (records, receipts, items, snapshots, quotes,
append-only history, layout: what ``gitmem verify`` exits 3 for) and ``trust:<ref>``
(every intact record by a key this reader's roots vouch for). An integrity failure fails
its test; untrusted records warn (fail with ``--strict``). The configuration names the
tool and the trust roots the run decided with; the extension field ``gitmemVerify`` holds
the counts and every problem, as ``gitmem verify --json`` lists them.

Pure: values in, a JSON-ready statement out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from gitmem.core.intoto.statement import statement

TEST_RESULT = "https://in-toto.io/attestation/test-result/v0.1"


class RefRun(NamedTuple):
    """One ref as verify found it."""

    ref: str
    tip: str | None
    problems: int
    untrusted: int


def verify_run_statement(
    refs: Sequence[RefRun],
    configuration: Sequence[Mapping[str, Any]],
    report: Mapping[str, Any],
    strict: bool,
) -> dict[str, Any]:
    """The Test Result of one verify run over *refs*; *report* is what ``verify --json``
    prints. Refs without a commit are not subjects (nothing to name). Raises nothing."""
    passed: list[str] = []
    warned: list[str] = []
    failed: list[str] = []
    for run in refs:
        (failed if run.problems else passed).append(f"integrity:{run.ref}")
        trust = f"trust:{run.ref}"
        if not run.untrusted:
            passed.append(trust)
        else:
            (failed if strict else warned).append(trust)
    result = "FAILED" if failed else "WARNED" if warned else "PASSED"
    subjects = [
        {"name": run.ref, "digest": {"gitCommit": run.tip}} for run in refs if run.tip is not None
    ]
    predicate = {
        "result": result,
        "configuration": [dict(c) for c in configuration],
        "passedTests": passed,
        "warnedTests": warned,
        "failedTests": failed,
        "gitmemVerify": {**report, "strict": strict},
    }
    return statement(subjects, TEST_RESULT, predicate)
