"""What a later statement of a session turns away from: the sentences rules 3 and 4 of
:mod:`gitmem.capture.extract.lastword` read (a reversal, a replacement, a rejection).

A sentence **turns away** from a thing when it says so in one of these forms, in English
first and in the other languages the heuristic reads where a phrase is enough:

- it names the thing after a verb or phrase of turning away: "instead of", "rather than",
  "switch from", "drop", "revert", "remove", "get rid of", "don't use", "forget",
  "ditch", "scrap", "abandon", "postpone", "defer", "hold off on" ("en lugar de", "statt",
  "au lieu de", "no uses", "olvida"…), or before a phrase that puts it off ("OAuth can
  come later", "the cache can wait");
- it says the opposite of what a decision did to the same thing (:data:`_OPPOSITES`):
  "keep the CSV export" after "remove the legacy CSV export", "stick with webpack" after
  "migrate the build from webpack to Vite", "disable" after "enable", "unpin" after
  "pin", "remove" after "add"; or it negates the decision's own verb on the same thing
  ("don't drop 3.8 yet" after "drop Python 3.8 support", "we're not going to support 3.8"
  after "support 3.8"). What it says it of (its object, up to a preposition or the end of
  its clause) must be words the decision says of what it changes;
- it **replaces** what was said before without naming it (:data:`REPLACES`): "instead",
  "scratch that", "after all", "I changed my mind", "on reflection", "new plan:", "go
  back to", "revert to what we had", "switch the retries to…", "Actually, …"
  ("stattdessen", "en su lugar", "à la place", "invece"…).

None of it holds in a sentence that asks ("should we drop Redis?"), that is conditional
("once the app is updated, remove the v1 endpoint", "if we ever drop Redis…"), that
reports what someone else says ("the docs say to drop Redis", "the linter suggests
replacing requests"), or where the turning away is itself negated ("don't remove Redis",
"no need to drop it").

A user's message **rejects** the reply before it when it begins "No", "Nope", "Don't do
that" (not "no problem", not "No, that's fine, go ahead"), or says no to a thing ("no
Redis", "no to the Redis cache", "The Prometheus exporter, no").

Pure; raises nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitmem.capture.extract.reports import SENTENCES
from gitmem.core.negation import NEGATION_RE
from gitmem.lifecycle.sameclaim import content_words

_TURNS_AWAY = re.compile(
    r"(?:\b(?:instead of|rather than|no longer use|switch(?:ed|ing)? (?:away )?from|"
    r"replac(?:e|ed|ing)|drop(?:ped|ping)?|moving off|migrat(?:e|ed|ing) (?:away )?from|"
    r"revert(?:ed|ing)?|roll(?:ed)? back|undo|remov(?:e|ed|ing)|get rid of|stop using|"
    r"(?:don't|do not|let's not|never) use|forget(?: about)?|ditch(?:ed)?|scrap(?:ped)?|"
    r"abandon(?:ed)?|kill(?:ed)?|scratch|postpon(?:e|ed|ing)|defer(?:red|ring)?|"
    r"hold(?:ing)? off on|put(?:ting)? off|shelv(?:e|ed)|"
    r"en lugar de|en vez de|no uses|no usar|deja de usar|olvida|anstatt|statt|anstelle von|"
    r"verzichte auf|au lieu de|plutôt que|n'utilise pas|oublie|em vez de|não use|não usar|"
    r"invece di|anziché|non usare)"
    r"|,\s*not)\s+(?:the\s+|an?\s+|using\s+|el\s+|la\s+|le\s+|die\s+|der\s+|das\s+|il\s+)?"
    r"([\w./#@-]+)"
)
_PUT_AWAY = re.compile(
    r"([\w./#@-]+)\s+(?:(?:can|could|will|should|may)\s+(?:wait|come later|be done later|"
    r"come afterwards|follow later)|(?:is|are|was|seems)\s+(?:overkill|unnecessary|not needed|"
    r"out|off the table|a bad idea|too (?:heavy|slow|much|complex|big)))\b"
)
"""A thing put off or ruled out after it is named: "OAuth can come later", "Tailwind is
overkill", "Vercel is out"."""
REPLACES = re.compile(
    r"\binstead\b(?!\s+of\b)|\bscratch that\b|\bon second thoughts?\b|\bnever ?mind\b|"
    r"\bchange of plans?\b|\bafter all\b|\bchanged? my mind\b|\bon (?:further )?reflection\b|"
    r"\b(?:scrap|ditch|forget|ignore) (?:that|this|what i said)\b|"
    r"\bthinking about it (?:more|again)\b|\bnew plan\b|\bplan (?:has )?changed\b|"
    r"\bgo(?:ing)? back to\b|\b(?:revert|roll)\b.*\b(?:to|back) (?:what|how) (?:we|it) "
    r"(?:had|was)\b|\bback to (?:the )?(?:old|original|previous)\b|"
    r"(?:^|[,;:]\s*)\W*(?:let's |please |now |just )?(?:switch|change|rename|move)\b"
    r"(?!\s+(?:from|back)\b).*\bto\b|\bwe(?:'re| are)? (?:switching|moving|changing)\b.*\bto\b|"
    r"\bstattdessen\b|\bplanänderung\b|\bneuer plan\b|\ben su lugar\b|\bcambio de planes?\b|"
    r"\bnuevo plan\b|\bà la place\b|\bchangement de plan\b|\bnouveau plan\b|"
    r"\bem vez disso\b|\bmudança de planos?\b|\bnovo plano\b|\binvece\b(?!\s+di\b)|"
    r"\bcambio di piano\b|\bnuovo piano\b"
)
"""A statement that replaces what was said before without naming it (:func:`replaces`)."""
_REPLACES_AT_EDGE = re.compile(r"^\W*(?:[\w.-]+ it is\b|actually\b)|\bactually\W*$")
"""The same, said at a sentence's start or end: "Postgres it is", "Actually, …", "… actually"."""
_REPLACING_WORDS = frozenset(
    """instead scratch second mind nevermind plan plans after reflection scrap ditch forget
    ignore thinking back revert roll switch change rename move switching moving changing
    stattdessen planänderung lugar planes place disso planos plano invece piano""".split()  # noqa: SIM905
)
"""A word one of which every sentence :data:`REPLACES` matches holds: a sentence without
one is not searched (a session's user messages can be megabytes)."""
_LETTERS = re.compile(r"[^\W\d_]+")
CHOOSING = frozenset(
    """instead actually scratch second thought thoughts never mind nevermind change plan
    plans use using keep go going try pick choose switch after all changed my reflection
    new back""".split()  # noqa: SIM905 - a word list reads best as text
)
"""Words of a decision or a replacement that say that it chooses, not what about."""
_NOT_NOW = re.compile(
    r"(?:^|[,;:]\s*)(?:once|when|whenever|if|unless|until|as soon as|in case)\b|"
    r"\b(?:if|once|unless|until) (?:we|you|it|they|that)\b"
)
"""A sentence that says what to do on a condition, not now."""
_REPORTED = re.compile(
    r"(?<!\bi )(?<!\bwe )\b(?:says?|said|suggests?|suggested|recommends?|recommended|"
    r"proposes?|proposed|advises?|advised|claims?|claimed|mentions?|mentioned|wants?|wanted|"
    r"according to)\b[^,;:]*$"
)
"""What before a turning away says that someone else says it ("the docs say to drop
Redis", "the linter suggests replacing requests"), not the user."""
_NEGATED_BEFORE = re.compile(
    r"\b(?:don't|do not|doesn't|does not|won't|will not|never|not|no need to|without|"
    r"shouldn't|should not|mustn't|must not|can't|cannot)\s+(?:\w+\s+)?$"
)
"""What before a verb of turning away negates it: "don't remove Redis"."""
_NEGATES = re.compile(
    r"\b(?:don't|do not|won't|will not|not going to|no need to|shouldn't|should not|"
    r"never|stop)\s+(?:be\s+)?([a-z][\w-]+)"
)
"""A verb a sentence negates ("don't drop 3.8", "we're not going to support 3.8")."""
_KEEP = r"keep|keeping|kept|stick(?:ing)? with|stay(?:ing)? (?:with|on)|retain|preserve|leave"
_RESTORE = r"bring back|restore|reinstate|put back|re-add|re-enable|undo the removal of"
_CHANGE = (
    "remove drop delete replace split rewrite migrate switch move rename deprecate change convert"
)
_OPPOSITES = (
    (_KEEP, _CHANGE, True),
    (_RESTORE, _CHANGE, True),
    ("disable|disabled|disabling", "enable", False),
    ("enable|enabled|enabling", "disable", False),
    ("unpin|unpinned|unpinning", "pin", False),
    ("remove|removed|removing|delete|deleted|deleting", "add", False),
    ("exclude|excluded|excluding", "include", False),
    ("include|included|including", "exclude", False),
    ("block|blocked|deny|denied|forbid|disallow|disallowed", "allow", False),
    ("hide|hidden|hiding", "show", False),
    ("unlock|unlocked|unlocking", "lock", False),
)
"""Per pair, what a sentence says (a pattern) and the verbs it opposes in a decision, and
whether what it says of must be what the decision changes, not what it changes it into
("keep webpack" after "migrate from webpack to Vite"; not "keep Vite")."""
_OPPOSING_WORDS = frozenset(
    """keep keeping kept stick sticking stay staying retain preserve leave bring restore
    reinstate put re undo disable disabled disabling enable enabled enabling unpin unpinned
    unpinning remove removed removing delete deleted deleting exclude excluded excluding
    include included including block blocked deny denied forbid disallow disallowed hide
    hidden hiding unlock unlocked unlocking""".split()  # noqa: SIM905 - a word list reads best as text
)
"""The first word of each of :data:`_OPPOSITES`' phrases: a sentence without one says none."""
_SAYS = [
    (re.compile(rf"\b(?:{says})\s+(?:the\s+|an?\s+|our\s+|it\s+)?(.*)"), verbs, source)
    for says, verbs, source in _OPPOSITES
]
_OBJECT_END = re.compile(
    r"[,;:()—–]|[.!?](?=\s|$)|\s(?:for|and|but|to|in|on|at|with|as|because|since|so|from|into|"
    r"when|while|until|unless|if|yet|or|than|by|of|after|before|about|via|through|per|"
    r"using|over|under|is|are|was|were)\s"
)
"""Where what a verb is said of ends."""
_CLAUSE_END = re.compile(r"[,;:()—–]|[.!?](?=\s|$)|\s(?:and|but|while|because|since|so)\s")
"""Where the clause of a verb a sentence opposes or negates ends."""
_TARGET = re.compile(r"\s(?:to|into|with|by|as|for|in favou?r of)\s")
"""Where what a decision changes ends and what it changes it into begins."""
SAME_DECISION = 1 / 3
"""How much of an earlier decision's other words (besides what is turned away from) a
statement must name to reverse it."""

