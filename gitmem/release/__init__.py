"""Signed releases: candidates, approvals and recovery-tested pins in ``refs/gitmem/releases``.

Modules, one concern each (this package imports none of them, so that loading the
threshold policy on the brief's path stays cheap):

- :mod:`~gitmem.release.policy` — the committed threshold policy (pure);
- :mod:`~gitmem.release.records` — release records: building, reading, checking one;
- :mod:`~gitmem.release.decide` — the verdict on one revision (pure);
- :mod:`~gitmem.release.signing` — held keys: a key file, ssh-agent, ``ssh-keygen``;
- :mod:`~gitmem.release.agent` — the ssh-agent protocol;
- :mod:`~gitmem.release.sshkeygen` — ``ssh-keygen -Y`` for keys gitmem cannot handle
  itself (hardware-backed ``sk-`` keys);
- :mod:`~gitmem.release.flow` — what the commands do.
"""
