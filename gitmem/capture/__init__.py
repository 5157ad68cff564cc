"""One transcript in, one signed checkpoint out.

Host transcript formats, secret masking, echo tagging, extractors (the built-in heuristic,
the prompt and schema model backends answer to), the items file, the evidence check, the
checkpoint build and the pipeline that commands, hooks and MCP call. Imports core, store,
llm and lifecycle.
"""
