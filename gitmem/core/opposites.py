"""What an item's text may not change in its quote besides negations and numbers.

A quote can verify while its item's text turns it around without a "not" or a new
number: "Disable the write cache" on "we decided to enable the write cache", "httpx made
the suite slower" on "…made the suite faster", "The timeout is 5 s" on "the timeout is
5 ms", "Use httpx instead of requests" on "we use requests instead of httpx", "The config
lives in settings.py" on "the config lives in config.py". Each function here says why the
text differs from its quote in one of those ways, or None (units, magnitudes and numbers
in words are :mod:`gitmem.core.measures`'). The text may still leave
words out, and may use its own words; it may not put the opposite word, another unit,
another name or the other order in the quote's place. A false alarm costs only the
item's wording: its quote, the transcript's own words, becomes its text
(:func:`gitmem.core.support.unsupported`). Pure, on folded text; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from gitmem.core.choices import chose_against
from gitmem.core.folding import bare
from gitmem.core.measures import one_end, other_change, other_number, other_unit
from gitmem.core.negation import NEGATION_RE, POSSIBILITY
from gitmem.core.numbers import NUMBER_RE
from gitmem.core.patterns import lazy_pattern

_PAIRS = (
    ("enable", "disable"),
    ("allow", "deny"),
    ("allow", "forbid"),
    ("allow", "block"),
    ("allow", "disallow"),
    ("add", "remove"),
    ("include", "exclude"),
    ("increase", "decrease"),
    ("increase", "reduce"),
    ("raise", "lower"),
    ("fast", "slow"),
    ("quick", "slow"),
    ("more", "less"),
    ("more", "fewer"),
    ("most", "least"),
    ("high", "low"),
    ("large", "small"),
    ("big", "small"),
    ("long", "short"),
    ("before", "after"),
    ("above", "below"),
    ("up", "down"),
    ("on", "off"),
    ("true", "false"),
    ("accept", "reject"),
    ("keep", "drop"),
    ("keep", "remove"),
    ("keep", "delete"),
    ("keep", "stop"),
    ("keep", "replace"),
    ("start", "stop"),
    ("continue", "stop"),
    ("open", "close"),
    ("opt-in", "opt-out"),
    ("public", "private"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("min", "max"),
    ("minimum", "maximum"),
    ("first", "last"),
    ("next", "last"),
    ("next", "previous"),
    ("upload", "download"),
    ("inbound", "outbound"),
    ("import", "export"),
    ("encrypt", "decrypt"),
    ("ascending", "descending"),
    ("pass", "fail"),
    ("succeed", "fail"),
    ("success", "failure"),
    ("valid", "invalid"),
    ("safe", "unsafe"),
    ("lock", "unlock"),
    ("install", "uninstall"),
    ("show", "hide"),
    ("create", "delete"),
    ("inside", "outside"),
    ("internal", "external"),
    ("required", "optional"),
    ("local", "remote"),
    ("better", "worse"),
    ("best", "worst"),
    ("good", "bad"),
    ("always", "sometimes"),
    ("always", "usually"),
    ("always", "often"),
    ("all", "some"),
    ("all", "most"),
    ("all", "few"),
    ("most", "some"),
    ("most", "few"),
    ("many", "few"),
    ("every", "some"),
    ("must", "may"),
    ("must", "might"),
    ("must", "can"),
    ("must", "could"),
    ("upper", "lower"),
    ("strict", "lenient"),
    ("strict", "loose"),
    ("win", "lose"),
    ("gain", "loss"),
    ("ahead", "behind"),
    ("new", "old"),
    ("newer", "older"),
    ("latest", "oldest"),
    ("stable", "unstable"),
    ("supported", "unsupported"),
    ("merge", "revert"),
    ("approve", "reject"),
    ("over", "under"),
    ("in", "out"),
    ("at least", "at most"),
)
"""Word pairs an item's text may not swap: either side, in any of its forms."""

_SUFFIXES = ("", "s", "es", "d", "ed", "ing", "r", "er", "est")
_PREFIXES = ("un", "dis", "non-", "non", "in", "im", "ir", "il")
"""A word with one of these before another word of at least 4 letters ("unsafe", "invalid",
"non-blocking") says the opposite of it."""

