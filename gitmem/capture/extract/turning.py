"""What a later statement of a session turns away from: the sentences rule 3 of
:mod:`gitmem.capture.extract.lastword` reads (a reversal, a replacement; a rejection, rule
4, is :mod:`gitmem.capture.extract.rejections`).

A sentence **turns away** from a thing when it says so in one of these forms, in English
first and in the other languages the heuristic reads where a phrase is enough:

- it names the thing after a verb or phrase of turning away: "instead of", "rather than",
  "switch from", "drop", "revert", "remove", "get rid of", "don't use", "forget",
  "ditch", "scrap", "abandon", "postpone", "defer", "hold off on" ("en lugar de", "statt",
  "au lieu de", "no uses", "olvida"…), or before a phrase that puts it off or rules it
  out ("OAuth can come later", "Tailwind is overkill", "the cache layer is no longer
  needed");
- it says the opposite of what a decision did to the same thing (:data:`_OPPOSITES`):
  "keep the CSV export" after "remove the legacy CSV export", "stick with webpack" after
  "migrate the build from webpack to Vite", "disable" after "enable", "unpin" after
  "pin", "remove" after "add"; or it negates the decision's own verb on the same thing
  ("don't drop 3.8 yet" after "drop Python 3.8 support", "we're not going to support 3.8"
  after "support 3.8"). What it says it of (its object, up to a preposition or the end of
  its clause) must be words the decision says of what it changes;
- it **replaces** what was said before without naming it (:data:`REPLACES`): "instead",
  "scratch that", "after all", "I changed my mind", "on reflection", "new plan:", "go
  back to", "revert to what we had", "switch the retries to…", "I'd prefer…", "Actually,
  use…" ("stattdessen", "en su lugar", "à la place", "invece"…), of the clause it stands
  in and the next (:func:`replacing`).

None of it holds in a sentence that asks ("should we drop Redis?"), that is conditional
("once the app is updated, remove the v1 endpoint", "if we ever drop Redis…"), that
reports what someone else says ("the docs say to drop Redis", "the linter suggests
replacing requests"), where the turning away is itself negated or only tried ("don't
remove Redis", "no need to drop it", "failed to drop table orders"), nor of a decision
that does not name the narrower case it is said of ("don't use Redis for the session
cache in tests").

Pure; raises nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitmem.capture.extract.reports import SENTENCES
from gitmem.core.folding import bare
from gitmem.core.negation import NEGATION_RE
from gitmem.lifecycle.sameclaim import content_words

_TURNS_AWAY = re.compile(
    r"(?:\b(?:instead of|rather than|no longer use|switch(?:ed|ing)? (?:away )?from|"
    r"replac(?:e|ed|ing)|drop(?:ped|ping)?|moving off|migrat(?:e|ed|ing) (?:away )?from|"
    r"revert(?:ed|ing)?|roll(?:ed)? back|undo|remov(?:e|ed|ing)|get rid of|stop using|"
    r"(?:don't|do not|let's not|never) use|(?:don't|do not|no longer) (?:want|need)|"
    r"forget(?: about)?|ditch(?:ed)?|scrap(?:ped)?|"
    r"abandon(?:ed)?|kill(?:ed)?|scratch|postpon(?:e|ed|ing)|defer(?:red|ring)?|"
    r"hold(?:ing)? off on|put(?:ting)? off|shelv(?:e|ed)|swap(?:ped|ping)?(?: out)?|"
    r"en lugar de|en vez de|no uses|no usar|deja de usar|olvida|anstatt|statt|anstelle von|"
    r"verzichte auf|au lieu de|plutôt que|n'utilise pas|oublie|em vez de|não use|não usar|"
    r"invece di|anziché|non usare)"
    r"|,\s*not)\s+(?:the\s+|an?\s+|using\s+|el\s+|la\s+|le\s+|die\s+|der\s+|das\s+|il\s+)?"
    r"([\w./#@-]+)"
)
_PUT_AWAY = re.compile(
    r"([\w./#@-]+)\s+(?:(?:can|could|will|should|may)\s+(?:wait|come later|be done later|"
    r"come afterwards|follow later)|(?:is|are|was|seems)\s+(?:overkill|unnecessary|not needed|"
    r"out|off the table|a bad idea|(?:no longer|not) (?:needed|necessary|required)|too \w+))\b"
)
"""A thing put off or ruled out after it is named: "OAuth can come later", "Tailwind is
overkill", "Vercel is out", "the cache layer is no longer needed", "argparse is too
verbose"."""
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
    r"\bcambio di piano\b|\bnuovo piano\b|"
    r"\b(?:i'd|i would|we'd|we would) (?:rather|prefer)\b(?! not)|\bprefer\b(?! not)"
)
"""A statement that replaces what was said before without naming it (:func:`replaces`)."""
_REPLACES_AT_EDGE = re.compile(r"^\W*[\w.-]+ it is\b|^\W*actually\b|\bactually\W*$")
"""The same, said at a sentence's start or end: "Postgres it is", "Actually, use…", "…
actually"; "actually" only in a sentence that chooses (:data:`_CHOICE`): "Actually, also check
the logs" replaces nothing."""
_CHOICE = re.compile(
    r"\b(?:use|go with|make|keep|switch|pick|choose|prefer|let's|we'll|set|stick with)\b"
)
_REPLACEMENT_CLAUSE = re.compile(r"[,;:—–]\s*|\s(?:and|but)\s")
"""Where a replacement's clauses end: it speaks of the clause it stands in, or the next
one when its own says nothing else ("On second thought, go with the LRU"), and the one
after it ("the bundle needs CommonJS after all, ship both")."""
_REPLACING_WORDS = frozenset(
    """instead scratch second mind nevermind plan plans after reflection scrap ditch forget
    ignore thinking back revert roll switch change rename move switching moving changing
    stattdessen planänderung lugar planes place disso planos plano invece piano rather
    prefer""".split()  # noqa: SIM905
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
    r"according to)\b(?::\s*)?[^,;:]*$"
)
"""What before a turning away says that someone else says it ("the docs say to drop
Redis", "the linter suggests replacing requests"), not the user."""
_DESCRIBED = re.compile(
    r"\b(?:the|this|that|its|our|my|your)\s+[\w./#@-]+(?:\s+[\w./#@-]+)?\s+"
    r"(?:uses|used|calls|called|returns|returned|has|had|reads|writes|sends|runs|ran|"
    r"creates|created|loads|loaded|imports|imported)\b[^,;:]*$"
)
"""What before a turning away says what a thing does, not what the user chooses: "the test
uses a dict instead of the Config object"."""
_NEGATED_BEFORE = re.compile(
    r"\b(?:don't|do not|doesn't|does not|won't|will not|never|not|no need to|without|"
    r"shouldn't|should not|mustn't|must not|can't|cannot|failed to|unable to|could not|"
    r"couldn't|tried to|trying to)\s+(?:\w+\s+)?$"
)
"""What before a verb of turning away negates it, or says it was only tried: "don't remove
Redis", "ERROR: failed to drop table orders"."""
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
_SCOPED = re.compile(
    r"\b(?:in|on|for|during|inside|within|under)\s+(?:the\s+|an?\s+|our\s+|all\s+)?"
    r"([\w./#@-]+(?:\s+[\w./#@-]+)?)"
)
"""What a turning away is said of: where, for what ("in tests", "for the session cache")."""
_SWAPPED_FOR = re.compile(
    r"^\s*(?:for|with)\s+[^,;]*?(?=\s(?:in|on|during|inside|within|under)\s|[,;]|$)"
)
"""What a thing is swapped for or replaced with, right after it: "swap SQLAlchemy *for plain
psycopg* in the data layer"."""
_TARGET = re.compile(r"\s(?:to|into|with|by|as|for|in favou?r of)\s")
"""Where what a decision changes ends and what it changes it into begins."""
SAME_DECISION = 1 / 3
"""How much of an earlier decision's other words (besides what is turned away from) a
statement must name to reverse it."""


