"""in-toto attestations of memory, pure: DSSE envelopes (``dsse``), in-toto Statement v1
and its resource descriptors (``statement``), the predicates gitmem writes (a memory
item: ``memory``; a SCAI attribute report: ``scai``; a verify run as a Test Result:
``testresult``), and the check of a memory-item envelope before it is imported
(``check``). Bytes, values and trusted keys in; statements, envelopes or typed errors
out. See ``docs/export.md``.
"""
