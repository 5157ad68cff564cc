"""How a quote holds what it says: asked, reported, or only asked for.

A quote can hold every word of its item's text and still not say it: it asks ("should we
use httpx?", "I wonder whether the timeout is too short"), it reports what another
source says ("the docs claim the API is idempotent", "the README says the library is
thread-safe", "according to the bot, the suite is green"), or it asks for, plans or
imagines a thing the text says is so ("the endpoint should validate input": "The endpoint
validates input"; "next step: add retries": "Added retries"; "sharding would fix the
load": "Sharding fixed the load"). Each function here says why a text states as so what
its quote holds in one of those ways, or None; a text that keeps the stance in its own
words ("Open question: use httpx?", "Per the README, …", "The endpoint should validate
input") is a summary. A false alarm costs only the item's wording: its quote becomes its
text (:func:`gitmem.core.support.unsupported`). Pure, on folded text; never raises.
"""

from __future__ import annotations

import re

from gitmem.core.conditions import CLAUSE_CHARS
from gitmem.core.folding import fold
from gitmem.core.frames import IRREGULAR_PAST, spelt_words
from gitmem.core.negation import CROSS_MARKS
from gitmem.core.patterns import lazy_pattern

_WORD_RE = lazy_pattern(r"[^\W_]+")
_SENTENCE_RE = lazy_pattern(r"(?:[^.!?;？؟\n]|\.(?!\s|$))*(?:[.!?;？؟]+|\n|$)")
"""A sentence with the mark that ends it (a dot before a space, "!", "?", a line break;
not the dot of "3.8")."""
_QUESTION_MARK_RE = lazy_pattern(r"[?？؟]")
_EMBEDDED_RE = lazy_pattern(
    r"\bwhether\b|\b(?:wonder\w*|ask\w*|know|knows|knew|sure|unclear|unknown|clear|check\w*"
    r"|see|verify|confirm\w*|find\s+out|figure\s+out|test)\s+(?:if|whether)\b"
)
"""An embedded question: "whether …", "I wonder if …", "we don't know if …", "unclear
whether …" (a "not sure", "don't know" is a hedge of the negation rule, not a negation)."""
_OPEN = (
    r"\?|\b(?:whether|if|open|question\w*|unclear|unknown|unsure|undecided|unresolved|tbd"
    r"|decide\w*|decision|choose|pick|check\w*|verify\w*|confirm\w*|investigat\w*|ask\w*"
    r"|wonder\w*|determin\w*|figure|clarif\w*|pending|maybe|may|might|could|possibly"
    r"|perhaps|consider\w*|evaluat\w*|explor\w*|doubt\w*|sure|know)\b"
)
_OPEN_RE = lazy_pattern(_OPEN)
"""Words by which a text keeps a question open ("Decide whether to use httpx", "Open:
use httpx?", "The timeout may be too short")."""
_ANSWER_RE = lazy_pattern(
    r"[?？]\s*(?:yes|yep|yeah|no|nope|decided|agreed|done|settled|answer|confirmed)\b"
)
"""A question the text answers itself ("Use httpx? Yes", "Drop 3.8? Decided: no"): it
keeps nothing open."""
_MINOR = frozenset(
    (
        *("a", "an", "the", "to", "be", "is", "are", "was", "were", "it", "this", "that"),
        *("we", "i", "you", "will", "would", "should", "can", "could", "must", "do", "does"),
        *("did", "of", "at", "in", "on", "for", "with", "our", "its", "their", "there"),
        *("and", "or", "not", "if", "whether", "here", "now", "us", "me", "they", "he"),
        *("she", "have", "has", "had", "so", "then", "just", "also", "still", "use"),
    )
)
"""Words too common to tie a text to one sentence of its quote."""


def _content(folded: str) -> set[str]:
    return {w for w in _WORD_RE.findall(folded) if w not in _MINOR and not w.isdigit()}


def asked(text: str, quote: str) -> str | None:
    """Why *text* (folded) states as an answer what *quote* (folded) only asks: the words
    the two share lie only in the quote's questions (a sentence that ends with a
    question mark, or one that asks "whether …", "I wonder if …", "unclear whether …"),
    none in a sentence of it that states, and the text keeps no question open (a
    question mark, "whether", "open", "decide", "check", "maybe" …: :data:`_OPEN`).
    "Use httpx" on "should we use httpx?" is not supported; on "should we use httpx?
    Yes, use httpx" it is. Raises nothing."""
    if _OPEN_RE.search(text) and not _ANSWER_RE.search(text):
        return None
    words = _content(text)
    asking: set[str] = set()
    stating: set[str] = set()
    for sentence in _SENTENCE_RE.findall(quote):
        found = _content(sentence) & words
        if _QUESTION_MARK_RE.search(sentence) or _EMBEDDED_RE.search(sentence):
            asking |= found
        else:
            stating |= found
    if asking and not stating:
        return f'the quote asks about "{min(asking)}" and the item\'s text states an answer'
    return None


