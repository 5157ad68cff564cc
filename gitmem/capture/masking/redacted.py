"""The mask itself, ``[redacted:KIND]``: how one starts and how to recognise one.

A module of its own because both the engine (which writes masks) and the context rules
(for which a mask is never a name nor a secret value) need it.
"""

from __future__ import annotations

import re

MASK_PREFIX = "[redacted:"

MASK_RE = re.compile(r"\[redacted:[a-z0-9][a-z0-9-]*\]")
