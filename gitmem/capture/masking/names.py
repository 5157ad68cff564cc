"""Which names say a value is secret, and which values are never secret.

The vocabulary of the context rules, apart from how they read text: ``DB_PASSWORD`` and
``api_key`` name secrets, ``sort_key`` and ``token_url`` do not; ``null``, ``<your-key>``
and ``${TOKEN}`` are never secrets, whatever their name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gitmem.capture.masking.redacted import MASK_RE


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_STRONG_WORDS = _set(
    "secret token password passwd passphrase apikey credential credentials auth "
    "authorization privatekey secretkey accesskey authkey authtoken accesstoken"
)
"""A name holding one of these words names a secret: ``DB_PASSWORD``, ``clientSecret``."""

_LAST_WORDS = _set("key pass pwd")
"""These name a secret only as the last word, after a qualifier: ``api_key``, ``db_pass``.
Alone, or after most other words (``sort_key``, ``output_key``), they are ordinary code."""

_SECRET_QUALIFIERS = _set(
    "api secret private priv access signing sign encryption encrypt master client app "
    "application auth license licence ssh deploy session webhook consumer shared hmac jwt "
    "service account storage subscription db database admin root gpg pgp wallet vault kms "
    "aes cipher token smtp mail ftp redis mysql postgres pg"
)
"""Qualifiers that make ``key``, ``pass``, ``pwd`` secret. An all-capital name
(``STRIPE_KEY``, an environment variable) needs only a qualifier that is not in
``_NOT_SECRET_QUALIFIERS["key"]`` (``SORT_KEY``)."""

_NOT_SECRET_QUALIFIERS = {
    "key": _set(
        "sort primary foreign cache partition lookup object dict hash map idempotency public "
        "pub routing row range unique composite index group order search hot shortcut "
        "translation i18n label field column table record item node entry shard sharding "
        "dedup dedupe natural surrogate cluster clustering compound candidate alternate lock "
        "s3 bucket default config setting settings state context local global cursor "
        "secondary first last next prev previous child parent react"
    ),
    "token": _set(
        "next page pagination continuation cancellation cancel sync eos bos pad unk sep cls "
        "mask start end special max min num input output prompt completion total stop "
        "image audio"
    ),
}
"""``sort_key`` and ``page_token`` are not secrets."""

_NOT_SECRET_SUFFIXES = _set(
    "id ids name names url uri urls endpoint path file filename files dir type kind length len "
    "count size ttl timeout expiry expires expiration exp header env var field prefix arn "
    "version policy rotation limit max min enabled required provider method mode host port "
    "user username email label description format scope scopes fingerprint algorithm alg "
    "location manager rule rules param params store sock socket hint range error errors "
    "exception doc docs help message msg text title note comment example schema status state "
    "context scheme backend handler middleware plugin module class factory strategy flow "
    "callback helper mock test tests hdr"
)
"""``token_url`` or ``password_file`` names something about a secret, not the secret."""

SCHEMES = _set("bearer basic token bot digest negotiate ntlm apikey")
"""Authorization schemes: after ``Authorization:`` the credential is the next word."""

_NOT_SECRET_VALUES = (
    _set(
        "null none nil undefined true false yes no on off enabled disabled lambda self this "
        "redacted required optional str string bytes bytearray int bool boolean number any "
        "unknown object secretstr secretbytes dict list env | > |- >- |+ >+"
    )
    | SCHEMES
)
"""Literal keywords, type names, YAML block indicators and authorization schemes."""


_WORDS_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", re.ASCII)
_NAME_LIKE_RE = re.compile(r"[A-Za-z][A-Za-z_.-]*", re.ASCII)
_PLACEHOLDER_RE = re.compile(
    r"<[^<>]*>|\{.*\}|\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|([*xX.#•_-])\1*|…",
    re.ASCII | re.DOTALL,
)
# A format string fills the secret in later: "Bearer %s", "%(password)s", f"{token}".
_TEMPLATE_RE = re.compile(r"%[sdr]|%\(\w+\)[sdr]|\{[\w.]*\}", re.ASCII)


@lru_cache(maxsize=4096)
def names_secret(name: str) -> bool:
    """Whether *name* (``DB_PASSWORD``, ``clientSecret``, ``api_key``) names a secret."""
    words = name_words(name)
    if not words or words[-1] in _NOT_SECRET_SUFFIXES:
        return False
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        if word in _STRONG_WORDS and before not in _NOT_SECRET_QUALIFIERS.get(word, ()):
            return True
    if len(words) < 2 or words[-1] not in _LAST_WORDS:
        return False
    qualifier = words[-2]
    return qualifier in _SECRET_QUALIFIERS or (
        name.isupper() and qualifier not in _NOT_SECRET_QUALIFIERS["key"]
    )


def name_words(name: str) -> list[str]:
    """The lower-case words of *name*, in any case style, without numbers."""
    return [w.lower() for w in _WORDS_RE.findall(name) if not w.isdigit()]


def not_secret(value: str) -> bool:
    """Empty, a literal keyword, a placeholder, a reference, a template, or a mask."""
    value = value.strip()
    return (
        not value
        or value.lower() in _NOT_SECRET_VALUES
        or _PLACEHOLDER_RE.fullmatch(value) is not None
        or MASK_RE.fullmatch(value) is not None
        or _TEMPLATE_RE.search(value) is not None
    )


def not_named_secret(value: str, name: str) -> bool:
    """Also too short to matter, the name's own words (UNTRUSTED_KEY = "untrusted key"),
    or itself the name of a secret (token_type_hint="access_token")."""
    return (
        not_secret(value)
        or len(value.strip()) < 3
        or name_words(value) == name_words(name)
        or (_NAME_LIKE_RE.fullmatch(value) is not None and names_secret(value))
    )
