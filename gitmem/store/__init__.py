"""I/O that decides nothing: the memory ref, this clone's ``.git/gitmem/``, this user's
``$GITMEM_HOME``.

Reading and appending records (``repo``), union merge, the one place that runs git, keys,
settings, trust roots loaded once, sealing a record with its receipt, the emission ledger,
the capture log, whole-store verification and the record history. Imports only the core.
"""