_REPORTING_RE = lazy_pattern(
    r"(?<![\w'-])[-']*\b(?P<who>[\w'-]+)\s+(?:says?|said|claims?|claimed|thinks?|thought|believes?|believed"
    r"|insists?|insisted|argues?|argued|asserts?|asserted|alleges?|alleged|promises?|promised"
    r"|advertises?|advertised)\b(?:\s+that\b)?"
    r"|\baccording\s+to\b[^,;:.!?\n]*[,:]?"
)
"""A source and the verb by which it reports what follows ("the docs claim …", "the user
thinks that …", "according to the bot, …"). The source is tried once for each run of
word characters, hyphens and apostrophes (the run, past any hyphens or apostrophes it
opens with, is the source), not again from each hyphen of it: "x-x-x-…" read itself
once for each of its characters."""
_SELF = frozenset(("i", "we", "you", "it's", "i've", "we've", "let's", "just", "also"))
"""The speaker's own side: "I think" and "we said" give the speaker's stance, which the
qualifiers read (:mod:`gitmem.core.qualifiers`); "it says" reports a document."""
_KEPT_RE = lazy_pattern(
    r"\b(?:says?|said|claims?|claimed|thinks?|thought|believes?|believed|insists?|argues?"
    r"|asserts?|alleges?|allegedly|reportedly|supposedly|according|per|promises?|promised"
    r"|advertises?|advertised|suggests?|suspects?|guess\w*|reports?|reported|states?"
    r"|stated|mentions?|mentioned|notes?|noted|cites?|view|opinion|belief|claim)\b"
)
"""Words by which a text keeps that what it states is reported ("Per the README, …",
"The user suspects the CDN", "The vendor claims a 3x speedup")."""
_REPORTED_SCOPE = 8
"""How many words after a reporting verb (in its clause) name what it reports."""
_CLAUSE_END_RE = lazy_pattern(r"[.;!?\n]|\s[—–-]\s|,\s*but\b")


def reported(text: str, quote: str) -> str | None:
    """Why *text* (folded) states plainly what *quote* (folded) reports another source
    saying: the quote holds a source and a verb of saying or thinking ("the docs claim",
    "the user thinks", "according to the bot") that is not the speaker's own ("I think",
    "we said"), the text holds one of the words it reports, and neither a word of
    reporting (:data:`_KEPT_RE`) nor the source's name. Raises nothing."""
    if _KEPT_RE.search(text):
        return None
    words = set(_WORD_RE.findall(text))
    for match in _REPORTING_RE.finditer(quote):
        who = match.group("who")
        if who is not None and (who in _SELF or who in _MINOR - {"they", "he", "she"}):
            continue
        # within CLAUSE_CHARS of it: not the rest of the quote again for each verb
        clause = _CLAUSE_END_RE.split(quote[match.end() : match.end() + CLAUSE_CHARS], maxsplit=1)[
            0
        ]
        reports = [w for w in _WORD_RE.findall(clause) if w not in _MINOR][:_REPORTED_SCOPE]
        source = set(_WORD_RE.findall(match.group())) - _MINOR
        if source & words:
            continue  # "the vendor claims" → "The vendor's benchmark shows …"
        shared = words & set(reports)
        if shared:
            return (
                f'the quote reports "{min(shared)}" as another source says it, and the '
                "item's text states it plainly"
            )
    return None


