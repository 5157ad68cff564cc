"""Tests for secret masking (gitmem/masking/); the rules are in docs/secrets.md.

The corpus in tests/data/secrets/ holds fake secrets of every kind in their usual
surroundings (secrets.json) and look-alikes that must pass unchanged (clean.json). Every
value there is made up; none is a real credential.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers import ROOT, TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture import masking
from gitmem.capture.masking import MASK_PREFIX, Finding, Masked, contains_mask, kinds, mask

DATA = TESTS / "data" / "secrets"
SECRETS: list[dict[str, str]] = json.loads((DATA / "secrets.json").read_text(encoding="utf-8"))
CLEAN: list[dict[str, str]] = json.loads((DATA / "clean.json").read_text(encoding="utf-8"))
# An unterminated private key block runs to the end of the text, so those entries are
# left out of the corpus joined into one text.
JOINED = [e for e in SECRETS if "-----BEGIN" not in e["secret"] or "-----END" in e["secret"]]
CORPUS = "\n\n".join(entry["text"] for entry in JOINED + CLEAN)


def _secret_id(entry: dict[str, str]) -> str:
    return f"{entry['kind']}-{entry['where']}-{SECRETS.index(entry)}"


def _assert_consistent(text: str, masked: Masked) -> None:
    """Findings are ordered, disjoint, inside the text, and rebuild the masked text."""
    pieces, pos = [], 0
    for finding in masked.findings:
        assert pos <= finding.start < finding.end <= len(text)
        assert finding.kind in kinds()
        pieces += [text[pos : finding.start], f"{MASK_PREFIX}{finding.kind}]"]
        pos = finding.end
    assert masked.text == "".join([*pieces, text[pos:]])


# The corpus ---------------------------------------------------------------------------


def test_the_corpus_has_every_kind_in_several_surroundings() -> None:
    assert {entry["kind"] for entry in SECRETS} == set(kinds())
    assert {"markdown", "shell", "json", "env", "transcript"} <= {e["where"] for e in SECRETS}
    for entry in SECRETS:
        assert entry["text"].count(entry["secret"]) == 1, _secret_id(entry)


@pytest.mark.parametrize("entry", SECRETS, ids=_secret_id)
def test_every_secret_is_masked_with_its_kind_exactly_over_the_secret(
    entry: dict[str, str],
) -> None:
    text, secret = entry["text"], entry["secret"]
    masked = mask(text)
    start = text.index(secret)
    assert Finding(entry["kind"], start, start + len(secret)) in masked.findings
    assert secret not in masked.text
    assert f"[redacted:{entry['kind']}]" in masked.text
    _assert_consistent(text, masked)


@pytest.mark.parametrize("entry", CLEAN, ids=[entry["why"] for entry in CLEAN])
def test_ordinary_text_passes_unchanged(entry: dict[str, str]) -> None:
    masked = mask(entry["text"])
    assert masked.findings == ()
    assert masked.text == entry["text"]


def test_the_whole_corpus_at_once_gives_the_same_findings_shifted() -> None:
    masked = mask(CORPUS)
    _assert_consistent(CORPUS, masked)
    found = {(f.kind, CORPUS[f.start : f.end]) for f in masked.findings}
    assert {(e["kind"], e["secret"]) for e in JOINED} <= found
    for entry in JOINED:
        assert entry["secret"] not in masked.text


# What is kept and what is masked ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DB_PASSWORD=swordfish", "DB_PASSWORD=[redacted:secret-assignment]"),
        ('export API_TOKEN="9f8e7d6c"', 'export API_TOKEN="[redacted:secret-assignment]"'),
        ("  password: hunter2 # prod", "  password: [redacted:secret-assignment] # prod"),
        ('{"client_secret": "s3cr3t-v4lue"}', '{"client_secret": "[redacted:secret-assignment]"}'),
        ("SECRET_KEY = 'dj4ngo'", "SECRET_KEY = '[redacted:secret-assignment]'"),
        ("tool --token abc123 --env prod", "tool --token [redacted:secret-assignment] --env prod"),
        ("curl -u admin:s3cr3t! https://x", "curl -u admin:[redacted:secret-assignment] https://x"),
        (
            "Authorization: Basic YWxpY2U6d29uZGVy",
            "Authorization: Basic [redacted:secret-assignment]",
        ),
        (
            "postgres://app:pa55@db.internal:5432/app",
            "postgres://app:[redacted:url-password]@db.internal:5432/app",
        ),
        ("redis://:pa55w0rd@cache:6379", "redis://:[redacted:url-password]@cache:6379"),
        (
            "https://bob:p@ss@git.example.com/x",
            "https://bob:[redacted:url-password]@git.example.com/x",
        ),
        (
            "https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/abcdefghijklmnopqrstuvwx",
            "https://hooks.slack.com/services/[redacted:slack-webhook-url]",
        ),
    ],
)
def test_the_name_scheme_user_and_host_are_kept_only_the_value_is_masked(
    text: str, expected: str
) -> None:
    assert mask(text).text == expected


def test_an_unterminated_private_key_is_masked_to_the_end_of_the_text() -> None:
    body = "MIIEowIBAAKCAQEAwJ8b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
    text = f"before\n-----BEGIN EC PRIVATE KEY-----\n{body}\nmore lines\n\nand prose after"
    masked = mask(text)
    assert masked.text == "before\n[redacted:private-key]"
    assert masked.findings == (Finding("private-key", 7, len(text)),)


def test_a_private_key_header_without_key_material_is_not_a_block() -> None:
    text = 'assert key.startswith("-----BEGIN OPENSSH PRIVATE KEY-----")\nrest of the file'
    assert mask(text).text == text


def test_two_blocks_are_masked_separately_and_the_text_between_is_kept() -> None:
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB"
    block = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----"
    assert mask(f"{block}\nbetween\n{block}").text == (
        "[redacted:openssh-private-key]\nbetween\n[redacted:openssh-private-key]"
    )


def test_a_publishable_stripe_key_is_not_masked_but_a_secret_one_is() -> None:
    text = "pk_live_51HqLyjWDarjtT1zdp7dcXn4q sk_live_51HqLyjWDarjtT1zdp7dcXn4q"
    assert mask(text).text == "pk_live_51HqLyjWDarjtT1zdp7dcXn4q [redacted:stripe-secret-key]"


# Overlaps -----------------------------------------------------------------------------

TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"


def test_equal_spans_take_the_more_specific_kind() -> None:
    masked = mask(f"GITHUB_TOKEN={TOKEN}")
    assert masked.text == "GITHUB_TOKEN=[redacted:github-token]"
    assert len(masked.findings) == 1


def test_overlapping_findings_merge_and_the_widest_kind_wins() -> None:
    text = f'"password": "{TOKEN} and more words"'
    masked = mask(text)
    assert masked.text == '"password": "[redacted:secret-assignment]"'
    (finding,) = masked.findings
    assert text[finding.start : finding.end] == f"{TOKEN} and more words"


def test_a_jwt_in_a_bearer_header_is_named_jwt() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
    assert mask(f"Authorization: Bearer {jwt}").text == "Authorization: Bearer [redacted:jwt]"


# Idempotence, offsets, robustness -----------------------------------------------------

FRAGMENTS = [
    *(entry["secret"] for entry in SECRETS),
    *(entry["text"] for entry in SECRETS[::5]),
    *(f"{MASK_PREFIX}{kind}]" for kind in kinds()),
    "password",
    "API_KEY",
    "token",
    "Authorization",
    "Bearer ",
    "--password ",
    "=",
    ": ",
    '"',
    "'",
    "\\",
    "@",
    ":",
    "://",
    "user:",
    "\n",
    " ",
    ",",
    "-----BEGIN RSA PRIVATE KEY-----\n",
    "-----END RSA PRIVATE KEY-----",
    "eyJ",
    ".",
    "sk-",
    "AKIA",
    "İ",
    "-u ",
    "DB_PASSWORD",
    '"token": "',
    "x-access-token",
    "STRIPE_KEY",
    "\\n",
    '\\"',
    "(",
    ")",
    "{",
    "}",
    "<",
    "`",
    "%s",
    "${",
]

texts = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=14).map(
    "".join
)


@settings(max_examples=600)
@given(text=texts)
def test_masking_is_idempotent_and_never_makes_a_new_secret(text: str) -> None:
    once = mask(text)
    _assert_consistent(text, once)
    twice = mask(once.text)
    assert twice.text == once.text
    assert twice.findings == ()


@settings(max_examples=300)
@given(text=st.text())
def test_any_text_masks_without_raising(text: str) -> None:
    masked = mask(text)
    _assert_consistent(text, masked)
    assert mask(masked.text).text == masked.text


def test_a_mask_that_completes_its_neighbour_is_rescanned() -> None:
    body = "MIIEowIBAAKCAQEAwJ8b3BlbnNzaC1rZXkt"
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    token = "glpat-D8e3XXkFtjy8jhJ2Tejm"
    masked = mask(block + token)
    assert masked.text == "[redacted:private-key][redacted:gitlab-token]"
    assert masked.findings[1] == Finding("gitlab-token", len(block), len(block) + len(token))


def test_the_kind_inside_a_mask_is_not_a_name() -> None:
    text = "[redacted:aws-secret-access-key]: not-a-secret"
    assert mask(text).text == text


@settings(max_examples=300)
@given(text=texts)
def test_skipping_the_rescan_around_isolated_masks_changes_nothing(text: str) -> None:
    fast = mask(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(masking, "_isolated", lambda text, finding: False)
        assert mask(text) == fast


def test_a_user_flag_before_a_mask_is_left_alone() -> None:
    assert mask("-u [redacted:private-key]").text == "-u [redacted:private-key]"


def test_masking_the_masked_corpus_changes_nothing() -> None:
    once = mask(CORPUS)
    assert mask(once.text) == Masked(once.text, ())


def test_offsets_survive_characters_whose_lower_case_is_longer() -> None:
    # "İ".lower() is two characters; the context rules must still point at the value.
    text = "İstanbul İİ DB_PASSWORD=hunter2x and AKIAIOSFODNN7EXAMPLE"
    masked = mask(text)
    assert [text[f.start : f.end] for f in masked.findings] == ["hunter2x", "AKIAIOSFODNN7EXAMPLE"]


HOSTILE = {
    "a base64 run": "A" * 200_000,
    "a mixed base64 run": "aB3+/xY9" * 25_000,
    "equals signs": "=" * 200_000,
    "dashes": "-" * 200_000,
    "private key headers": "-----BEGIN RSA PRIVATE KEY-----\n" * 6_000,
    "bare BEGINs": "-----BEGIN " * 20_000,
    "repeated assignments": "token=" * 30_000,
    "unclosed quoted values": 'password: "' * 20_000,
    "scheme separators": "://a:" * 40_000,
    "JWT-like segments": "eyJhbGciOiJIUzI1NiJ9." * 10_000,
    "sk- prefixes": "sk-" * 60_000,
    "AWS prefixes": "AKIA" * 50_000,
    "Slack prefixes": "xoxb-1" * 30_000,
    "Bearer words": "Bearer " * 30_000,
    "password flags": "--password " * 20_000,
    "escaped quotes": 'token = "' + '\\"' * 100_000,
    "user:password@ runs": "a:@" * 60_000,
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_input_completes(text: str) -> None:
    masked = mask(text)
    _assert_consistent(text, masked)


def test_a_private_key_header_on_a_base64_run_masks_to_the_end() -> None:
    text = "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 100_000
    assert mask(text).text == "[redacted:private-key]"


# kinds() and contains_mask() ----------------------------------------------------------


def test_every_kind_is_documented() -> None:
    guide = (ROOT / "docs" / "secrets.md").read_text(encoding="utf-8")
    for kind in kinds():
        assert f"| `{kind}` |" in guide, f"{kind} is missing from the table in docs/secrets.md"


def test_kinds_are_unique_lowercase_names() -> None:
    names = kinds()
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", kind) for kind in names)


@pytest.mark.parametrize("kind", kinds())
def test_contains_mask_sees_every_kind(kind: str) -> None:
    assert contains_mask(f"a quote with [redacted:{kind}] inside")


@pytest.mark.parametrize(
    "text", ["", "[redacted:]", "[redacted:jwt", "redacted:jwt]", "[REDACTED:JWT]", "[redacted]"]
)
def test_contains_mask_ignores_what_is_not_a_mask(text: str) -> None:
    assert not contains_mask(text)


def test_a_quote_overlapping_a_secret_holds_a_mask() -> None:
    masked = mask("we set DB_PASSWORD=swordfish for staging and moved on")
    assert masked.text == "we set DB_PASSWORD=[redacted:secret-assignment] for staging and moved on"
    assert contains_mask(masked.text[3:60])
    assert not contains_mask(masked.text[:18]) and not contains_mask(masked.text[50:])


# False positives a stress run found ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "date -u +%Y-%m-%dT%H:%M:%SZ",
        'STAMP=$(date -u +"%Y-%m-%dT%H:%M:%SZ")',
        "docker run -u 1000:1000 app",
    ],
)
def test_a_date_format_or_a_uid_pair_after_dash_u_is_not_a_password(text: str) -> None:
    assert mask(text).text == text


@pytest.mark.parametrize(
    "text",
    ["curl -u deploy:hunter2x https://x", "curl -u 'bob@example.com:hunter2x' https://x"],
)
def test_curl_dash_u_user_password_is_still_masked(text: str) -> None:
    assert "hunter2x" not in mask(text).text and "[redacted:secret-assignment]" in mask(text).text