_LEAD_IN = r"(?:(?:actually|hm+|well|wait|sorry|oh|ah|um+)\b[\s,.!—–-]*)?"
_NOT_REJECTING = r"(?:problem|worries|need|rush|doubt|wonder|kidding|longer|more|idea|way)\b"
_REJECTS = re.compile(
    rf"{_LEAD_IN}(?:(?:no|nope|nah)\b(?![ -]{_NOT_REJECTING})(?:\s*[,.!:;—–-]|\s*$)"
    r"|(?:don't|do not) do (?:that|this)\b|not like that\b"
    r"|that's (?:wrong|not (?:it|right|what i)))"
)
"""How a user's message that rejects the reply before it begins ("No.", "Actually, no —")."""
_APPROVES = re.compile(
    r"[\s,.!—–-]*(?:(?:that's|that is|it's|it is|this is|all)\s+)?"
    r"(?:fine|good|ok|okay|great|perfect|go ahead|ship it|looks good|sounds good|lgtm|"
    r"nothing (?:to add|else)|proceed|carry on|that works)\b"
)
"""What right after a "no" says the reply is fine ("No, that's fine, go ahead.")."""
_REJECTS_THING = re.compile(rf"{_LEAD_IN}no\s+(?!{_NOT_REJECTING})(?:to\s+)?(?=[\w`])")
"""How a user's message that rejects a thing the reply chose begins ("Actually no Redis,
…", "No to the Redis cache"): it rejects only the reply's decisions that name the thing."""
_THING_THEN_NO = re.compile(
    r"([^,.;:!?—–()\n]{1,60}?)\s*[,:—–-]+\s*(?:no|nope|nah|not now|not yet|not for now|later)\b"
    r"(?=\s*[,.!;:—–-]|\s*$)"
)
"""A sentence that names a thing, then says no to it ("The Prometheus exporter, no, …",
"Rate limiting, not now.")."""
_THING_RE = re.compile(r"[^,.;:!?—–()\n]*")
_THING_WORDS = 3
"""What such a message says no to: its words up to the first stop, at most this many
("no Redis, ops won't run it": "redis"; "no Memcached either, Redis is fine": not Redis)."""


