"""Agent hosts and agents mid-session: Claude Code and Codex settings (``hosts``), their
hook events (``host_event``), the MCP server (``mcp``), recall and evidence-gated ask."""
