"""``gitmem verify --attest``: a verify run as a signed in-toto Test Result, whose
subjects are the commits of the memory refs it checked — a CI artefact.

The run is ``gitmem verify``'s own (:func:`gitmem.store.verify.verify_store` with the
checkers of :mod:`gitmem.team.checkers`); the statement is
:func:`gitmem.core.intoto.testresult.verify_run_statement`, signed with this user's
gitmem key as the export is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from gitmem import __version__
from gitmem.core.errors import InputError
from gitmem.core.intoto.dsse import sign_envelope
from gitmem.core.intoto.statement import PAYLOAD_TYPE, payload_of
from gitmem.core.intoto.testresult import RefRun, verify_run_statement
from gitmem.store.keys import load_identity
from gitmem.store.repo import Store
from gitmem.store.verify import verify_store
from gitmem.team.checkers import load_checkers


class Attested(NamedTuple):
    envelope: bytes
    """One JSON line: the DSSE envelope of the Test Result."""
    exit_code: int
    """What ``gitmem verify`` exits with for the same run."""


def attest_verify(store: Store, home: Path, strict: bool = False) -> Attested:
    """Verify the store as ``gitmem verify`` does, and sign the result as a Test Result.

    Raises:
        InputError: no memory ref has a commit yet (nothing to name as the subject).
        SigningKeyError: no key to sign with.
        GitError: the refs cannot be listed.
    """
    identity = load_identity(home)
    checkers = load_checkers(home, store)
    report = verify_store(store, checkers.for_ref)
    runs = [RefRun(r.ref, r.tip, len(r.problems), len(r.untrusted)) for r in report.refs]
    if not any(run.tip for run in runs):
        raise InputError("nothing to attest: no memory has been written in this repository")
    roots = checkers.memory
    configuration: list[dict[str, Any]] = [
        {
            "name": "gitmem verify" + (" --strict" if strict else ""),
            "uri": f"pkg:pypi/gitmem-verified@{__version__}",
        },
        {
            "name": "trust-roots",
            "digest": {"sha256": roots.digest()},
            "annotations": {
                "sources": [_shown(root.source) for root in roots.signers],
                "trustBranch": roots.branch,
            },
        },
    ]
    value = verify_run_statement(runs, configuration, report.to_json(), strict)
    envelope = sign_envelope(PAYLOAD_TYPE, payload_of(value), identity.signer)
    return Attested(envelope.line(), report.exit_code(strict))


def _shown(source: str) -> str:
    """A root as an artefact names it: the personal root by its place under
    ``$GITMEM_HOME``, not by this machine's path (a CI log is read by others)."""
    return f"$GITMEM_HOME/{Path(source).name}" if Path(source).is_absolute() else source
