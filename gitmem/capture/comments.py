"""Is a quote only the comment of a line of code?

"# we drop Redis for the cache" on a line of a fenced ``python`` block holds the words "we
drop Redis for the cache", but they are a comment its author wrote into the program (a
sketch, an example, a file shown), not a decision said to the session. A decision quoted
from only the comment of a code block's lines is not verbatim
(:func:`gitmem.capture.standing.standing`). A quote that holds the code with its comment
("AgentLines int // Lines added by agent") quotes what the code says and stands, and so
does a quote from a fenced block with no language or a prose one (``markdown``, ``text``),
where "#" opens a heading. Pure; never raises.
"""

from __future__ import annotations

import re

CODE_COMMENT = (
    "the quote is a comment in a block of code, which its author wrote into the code, not"
    " what was decided"
)
_FENCE_RE = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S
)
_PROSE = frozenset(("", "markdown", "md", "text", "txt", "plain", "plaintext"))
# What opens a comment: "#", "//", "--", ";", "%", "/*", "<!--", and a block comment's
# "*" at a line's start.
_OPENS_RE = re.compile(r"(?:^|\s)(?:#|//|--|;|%|/\*|<!--)|^\s*\*")


def in_comment(message: str, start: int, end: int) -> bool:
    """Does ``message[start:end]`` lie in the comments of a fenced block of code: on
    lines of a block whose info string names a language that is no prose, its first line
    after a comment's opening, each further line opening with one? Raises nothing."""
    for fence in _FENCE_RE.finditer(message):
        if not fence.start(3) <= start < fence.end(3):
            continue
        if fence.group(2).lower() in _PROSE or end > fence.end(3):
            return False
        first = message.rfind("\n", 0, start) + 1
        lines = message[start:end].split("\n")
        return _OPENS_RE.search(message[first:start]) is not None and all(
            _OPENS_RE.match(line) for line in lines[1:]
        )
    return False