_WORD_RE = lazy_pattern(r"(?<![\w#./%µ-])[\w#./%µ-]*[\w%µ]")
_PIECE_RE = lazy_pattern(r"[^\W_]+")
# A name: a path of three parts or more, a file or a dotted identifier, a snake_case
# identifier, a flag ("a/b" alone reads as "a or b", and is left alone).
_NAME_RE = lazy_pattern(
    r"(?<![\w./~-])(?:--?[a-z][\w-]*"
    r"|(?:~?/)?(?:[^\Wa-z_]|-)*[a-z_][\w-]*(?:/[\w-]+)*(?:\.[\w-]+)+/?"
    r"|(?:~?/)?[\w-]+(?:/[\w-]+){2,}/?|(?=\w+_\w)\w++)(?![\w/-])"
)
"""A name: a flag, a path or file, or a snake_case identifier. Each part has one way to
match: a run of letters holding one of ``[a-z_]`` is read up to the first of them (not
split at each of its letters in turn), and an identifier is the whole run of word
characters once it holds an inner "_" (not each "_" in turn): a word of a few thousand
letters was read in time growing with its square."""
_ORDERED = ("instead of", "rather than", "in place of", "in favour of", "in favor of")
"""Phrases whose two sides an item's text may not swap ("requests instead of httpx")."""
_FILLER = frozenset(
    (
        *("a", "an", "the", "to", "of", "in", "on", "for", "with", "and", "or", "we", "i"),
        *("you", "it", "is", "are", "was", "be", "will", "would", "should", "let's", "lets"),
        *("use", "using", "keep", "go", "going"),
    )
)


def _forms(stem: str) -> set[str]:
    """*stem* and its inflections; a stem of two letters ("on", "up") only as written,
    one of three only with "s", "ed", "ing" ("add", "added"; not "all" as "ally")."""
    if len(stem) <= 2:
        return {stem}
    suffixes = _SUFFIXES if len(stem) > 3 else ("", "s", "ed", "ing")
    base = stem[:-1] if stem.endswith("e") else stem
    return {stem + suffix for suffix in suffixes} | {base + suffix for suffix in suffixes}


_OPPOSITE: dict[str, set[str]] = {}
for _a, _b in _PAIRS:
    for _word in _forms(_a):
        _OPPOSITE.setdefault(_word, set()).update(_forms(_b))
    for _word in _forms(_b):
        _OPPOSITE.setdefault(_word, set()).update(_forms(_a))


def _words(folded: str) -> set[str]:
    return set(_WORD_RE.findall(folded)) | set(_PIECE_RE.findall(folded))


def opposite_word(text: str, quote: str) -> str | None:
    """Why *text* (folded) says the opposite of *quote* (folded) by one word: it holds a
    word its quote lacks whose opposite (:data:`_PAIRS`, or the same word behind "un",
    "dis", "in", "non"…) the quote holds and the text does not; or it puts such an
    opposite beside a word the quote has it beside ("removed a 10-line default" for "added
    a 10-line default", where the quote says "removed" elsewhere too). Words are read
    whole and also cut at hyphens, dots and slashes ("force-added", "port.open"). Raises
    nothing."""
    mine, theirs = _words(text), _words(quote)
    for word in sorted(mine - theirs):
        said = sorted((_opposites(word) - mine) & theirs)
        if said:
            return f'the item\'s text says "{word}" where its quote says "{said[0]}"'
    ours, said_words = _PIECE_RE.findall(text), _PIECE_RE.findall(quote)
    pairs, held = set(pairwise(said_words)), set(said_words)
    for n, word in enumerate(ours):
        before = ours[n - 1] if n else None
        after = ours[n + 1] if n + 1 < len(ours) else None
        for opposite in sorted(_opposites(word) & held):
            if ((before, opposite) in pairs and (before, word) not in pairs) or (
                (opposite, after) in pairs and (word, after) not in pairs
            ):
                return f'the item\'s text says "{word}" where its quote says "{opposite}"'
    return None


def _opposites(word: str) -> set[str]:
    return _OPPOSITE.get(word, set()) | _unprefixed(word) | _prefixed(word)


def _unprefixed(word: str) -> set[str]:
    return {
        word[len(prefix) :]
        for prefix in _PREFIXES
        if word.startswith(prefix) and len(word) - len(prefix) >= 4
    }


def _prefixed(word: str) -> set[str]:
    return {prefix + word for prefix in _PREFIXES} if len(word) >= 4 else set()


