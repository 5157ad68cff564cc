"""References to the world in a sentence: a PR, merge request or issue and the state it
is said to be in, and a branch, file or commit said to exist. A claim is made only when
the sentence says so plainly: one about what will or should happen makes none."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

from gitmem.core.patterns import lazy_pattern


class WorldStatus(StrEnum):
    """What the world said about a claim when it was probed."""

    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"


_A = "['’]"  # an apostrophe, straight or curly

# References to the world. Group names: num, and repo (URL path or owner/name) when given.
_FORGE_RES = (
    (
        "url",
        lazy_pattern(
            r"https?://(?P<host>[\w.-]+(?::\d+)?)/(?P<path>[\w.-]+(?:/[\w.-]+)+?)(?:/-)?/"
            r"(?P<what>pulls?|merge_requests|issues)/(?P<num>\d+)\b"
        ),
    ),
    ("pr", lazy_pattern(r"\b(?:pull\s+request|PR)s?(?:\s*#\s*|\s+)(?P<num>\d+)\b", re.IGNORECASE)),
    ("pr", lazy_pattern(r"\b(?:merge\s+request|MR)s?(?:\s*[#!]\s*|\s+)(?P<num>\d+)\b", re.I)),
    ("issue", lazy_pattern(r"\b(?:issue|bug|ticket)s?(?:\s*#\s*|\s+)(?P<num>\d+)\b", re.I)),
    ("either", lazy_pattern(r"(?<![\w/.#])(?P<repo>[A-Za-z0-9][\w.-]*/[\w.-]+)#(?P<num>\d+)\b")),
    (
        "either",
        lazy_pattern(
            r"(?:\b(?:refs?|references?|see|fix(?:es|ed)?|close[sd]?|resolve[sd]?|part\s+of|"
            r"related\s+to|relates\s+to|in|via|from|per|addresses)\s*:?\s+|\()#(?P<num>\d+)\b",
            re.IGNORECASE,
        ),
    ),
)
# Every reference has a digit and one of these.
_FORGE_WORDS = ("#", "pr", "mr", "pull", "merge", "issue", "bug", "ticket", "://")
_DIGIT_RE = lazy_pattern(r"\d")
_MERGE_COMMIT_RE = lazy_pattern(r"Merge (?:pull request|PR) #\d+\b")
_HYPOTHETICAL_RE = lazy_pattern(
    rf"\b(?:once|after|if|unless|until|before|whether|when|will|would|should|could|can|must|"
    rf"need\s+to|needs\s+to|to\s+be|going\s+to|let{_A}?s|let\s+me|plan\s+to|want\s+to|wait\s+for)"
    r"\b|^\W*(?:create|make|open|cut|start|add|push)\b",
    re.IGNORECASE,
)
_NEGATED_RE = lazy_pattern(rf"(?:\b(?:not|never|no\s+longer)|n{_A}t)\s+(?:\w+\s+)?$", re.I)
_STATE_RES = (
    ("merged", lazy_pattern(r"\bmerged\b", re.IGNORECASE)),
    ("closed", lazy_pattern(r"\bclosed\b", re.IGNORECASE)),
    (
        "open",
        lazy_pattern(
            r"\b(?:opened|reopened|is\s+open|still\s+open|remains\s+open|stays\s+open|"
            r"awaiting\s+(?:review|approval)|waiting\s+(?:for|on)\s+(?:review|approval)|"
            r"review\s+requested|requested\s+(?:a\s+)?review|in\s+review|under\s+review|"
            r"ready\s+for\s+review|(?:is\s+a\s+|as\s+a\s+)?draft)\b",
            re.IGNORECASE,
        ),
    ),
)
_BRANCH_NAME = r"(?:`(?P<q>[^`\s]+)`|['\"](?P<qq>[^'\"\s]+)['\"]|(?P<bare>\w[\w./+-]*))"
_BRANCH_RES = (
    lazy_pattern(rf"\bbranch(?:es)?\s+(?:called\s+|named\s+)?{_BRANCH_NAME}", re.IGNORECASE),
    lazy_pattern(rf"(?<![\w./`'\"-]){_BRANCH_NAME}\s+branch\b", re.IGNORECASE),
)
_NAMEISH_RE = lazy_pattern(r"[/_.\d-]")
_COMMON_BRANCHES = frozenset(("main", "master", "develop", "trunk", "staging", "stable"))
_GONE_RE = lazy_pattern(
    rf"\b(?:deleted|removed|dropped|gone|doesn{_A}t\s+exist|does\s+not\s+exist|no\s+longer)\b",
    re.IGNORECASE,
)
_PATH_RE = lazy_pattern(
    r"`(?P<q>[^`\s]+)`|(?<![\w/.:@~-])(?P<bare>(?:\.{1,2}/)?(?:[\w.-]+/)+[\w.-]*"
    r"|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])"
)
_EXTENSIONS = frozenset(
    (
        *("py", "pyi", "md", "json", "toml", "yaml", "yml", "js", "mjs", "ts", "tsx", "jsx", "go"),
        *("rs", "txt", "cfg", "ini", "sh", "lock", "c", "h", "cc", "cpp", "hpp", "java", "kt"),
        *("rb", "sql", "html", "css", "scss", "svg", "png", "gz", "zip", "csv", "xml", "proto"),
        *("sig", "pub", "env", "mk", "swift", "php", "lua", "rst", "ipynb"),
    )
)
_PRODUCTS = frozenset(
    (
        *("next", "node", "vue", "nuxt", "react", "angular", "svelte", "solid", "preact"),
        *("express", "nest", "ember", "backbone", "knockout", "meteor", "alpine", "three"),
        *("chart", "d3", "p5", "moment", "day", "anime", "socket", "ext", "gatsby", "redwood"),
        *("blitz", "remix", "astro", "vite", "babel", "require", "phaser", "pixi", "leaflet"),
    )
)
"""Projects named "<Name>.js" ("built with Next.js"): written bare, such a name is the
project, not a file; in backticks or with a folder it is a path."""
_TOP_FOLDERS = frozenset(
    (
        *("src", "lib", "test", "tests", "spec", "docs", "doc", "app", "apps", "pkg", "cmd"),
        *("internal", "scripts", "bin", "assets", "priv", "config", "packages", "crates"),
        *("benchmarks", "tools", "examples", "web", "public", "static", "include", "programs"),
        *("sdk", "data", "migrations", "templates", "components", "gitmem", ".github"),
    )
)
_FILE_VERBS = ("created", "added", "wrote", "written", "introduced", "moved", "renamed", "copied")
# "created `a.py`", "added a test to tests/x.py"; "a.py was added".
_MADE_RE = lazy_pattern(rf"\b(?:{'|'.join(_FILE_VERBS)})\b", re.IGNORECASE)
# Between the verb and the path: a new clause means the path is not what was made.
_CLAUSE_RE = lazy_pattern(
    r"[;:.!?]|,(?!\s*(?:,|and\b|or\b|$))|\b(?:then|but|which|while|so|because|where|when)\b",
    re.IGNORECASE,
)
_MADE_AFTER_RE = lazy_pattern(
    rf"\s+(?:(?:was|were|is|are|has|have|got)\s+)?(?:been\s+|now\s+)?(?:{'|'.join(_FILE_VERBS)})\b",
    re.IGNORECASE,
)
_MOVE_RE = lazy_pattern(r"\b(?:moved|renamed|copied)\b", re.IGNORECASE)
_DESTINATION_RE = lazy_pattern(r"\s(?:to|into|as)\s|→|->", re.IGNORECASE)
_COMMIT_RE = lazy_pattern(
    r"\bcommit(?:s|ted)?(?:\s+(?:it\s+)?as)?\s*[:(]?\s*`?(?P<sha>[0-9a-f]{7,40})\b", re.IGNORECASE
)


def references(quote: str) -> tuple[list[dict[str, Any]], bool, str | None]:
    """(claims, names a PR or issue, the state the sentence says its PRs or issues are in)."""
    refs = _forge_refs(quote)
    low = quote.lower()
    claims: list[dict[str, Any]] = []
    state = _state(quote) if refs else None
    for number, (kind, repo) in refs.items():
        # With two references, which one the state belongs to is a guess: no claim.
        if state is None or len(refs) > 1 or (kind == "either" and state != "merged"):
            continue
        claim: dict[str, Any] = {
            "type": "issue-state" if kind == "issue" else "pr-state",
            "number": number,
            "state": state,
        }
        if repo is not None:
            claim["repo"] = repo
        claims.append(claim)
    claims.extend(_world_claims(quote, low))
    return claims, bool(refs), state


def forge_numbers(quote: str, project: str | None = None) -> frozenset[int]:
    """The numbers of the PRs, merge requests and issues *quote* names (outside code).
    With *project* (``owner/name`` or ``host/owner/name``, :func:`project_of`), only its
    own: a bare "#12" or "PR #12", or a link or ``owner/name#12`` that names it, not one of
    another repository ("https://github.com/other/tool/issues/12"). Raises nothing."""
    return frozenset(_forge_refs(quote, project))


def project_of(url: str | None) -> str | None:
    """The repository a git remote's URL names, as a reference names one: ``owner/name``
    on github.com, ``host/owner/name`` elsewhere (``git@gitlab.com:group/app.git`` →
    ``gitlab.com/group/app``); None for a local path or anything else. Raises nothing."""
    url = (url or "").strip()
    match = _URL_REMOTE_RE.fullmatch(url) or _SCP_REMOTE_RE.fullmatch(url)
    if match is None:
        return None
    host, path = match.group("host"), match.group("path").removesuffix(".git")
    return path if host.lower() in ("github.com", "www.github.com") else f"{host}/{path}"


def same_repository(named: str, project: str) -> bool:
    """Does a reference's repository *named* name *project* (both as :func:`project_of`
    spells them)? The host is left aside when only one of them gives it (``owner/name``
    and ``github.example.com/owner/name``; an ssh alias ``work:owner/name``); case is
    folded. Raises nothing."""
    mine = [part.casefold() for part in named.split("/") if part]
    theirs = [part.casefold() for part in project.split("/") if part]
    shorter, longer = sorted((mine, theirs), key=len)
    return len(shorter) >= 2 and longer[len(longer) - len(shorter) :] == shorter


_URL_REMOTE_RE = lazy_pattern(
    r"(?:https?|ssh|git)://(?:[^@/\s]+@)?(?P<host>[\w.-]+)(?::\d*)?/"
    r"(?P<path>[\w.-]+(?:/[\w.-]+)+?)/?"
)
# scp-like syntax, git@github.com:owner/name.git; a path never starts the host part.
_SCP_REMOTE_RE = lazy_pattern(
    r"(?:[^@/:\s]+@)?(?P<host>[\w-][\w.-]*):(?P<path>[\w.-]+(?:/[\w.-]+)+?)/?"
)


def _forge_refs(quote: str, project: str | None = None) -> dict[int, tuple[str, str | None]]:
    """Each PR or issue *quote* names, by number: (pr, issue or either; its repository
    when the reference says it); with *project*, only its own and those naming none."""
    refs: dict[int, tuple[str, str | None]] = {}
    low = quote.lower()
    forge_gate = _DIGIT_RE.search(low) and any(word in low for word in _FORGE_WORDS)
    for kind, pattern in _FORGE_RES if forge_gate else ():
        for match in pattern.finditer(quote):
            if in_code(quote, match.start()):
                continue
            number = int(match.group("num"))
            repo = _repo(match) if "repo" in match.re.groupindex or kind == "url" else None
            what = kind
            if kind == "url":  # each link says its own kind (kind stays "url" for the next)
                what = "issue" if match.group("what") == "issues" else "pr"
            known = refs.get(number)
            if known is None or (known[1] is None and repo is not None):
                refs[number] = (what, repo)
    if project is not None:
        refs = {n: r for n, r in refs.items() if r[1] is None or same_repository(r[1], project)}
    return refs


def _repo(match: re.Match[str]) -> str:
    if "host" not in match.re.groupindex:
        return match.group("repo")
    host, path = match.group("host"), match.group("path")
    # gh and glab take --repo as OWNER/REPO on github.com, HOST/OWNER/REPO elsewhere.
    return path if host.lower() in ("github.com", "www.github.com") else f"{host}/{path}"


def _state(quote: str) -> str | None:
    if _MERGE_COMMIT_RE.match(quote):
        return "merged"
    if _HYPOTHETICAL_RE.search(quote):
        return None
    for state, pattern in _STATE_RES:
        for match in pattern.finditer(quote):
            if not _NEGATED_RE.search(quote, 0, match.start()):
                return state
    return None


def _world_claims(quote: str, low: str) -> list[dict[str, Any]]:
    """branch-exists, file-exists and commit-exists claims the sentence makes (*low* is
    the quote in lowercase). A branch or file said to be gone, or named in a sentence
    about what will or should happen, makes no claim."""
    claims: list[dict[str, Any]] = []
    if "branch" in low:
        claims.extend(_branch_claims(quote))
    # A path has a slash, backticks or a dot inside the sentence ("notes.md").
    if ("/" in low or "`" in low or "." in low.rstrip(".")) and any(
        verb in low for verb in _FILE_VERBS
    ):
        claims.extend(_file_claims(quote))
    if claims and (_HYPOTHETICAL_RE.search(quote) or _GONE_RE.search(quote)):
        claims = []
    for match in _COMMIT_RE.finditer(quote) if "commit" in low else ():
        sha = match.group("sha").lower()
        claim = {"type": "commit-exists", "sha": sha}
        digits = any(c.isdigit() for c in sha)
        if digits and claim not in claims and not in_code(quote, match.start()):
            claims.append(claim)
    return claims


def _branch_claims(quote: str) -> Iterator[dict[str, Any]]:
    for pattern in _BRANCH_RES:
        for match in pattern.finditer(quote):
            name = match.group("q") or match.group("qq")
            bare = (match.group("bare") or "").rstrip(".,;:!?)")
            if name is None and (bare.lower() in _COMMON_BRANCHES or _NAMEISH_RE.search(bare)):
                name = bare
            if name and _valid_branch(name) and not in_code(quote, match.start()):
                yield {"type": "branch-exists", "branch": name}


def _file_claims(quote: str) -> Iterator[dict[str, Any]]:
    """Paths the sentence says were created, added or written (a few words after the verb,
    in the same clause, or before "was added"), or moved, renamed or copied to."""
    low = quote.lower()
    moved = "moved" in low or "renamed" in low or "copied" in low
    move = _MOVE_RE.search(quote) if moved else None
    destination = _DESTINATION_RE.search(quote, move.end()) if move else None
    verbs = [verb.end() for verb in _MADE_RE.finditer(quote)]
    seen: set[str] = set()
    for match in _PATH_RE.finditer(quote):
        path = (match.group("q") or match.group("bare")).rstrip(".,;:")
        if path in seen or not _looks_like_path(path) or _product(match.group("bare")):
            continue
        if move is not None:
            # Only the destination of a move exists afterwards.
            named = destination is not None and match.start() >= destination.end()
        else:
            at = bisect.bisect_right(verbs, match.start()) - 1
            between = quote[verbs[at] : match.start()] if at >= 0 else ""
            named = at >= 0 and len(between.split()) <= 6
            named = named and not _CLAUSE_RE.search(_PATH_RE.sub(" ", between))
            named = named or _MADE_AFTER_RE.match(quote, match.end()) is not None
        if named:
            seen.add(path)
            yield {"type": "file-exists", "path": path}


def _product(bare: str | None) -> bool:
    """Is the bare word *bare* a project's name such as "Next.js" rather than a file?"""
    if bare is None or "/" in bare:
        return False
    stem, dot, extension = bare.rstrip(".,;:").rpartition(".")
    return dot == "." and extension.lower() == "js" and stem.lower() in _PRODUCTS


