"""Masking behind any escaping (docs/secrets.md, "Behind any escaping"): every rule also
reads the text's views (its escapes decoded, level by level, and read as shell words),
and what it finds there is masked in the bytes that spell it.

Every secret here is fake (tests/data/secrets/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS, escaping
from helpers.hostile import FUZZ, stored_bytes
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.masking import kinds, mask
from gitmem.capture.masking.escapes import MAX_LEVELS, View, unescaped, views
from gitmem.capture.masking.labels import mask_label, mask_text
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import parse_transcript

SECRETS = json.loads((TESTS / "data" / "secrets" / "secrets.json").read_text(encoding="utf-8"))
PEM = next(e["secret"] for e in SECRETS if e["kind"] == "private-key" and "-----END" in e["secret"])
PEM_BODY = PEM.splitlines()[1]
DJANGO_KEY = "k3j4h5g6f7d8s9a0q1w2e3r4"
PASSWORD = "Tr0ub4dor&3xyz"
SERVICE_ACCOUNT = json.dumps(
    {
        "type": "service_account",
        "project_id": "orchard",
        "private_key": PEM + "\n",
        "client_email": "ci@orchard.iam.gserviceaccount.com",
    },
    indent=2,
)


def codex_call(name: str, arguments: dict[str, Any]) -> bytes:
    payload = {"type": "function_call", "name": name, "arguments": json.dumps(arguments)}
    record = {"timestamp": "2026-02-11T08:01:24Z", "type": "response_item", "payload": payload}
    return (json.dumps(record) + "\n").encode()


def claude_call(name: str, tool_input: dict[str, Any]) -> bytes:
    block = {"type": "tool_use", "id": "toolu_1", "name": name, "input": tool_input}
    record = {
        "type": "assistant",
        "uuid": "u1",
        "sessionId": "s-1",
        "message": {"role": "assistant", "content": [block]},
    }
    return (json.dumps(record) + "\n").encode()


LEAKS = {
    # A JSON document passed as a string: the key's escapes are doubled.
    "codex patch of a service account": (
        codex_call("apply_patch", {"input": json.dumps({"file": "sa.json", "key": PEM})}),
        PEM_BODY,
    ),
    "claude write of a key inside a JSON string": (
        claude_call("Write", {"file_path": "k8s.json", "content": json.dumps({"data": PEM})}),
        PEM_BODY,
    ),
    "SECRET_KEY in a written file": (
        codex_call("write", {"path": "settings.py", "content": f'SECRET_KEY="{DJANGO_KEY}"\n'}),
        DJANGO_KEY,
    ),
    "password in a config passed as a string": (
        codex_call(
            "write",
            {"path": "c.json", "content": json.dumps(json.dumps({"password": PASSWORD}))},
        ),
        PASSWORD,
    ),
}
"""Tool calls whose secret the masker missed when it read the re-encoded arguments."""


def _tool_text(data: bytes) -> str:
    message = parse_transcript(data, "session.jsonl").messages[0]
    assert message.role == "tool_use"
    return message.text


@pytest.mark.parametrize("case", LEAKS, ids=str)
def test_a_secret_in_tool_arguments_is_masked_at_any_escaping_depth(case: str) -> None:
    data, secret = LEAKS[case]
    assert secret not in mask(_tool_text(data)).text


def _echoed(document: str) -> str:
    """*document* written to a file by a double-quoted ``echo``."""
    return escaping.in_double_quotes(document).replace("notes.txt", "sa.json")


# The two leaks of issue 29: a key block in a JSON document that a double-quoted echo
# writes (its line breaks arrive as \\\\n), and SECRET_KEY="…" in a Codex shell command.
ECHOED = _echoed(json.dumps({"data": PEM}))
SYMPTOMS = {
    "codex: echo of a JSON document holding a key": (
        codex_call("shell", {"command": ["bash", "-lc", ECHOED]}),
        PEM_BODY,
    ),
    "claude: echo of a JSON document holding a key": (
        claude_call("Bash", {"command": ECHOED}),
        PEM_BODY,
    ),
    "codex: SECRET_KEY in an echo to .env": (
        codex_call(
            "shell", {"command": ["bash", "-lc", f'echo "SECRET_KEY=\\"{DJANGO_KEY}\\"" >> .env']}
        ),
        DJANGO_KEY,
    ),
}


@pytest.mark.parametrize("case", SYMPTOMS, ids=str)
def test_the_escaped_spellings_issue_29_found_are_masked(case: str) -> None:
    data, secret = SYMPTOMS[case]
    text = _tool_text(data)
    assert "\\\\\\\\n" in text or '\\\\\\"' in text  # two escaping levels deep
    masked = mask(text)
    assert secret not in masked.text and "[redacted:" in masked.text


def test_a_mask_replaces_the_escaped_spelling_in_place_and_the_json_still_reads() -> None:
    data, _ = SYMPTOMS["codex: SECRET_KEY in an echo to .env"]
    text = _tool_text(data)
    masked = mask(text).text
    _, _, body = masked.partition("\n")
    command = json.loads(body)["command"][2]
    assert command == 'echo "SECRET_KEY=\\"[redacted:secret-assignment]\\"" >> .env'
    assert text.replace(DJANGO_KEY, "[redacted:secret-assignment]") == masked


def test_a_claude_write_of_a_service_account_is_masked() -> None:
    data = claude_call("Write", {"file_path": "sa.json", "content": SERVICE_ACCOUNT})
    masked = mask_text(_tool_text(data))
    assert PEM_BODY not in masked.text
    assert masked.text.startswith("Write\n") and '"file_path":"sa.json"' in masked.text
    assert masked.secrets


def test_a_secret_found_escaped_is_kept_as_written_and_as_it_reads() -> None:
    document = json.dumps({"data": PEM})
    found = dict(mask_text(json.dumps({"content": document})).secrets)
    assert PEM in found  # so an item that gives the key unescaped is masked too
    assert any("\\\\n" in secret for secret in found)


def test_a_tool_call_with_no_secret_is_kept_byte_for_byte() -> None:
    text = 'shell\n{"command":["bash","-lc","grep -rn \\"month <\\" export/"],"workdir":"/src"}'
    assert mask(text).text == text
    pretty = 'notes\n{\n  "a": "b"\n}'
    assert mask(pretty).text == pretty


def test_a_name_and_value_in_separate_strings_are_caught() -> None:
    text = 'db\n{"user":"alice","password":"' + PASSWORD + '"}'
    masked = mask(text)
    assert PASSWORD not in masked.text and '"user":"alice"' in masked.text


def test_an_object_key_is_masked_too() -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert token not in mask(json.dumps({token: "value"})).text
    assert token not in mask(json.dumps(json.dumps({token: "value"}))).text


def test_hostile_json_is_masked_as_text_and_never_raises() -> None:
    deep = "shell\n" + "[" * 5000 + "]" * 5000
    assert mask(deep).text == deep
    assert mask('shell\n{"a": "\\ud800"}').text.startswith("shell")
    runs = "\\" * 5000 + '\\"' * 5000 + "'\\''" * 2000 + '"\\' * 3000
    assert mask(runs).text == runs


# The matrix: one secret of each kind × each escaping level × each placement. The whole
# corpus runs in benchmarks/stress_secrets.py, captured through the CLI.

ONE_OF_EACH = list({entry["kind"]: entry for entry in SECRETS}.values())
CLEAN = json.loads((TESTS / "data" / "secrets" / "clean.json").read_text(encoding="utf-8"))


def _snapshot(text: str, placement: str) -> str:
    data = escaping.PLACEMENTS[placement](text).encode()
    return prepare(parse_transcript(data, "session.jsonl"), {}, None).transcript.snapshot


def test_the_matrix_covers_every_kind() -> None:
    assert {entry["kind"] for entry in ONE_OF_EACH} == set(kinds())
    assert len(escaping.LEVELS) > MAX_LEVELS // 2 and len(escaping.PLACEMENTS) == 6


@pytest.mark.parametrize("level", escaping.LEVELS)
@pytest.mark.parametrize("placement", escaping.PLACEMENTS)
def test_no_secret_of_any_kind_is_stored_behind_any_escaping_in_any_placement(
    placement: str, level: str
) -> None:
    stored = []
    for entry in ONE_OF_EACH:
        snapshot = _snapshot(escaping.escaped(entry["text"], level), placement)
        if any(f in snapshot for f in escaping.fragments(entry["secret"])):
            stored.append(entry["kind"])
    assert stored == []


@pytest.mark.parametrize("placement", escaping.PLACEMENTS)
def test_ordinary_text_passes_unchanged_in_every_placement(placement: str) -> None:
    for entry in CLEAN:
        data = escaping.PLACEMENTS[placement](entry["text"]).encode()
        prepared = prepare(parse_transcript(data, "session.jsonl"), {}, None)
        assert prepared.masked == 0, entry["why"]


# The views themselves.


def test_text_without_a_backslash_has_no_view() -> None:
    assert list(views('plain "quoted" text, it\'s fine')) == []


def test_views_hold_only_the_lines_with_an_escape() -> None:
    text = 'first line\nsecond "a \\"b\\"" line\nthird line\n'
    texts = [view.text for view in views(text)]
    assert texts == ["second a b line", 'second "a "b"" line']


def test_a_view_maps_a_span_back_to_the_characters_that_spell_it() -> None:
    text = 'prose\n{"a":"say \\"hi\\\\nthere\\""}\nmore'
    decoded = next(view for view in views(text) if "hi\\nthere" in view.text)
    start = decoded.text.index("hi")
    first, last = decoded.span(start, start + len("hi\\nthere"))
    assert text[first:last] == "hi\\\\nthere"


def test_escapes_are_decoded_up_to_the_level_limit() -> None:
    deep = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    text = deep
    for _ in range(MAX_LEVELS):
        text = json.dumps({"v": text})
    assert deep not in mask(text).text
    assert unescaped(json.dumps(json.dumps("a\nb"))) == '""a\nb""'


ESCAPY = st.text(st.sampled_from(list("\\\\\\\"'nu0c5a $`\n{}:")), max_size=40)


@settings(max_examples=400)
@given(ESCAPY)
def test_every_view_maps_each_span_inside_the_text_in_order(text: str) -> None:
    for view in views(text):
        assert isinstance(view, View)
        ends = [view.span(0, n)[1] for n in range(1, len(view.text) + 1)]
        assert ends == sorted(ends) and all(0 < end <= len(text) for end in ends)
        starts = [view.span(n, n + 1)[0] for n in range(len(view.text))]
        assert starts == sorted(starts) and all(0 <= start < len(text) for start in starts)


@settings(max_examples=400)
@given(ESCAPY)
def test_masking_behind_escapes_is_idempotent(text: str) -> None:
    once = mask(text)
    assert mask(once.text).findings == ()


def with_request(call: bytes) -> bytes:
    """The session of the tool *call* (one line of Claude Code or Codex): the user's
    request, then the call. A file of tool calls alone is no conversation: capture
    refuses it."""
    asked = "Write the service account file."
    if json.loads(call)["type"] == "response_item":  # Codex
        part = {"type": "input_text", "text": asked}
        payload = {"type": "message", "role": "user", "content": [part]}
        record = {"timestamp": "2026-02-11T08:01:20Z", "type": "response_item", "payload": payload}
    else:
        message = {"role": "user", "content": asked}
        record = {"type": "user", "uuid": "u0", "sessionId": "s-1", "message": message}
    return (json.dumps(record) + "\n").encode() + call


@pytest.mark.parametrize("case", [*LEAKS, *SYMPTOMS], ids=str)
def test_no_byte_of_the_secret_reaches_git_or_local_state(
    case: str, gm: Any, initialised: Path, tmp_path: Path
) -> None:
    data, secret = {**LEAKS, **SYMPTOMS}[case]
    path = tmp_path / "session.jsonl"
    path.write_bytes(with_request(data))
    result = gm("capture", "--transcript", str(path))
    assert result.exit_code == 0, result.stderr
    assert secret.encode() not in stored_bytes(initialised)


TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"


def test_a_secret_in_a_session_id_or_a_file_name_never_reaches_git(
    gm: Any, initialised: Path, tmp_path: Path
) -> None:
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": f"s-{TOKEN}",
        "message": {"role": "user", "content": "We decided to pin pygit2 to 1.19 for now."},
    }
    path = tmp_path / f"{TOKEN}.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = gm("capture", "--transcript", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert TOKEN not in result.stdout
    assert result.json()["session"] == "s-[redacted:github-token]"  # type: ignore[index]
    assert TOKEN.encode() not in stored_bytes(initialised)
    explicit = gm("capture", "--transcript", str(path), "--session", f"x {TOKEN}")
    assert explicit.exit_code == 0, explicit.stderr
    assert TOKEN.encode() not in stored_bytes(initialised)


def test_item_keys_and_fields_are_masked(gm: Any, initialised: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "notes.md"
    transcript.write_text("We keep the deploy notes in the wiki.\n", encoding="utf-8")
    items = [
        {
            "kind": "fact",
            "text": "Deploy notes live in the wiki",
            "evidence": {TOKEN: "seen", "config": json.dumps({"password": PASSWORD})},
            "owner": f"SECRET_KEY={DJANGO_KEY}",
        }
    ]
    items_path = tmp_path / "items.json"
    items_path.write_text(json.dumps(items), encoding="utf-8")
    result = gm("capture", "--transcript", str(transcript), "--items", str(items_path))
    assert result.exit_code == 0, result.stderr
    stored = stored_bytes(initialised)
    for secret in (TOKEN, PASSWORD, DJANGO_KEY):
        assert secret.encode() not in stored, secret


GOOGLE = "AIza" + "Sy3zvkEqxQfMIFsCN66dZ0123456789abcd"


@pytest.mark.parametrize(
    ("label", "masked"),
    [
        (f"s-{GOOGLE}", "s-[redacted:google-api-key]"),
        (f"deploy_{GOOGLE}.jsonl", "deploy_[redacted:google-api-key].jsonl"),
        (f"/tmp/x/run-{TOKEN}.md", "/tmp/x/run-[redacted:github-token].md"),
        ("file-0123abcd4567", "file-0123abcd4567"),
    ],
)
def test_a_label_is_masked_word_by_word(label: str, masked: str) -> None:
    assert mask_label(label).text == masked


WRAPS = st.sampled_from([escaping.in_json, escaping.in_double_quotes, escaping.in_single_quotes])


@FUZZ
@given(
    st.sampled_from(SECRETS),
    st.lists(WRAPS, max_size=5),
    st.sampled_from(sorted(escaping.PLACEMENTS)),
)
def test_fuzz_a_secret_behind_any_chain_of_escapings_is_not_stored(
    entry: dict[str, str], wraps: list[Any], placement: str
) -> None:
    text = entry["text"]
    for wrap in wraps:
        text = wrap(text)
    snapshot = _snapshot(text, placement)
    assert not any(f in snapshot for f in escaping.fragments(entry["secret"]))
