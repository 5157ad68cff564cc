"""Commands for agents mid-session: recall, ask, and the MCP server."""

from __future__ import annotations
