"""Commands that move memory between machines: sync, backup, restore, snapshot."""

from __future__ import annotations
