"""Masking tool calls and JSON documents as a reader sees them (docs/secrets.md,
"Tool calls and JSON"): decoded, JSON inside strings too, at any depth of escaping.

Every secret here is fake (tests/data/secrets/README.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS
from helpers.hostile import stored_bytes

from gitmem.capture.masking import mask
from gitmem.capture.masking.documents import mask_label, mask_message, mask_string
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


@pytest.mark.parametrize("case", LEAKS, ids=str)
def test_a_secret_in_tool_arguments_is_masked_at_any_escaping_depth(case: str) -> None:
    data, secret = LEAKS[case]
    message = parse_transcript(data, "session.jsonl").messages[0]
    assert message.role == "tool_use"
    assert secret in mask(message.text).text  # masking the text alone misses it
    assert secret not in mask_message(message.text, tool_call=True).text


def test_a_claude_write_of_a_service_account_is_masked() -> None:
    data = claude_call("Write", {"file_path": "sa.json", "content": SERVICE_ACCOUNT})
    message = parse_transcript(data, "session.jsonl").messages[0]
    masked = mask_message(message.text, tool_call=True)
    assert PEM_BODY not in masked.text
    assert masked.text.startswith("Write\n") and '"file_path":"sa.json"' in masked.text
    assert masked.secrets


def test_a_tool_call_with_no_secret_is_kept_byte_for_byte() -> None:
    text = 'shell\n{"command":["bash","-lc","grep -rn \\"month <\\" export/"],"workdir":"/src"}'
    assert mask_message(text, tool_call=True).text == text
    pretty = 'notes\n{\n  "a": "b"\n}'
    assert mask_message(pretty, tool_call=True).text == pretty


def test_a_name_and_value_in_separate_strings_are_caught() -> None:
    text = 'db\n{"user":"alice","password":"' + PASSWORD + '"}'
    masked = mask_message(text, tool_call=True)
    assert PASSWORD not in masked.text and '"user":"alice"' in masked.text


def test_an_object_key_is_masked_too() -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert token not in mask_string(json.dumps({token: "value"})).text


def test_hostile_json_is_masked_as_text_and_never_raises() -> None:
    deep = "shell\n" + "[" * 5000 + "]" * 5000
    assert mask_message(deep, tool_call=True).text == deep
    assert mask_message('shell\n{"a": "\\ud800"}', tool_call=True).text.startswith("shell")


@pytest.mark.parametrize("case", LEAKS, ids=str)
def test_no_byte_of_the_secret_reaches_git_or_local_state(
    case: str, gm: Any, initialised: Path, tmp_path: Path
) -> None:
    data, secret = LEAKS[case]
    path = tmp_path / "session.jsonl"
    path.write_bytes(data)
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
