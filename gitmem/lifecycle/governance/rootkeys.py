"""Canonical keys for evidence root ids: two spellings of one root get one key.

The counting rule dedups by these keys, so every spelling that could split one root
into two would forge a source. When in doubt the rules merge: a false merge costs a
source, a false split fabricates one. The forms, tried in this order:

1. ``sha:<40 hex>`` — any root id holding exactly one full 40-hex object id, wherever it
   stands: a bare sha, ``github:owner/repo@<sha>``, ``github:artifact:owner/repo@<sha>``,
   ``gitlab:…@<sha>``, a commit / blob / tree URL on any forge. The repository is
   deliberately not part of the key: the same commit in a fork or mirror is the same
   evidence. ``sha256:<64 hex>`` likewise for a full 64-hex id (git's SHA-256 object
   format, or a content digest).
2. ``None`` (does not qualify) — an empty id; two or more different full ids (a range);
   a hex-only id of any other length (an abbreviated sha, an MD5); ``sha:`` /
   ``sha256:`` with a malformed id; a forge reference not pinned to a full sha
   (``github:owner/repo@main``, ``github:owner/repo``, a ``/commit/abc1234`` or
   ``/tree/main`` URL); a URL that cannot be parsed or has no usable host (empty, spaces, control
   characters).
3. ``github:<owner>/<repo>#<n>`` — a GitHub issue or pull request (they share one
   number space), from ``github:owner/repo#n`` or an ``…/issues/n`` or ``…/pull/n[/…]``
   URL; owner and repo case-folded, ``.git`` dropped.
4. ``url:<host><path>`` — any other http(s) URL (a scheme-less ``host.tld/path`` too):
   scheme, user info, port, query and fragment dropped; host lower-cased without
   ``www.``; path percent-decoded, case-folded, repeated and trailing ``/`` and a
   trailing ``.git`` dropped.
5. ``id:<text>`` — anything else (``doc:…``, ``doi:…``, an instrument's run id),
   case-folded with runs of whitespace made one space.

Before any rule the id is NFKC-normalised and stripped of format characters (zero-width
spaces), so invisible or full-width variants cannot split a root. Every key is itself a
root id that maps to the same key.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote, unquote, urlsplit

from gitmem.core.patterns import lazy_pattern

_SHA1_RE = lazy_pattern(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])", re.IGNORECASE)
_SHA256_RE = lazy_pattern(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", re.IGNORECASE)
_HEX_RE = lazy_pattern(r"[0-9a-f]+", re.IGNORECASE)
_GITHUB_ISSUE_RE = lazy_pattern(r"github:([^/\s#@]+)/([^/\s#@]+)#(\d+)", re.IGNORECASE)
_SCHEMELESS_HOST_RE = lazy_pattern(r"[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(/|$)", re.IGNORECASE)
_FORGE_PREFIXES = ("github:", "gitlab:", "sha:", "sha256:")
_FORGE_HOSTS = frozenset(
    {"github.com", "gitlab.com", "codeberg.org", "bitbucket.org", "raw.githubusercontent.com"}
)
_PATH_SAFE = "/:@!$&'()*+,;=-._~"
_PIN_SEGMENTS = frozenset({"commit", "commits", "blob", "tree", "raw", "src", "compare"})


def canonical_root_id(root_id: str) -> str | None:
    """The canonical key of one root id, or None when it does not qualify as a root.

    See the module docstring for the forms. Never raises.
    """
    text = _clean(root_id)
    if not text:
        return None
    full = {m.lower() for m in _SHA1_RE.findall(text)}
    full256 = {m.lower() for m in _SHA256_RE.findall(text)}
    if len(full) + len(full256) > 1:
        return None
    if full:
        return f"sha:{full.pop()}"
    if full256:
        return f"sha256:{full256.pop()}"
    lowered = text.lower()
    if _HEX_RE.fullmatch(text):
        return None
    issue = _GITHUB_ISSUE_RE.fullmatch(text)
    if issue:
        return _issue_key(issue.group(1), issue.group(2), issue.group(3))
    if lowered.startswith(_FORGE_PREFIXES):
        return None
    if lowered.startswith(("http://", "https://")):
        return _url_key(text)
    if lowered.startswith("url:"):
        return _url_key("https://" + text[4:].lstrip("/"))
    if lowered.startswith("id:"):
        rest = _fold(text[3:])
        return f"id:{rest}" if rest else None
    if " " not in text and _SCHEMELESS_HOST_RE.match(text):
        return _url_key("https://" + text)
    return f"id:{_fold(text)}"


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip()


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _issue_key(owner: str, repo: str, number: str) -> str:
    repo = repo.casefold().removesuffix(".git")
    return f"github:{owner.casefold()}/{repo}#{int(number)}"


def _url_key(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    host = (host or "").removeprefix("www.")
    if not host or not all(c.isalnum() or c in ".-_:" for c in host):
        return None
    segments = [s for s in unquote(parts.path).casefold().split("/") if s]
    if segments:
        segments[-1] = segments[-1].removesuffix(".git")
        segments = [s for s in segments if s]
    if (
        host == "github.com"
        and len(segments) >= 4
        and segments[2] in ("issues", "pull")
        and segments[3].isdigit()
    ):
        return _issue_key(segments[0], segments[1], segments[3])
    if host in _FORGE_HOSTS and (
        host == "raw.githubusercontent.com" or _PIN_SEGMENTS.intersection(segments)
    ):
        # A forge view of repository state with no full sha names a moving or
        # abbreviated ref: it pins nothing.
        return None
    # Re-quoted so that a key read back as a root id maps to itself.
    path = quote("/".join(segments), safe=_PATH_SAFE)
    return f"url:{host}/{path}" if path else f"url:{host}"