def other_name(text: str, quote: str) -> str | None:
    """Why *text* (folded) names another thing in the place of one *quote* (folded)
    names: a path, a file, a dotted or snake_case identifier or a flag of the text that
    the quote lacks, where the quote has one of the same kind (the same file extension,
    folder or identifier part) that the text lacks: "settings.py" for "config.py",
    "retry_count" for "retry_limit". Which file or setting is a claim, like which number;
    a name the text adds beside the quote's (the subject it is about) is not changed.
    Raises nothing."""
    mine, theirs = _names(text), _names(quote)
    for name in sorted(mine - theirs):
        for other in sorted(theirs - mine):
            if _kind(name) & _kind(other) and not _same(name, other):
                return f'the item\'s text names "{name}" where its quote names "{other}"'
    return None


def _same(name: str, other: str) -> bool:
    """Is one name the other, written with more of its path ("assets/app.css", "app.css";
    "tmux.pane_exists", "pane_exists")?"""
    short, long = sorted((name, other), key=len)
    return long.endswith(("/" + short, "." + short))


def _names(folded: str) -> set[str]:
    names = set()
    for name in _NAME_RE.findall(folded):
        name = name.rstrip("./")
        if len(name) >= 4 and not NUMBER_RE.fullmatch(name) and re.search(r"[a-z]{2}", name):
            names.add(name)  # not "e.g", "i.e", "1.2"
    return names


def _kind(name: str) -> set[str]:
    """What a name shares with the names of the same kind: its extension, its folder,
    the parts of a snake_case or dotted identifier, the name of a flag."""
    folder, _, leaf = name.rpartition("/")
    kinds = {f"dir:{folder}"} if folder else set()
    stem, dot, extension = leaf.rpartition(".")
    if dot and stem and extension.isalpha():
        kinds.add(f"ext:{extension}")
    if dot:
        kinds.update(f"part:{part}" for part in leaf.split(".")[:-1] if len(part) >= 3)
    if "_" in leaf:
        kinds.update(f"part:{part}" for part in leaf.split("_") if len(part) >= 3)
    if name.startswith("-"):
        kinds.add("flag")
    return kinds


