"""Scripted model behaviour for ``gitmem ask`` tests, shared by the fake command
(ask_model.py) and the fake OpenAI server's ``ask-*`` scenarios.

A plan says what the solver and the support call reply. The role is read from the
prompt's opening line, as a real model would see it. An ``excerpt`` of the form
``@TEXT`` names whichever excerpt of the prompt holds TEXT, so plans do not depend on
retrieval's ranking. The tests' repository holds ``src/config.py`` with
``TIMEOUT_SECONDS = 37`` and ``RETRIES = 137``.
"""

from __future__ import annotations

import json
import re
from typing import Any

SOLVER_OPENING = "You are the solver of gitmem ask."
SUPPORT_OPENING = "You are the support checker of gitmem ask."


def _answer(answer: str, quote: str, holding: str) -> dict[str, Any]:
    return {"status": "answer", "answer": answer, "excerpt": f"@{holding}", "quote": quote}


RIGHT = _answer("37", "TIMEOUT_SECONDS = 37", "TIMEOUT_SECONDS")
NOT_FOUND = {"status": "not_found"}
ABSTAIN = {"status": "abstain"}

PLANS: dict[str, dict[str, Any]] = {
    "right": {"solver": RIGHT, "support": {"status": "answer", "answer": "37 seconds"}},
    # The solver invents a line; a support call shown only that line agrees with it.
    "wrong-quote": {
        "solver": _answer("30", "TIMEOUT_SECONDS = 30", "TIMEOUT_SECONDS"),
        "support": {"status": "answer", "answer": "30"},
    },
    "disagree": {"solver": RIGHT, "support": {"status": "answer", "answer": "137"}},
    # "37" sits inside "137": present as characters, not as an answer.
    "unanchored": {
        "solver": _answer("37", "RETRIES = 137", "RETRIES"),
        "support": {"status": "answer", "answer": "37"},
    },
    "support-abstains": {"solver": RIGHT, "support": ABSTAIN},
    "malformed": {"solver": "Sure! The timeout is 37 seconds.", "support": ABSTAIN},
    "fenced": {"solver": "```json\n" + json.dumps(RIGHT) + "\n```", "support": ABSTAIN},
    "support-malformed": {
        "solver": RIGHT,
        "support": {"status": "answer", "answer": "37", "confidence": 9},
    },
    "not-found": {"solver": NOT_FOUND, "support": ABSTAIN},
    "contested-absence": {"solver": NOT_FOUND, "support": {"status": "answer", "answer": "37"}},
}


def role(prompt: str) -> str:
    if prompt.startswith(SOLVER_OPENING):
        return "solver"
    if prompt.startswith(SUPPORT_OPENING):
        return "support"
    return "unknown"


def excerpt_holding(prompt: str, text: str) -> str:
    """The id of the first excerpt block in *prompt* whose body holds *text*."""
    for found in re.finditer(
        r"^=== excerpt (E\d+):[^\n]*===\n(.*?)\n=== end of excerpt \1 ", prompt, re.M | re.S
    ):
        if text in found.group(2):
            return found.group(1)
    return "E99"


def reply(plan_name: str, prompt: str) -> str:
    """What the plan's model says to *prompt*."""
    answer = PLANS[plan_name].get(role(prompt), "I do not know what you want.")
    if isinstance(answer, str):
        return answer
    answer = dict(answer)
    excerpt = answer.get("excerpt")
    if isinstance(excerpt, str) and excerpt.startswith("@"):
        answer["excerpt"] = excerpt_holding(prompt, excerpt[1:])
    return json.dumps(answer)