def _valid_branch(name: str) -> bool:
    """A plausible git branch name (git check-ref-format, roughly)."""
    return (
        0 < len(name) <= 200
        and not name.startswith(("-", ".", "/"))
        and not name.endswith(("/", ".", ".lock"))
        and ".." not in name
        and "//" not in name
        and "@{" not in name
        and "://" not in name
        and not any(c in name for c in "~^:?*[\\")
        and not name.isdigit()
        and name != "HEAD"
    )


def _looks_like_path(path: str) -> bool:
    """A path in the repository: relative, with a known extension, or a folder: one that
    ends in "/", has three or more parts, or starts at a usual top folder (``src/agents``).
    Not an absolute, home, variable or .git path (they say nothing about the commit checked
    out), nor a function and its arity (``render/2``) or a pair of words
    (``tool_use/tool_result``)."""
    if "://" in path or path.startswith(("-", "@", "/", "~", ".git/")) or "$" in path:
        return False
    if "(" in path or "::" in path:
        return False
    parts = path.strip("/").split("/")
    name = parts[-1]
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension in _EXTENSIONS:
        return True
    if "/" not in path or not name or path.strip("./") == "" or name.isdigit():
        return False
    return path.endswith("/") or len(parts) >= 3 or parts[0].lower() in _TOP_FOLDERS