def swapped(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts the two sides of an ordered phrase of *quote* (folded)
    the other way round: "httpx instead of requests" where the quote says "requests
    instead of httpx". Raises nothing."""
    for phrase in _ORDERED:
        if phrase in text and phrase in quote:
            t_before, t_after = _sides(text, phrase)
            q_before, q_after = _sides(quote, phrase)
            if (t_after & q_before) - q_after and (t_before & q_after) - q_before:
                return f'the item\'s text puts the two sides of "{phrase}" the other way round'
    return None


_RELATION_RE = lazy_pattern(
    r"\b(?:than|caused|causes|causing|cause|triggers|triggered|breaks|broke|blocks|blocked"
    r"|beats|beat|outperforms|outperformed|depends\s+on|depended\s+on|calls|imports"
    r"|precedes|preceded|wraps|wrapped|extends|extended|inherits\s+from|overrides|overrode"
    r"|supersedes|superseded)\b"
)
"""A relation with a direction: "A is faster than B", "A caused B", "A depends on B"."""
_RELATION_CLAUSE_RE = lazy_pattern(
    r"[;:!?,()\n—–]|\.(?:\s|$)|\s-\s|\b(?:and|but|so|because|while|whereas)\b"
)
_SIDE_MINOR = _FILLER | {
    *("is", "are", "was", "were", "it", "this", "that", "our", "its", "their", "here"),
    *("there", "now", "much", "far", "way", "still", "even", "more", "less", "than", "by"),
    *("at", "uses", "used"),
}


def swapped_relation(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts the two sides of a relation with a direction of *quote*
    (folded) the other way round ("than", "caused", "breaks", "depends on", …): both say
    it, and a word of what stands after it in the text stands before it in the quote,
    and one before it in the text after it in the quote ("gRPC uses less memory than
    REST" on "REST uses less memory than gRPC"; "the cache fix caused the memory leak" on
    "the memory leak caused the cache bug"). A text that also turns the comparison word
    ("slower" for "faster") says the same; that is :func:`opposite_word`'s to read.
    Raises nothing."""
    said = _relations(quote)
    for relation, left, right, before in _relations(text):
        for other, q_left, q_right, q_before in said:
            turned = other == relation and (right & q_left) - q_right and (left & q_right) - q_left
            if turned and not any(_opposites(word) & q_before for word in before):
                return f'the item\'s text puts the two sides of "{relation}" the other way round'
    return None


def _relations(folded: str) -> list[tuple[str, set[str], set[str], set[str]]]:
    """Each relation of *folded*: its words, the content words of its clause before it,
    the first few after it, and every word before it in its clause."""
    found = []
    for match in _RELATION_RE.finditer(folded):
        before = _RELATION_CLAUSE_RE.split(folded[: match.start()])[-1]
        after = _RELATION_CLAUSE_RE.split(folded[match.end() :], maxsplit=1)[0]
        words = _WORD_RE.findall(before)
        left = {w for w in words if w not in _SIDE_MINOR}
        right = [w for w in _WORD_RE.findall(after) if w not in _SIDE_MINOR][:3]
        found.append((" ".join(match.group().split()), left, set(right), set(words)))
    return found


def _sides(folded: str, phrase: str) -> tuple[set[str], set[str]]:
    """The content words just before and just after the first *phrase* in *folded*."""
    before, _, after = folded.partition(phrase)
    left = [w for w in _WORD_RE.findall(before) if w not in _FILLER][-3:]
    right = [w for w in _WORD_RE.findall(after) if w not in _FILLER][:3]
    return set(left), set(right)


_CLASSES = (
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    (
        *("january", "february", "march", "april", "june", "july", "august"),
        *("september", "october", "november", "december"),
    ),
    ("<", ">", "<=", ">=", "==", "!="),
    ("production", "staging", "development", "sandbox", "preview", "canary"),
    ("hourly", "daily", "nightly", "weekly", "biweekly", "monthly", "quarterly", "yearly"),
    ("yesterday", "today", "tonight", "tomorrow"),
)
"""Closed classes whose members an item's text may not swap: a day, a month (not "may",
a word of its own), a comparison, a deployment environment, how often ("daily",
"weekly"), which day from now ("today", "tomorrow")."""
_SAME_MEMBER = {"prod": "production", "dev": "development", "annually": "yearly"}
"""Short names of a member, read as it."""
_COMPARISON_RE = lazy_pattern(r"[<>]=?|[!=]=")


def other_member(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts another member of a closed class (:data:`_CLASSES`: a
    weekday, a month, a comparison operator, an environment) in the place of the one
    *quote* (folded) holds: "Monday" for "Friday", "<=" for ">=", "production" (or
    "prod") for "staging". Raises nothing."""
    mine = {_SAME_MEMBER.get(w, w) for w in _words(text)} | set(_COMPARISON_RE.findall(text))
    theirs = {_SAME_MEMBER.get(w, w) for w in _words(quote)}
    theirs |= set(_COMPARISON_RE.findall(quote))
    for members in _CLASSES:
        added, said = (mine - theirs) & set(members), (theirs - mine) & set(members)
        if added and said:
            return f'the item\'s text says "{min(added)}" where its quote says "{min(said)}"'
    return None


_REVERSERS = (
    *("stop", "avoid", "drop", "remove", "deprecate", "disable", "abandon", "revert"),
    *("ban", "forbid", "skip", "ditch", "quit", "cease", "eliminate", "delete", "reject"),
    *("undo", "rollback", "retire", "replace", "exclude", "prohibit", "prevent", "block"),
    *("refuse", "decline", "neglect", "refrain", "forgo", "against", "lack", "omit"),
)
"""Verbs that turn away from what follows them ("stop using the exporter", "avoid global
state", "we dropped the cache", "we refuse to deploy", "the build is missing the docs",
"the import is unable to finish"): a text that states what follows plainly, with none of
them and no negation, reverses its quote. "fail" does too, before
"to" ("fails to speed up the build"); alone it names what broke ("tests fail on CI")."""
_FAIL_FORMS = frozenset(("fail", "fails", "failed", "failing"))
_REVERSER_FORMS = frozenset(form for verb in _REVERSERS for form in _forms(verb)) | {
    "dropped",
    "banned",
    "skipped",
    "ditched",
    "stopped",
    "stopping",
    "quitting",
    "omitted",
    "omitting",
    "missing",
    "unable",
}
_SCOPE = 3
_MINOR = frozenset(
    (
        *("a", "an", "the", "to", "be", "is", "are", "was", "were", "it", "this", "that"),
        *("of", "at", "in", "on", "for", "from", "with", "using", "use", "uses", "used"),
        *("we", "i", "you", "will", "would", "should", "can", "could", "must", "let's"),
        *("any", "all", "our", "its", "their", "doing", "having", "support", "supporting"),
    )
)


def reversed_by_verb(text: str, quote: str) -> str | None:
    """Why *text* (folded) states plainly what *quote* (folded) turns away from with a
    verb of :data:`_REVERSERS` ("Use the legacy exporter" on "we will stop using the
    legacy exporter"), or turns away from what the quote states plainly: one of the two
    holds such a verb governing a word the other holds (one of the next few content
    words), and the other holds no such verb and no negation. Raises nothing."""
    for one, other, says in ((quote, text, "quote"), (text, quote, "item's text")):
        # a verb governs words of its own clause ("if its file were missing; it only works")
        clauses = [_PIECE_RE.findall(clause) for clause in _CLAUSE_END_RE.split(one)]
        if not any(_reversers(pieces) for pieces in clauses) or NEGATION_RE.search(other):
            continue
        theirs = _PIECE_RE.findall(other)
        if _reversers(theirs):
            continue
        words = set(theirs) | {bare(word) for word in theirs}
        for pieces in clauses:
            for n in _reversers(pieces):
                if pieces[n + 1 : n + 2] == ["by"]:
                    continue  # "blocked by gqc.5" names the blocker, not what is turned away
                governed = [p for p in pieces[n + 1 :] if p not in _MINOR][:_SCOPE]
                if any(word in words or bare(word) in words for word in governed):
                    owner = "the quote" if says == "quote" else "the item's text"
                    plain = "the item's text" if says == "quote" else "its quote"
                    return f'{owner} says "{pieces[n]}" and {plain} states the rest plainly'
    return None


_CLAUSE_END_RE = lazy_pattern(r"[;!?\n]|\.(?:\s|$)")
"""The end of a clause (not the dot of "3.10" or "app.py", nor a comma)."""


def _reversers(pieces: list[str]) -> list[int]:
    """Where *pieces* hold a verb that turns away from what follows (:data:`_REVERSERS`)."""
    return [
        n
        for n, piece in enumerate(pieces)
        if piece in _REVERSER_FORMS or (piece in _FAIL_FORMS and pieces[n + 1 : n + 2] == ["to"])
    ]


_MODALS = frozenset(POSSIBILITY.split())
"""Words that make a statement a possibility ("we could drop the index"). Not "would" or
"may", which as often soften a plain statement ("I would replace X", "this may take a
while")."""
_HEDGED = _MODALS | {"may", "would", "possible", "probably", "likely", "option", "consider"}
"""Words by which a text keeps a possibility a possibility."""


def settled(text: str, quote: str) -> str | None:
    """Why *text* (folded) states as settled what *quote* (folded) only puts as a
    possibility: the quote holds a word of :data:`_MODALS`, the text none. Raises
    nothing."""
    said = [piece for piece in _PIECE_RE.findall(quote) if piece in _MODALS]
    if said and not _HEDGED & set(_PIECE_RE.findall(text)):
        return f'the quote says "{said[0]}" and the item\'s text states it as settled'
    return None


def changed(text: str, quote: str) -> str | None:
    """The first of :func:`~gitmem.core.measures.other_unit`,
    :func:`~gitmem.core.measures.other_number`,
    :func:`~gitmem.core.measures.other_change`, :func:`swapped`,
    :func:`~gitmem.core.choices.chose_against`, :func:`opposite_word`,
    :func:`other_member`, :func:`swapped_relation`,
    :func:`~gitmem.core.measures.one_end`, :func:`reversed_by_verb`, :func:`settled` and
    :func:`other_name` that holds for *text* and *quote* (both folded), else None. Raises
    nothing."""
    checks: tuple[Callable[[str, str], str | None], ...] = (
        *(other_unit, other_number, other_change, swapped, chose_against, opposite_word),
        *(other_member, swapped_relation, one_end, reversed_by_verb, settled, other_name),
    )
    for check in checks:
        reason = check(text, quote)
        if reason is not None:
            return reason
    return None