_TO_COME = frozenset(
    (
        *("should", "ought", "need", "needs", "going", "gonna", "want", "wants", "would"),
        *("could", "might", "please", "todo", "next", "let", "lets", "will", "shall"),
        *("must", "plan", "plans", "can", "may", "have", "has"),
    )
)
"""Words after which a verb is asked for, planned or imagined, not done ("should
validate", "going to migrate", "next step: add", "would fix")."""
_IMAGINED = frozenset(("should", "ought", "need", "needs", "would", "could", "might"))
"""Of those, the ones after which a verb does not hold now either ("the endpoint should
validate input" is not "the endpoint validates input"; "we will use Redis" may be read
as "we use Redis", a decision; nor "must", a rule: "coverage must stay at 80%" is
"Coverage stays at 80%")."""
_UNREAL = frozenset(("would", "could", "should", "might", "must"))
"""Before "have" and a participle, what makes it a past that did not happen ("would have
failed")."""
_KEEPS_TO_COME = _TO_COME - {"have", "has"} | {
    *("theory", "principle", "ideally", "hypothetically", "planned", "pending", "not"),
    *("no", "never", "yet", "todo", "proposed", "requested", "asked"),
}
"""Words by which a text keeps what it says asked for, planned or imagined (not "has":
"Redis has been removed" says it done)."""
_BEFORE_NOUN = frozenset(
    ("a", "an", "the", "this", "that", "these", "those", "its", "our", "my", "your", "their")
)
"""Before a participle, what makes it an adjective ("the cached value")."""
_UNCHECKED_RE = lazy_pattern(r"\[ \]")
"""An unchecked box ("- [ ] add tests"): what follows it is still to do."""
_PAST_STEM = {past: stem for stem, past in IRREGULAR_PAST.items()} | {
    **{"written": "write", "done": "do", "taken": "take", "gone": "go", "given": "give"},
    **{"chosen": "choose", "broken": "break", "begun": "begin", "driven": "drive"},
    **{"known": "know", "shown": "show", "grown": "grow", "thrown": "throw", "seen": "see"},
    **{"frozen": "freeze", "hidden": "hide", "spoken": "speak", "forgotten": "forget"},
    **{"rewritten": "rewrite", "overwritten": "overwrite", "undone": "undo"},
}
"""The stem of each irregular past and participle ("wrote", "written": "write")."""


def to_come(text: str, quote: str) -> str | None:
    """Why *text* (folded) says done, or so now, what *quote* (folded) only asks for,
    plans or imagines: the quote holds a verb a few words after "should", "going to",
    "next", "please", "would", an unchecked box "[ ]" … (:data:`_TO_COME`) and no past of
    it, and the text its
    past ("We migrated to Postgres" on "we are going to migrate to Postgres", "Added
    retries" on "next step: add retries", "The flaky test is fixed" on "I am going to fix
    the flaky test"); or the quote holds it after "should", "need to", "would" …
    (:data:`_IMAGINED`) and the text in the present ("The endpoint validates input" on
    "the endpoint should validate input", "The cache saves 200 ms" on "the cache would
    save 200 ms"); or the quote holds a participle after "would have" and the text the
    same past ("The old schema failed" on "the old schema would have failed"); or the
    quote leaves it to come in the passive and the text says it has come about ("The fix is
    merged" on "the fix will be merged after review": :func:`_pending`). A text
    that keeps it to come ("should", "next", "planned", "in theory", a negation …:
    :data:`_KEEPS_TO_COME`) is left alone. Raises nothing."""
    mine, theirs = spelt_words(text), spelt_words(_UNCHECKED_RE.sub(" todo ", quote))
    if set(mine) & _KEEPS_TO_COME:
        return None
    if (passive := _pending(mine, theirs)) is not None:
        return passive
    unreal = {
        word
        for n, word in enumerate(theirs)
        if theirs[n - 1 : n] == ["have"] and set(theirs[max(0, n - 3) : n - 1]) & _UNREAL
    }
    said = set(theirs)  # looked up once a word of the text
    done = {stem for word in said - unreal for stem in _past_stems(word)}
    awaited = {
        theirs[n + 1]
        for n, word in enumerate(theirs[:-1])
        if word in _AWAITING or (word in ("for", "on") and theirs[n - 1 : n] in _WAITING)
    } - {word for word in theirs if _past_stems(word)}
    asked = {
        stem
        for n, word in enumerate(theirs)
        if set(theirs[max(0, n - 2) : n]) & _TO_COME
        for stem in (word, *_gerund_stems(word))
    }
    imagined = {w for n, w in enumerate(theirs) if set(theirs[max(0, n - 2) : n]) & _IMAGINED}
    for n, word in enumerate(mine):
        if n and mine[n - 1] in _BEFORE_NOUN:
            continue
        if word in unreal:
            return f'the quote says "{word}" would have been, and the item\'s text that it was'
        if word in said:
            continue
        if _participle_of(word, awaited):
            return f'the item\'s text says "{word}" where its quote still waits for it'
        base = sorted((_past_stems(word) & asked) - done)
        if base:
            return f'the item\'s text says "{word}" where its quote leaves "{base[0]}" to come'
        for stem in (word[:-1], word[:-2]) if word.endswith("s") and len(word) > 4 else ():
            if stem in imagined:
                return (
                    f'the item\'s text says "{word}" where its quote says "{stem}" should or '
                    "would be"
                )
    return None


