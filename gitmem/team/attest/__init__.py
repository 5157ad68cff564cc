"""Memory as in-toto attestations, for tools that are not gitmem: ``gitmem export``
(``export``), ``gitmem import --format intoto`` (``imports``) and ``gitmem verify
--attest`` (``verify``). Here because attestations are memory travelling beyond this
clone, held to team's one rule: what arrives is checked first (integrity required, the
exporter trusted, the records inside intact whoever signed them; the reader decides
their trust when it reads). See docs/export.md.
"""
