"""The release threshold policy: how many maintainers must approve. Pure.

``.gitmem/release_policy.json``, committed on the trust branch: ``{"threshold": k}``
with ``k`` a positive integer. Absent: one approval suffices. A policy that cannot be read fails
closed: nothing is approved until it is fixed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from gitmem.core.canonical import StrictJSONError, strict_decoder

DEFAULT_THRESHOLD = 1
_FIELDS = ("threshold",)


@dataclass(frozen=True)
class ReleasePolicy:
    threshold: int
    problem: str | None = None
    """Why the committed policy is unusable; when set, no release is approved."""


def parse_policy(data: bytes | None, source: str) -> ReleasePolicy:
    """The policy in *data* (None: no policy committed). Raises nothing: a bad policy
    is a :class:`ReleasePolicy` with ``problem`` set."""
    if data is None:
        return ReleasePolicy(DEFAULT_THRESHOLD)
    try:
        value = strict_decoder().decode(data.decode("utf-8"))
    except (UnicodeDecodeError, StrictJSONError, json.JSONDecodeError, RecursionError) as e:
        return ReleasePolicy(DEFAULT_THRESHOLD, f"{source} is not valid JSON: {e}")
    if not isinstance(value, dict):
        return ReleasePolicy(DEFAULT_THRESHOLD, f"{source} must be a JSON object")
    unknown = sorted(set(value) - set(_FIELDS))
    if unknown:
        return ReleasePolicy(
            DEFAULT_THRESHOLD, f"{source} has unknown field(s): {', '.join(unknown)}"
        )
    threshold = value.get("threshold", DEFAULT_THRESHOLD)
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 1:
        return ReleasePolicy(DEFAULT_THRESHOLD, f"{source}: threshold must be a positive integer")
    return ReleasePolicy(threshold)
