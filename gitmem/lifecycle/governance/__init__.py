"""Governance: epistemic status, evidence roots, promotion and the use gate.

Pure functions only: no disk, no git, no clock (the time is always a parameter), no
click. The lifecycle replay, the events and the ``gitmem promote`` / ``gitmem gate``
commands call them. One concern per module:

* :mod:`~gitmem.lifecycle.governance.status` — the seven classes and the explicit transitions;
* :mod:`~gitmem.lifecycle.governance.evidence` — evidence roots and the one counting function;
* :mod:`~gitmem.lifecycle.governance.rootkeys` — canonical keys for root ids;
* :mod:`~gitmem.lifecycle.governance.instructions` — memory that talks to its future reader;
* :mod:`~gitmem.lifecycle.governance.policy` — TTLs and the quorum, from ``.gitmem/policy.json``;
* :mod:`~gitmem.lifecycle.governance.decisions` — freshness, promotion and the gate.

The package itself imports none of them: a reader of the statuses alone (the brief, a
replay with no promotion in it) loads only :mod:`~gitmem.lifecycle.governance.status`.

See ``docs/governance.md``.
"""
