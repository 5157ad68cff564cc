"""Commands for signed releases: candidate, approve, pin, verify."""

from __future__ import annotations