class Against(NamedTuple):
    """A verb of a decision that a sentence opposes or negates."""

    verbs: frozenset[str]
    """The forms of the verbs it opposes ("remove", "removed"… of "keep")."""
    said_of: frozenset[str]
    """What it says it of ("keep the CSV export": csv, export)."""
    context: frozenset[str]
    """The other words of its clause ("don't use Redis for the rate limiter": rate, limiter)."""
    scope: frozenset[str]
    """What it says it of after "in", "on", "for"… (:func:`_scope`)."""
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
    scope: frozenset[str] = frozenset()
    """What it says it of after "in", "on", "for"…, in the clause of its turning away ("in
    tests"): a decision that says none of it is not what it turns away from."""


def turns(folded: str) -> list[Turn]:
    """Each sentence of *folded* text that turns away from something, as a :class:`Turn`
    (not one that asks, is conditional or reports another's words)."""
    found = []
    for sentence in SENTENCES.split(folded):
        if not _now(sentence):
            continue
        away, scope = _turned(sentence)
        against = _against(sentence)
        if away or against:
            found.append(Turn(away, besides(sentence), against, scope))
    return found


def _now(sentence: str) -> bool:
    """Does *sentence* say something now: not asked, not on a condition?"""
    return not sentence.rstrip().endswith("?") and _NOT_NOW.search(sentence) is None


def turned(folded: str) -> frozenset[str]:
    """The things *folded* text turns away from ("instead of httpx": httpx), where it is
    not negated ("don't remove Redis") nor someone else's word ("the docs say to drop…")."""
    return _turned(folded)[0]


