"""Checkable claims: the ones an item declares, validated, and the obvious ones its text
makes.

Pure: no git, no disk, no clock. A claim is only made when the text asserts it plainly;
detection reuses the heuristic extractor's reference reader (one reader, one set of
rules, documented in ``docs/heuristic.md``) and adds what world-check needs beyond it:
a branch said to be merged, and a file said to exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import pygit2

from gitmem.core.claims import references
from gitmem.core.patterns import lazy_pattern

CLAIM_TYPES = (
    "file-exists",
    "branch-exists",
    "branch-merged",
    "commit-exists",
    "pr-state",
    "issue-state",
)
# Fields each type takes: (required, optional). A claim with any other field is not
# checked: a newer writer may have given it a meaning (a file on another branch) that
# probing HEAD would get wrong.
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "file-exists": (frozenset({"path"}), frozenset()),
    "branch-exists": (frozenset({"branch"}), frozenset()),
    "branch-merged": (frozenset({"branch"}), frozenset({"into"})),
    "commit-exists": (frozenset({"sha"}), frozenset()),
    "pr-state": (frozenset({"number", "state"}), frozenset({"repo"})),
    "issue-state": (frozenset({"number", "state"}), frozenset({"repo"})),
}
_STATES = {"pr-state": ("open", "merged", "closed"), "issue-state": ("open", "closed")}
MAX_CLAIMS = 20
"""At most this many claims are kept per item (declared first)."""
_MAX_TEXT = 4000  # detection reads this much of an item's text
_SHA_RE = lazy_pattern(r"[0-9a-f]{7,40}")
# owner/name, or host/owner/name (gh and glab --repo); GitLab groups nest.
_REPO_RE = lazy_pattern(r"[\w.-]+(?:/[\w.-]+){1,6}")


@dataclass(frozen=True)
class Claim:
    """One checkable statement about the world, e.g. ``Claim("file-exists", {"path":
    "src/a.py"})``. Build claims with :func:`claims_of` (which validates them); the
    fields are copied into a read-only mapping."""

    type: str
    fields: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))

    @property
    def key(self) -> tuple[Any, ...]:
        """A hashable identity: the type and every field."""
        return (self.type, *sorted(self.fields.items()))

    def __hash__(self) -> int:
        return hash(self.key)

    def to_dict(self) -> dict[str, Any]:
        """The claim as items store it: ``{"type": …, **fields}``."""
        return {"type": self.type, **self.fields}


def claims_of(text: str, declared: object) -> tuple[Claim, ...]:
    """The claims of an item: its *declared* ``claims`` (a list of objects; malformed
    ones are ignored) and then those detected in *text* that no declared claim already
    makes about the same thing. Never raises."""
    found: list[Claim] = []
    if isinstance(declared, (list, tuple)):
        for entry in declared:
            claim = entry if isinstance(entry, Claim) else _from_dict(entry)
            claim = _valid(claim.type, claim.fields) if claim is not None else None
            if claim is not None and claim not in found:
                found.append(claim)
    subjects = {_subject(claim) for claim in found}
    if isinstance(text, str):
        for claim in _detect(text[:_MAX_TEXT]):
            if _subject(claim) not in subjects:
                subjects.add(_subject(claim))
                found.append(claim)
    return tuple(found[:MAX_CLAIMS])


def _from_dict(entry: object) -> Claim | None:
    if not isinstance(entry, Mapping):
        return None
    kind = entry.get("type")
    if not isinstance(kind, str):
        return None
    return Claim(kind, {k: v for k, v in entry.items() if k != "type"})


def _valid(kind: str, fields: Mapping[str, Any]) -> Claim | None:
    """The claim with its fields normalised, or None when it is malformed."""
    if kind not in _FIELDS:
        return None
    required, optional = _FIELDS[kind]
    if not required <= fields.keys() <= required | optional:
        return None
    out: dict[str, Any] = {}
    for name, value in fields.items():
        clean = _field(kind, name, value)
        if clean is None:
            return None
        out[name] = clean
    return Claim(kind, out)


def _field(kind: str, name: str, value: object) -> object | None:
    if name == "number":
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31
        return value if ok else None
    if not isinstance(value, str):
        return None
    if name == "path":
        return repo_path(value)
    if name in ("branch", "into"):
        branch = value.removeprefix("refs/heads/")
        return branch if valid_branch(branch) else None
    if name == "sha":
        sha = value.lower()
        return sha if _SHA_RE.fullmatch(sha) else None
    if name == "state":
        state = value.lower()
        return state if state in _STATES[kind] else None
    if name == "repo":
        return value if _REPO_RE.fullmatch(value) and ".." not in value else None
    return None


def repo_path(value: str) -> str | None:
    """*value* as a path inside the repository (``./`` and a trailing ``/`` dropped), or
    None when it cannot be one: absolute, home or variable paths, ``..``, ``.git``."""
    path = value.strip()
    while path.startswith("./"):
        path = path[2:]
    path = path.rstrip("/")
    parts = path.split("/")
    if not path or len(path) > 4096 or path.startswith(("~", "$")) or "\\" in path:
        return None
    if "\0" in path or any(part in ("", ".", "..") for part in parts) or parts[0] == ".git":
        return None
    return path


def valid_branch(name: str) -> bool:
    """A name git accepts under ``refs/heads/``."""
    if not name or len(name) > 255 or name == "HEAD" or name.startswith("-"):
        return False
    try:
        return bool(pygit2.reference_is_valid_name(f"refs/heads/{name}"))
    except (ValueError, TypeError):
        return False


def _subject(claim: Claim) -> tuple[Any, ...]:
    """What a claim is about: a detected claim about the same thing as a declared one
    (a PR's number, a path, a branch) is dropped, so the two cannot disagree."""
    first = {"pr-state": "number", "issue-state": "number", "file-exists": "path"}
    field = first.get(claim.type) or ("sha" if claim.type == "commit-exists" else "branch")
    return (claim.type, claim.fields[field])


# -- detection ---------------------------------------------------------------------

# Sentence ends: a stop before a capital or a code span, or a line break.
_SENTENCE_RE = lazy_pattern(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[*_]*[A-Z`])|\n+")
_MERGED_RE = lazy_pattern(r"\bmerged\b", re.IGNORECASE)
_NOT_MERGED_RE = lazy_pattern(
    r"(?:\b(?:not|never)|n['’]t)\s+(?:been\s+|yet\s+|fully\s+)?merged\b", re.IGNORECASE
)
_INTO_RE = lazy_pattern(r"\binto\s+(?:the\s+)?(?:`(?P<q>[^`\s]+)`|(?P<bare>[\w][\w./-]*))", re.I)
_BRANCH_WORD_RE = lazy_pattern(r"\bbranch(?:es)?\b", re.IGNORECASE)
_EXISTS_RE = lazy_pattern(
    r"(?:`(?P<q>[^`\s]+)`|(?<![\w/.:@~$-])(?P<bare>(?:[\w.-]+/)*[\w-][\w.-]*))"
    r"\s+(?:still\s+|now\s+|already\s+)?"
    r"(?:exists\b|is\s+(?:present|there|checked\s+in|committed|tracked|"
    r"in\s+(?:the\s+)?(?:repo|repository|tree)\b))",
    re.IGNORECASE,
)
# "make sure `a.py` exists", "if `a.py` is there": about a check, not a fact.
_UNSURE_RE = lazy_pattern(
    r"\b(?:if|unless|whether|once|until|when|make\s+sure|ensure|check|verify|should|"
    r"must|will|would|might|may|need\s+to|needs\s+to)\b|\?",
    re.IGNORECASE,
)
_KNOWN_EXTENSIONS = frozenset(
    (
        *("py", "pyi", "md", "rst", "txt", "json", "toml", "yaml", "yml", "cfg", "ini", "lock"),
        *("js", "mjs", "ts", "tsx", "jsx", "go", "rs", "c", "h", "cc", "cpp", "hpp", "java"),
        *("kt", "rb", "sql", "html", "css", "sh", "proto", "xml", "csv", "swift", "php"),
    )
)


def _detect(text: str) -> Iterator[Claim]:
    names_branch = bool(_BRANCH_WORD_RE.search(text))
    for sentence in _SENTENCE_RE.split(text):
        if not sentence.strip():
            continue
        raw, forge, _ = references(sentence)
        raw.extend(_existing_files(sentence))
        raw = _merged_branches(sentence, raw, forge)
        for entry in raw:
            # A file named with a branch may live on that branch, not in HEAD.
            if names_branch and entry.get("type") == "file-exists":
                continue
            claim = _from_dict(entry)
            claim = _valid(claim.type, claim.fields) if claim is not None else None
            if claim is not None:
                yield claim


def _merged_branches(sentence: str, raw: list[dict[str, Any]], forge: bool) -> list[Any]:
    """A branch said to be merged becomes a ``branch-merged`` claim (merged branches are
    often deleted, so its existence is no longer asserted); with a PR in the sentence, or
    two candidate branches, the branch claims are dropped."""
    if not _MERGED_RE.search(sentence) or _NOT_MERGED_RE.search(sentence):
        return raw
    branches = [e["branch"] for e in raw if e.get("type") == "branch-exists"]
    if not branches:
        return raw
    rest = [e for e in raw if e.get("type") != "branch-exists"]
    into_match = _INTO_RE.search(sentence)
    into = (
        (into_match.group("q") or into_match.group("bare")).rstrip(".,;:") if into_match else None
    )
    merged = [b for b in branches if b != into]
    if forge or len(merged) != 1:
        return rest
    claim: dict[str, Any] = {"type": "branch-merged", "branch": merged[0]}
    if into is not None and valid_branch(into):
        claim["into"] = into
    return [*rest, claim]


def _existing_files(sentence: str) -> Iterator[dict[str, Any]]:
    """Paths the sentence says exist ("`a.py` exists", "src/x.py is in the repo")."""
    if _UNSURE_RE.search(sentence):
        return
    for match in _EXISTS_RE.finditer(sentence):
        quoted = match.group("q")
        path = quoted or match.group("bare")
        if _plausible(path, quoted is not None):
            yield {"type": "file-exists", "path": path}


def _plausible(path: str, quoted: bool) -> bool:
    """A word is a path when it has a folder or an extension; unquoted, only a common
    source extension counts ("Node.js" is a name, `ruff` a program, not files)."""
    if "/" in path:
        return True
    stem, _, extension = path.rpartition(".")
    if not stem or not extension[:1].isalpha():
        return False
    if quoted:
        return True
    return extension.lower() in _KNOWN_EXTENSIONS and not (extension == "js" and stem[:1].isupper())