class Against(NamedTuple):
    """A verb of a decision that a sentence opposes or negates."""

    verbs: frozenset[str]
    """The forms of the verbs it opposes ("remove", "removed"… of "keep")."""
    said_of: frozenset[str]
    """What it says it of ("keep the CSV export": csv, export)."""
    context: frozenset[str]
    """The other words of its clause ("don't use Redis for the rate limiter": rate, limiter)."""
    source: bool
    """Whether what it says it of must be what the decision changes, not what it changes it
    into ("keep webpack" after "migrate from webpack to Vite"; not "keep Vite")."""


class Turn(NamedTuple):
    """A sentence that turns away from something."""

    away: frozenset[str]
    """The things it names as turned away from ("drop httpx": httpx)."""
    words: frozenset[str]
    """Its other words."""
    against: tuple[Against, ...] = ()
    """The verbs of a decision it opposes or negates."""


def turns(folded: str) -> list[Turn]:
    """Each sentence of *folded* text that turns away from something, as a :class:`Turn`
    (not one that asks, is conditional or reports another's words)."""
    found = []
    for sentence in SENTENCES.split(folded):
        if not _now(sentence):
            continue
        away = turned(sentence)
        against = _against(sentence)
        if away or against:
            found.append(Turn(away, besides(sentence), against))
    return found