def _turned(folded: str) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`turned`, and what each turning away is said of after "in", "on", "for"…
    (:func:`_scope`)."""
    found = set()
    scope: set[str] = set()
    for match in _TURNS_AWAY.finditer(folded):
        said = match.group()
        if not said.startswith((",", "don't", "do not", "let's not", "never", "no ", "não")) and (
            _NEGATED_BEFORE.search(folded, 0, match.start()) is not None
        ):
            continue
        if (
            _REPORTED.search(folded, 0, match.start()) is None
            and _DESCRIBED.search(folded, 0, match.start()) is None
        ):
            found.add(match.group(1).rstrip(".,;:"))
            after = folded[match.end() :]
            if said.startswith(("swap", "replac")):  # "swap X for Y": Y is no narrower case
                after = _SWAPPED_FOR.sub("", after, count=1)
            scope |= _scope(after)
    found.update(
        m.group(1)
        for m in _PUT_AWAY.finditer(folded)
        if _REPORTED.search(folded, 0, m.start()) is None
    )
    return frozenset(found), frozenset(scope)


def _scope(text: str) -> frozenset[str]:
    """The words of *text*'s first clause that say where or for what: after "in", "on",
    "for", "during"… ("for the session cache in tests": session, cache, tests)."""
    end = _CLAUSE_END.search(text)
    clause = text if end is None else text[: end.start()]
    return stems(frozenset(w for m in _SCOPED.finditer(clause) for w in content_words(m.group(1))))


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
            if (
                _NEGATED_BEFORE.search(sentence, 0, match.start()) is None
                and _REPORTED.search(sentence, 0, match.start()) is None
                and (said_of := _object(match.group(1)))
            ):
                forms = _forms(verbs)
                context = _context(match.group(1), said_of)
                found.append(Against(forms, said_of, context, _scope(match.group(1)), source))
    for match in _NEGATES.finditer(sentence):
        rest = sentence[match.end() :]
        if _REPORTED.search(sentence, 0, match.start()) is None and (said_of := _object(rest)):
            context = _context(rest, said_of)
            found.append(Against(_forms(match.group(1)), said_of, context, _scope(rest), False))
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
        if (away := _named_in(turn.away, chosen)) and turn.scope <= stems(chosen):
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
        if (
            not against.said_of <= changed
            or not against.said_of - against.verbs  # "keep the move": the verb as a noun
            or not against.scope <= stems(chosen)
        ):
            continue
        rest = chosen - against.verbs - against.said_of
        extra = against.context - against.verbs
        if not extra - chosen or len(extra & rest) >= SAME_DECISION * len(rest):
            return True
    return False


def stems(words: frozenset[str]) -> frozenset[str]:
    """*words* each by its stem: a plural's "s", an "-ing" and a final "e" dropped
    ("retries": "retry", "caches", "caching" and "cache": "cach", "vendoring": "vendor"),
    so that a statement about one thing and one about several, or about doing it,
    compare. Only letters are stemmed: a name, a path or a number is kept as written."""
    return frozenset(_stem(w) if w.isalpha() else w for w in words)


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if (single := bare(word)) != word:  # the plural rule every reader shares
        word = single
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def replaces(folded: str) -> bool:
    """Does the sentence *folded* replace what was said before without naming it?"""
    return _replacement(folded) is not None


def _replacement(folded: str) -> re.Match[str] | None:
    """Where the sentence *folded* says that it replaces what was said before, if it does."""
    edge = _REPLACES_AT_EDGE.search(folded)
    if edge is not None and ("actually" not in edge.group() or _CHOICE.search(folded)):
        return edge
    if _REPLACING_WORDS.isdisjoint(_LETTERS.findall(folded)):
        return None
    return REPLACES.search(folded)


def replacing(folded: str) -> list[frozenset[str]]:
    """For each sentence of *folded* text that replaces what was said before without
    naming it (not asked, not on a condition), what it is about (:func:`stems`): the words
    of the clauses it speaks of (:data:`_REPLACEMENT_CLAUSE`)."""
    found = []
    for sentence in SENTENCES.split(folded):
        if (marker := _replacement(sentence)) is not None and _now(sentence):
            found.append(stems(_spoken_of(sentence, marker) - CHOOSING))
    return found


def _spoken_of(sentence: str, marker: re.Match[str]) -> frozenset[str]:
    """The words of the clauses of *sentence* a replacement (*marker*) speaks of: from the
    start of its clause to the end of the first clause that says more than the marker,
    and the clause after that (not the clause before: "My colleague wrote 'drop Celery' in
    the ticket, ignore that")."""
    ends = [m.start() for m in _REPLACEMENT_CLAUSE.finditer(sentence)] + [len(sentence)]
    start = max(
        (m.end() for m in _REPLACEMENT_CLAUSE.finditer(sentence, 0, marker.start())), default=0
    )
    said = content_words(sentence[marker.start() : marker.end()])
    words: set[str] = set()
    extra = 0
    for end in ends:
        if end <= start:
            continue
        clause = content_words(sentence[start:end])
        words |= clause
        if extra or clause - said - CHOOSING:
            extra += 1
        if extra == 2:
            break
        start = end
    return frozenset(words)