def in_code(sentence: str, pos: int) -> bool:
    """Is *pos* inside inline code (after an odd number of backticks)?"""
    return sentence.count("`", 0, pos) % 2 == 1


# State that can change outside a session: PRs, branches, files, keys, deploys.
_EXTERNAL_STATE = lazy_pattern(
    r"\b(?:PR|MR|pull request|merge request|issue)\s*#?\d+|#\d+\b|\bbranch(?:es)?\b|"
    r"\bmerged?\b|\bdeploy\w*|\brelease[sd]?\b|\b(?:api |ssh |signing )?keys?\b|\brotat\w+|"
    r"\bCI\b|\bpipeline\b|\bstaging\b|\bproduction\b|\bprod\b|"
    r"\w\.(?:py|js|ts|go|rs|md|json|toml|ya?ml|cfg|ini|sh)\b",
    re.IGNORECASE,
)


def mentions_external_state(text: str) -> bool:
    """Does *text* speak of state that can change outside a session (a PR, a branch, a
    file, a key, a deploy, CI)? Such an item belongs under VERIFY BEFORE TRUSTING even
    when it makes no checkable claim. Raises nothing."""
    return _EXTERNAL_STATE.search(text) is not None


def named_paths(text: str) -> list[str]:
    """Every repository path *text* names, in backticks or bare (``src/a.py``,
    ``notes.md``, ``gitmem/store/``), in order, once each — whatever the sentence says
    about it. Raises nothing."""
    found: dict[str, None] = {}
    for match in _PATH_RE.finditer(text):
        path = (match.group("q") or match.group("bare")).rstrip(".,;:")
        if _looks_like_path(path) and not _product(match.group("bare")):
            found.setdefault(path.removeprefix("./"), None)
    return list(found)
