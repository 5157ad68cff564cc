"""Extractors: turn a (cleaned, masked) transcript into item drafts.

``heuristic`` is built in and deterministic; ``command`` and ``openai`` ask a model,
whose output must match a strict schema before anything is stored.
"""