_AWAITING = frozenset(("awaiting", "awaits", "pending"))
_WAITING = (["waiting"], ["waits"], ["up"], ["ready"], ["scheduled"], ["planned"], ["queued"])
"""Before a noun, what says it has yet to happen ("waiting for review", "pending removal",
"up for merge", "scheduled for removal")."""


def _participle_of(word: str, nouns: set[str]) -> bool:
    """Is *word* a past of the verb one of *nouns* names ("approved": "approval",
    "removed": "removal", "reviewed": "review", "merged": "merge")?"""
    stems = _past_stems(word)
    for noun in nouns:
        if noun in stems:
            return True
        shared = next((n for n, (a, b) in enumerate(zip(word, noun, strict=False)) if a != b), 0)
        if stems and len(noun) >= 5 and shared >= 5 and shared >= len(noun) - 3:
            return True
    return False


def _past_stems(word: str) -> set[str]:
    """The stems *word* may be the past of ("migrated": "migrate", "migrat"; "stopped":
    "stop"; "applied": "apply"; "built": "build")."""
    if word in _PAST_STEM:
        return {_PAST_STEM[word]}
    if len(word) < 5 or not word.endswith("ed"):
        return set()
    stems = {word[:-2], word[:-1]}
    if word[-3] == word[-4]:
        stems.add(word[:-3])
    if word.endswith("ied"):
        stems.add(word[:-3] + "y")
    return stems


def _gerund_stems(word: str) -> tuple[str, ...]:
    """The stems *word* may be the gerund of ("adding": "add", "writing": "write")."""
    if len(word) < 6 or not word.endswith("ing"):
        return ()
    stem = word[:-3]
    return (stem, stem + "e", stem[:-1]) if stem[-1] == stem[-2] else (stem, stem + "e")


_STRUCK_RE = lazy_pattern(r"~~(?=\S)(.+?)(?<=\S)~~", re.DOTALL)
"""Words struck through in markdown ("~~use Redis~~ use Postgres"): taken back."""
_CROSS_RE = lazy_pattern(rf"[{CROSS_MARKS}]")
"""A mark that crosses out its line ("❌ Redis for sessions", "keep the v1 API ✗")."""
_DISOWNED_RE = lazy_pattern(
    rf"[{CROSS_MARKS}~]|\b(?:struck|crossed|rejected|ruled|dropped|removed|retracted|withdrawn"
    r"|instead|not|no|never|avoid\w*|against)\b"
)
"""What by which a text keeps that its words were taken back or crossed out."""


def struck(text: str, quote: str) -> str | None:
    """Why *text* (raw) states what *quote* (raw) strikes through ("~~use Redis~~ use
    Postgres") or crosses out with a mark ("❌ Redis for sessions"): the text holds a
    word that stands in the quote only struck through or on a crossed line, and no
    word or mark of taking it back (:data:`_DISOWNED_RE`). Raises nothing."""
    if _DISOWNED_RE.search(fold(text)):
        return None
    taken_back, kept = [], [_STRUCK_RE.sub(" ", quote)]
    taken_back.extend(_STRUCK_RE.findall(quote))
    for line in kept.pop().splitlines():
        (taken_back if _CROSS_RE.search(line) else kept).append(line)
    if not taken_back:
        return None
    words = _content(fold(text))
    back = (_content(fold(" ".join(taken_back))) - _content(fold(" ".join(kept)))) & words
    if back:
        return f'the quote takes back "{min(back)}" and the item\'s text states it'
    return None


_NO_NEED = (
    *("need not", "do not have to", "does not have to", "did not have to"),
    *("do not need to", "does not need to", "is not required", "are not required"),
)
_MODAL_KINDS = (
    ("must not", "may not", "can not", "cannot", "is not allowed", "are not allowed"),
    ("should not", "ought not"),
    _NO_NEED,
)
"""Negated modals of three kinds: what is forbidden or cannot be ("must not", "cannot"),
what is advised against ("should not"), and what need not be ("need not", "don't have
to")."""