def _now(sentence: str) -> bool:
    """Does *sentence* say something now: not asked, not on a condition?"""
    return not sentence.rstrip().endswith("?") and _NOT_NOW.search(sentence) is None


def turned(folded: str) -> frozenset[str]:
    """The things *folded* text turns away from ("instead of httpx": httpx), where it is
    not negated ("don't remove Redis") nor someone else's word ("the docs say to drop…")."""
    found = set()
    for match in _TURNS_AWAY.finditer(folded):
        said = match.group()
        if not said.startswith((",", "don't", "do not", "let's not", "never", "no ", "não")) and (
            _NEGATED_BEFORE.search(folded, 0, match.start()) is not None
        ):
            continue
        if _REPORTED.search(folded, 0, match.start()) is None:
            found.add(match.group(1).rstrip(".,;:"))
    found.update(
        m.group(1)
        for m in _PUT_AWAY.finditer(folded)
        if _REPORTED.search(folded, 0, m.start()) is None
    )
    return frozenset(found)


def besides(folded: str) -> frozenset[str]:
    """The words of a statement that turns away from something, besides its turning away
    ("don't use httpx for the importer": "importer"; the "use" of "don't use" is not a
    word the statement shares with a decision to use something)."""
    return content_words(_TURNS_AWAY.sub(" ", folded))


def _against(sentence: str) -> tuple[Against, ...]:
    """The verbs of a decision *sentence* opposes (:data:`_OPPOSITES`) or negates
    (:data:`_NEGATES`), each with what it says it of and the other words of its clause."""
    found = []
    opposing = not _OPPOSING_WORDS.isdisjoint(_LETTERS.findall(sentence))
    for says, verbs, source in _SAYS if opposing else ():
        for match in says.finditer(sentence):
            if _NEGATED_BEFORE.search(sentence, 0, match.start()) is None and (
                said_of := _object(match.group(1))
            ):
                forms = _forms(verbs)
                found.append(Against(forms, said_of, _context(match.group(1), said_of), source))
    for match in _NEGATES.finditer(sentence):
        rest = sentence[match.end() :]
        if said_of := _object(rest):
            found.append(Against(_forms(match.group(1)), said_of, _context(rest, said_of), False))
    return tuple(found)


def _context(text: str, said_of: frozenset[str]) -> frozenset[str]:
    """The words of the clause *text* opens, besides what its verb is said of: "for the rate
    limiter" of "don't use Redis for the rate limiter"."""
    end = _CLAUSE_END.search(text)
    return content_words(text if end is None else text[: end.start()]) - said_of - CHOOSING


def _object(text: str) -> frozenset[str]:
    """What a verb is said of: the words of *text* up to a preposition or the end of its
    clause."""
    text = f" {text}"  # one that opens with a preposition says it of nothing: "removed by"
    end = _OBJECT_END.search(text)
    return content_words(text if end is None else text[: end.start()]) - CHOOSING


def _forms(verbs: str) -> frozenset[str]:
    """The forms of each of *verbs* (a space-separated list) a decision may say it in."""
    forms = set()
    for verb in verbs.split():
        stem = verb[:-1] if verb.endswith("e") else verb
        forms |= {verb, f"{verb}s", f"{stem}ed", f"{stem}ing", f"{verb}d", f"{verb}{verb[-1]}ed"}
        forms.add(f"{verb}{verb[-1]}ing")
    return frozenset(forms)


