"""Signed releases: candidates, approvals and recovery-tested pins in ``refs/gitmem/releases``.

Modules, one concern each (this package imports none of them, so that loading the
threshold policy on the brief's path stays cheap):

- :mod:`~gitmem.team.release.policy` — the committed threshold policy (pure);
- :mod:`~gitmem.team.release.records` — release records: building, reading, checking one;
- :mod:`~gitmem.team.release.decide` — the verdict on one revision (pure);
- :mod:`~gitmem.team.release.signing` — held keys: a key file, ssh-agent, ``ssh-keygen``;
- :mod:`~gitmem.team.release.agent` — the ssh-agent protocol;
- :mod:`~gitmem.team.release.sshkeygen` — ``ssh-keygen -Y`` for keys gitmem cannot handle
  itself (hardware-backed ``sk-`` keys);
- :mod:`~gitmem.team.release.flow` — what the commands do.
"""