def negated_modal(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts a negated modal of one kind (:data:`_MODAL_KINDS`) where
    *quote* (folded) has one of another and none of its kind: "Users don't have to sign
    in" on "users must not sign in", "We must not log tokens" on "we don't have to log
    tokens". Raises nothing."""
    mine, theirs = (" ".join(spelt_words(side)) for side in (text, quote))
    kinds = [
        ({n for n, k in enumerate(_MODAL_KINDS) if any(_has(side, m) for m in k)})
        for side in (mine, theirs)
    ]
    if kinds[0] and kinds[1] and not kinds[0] & kinds[1]:
        said = next(m for m in _MODAL_KINDS[min(kinds[1])] if _has(theirs, m))
        shown = next(m for m in _MODAL_KINDS[min(kinds[0])] if _has(mine, m))
        return f'the item\'s text says "{shown}" where its quote says "{said}"'
    return None


def _has(words: str, phrase: str) -> bool:
    return re.search(rf"\b{phrase}\b", words) is not None


_REQUEST_RE = lazy_pattern(
    r"\b(?:asked\s+for|asks\s+for|asking\s+for|requested|requests|request|wants|wanted"
    r"|would\s+like|please|need|needs)\b([^.;:!?\n]*)"
)
"""A request and what it asks for ("the user asked for dark mode", "please add install
steps", "we need tests for the parser")."""
_DONE_RE = lazy_pattern(
    r"\b(?:added|implemented|shipped|done|completed|complete|supports|has|have|includes"
    r"|landed|merged|fixed|built|exists|works|cover|covers|covered|enabled|provides|ships)\b"
)
"""Words by which a text says a thing is done or there ("Dark mode was added", "The
README has install steps", "Tests cover the parser")."""
_STILL_RE = lazy_pattern(r"\b(?:still|yet|to\s+be|request\w*|asked|wants?|needs?)\b")
_REQUESTED_SCOPE = 6


def requested(text: str, quote: str) -> str | None:
    """Why *text* (folded) says done or there what *quote* (folded) only asks for: the
    quote requests it ("asked for", "please", "we need" …: :data:`_REQUEST_RE`) and says
    nothing done (:data:`_DONE_RE`), and the text says it done or there and holds a word
    the request asks for, with nothing that keeps it asked ("still", "to be", "requested",
    "needs", a word of :data:`_KEEPS_TO_COME`). "Dark mode was added" on "the user asked
    for dark mode". Raises nothing."""
    if _DONE_RE.search(quote) or not _DONE_RE.search(text) or _STILL_RE.search(text):
        return None
    words = set(_WORD_RE.findall(text))
    if words & _KEEPS_TO_COME:
        return None
    for match in _REQUEST_RE.finditer(quote):
        asked_for = [w for w in _WORD_RE.findall(match.group(1)) if w not in _MINOR]
        shared = words & set(asked_for[:_REQUESTED_SCOPE])
        if shared:
            return f'the quote asks for "{min(shared)}" and the item\'s text says it is done'
    return None


_PENDING = frozenset(("will", "shall", "to", "should", "must", "would", "going", "yet"))
"""Before "be" and a participle, what leaves it to come ("will be merged", "needs to be
done", "ready to be merged", "is yet to be fixed")."""
_DONE_FRAME = frozenset(("is", "are", "was", "were", "been", "has", "have", "had", "now", "got"))
"""Before a participle, what says it has come about ("is merged", "has been done")."""
_DONE_IRREGULAR = frozenset(
    ("done", "built", "written", "made", "run", "set", "sent", "shipped", "taken", "gone", "put")
)


def _pending(mine: list[str], theirs: list[str]) -> str | None:
    """Why a text (its words *mine*) says has come about what a quote (*theirs*) leaves to
    come in the passive: the quote holds a participle after "be" after a word of
    :data:`_PENDING` ("the fix will be merged after review", "the PR is ready to be
    merged"), the text the same participle after "is", "was", "has been" … ("The fix is
    merged") and none of those words before it."""
    to_come = {
        word
        for n, word in enumerate(theirs)
        if n >= 2
        and theirs[n - 1] == "be"
        and _participle(word)
        and _PENDING & set(theirs[max(0, n - 4) : n - 1])
    }
    to_come -= _come_about(theirs)  # "was merged; the tag will be merged"
    for n, word in enumerate(mine):
        if word in to_come and word in _come_about(mine[max(0, n - 3) : n + 1]):
            return (
                f'the item\'s text says "{word}" has come about where its quote leaves it to come'
            )
    return None


def _come_about(pieces: list[str]) -> set[str]:
    """The participles *pieces* say have come about ("is merged", "has been done")."""
    found = set()
    for n, word in enumerate(pieces):
        before = set(pieces[max(0, n - 3) : n])
        if _participle(word) and before & _DONE_FRAME and not before & _PENDING:
            found.add(word)
    return found


def _participle(word: str) -> bool:
    return (word.endswith("ed") and len(word) > 4) or word in _DONE_IRREGULAR
