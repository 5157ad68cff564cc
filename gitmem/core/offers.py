"""An offer waiting on the user's answer, and the session that answers it.

At the end of a session the agent often leaves the next step to the user: "Want me to
push?", "Would you like me to commit these changes?", "Does this structure look right
before I detail the skip-gate logic?", "Rebuild and redeploy next, or go after the PR?",
"Not committed — let me know if you want it committed as-is"; in the other languages the
heuristic reads, "¿Quieres que lo suba?", "Soll ich pushen?", "要我提交吗？", "푸시할까요?".
Within its session that is an open loop (something proposed and waiting for approval).
The user's **next session** is the answer: it took the offer up (and then says it again,
or reports the work done), or went on to something else. Either way the question itself
is over; carried on, it asks every later brief a question nobody is waiting on.

So an open loop or an uncertainty whose words are such an offer (:func:`waiting_offer`)
ages out (:mod:`gitmem.lifecycle.carry`) at the first capture of another session
(:func:`another_session`; a side run of its session — a subagent's or a compaction's
transcript, ``<session>/agent-<id>`` — and another capture of the same session are not
another session). Ageing is never silent: the item gets a ``status`` event with the
reason, the brief counts it among the items that aged out, and ``gitmem reverify`` brings
it back. A real open problem is not an
offer ("scrolling back in xterm.js still does not work?"), nor a design question put to
no one in particular ("Should we use Postgres or SQLite?"): those age as any item does.

Pure; raises nothing.
"""

from __future__ import annotations

import re

from gitmem.core.items import Kind

WAITING_KINDS = frozenset({Kind.OPEN_LOOP, Kind.UNCERTAINTY})
"""The kinds an offer is stored as."""

LAPSED = "an offer waiting on the user's answer, and another session came after it"
"""The reason an offer ages out (its ``status`` event says it)."""

_ASKS_TO_GO_ON = re.compile(
    r"\b(?:(?:do\s+you\s+)?want\s+me\s+to|would\s+you\s+(?:like|prefer)|shall\s+i|should\s+i|"
    r"do\s+you\s+want|(?:is\s+it\s+)?ok(?:ay)?\s+(?:if\s+i|to\s+(?:go|proceed|push|commit|merge))|"
    r"ready\s+for\s+me\s+to|can\s+i\s+go\s+ahead)\b"
    r"|\b(?:looks?|sounds?|seems?)\s+(?:right|good|ok(?:ay)?|fine|reasonable)\b"
    r"|\bnext\b[^?]*\bor\b|\bor\b[^?]*\bnext\b",
    re.IGNORECASE,
)
"""What a question says when it offers the next step or asks for a go-ahead ("Want me to
push?", "Does this look right before I …?", "Rebuild next, or go after the PR?")."""

_SAY_IF_YOU_WANT = re.compile(
    r"\b(?:let\s+me\s+know|say\s+the\s+word|just\s+say|tell\s+me)\s+(?:if|whether|when)\s+"
    r"you(?:'d|’d|\s+would)?\s+(?:want|like|prefer)\b",
    re.IGNORECASE,
)
"""An offer said as a statement ("let me know if you want it committed as-is")."""

_ELSEWHERE = re.compile(
    r"(?:^|[\s¿¡,;:(])(?:quieres\s+que|quiere\s+que|te\s+gustar[ií]a\s+que|le\s+gustar[ií]a\s+que|"
    r"quer\s+que\s+eu|gostaria\s+que\s+eu|"
    r"veux-tu\s+que\s+je|tu\s+veux\s+que\s+je|voulez-vous\s+que\s+je|"
    r"souhaitez-vous\s+que\s+je|dois-je|"
    r"soll\s+ich|sollen\s+wir\s+(?:jetzt|als\s+n[äa]chstes)|m[öo]chtest\s+du,?\s+dass\s+ich|"
    r"m[öo]chten\s+sie,?\s+dass\s+ich|"
    r"vuoi\s+che|desideri\s+che|devo\s+procedere|"
    r"хотите,?\s+чтобы\s+я|хочешь,?\s+чтобы\s+я)"
    r"|要我|需要我|要不要我|是否需要我|しましょうか|いたしましょうか|しておきましょうか|"
    r"할까요|드릴까요|해\s*드릴까요|진행할까요",
    re.IGNORECASE,
)
"""The same questions in the other languages the heuristic reads ("¿Quieres que lo suba?",
"Soll ich pushen?", "要我提交吗？", "プッシュしましょうか？", "푸시할까요?"); Chinese and
Japanese are matched as written, without word bounds."""

_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")


def waiting_offer(kind: str, words: str) -> bool:
    """Is an item of *kind* saying *words* (its quote, else its text) an offer waiting
    on the user's answer (see the module)? Its last sentence is a question that offers
    the next step or asks for a go-ahead, or one of its sentences says "let me know if
    you want …"."""
    if kind not in WAITING_KINDS:
        return False
    sentences = [s.strip(" \t*_`>") for s in _SENTENCES.split(words.strip())]
    sentences = [s for s in sentences if s]
    if not sentences:
        return False
    last = sentences[-1].rstrip(" *_)\"'”")
    if last.endswith(("?", "？")) and (_ASKS_TO_GO_ON.search(last) or _ELSEWHERE.search(last)):
        return True
    return any(_SAY_IF_YOU_WANT.search(s) for s in sentences)


def another_session(session: str, seen: str) -> bool:
    """Is *session* another session than *seen* (the one that last said the item)? Not
    when either is the other's side run (``<session>/agent-<id>``), or both are side runs
    of one session."""
    return _root(session) != _root(seen)


def _root(session: str) -> str:
    return session.split("/agent-", 1)[0]
