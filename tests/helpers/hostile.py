"""Hostile input for the fuzz suite: JSON fragments and files a stress run found to hurt.

Strategies build whole files from a template of the real format with hostile values put
in its slots (deep nesting, lone surrogates, list-typed content, huge integers, floats,
non-UTF-8 bytes, controls, huge strings), beside good lines, so that a test sees both a
bad line among good ones (skipped) and a file of nothing but bad lines (refused).
Every strategy is small and bounded: the whole fuzz suite runs in seconds.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150)
"""The settings of every fuzz test: bounded examples (the seed and the absence of a
deadline come from the profile in ``tests/conftest.py``)."""
FUZZ_SLOW = settings(FUZZ, max_examples=15)
"""For a test that runs the CLI in a real repository per example."""

DEEP = 5_000
HOSTILE_VALUES = (
    "[" * DEEP + "]" * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    "[" * 200 + "]" * 200,
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\udc80\\ud800"',
    "1" * 5_000,
    "-" + "9" * 4_200,
    "1" * 400,
    "1e999",
    "1.5",
    "NaN",
    "-Infinity",
    '[{"type":"text","text":"x"}]',
    '[{"type":"text","text":["x"]}]',
    '[[["x"]]]',
    '[{"type":"tool_use","name":"Write","input":' + "[" * DEEP + "]" * DEEP + "}]",
    '{"text": 5}',
    '""',
    "null",
    "true",
    "{}",
    "[]",
    '"\\u0000\\u001b[2J"',
    '"' + "a" * 20_000 + '"',
    '"x\\n' + "y" * 50 + '"',
)
"""JSON values (as text) that broke parsers: put one in any slot of a record."""

hostile_value = st.sampled_from(HOSTILE_VALUES) | st.sampled_from(HOSTILE_VALUES).map(
    lambda v: f"[{v}]"
)
plain_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30
)
json_string = plain_text.map(lambda t: json.dumps(t, ensure_ascii=False))
slot_value = hostile_value | json_string

# Records of each format with ``@`` where a hostile value goes (see :func:`fill`).
CLAUDE = (
    '{"type":"user","sessionId":@,"uuid":@,"message":{"role":@,"content":@}}',
    '{"type":"assistant","uuid":"a1","sessionId":"s","message":{"role":"assistant",'
    '"content":[{"type":"text","text":@},{"type":"tool_use","name":@,"input":@}]}}',
    '{"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result",'
    '"tool_use_id":"t","content":@}]}}',
    '{"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":@,"text":@}]}}',
    '{"type":@,"sessionId":"s","cwd":@}',
    '{"type":"user","uuid":@,"isMeta":@,"message":@}',
)
CODEX = (
    '{"timestamp":"t","type":"session_meta","payload":{"id":@,"cwd":@}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"message","role":@,"content":@}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user",'
    '"content":[{"type":"input_text","text":@}]}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":@,'
    '"arguments":@}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","output":@}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","action":@}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":@,'
    '"input":@}}',
    '{"id":@,"timestamp":"t","instructions":null}',
    '{"type":"message","role":@,"content":@}',
)
MESSAGES = ('{"role":@,"text":@}',)
GENERIC = ('{"role":@,"content":@}', '{"role":"user","content":[{"type":"text","text":@}]}')
ITEM_TEMPLATES = (
    '{"kind":@,"text":@}',
    '{"kind":"decision","text":@,"trust":@,"quote":@}',
    '{"kind":"fact","text":"x y z","importance":@,"external_state":@}',
    '{"kind":"fact","text":"x y z","claims":@,"evidence":@}',
    '{"kind":"belief","text":"x y z",@:@}',
    '{"kind":"open_loop","text":@,"owner":@}',
)


BROKEN_LINES = (
    "{",
    "not json at all",
    '{"type":',
    "\x00\x01\x02",
    "[" * DEEP,
)


def fill(template: str, values: list[str]) -> str:
    """*template* with each ``@`` replaced by the next of *values* (repeating)."""
    parts = template.split("@")
    out = [parts[0]]
    for index, part in enumerate(parts[1:]):
        out += [values[index % len(values)], part]
    return "".join(out)


@st.composite
def hostile_lines(draw: st.DrawFn, templates: tuple[str, ...]) -> str:
    """One line: a template of the format with hostile values in its slots, or a broken
    line."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(BROKEN_LINES))
    template = draw(st.sampled_from(templates))
    values = draw(st.lists(slot_value, min_size=1, max_size=4))
    return fill(template, values)


@st.composite
def hostile_jsonl(draw: st.DrawFn, good: tuple[str, ...], templates: tuple[str, ...]) -> str:
    """A JSONL file: some good lines of the format and some hostile ones, shuffled."""
    lines = draw(st.lists(st.sampled_from(good), max_size=6))
    lines += draw(st.lists(hostile_lines(templates), min_size=1, max_size=4))
    return "\n".join(draw(st.permutations(lines))) + draw(st.sampled_from(("", "\n")))


def to_bytes(text: str, mangle: int) -> bytes:
    """*text* as UTF-8 (lone surrogates kept as surrogateescape), and with *mangle* 1 a
    non-UTF-8 byte, with 2 a BOM in front."""
    data = text.encode("utf-8", "surrogatepass")
    if mangle == 1:
        return data[: len(data) // 2] + b"\xff\xfe" + data[len(data) // 2 :]
    if mangle == 2:
        return b"\xef\xbb\xbf" + data
    return data


def stored_bytes(repo: Path) -> bytes:
    """Every byte gitmem could have stored in *repo*: the contents of every git object
    (loose or packed, uncompressed) and every file of its local state."""
    objects = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch"],
        check=True,
        capture_output=True,
    ).stdout
    local = repo / ".git" / "gitmem"
    files = [p.read_bytes() for p in sorted(local.rglob("*")) if p.is_file()]
    return b"\n".join([objects, *files])


DAMAGES = ("bit flips", "header bit flips", "cut short", "zeroed run", "schema byte")
"""How :func:`damaged` spoils a file: bits flipped anywhere or in the first 100 bytes,
the file cut at any length, a run of up to a page zeroed, or one byte of the SQL text
SQLite keeps for its tables made a byte that is not UTF-8 (its journal-mode pragma then
fails with a decoding error)."""


def damaged(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """*data* (an SQLite file) spoilt one way of :data:`DAMAGES`, and which."""
    kind = rng.choice(DAMAGES)
    spoilt = bytearray(data)
    if kind == "cut short":
        return kind, bytes(spoilt[: rng.randrange(len(spoilt))])
    if kind == "zeroed run":
        start = rng.randrange(len(spoilt))
        end = min(len(spoilt), start + rng.randrange(1, 4097))
        spoilt[start:end] = bytes(end - start)
        return kind, bytes(spoilt)
    if kind == "schema byte":
        found = [m.start() for m in re.finditer(rb"CREATE (?:TABLE|INDEX|VIRTUAL)", data)]
        if found:
            spoilt[rng.choice(found) + rng.randrange(6)] = rng.choice((0xCE, 0xFF, 0x80))
            return kind, bytes(spoilt)
    within = 100 if kind == "header bit flips" else len(spoilt)
    for _ in range(rng.randrange(1, 9)):
        spoilt[rng.randrange(within)] ^= 1 << rng.randrange(8)
    return kind, bytes(spoilt)