def reverses(turn: Turn, decision_sides: tuple[str, ...]) -> bool:
    """Does *turn* reverse the decision said in *decision_sides* (its text, its quote)? It
    must turn away from a thing the decision names and name a good part of its other words
    (:data:`SAME_DECISION`): the same decision, not another that shares a word; or say
    the opposite of what the decision does, of what it does it to."""
    for side in decision_sides:
        chosen = content_words(side)
        if away := _named_in(turn.away, chosen):
            rest = chosen - away
            if not rest or len(turn.words & rest) >= SAME_DECISION * len(rest):
                return True
        if turn.against and NEGATION_RE.search(side) is None and _opposes(turn, side, chosen):
            return True
    return False


def _named_in(things: frozenset[str], words: frozenset[str]) -> frozenset[str]:
    """The *words* that name one of *things*, as written or shortened ("Mongo" for "MongoDB":
    a thing of four letters or more that begins a word)."""
    found = things & words
    for thing in things - found:
        if len(thing) >= 4:
            found |= {word for word in words if word.startswith(thing)}
    return frozenset(found)


def _opposes(turn: Turn, side: str, chosen: frozenset[str]) -> bool:
    """Does *turn* say the opposite of what the decision *side* (its words *chosen*) does,
    of what it does it to, and in its clause nothing of another decision ("don't use Redis
    for the rate limiter" against "use Redis for the session cache")?"""
    for against in turn.against:
        if not against.verbs & chosen:
            continue
        changed = chosen
        if against.source:
            start = min(side.find(v) for v in against.verbs & chosen)
            target = _TARGET.search(side, max(start, 0))
            changed = content_words(side if target is None else side[: target.start()])
        if not against.said_of <= changed:
            continue
        rest = chosen - against.verbs - against.said_of
        extra = against.context - against.verbs
        if not extra - chosen or len(extra & rest) >= SAME_DECISION * len(rest):
            return True
    return False


def stems(words: frozenset[str]) -> frozenset[str]:
    """*words* with a plural's "s" dropped ("retries": "retry", "caches": "cache"), so
    that a statement about one thing and one about several compare."""
    return frozenset(
        w[:-3] + "y"
        if w.endswith("ies") and len(w) > 4
        else w[:-1]
        if w.endswith("s") and not w.endswith("ss") and len(w) > 3 and w.isalpha()
        else w
        for w in words
    )


def replaces(folded: str) -> bool:
    """Does the sentence *folded* replace what was said before without naming it?"""
    if _REPLACES_AT_EDGE.search(folded):
        return True
    return not _REPLACING_WORDS.isdisjoint(_LETTERS.findall(folded)) and bool(
        REPLACES.search(folded)
    )


def replacing(folded: str) -> list[frozenset[str]]:
    """For each sentence of *folded* text that replaces what was said before without
    naming it (not asked, not on a condition), what it is about (:func:`stems`)."""
    return [
        stems(content_words(sentence) - CHOOSING)
        for sentence in SENTENCES.split(folded)
        if replaces(sentence) and _now(sentence)
    ]


def rejection(folded: str) -> tuple[frozenset[str], bool] | None:
    """When a user's message (*folded*) begins by rejecting the reply before it, the words
    of its first sentence (besides the rejection and the choosing), and whether it rejects
    only the decisions that name one of them (it says no to a thing); else None."""
    folded = folded.lstrip(" *_>\n")
    match = _REJECTS.match(folded)
    if match is not None and _APPROVES.match(folded, match.end()):
        return None  # "No, that's fine, go ahead."
    thing = None if match is not None else _REJECTS_THING.match(folded)
    if (match := match or thing) is None:
        return _thing_then_no(folded)
    first = SENTENCES.split(folded[match.end() :].lstrip(), maxsplit=1)[0]
    if thing is None:
        return stems(content_words(first) - CHOOSING), False
    if first.rstrip().endswith("?"):
        return None  # "no tests for this?" asks
    return _named(first), True


def _thing_then_no(folded: str) -> tuple[frozenset[str], bool] | None:
    """A sentence of *folded* that names a thing and then says no to it."""
    for sentence in SENTENCES.split(folded):
        said = sentence.strip(" *_>")
        match = _THING_THEN_NO.fullmatch(said) or _THING_THEN_NO.match(said)
        if (
            match is not None
            and not _APPROVES.match(said, match.end())
            and (words := _named(match.group(1)))
        ):
            return words, True
    return None


def _named(first: str) -> frozenset[str]:
    """What a rejection says no to: the words up to the first stop, at most three."""
    named = _THING_RE.match(first)
    words = named.group().split()[:_THING_WORDS] if named is not None else []
    return stems(content_words(" ".join(words)) - CHOOSING)
