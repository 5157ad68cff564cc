"""Extractors: turn a (cleaned, masked) transcript into item drafts.

``heuristic`` is built in and deterministic; ``command`` and ``openai`` ask a model
(through :mod:`gitmem.llm`), whose output must match a strict schema before anything
is stored.

A model extraction is split in three steps so that the raw bytes exist before
anything parses them (the capture pipeline keeps them in the capture log)::

    prompt = build_prompt(messages)          # gitmem.capture.extract.prompt
    raw = backend_for(name, settings).complete(prompt, system=SYSTEM_PROMPT)  # gitmem.llm
    drafts = parse_output(raw)               # gitmem.capture.extract.schema

The extraction's own words (the prompt and its ``SYSTEM_PROMPT``) and its schema live
here; the backends know nothing of them.
"""
