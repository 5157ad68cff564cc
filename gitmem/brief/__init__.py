"""Verified memory rendered as the "while you were away" brief; read-only.

``select`` (pure) ranks what replay and the checks produced, ``budget`` decides what fits,
``render`` writes text, markdown or JSON, ``emit`` reads, verifies, probes the world
(``worldcheck/``) and remembers what was shown. Imports core, store, llm and lifecycle.
"""
