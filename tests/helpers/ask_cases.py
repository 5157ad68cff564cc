"""The ask gate cases: one per gate and trap of the evidence-gated design (the source
prototype's gates, ``shared/seeds/001``), each with the scripted model's replies and
the outcome the prototype's gates give. ``tests/agents/test_ask_cases.py`` runs them
through ``gitmem ask`` over both backends, and ``benchmarks/ask_agreement.py`` prints
how many agree.

The sources are :data:`asking.FILES`. A case's ``script`` maps a role (``solver``,
``support``, ``absence``; see ``tests/fakes/ask_script.py``) to its reply; ``edit``
rewrites files in the working tree before the ask (and the caller restores them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gitmem.agents.ask import Outcome
from helpers.asking import ABSTAIN, NOT_FOUND, answer, said

SUPPORTED = Outcome.SUPPORTED_ANSWER
NOT_FOUND_OUT = Outcome.NOT_FOUND_IN_SOURCE
REVIEW = Outcome.NEEDS_REVIEW
UNSUPPORTED = Outcome.UNSUPPORTED_OUTPUT
STALE = Outcome.STALE_SOURCE
EXIT = {SUPPORTED: 0, NOT_FOUND_OUT: 10, REVIEW: 11, UNSUPPORTED: 12, STALE: 13}
"""The exit codes the issue keeps, spelled out so a change to them fails."""


@dataclass(frozen=True)
class Case:
    name: str
    gate: str
    question: str
    script: dict[str, Any]
    prototype: Outcome
    """The outcome the prototype's gates give: what ``gitmem ask`` must give too."""
    reason: str = ""
    """Words the reason must hold (the gate that decided, in its own words)."""
    edit: dict[str, str] = field(default_factory=dict)
    roles: tuple[str, ...] | None = None
    """The model calls the ask must make, in order (None: not checked)."""


def both(text: str, quote: str, support: str | None = None) -> dict[str, Any]:
    """Solver and support agree on *text* (or the support says *support*)."""
    return {"solver": answer(text, quote), "support": said(support or text)}


CASES: tuple[Case, ...] = (
    # -- released: every gate holds ----------------------------------------------------
    Case(
        "md-row",
        "row",
        "What refund do I get when I return something within 30 days?",
        both("Full refund", "Returned within 30 days | Full refund"),
        SUPPORTED,
        roles=("solver", "support"),
    ),
    Case(
        "md-column",
        "row",
        "What is the express fee up to 10 kg?",
        both("9 EUR", "Up to 10 kg | 5 EUR | 9 EUR"),
        SUPPORTED,
    ),
    Case(
        "md-more-than",
        "row",
        "What is the standard fee for more than 10 kg?",
        both("20 EUR", "Over 10 kg | 20 EUR"),
        SUPPORTED,
    ),
    Case(
        "md-at-least",
        "row",
        "What is the standard fee for at least 50 kg?",
        both("40 EUR", "At least 50 kg | 40 EUR"),
        SUPPORTED,
    ),
    Case(
        "md-percent",
        "row",
        "What discount does a basket of 10 items or more get?",
        both("5% off", "10 items or more | 5% off"),
        SUPPORTED,
    ),
    Case(
        "csv-row",
        "row",
        "What is the monthly fee of the basic plan in apac?",
        both("5", "basic,apac,5"),
        SUPPORTED,
    ),
    Case(
        "tsv-row",
        "row",
        "Which ticket is for age under 12?",
        both("child", "under 12\tchild"),
        SUPPORTED,
    ),
    Case(
        "negative-number",
        "row",
        "What is the action below -5 °C?",
        both("Close the site", "Below -5 °C | Close the site"),
        SUPPORTED,
    ),
    Case(
        "range-row",
        "row",
        "What is the action from -5 °C to 5 °C?",
        both("Grit the paths", "-5 °C to 5 °C | Grit the paths"),
        SUPPORTED,
    ),
    Case(
        "thousands-row",
        "row",
        "What is the fee for 1,000 km or more?",
        both("1,200 EUR", "1,000 km or more\t1,200 EUR"),
        SUPPORTED,
    ),
    Case(
        "unrelated-exception",
        "exception",
        "What is the fee for a late return?",
        both("2 EUR per day", "Late return | 2 EUR per day"),
        SUPPORTED,
    ),
    Case(
        "excluded-exception",
        "exception",
        "What is the late payment fee when not paid by card?",
        both("5 EUR", "Late payment | 5 EUR unless paid by card"),
        SUPPORTED,
    ),
    Case(
        "prose-decimal",
        "anchor",
        "What is the measured reservoir capacity?",
        both("37.5 litres", "The measured reservoir capacity is 37.5 litres."),
        SUPPORTED,
    ),
    Case(
        "prose-thousands",
        "anchor",
        "How much does the overflow buffer hold?",
        both("37,500 litres", "The overflow buffer holds 37,500 litres."),
        SUPPORTED,
    ),
    Case(
        "prose-negative",
        "anchor",
        "What is the level sensor lag?",
        both("-37 ms", "The level sensor lag is -37 ms."),
        SUPPORTED,
    ),
    Case(
        "agree-unit",
        "agree",
        "How long does the pump run a day?",
        both("37", "The pump runs 37 minutes a day.", support="37 minutes"),
        SUPPORTED,
    ),
    Case(
        "between-from-to",
        "row",
        "What is the action between -5 and 5 °C?",
        both("Grit the paths", "-5 °C to 5 °C | Grit the paths"),
        SUPPORTED,
    ),
    Case(
        "less-than-from-under",
        "row",
        "Which ticket is for age less than 12?",
        both("child", "under 12\tchild"),
        SUPPORTED,
    ),
    Case(
        "at-least-from-or-more",
        "row",
        "Which ticket is for age at least 12?",
        both("adult", "12 or more\tadult"),
        SUPPORTED,
    ),
    Case(
        "csv-quoted-field",
        "row",
        "What is the rate over 1,000 EUR?",
        both("20%", '"over 1,000 EUR",20%'),
        SUPPORTED,
    ),
    Case(
        "more-specific-row",
        "row",
        "What is the max upload?",
        both("25 MB", "Max upload | 25 MB"),
        SUPPORTED,
    ),
    Case(
        "rule-same-relation",
        "rule",
        "What is the status when pressure is greater than or equal to 10?",
        both("locked", "When pressure >= 10, the status is locked."),
        SUPPORTED,
    ),
    Case(
        "condition-question",
        "row",
        "Under what condition is the status locked?",
        both("the seal is open", "locked | the seal is open"),
        SUPPORTED,
    ),
    Case(
        "condition-question-when",
        "row",
        "When is the express fee 9 EUR?",
        both("Up to 10 kg", "Up to 10 kg | 5 EUR | 9 EUR"),
        SUPPORTED,
    ),
    # -- the rule gate's traps (prose) -------------------------------------------------
    Case(
        "rule-strict-from-inclusive",
        "rule",
        "What happens when pressure >10?",
        both("locked", "When pressure >= 10, the status is locked."),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "rule-inclusive-from-strict",
        "rule",
        "What happens when pressure is at least 30?",
        both("the siren sounds", "When pressure > 30, the siren sounds."),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "rule-qualifying-sentence",
        "exception",
        "How fast does the pump run when the tank is below 20%?",
        both("50%", "The pump runs at 50% when the tank is below 20%."),
        REVIEW,
        "an exception applies",
    ),
    # -- the row gate's traps ----------------------------------------------------------
    Case(
        "condition-question-outcome",
        "row",
        "Under what condition is the status locked?",
        both("locked", "locked | the seal is open"),
        REVIEW,
        "which the question gives",
    ),
    Case(
        "condition-question-other-column",
        "row",
        "When is the express fee 9 EUR?",
        both("5 EUR", "Up to 10 kg | 5 EUR | 9 EUR"),
        REVIEW,
        "asks for the condition",
    ),
    Case(
        "exception-beside-table",
        "exception",
        "What is the alarm above 95%?",
        both("Red alarm", "Above 95% | Red alarm"),
        REVIEW,
        "an exception applies",
    ),
    Case(
        "strict-from-or-more",
        "row",
        "Which ticket is for age older than 12?",
        both("adult", "12 or more\tadult"),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "sign-above",
        "row",
        "What is the action above -5 °C?",
        both("Normal operation", "Above 5 °C | Normal operation"),
        REVIEW,
        "-5",
    ),
    Case(
        "thousands-as-written",
        "row",
        "What is the fee for 1000 km or more?",
        both("1,200 EUR", "1,000 km or more\t1,200 EUR"),
        REVIEW,
        "1000",
    ),
    Case(
        "range-bound-from-range",
        "row",
        "What is the rate up to 1,000 EUR?",
        both("0%", '"0 - 1,000 EUR",0%'),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "exception-stated",
        "exception",
        "What is the late payment fee when paid by card?",
        both("5 EUR", "Late payment | 5 EUR unless paid by card"),
        REVIEW,
        "an exception applies",
    ),
    Case(
        "specific-row-from-general",
        "row",
        "What is the max upload for admins?",
        both("25 MB", "Max upload | 25 MB"),
        REVIEW,
        "'admins' is stated in row",
    ),
    Case(
        "other-row",
        "row",
        "What refund do I get for an item returned after 30 days?",
        both("Full refund", "Returned within 30 days | Full refund"),
        REVIEW,
        "not the question's",
    ),
    Case(
        "two-rows",
        "row",
        "What refund do I get for an item returned after 30 days?",
        both("Full refund", "Full refund |\n| Returned after 30 days"),
        REVIEW,
        "not one of its rows",
    ),
    Case(
        "negated-condition",
        "row",
        "What refund do I get for a damaged item that was opened?",
        both("50% refund", "Item not damaged, opened | 50% refund"),
        REVIEW,
        "negated condition",
    ),
    Case(
        "negated-question",
        "row",
        "What refund do I get for an item not damaged on arrival?",
        both("Replacement", "Item damaged on arrival | Replacement"),
        REVIEW,
        "negated condition",
    ),
    Case(
        "noun-of-other-rows",
        "row",
        "What refund do I get for an item returned within 30 days?",
        both("Full refund", "Returned within 30 days | Full refund"),
        REVIEW,
        "'item' is stated in row",
    ),
    Case(
        "unstated-condition",
        "row",
        "What refund do I get for a gift card returned within 30 days?",
        both("Full refund", "Returned within 30 days | Full refund"),
        REVIEW,
        "unstated condition",
    ),
    Case(
        "strict-from-inclusive",
        "row",
        "What discount does a basket of more than 10 items get?",
        both("5% off", "10 items or more | 5% off"),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "inclusive-from-strict",
        "row",
        "What is the standard fee for at least 10 kg?",
        both("20 EUR", "Over 10 kg | 20 EUR"),
        REVIEW,
        "weaker or different condition",
    ),
    Case(
        "exact-from-range",
        "row",
        "What is the action at 0 °C?",
        both("Grit the paths", "-5 °C to 5 °C | Grit the paths"),
        REVIEW,
        "unstated condition",
    ),
    Case(
        "sign-of-condition",
        "row",
        "What is the action below 5 °C?",
        both("Close the site", "Below -5 °C | Close the site"),
        REVIEW,
        "5 is stated in row line 6",
    ),
    Case(
        "thousands-condition",
        "row",
        "What is the fee for 1,000 km or more?",
        both("450 EUR", "up to 999 km\t450 EUR"),
        REVIEW,
        "1,000",
    ),
    Case(
        "conflicting-row",
        "row",
        "What is the monthly fee of the pro plan in emea?",
        both("12", "pro,emea,12"),
        REVIEW,
        "conflicting row",
    ),
    Case(
        "wrong-column",
        "row",
        "What is the express fee up to 10 kg?",
        both("5 EUR", "Up to 10 kg | 5 EUR | 9 EUR"),
        REVIEW,
        "column",
    ),
    Case(
        "trigger-as-outcome",
        "row",
        "What refund do I get for an item damaged on arrival?",
        both("Item damaged on arrival", "Item damaged on arrival | Replacement"),
        REVIEW,
        "not its outcome",
    ),
    Case(
        "exception-sentence",
        "exception",
        "What discount does a basket of 100 items or more get?",
        both("12% off", "100 items or more | 12% off"),
        REVIEW,
        "an exception applies",
    ),
    Case(
        "exception-in-row",
        "exception",
        "What discount does a staff purchase get?",
        both("20% off", "Staff purchase | 20% off, except sale items"),
        REVIEW,
        "an exception applies",
    ),
    Case(
        "unless-in-row",
        "exception",
        "What is the late payment fee?",
        both("5 EUR", "Late payment | 5 EUR unless paid by card"),
        REVIEW,
        "an exception applies",
    ),
    Case(
        "exempt-sentence",
        "exception",
        "What is the fee for a lost item?",
        both("30 EUR", "Lost item | 30 EUR"),
        REVIEW,
        "an exception applies",
    ),
    # -- numbers: whole tokens ---------------------------------------------------------
    Case(
        "anchor-decimal",
        "anchor",
        "What is the measured reservoir capacity?",
        both("37", "The measured reservoir capacity is 37.5 litres."),
        REVIEW,
        "not a bounded span",
    ),
    Case(
        "anchor-thousands",
        "anchor",
        "How much does the overflow buffer hold?",
        both("37", "The overflow buffer holds 37,500 litres."),
        REVIEW,
        "not a bounded span",
    ),
    Case(
        "anchor-negative",
        "anchor",
        "What is the level sensor lag?",
        both("37 ms", "The level sensor lag is -37 ms."),
        REVIEW,
        "not a bounded span",
    ),
    Case(
        "agree-decimal",
        "agree",
        "What is the measured reservoir capacity?",
        both("37.5 litres", "The measured reservoir capacity is 37.5 litres.", support="37"),
        REVIEW,
        "answered differently",
    ),
    Case(
        "agree-negative",
        "agree",
        "What is the level sensor lag?",
        both("-37 ms", "The level sensor lag is -37 ms.", support="37 ms"),
        REVIEW,
        "answered differently",
    ),
    # -- quote, excerpt, support -------------------------------------------------------
    Case(
        "quote-not-in-source",
        "quote",
        "What is the measured reservoir capacity?",
        {
            "solver": answer(
                "40 litres",
                "The measured reservoir capacity is 40 litres.",
                holding="reservoir capacity",
            ),
            "support": said("40 litres"),
        },
        REVIEW,
        "quote",
    ),
    Case(
        "unknown-excerpt",
        "excerpt",
        "What is the measured reservoir capacity?",
        {
            "solver": {
                "status": "answer",
                "answer": "37.5 litres",
                "excerpt": "E9",
                "quote": "The measured reservoir capacity is 37.5 litres.",
            },
            "support": said("37.5 litres"),
        },
        REVIEW,
        "E9",
    ),
    Case(
        "support-abstains",
        "support",
        "What is the measured reservoir capacity?",
        {
            "solver": answer("37.5 litres", "The measured reservoir capacity is 37.5 litres."),
            "support": ABSTAIN,
        },
        REVIEW,
        "abstained",
        roles=("solver", "support"),
    ),
    # -- absence -----------------------------------------------------------------------
    Case(
        "absence-unconfirmable",
        "absence",
        "How big is the water basin?",
        {"solver": NOT_FOUND, "absence": ABSTAIN},
        REVIEW,
        "absence not confirmed: nothing matched",
        roles=(),
    ),
    Case(
        "absence-widened-confirmed",
        "absence",
        "What are the reserve capacities?",
        {"solver": NOT_FOUND, "absence": ABSTAIN},
        NOT_FOUND_OUT,
        "confirmed",
        roles=("absence",),
    ),
    Case(
        "absence-widened-contradicted",
        "absence",
        "What are the reserve capacities?",
        {"solver": NOT_FOUND, "absence": said("37.5 litres")},
        REVIEW,
        "absence not confirmed",
        roles=("absence",),
    ),
    Case(
        "solver-not-found-contradicted",
        "absence",
        "What is the measured reservoir capacity?",
        {"solver": NOT_FOUND, "absence": said("37.5 litres")},
        REVIEW,
        "absence not confirmed",
        roles=("solver", "absence"),
    ),
    Case(
        "solver-not-found-confirmed",
        "absence",
        "What is the colour of the reservoir lid?",
        {"solver": NOT_FOUND, "absence": ABSTAIN},
        NOT_FOUND_OUT,
        "confirmed",
        roles=("solver", "absence"),
    ),
    # -- schema, truncation, backend failure -------------------------------------------
    Case(
        "solver-prose",
        "schema",
        "What is the measured reservoir capacity?",
        {"solver": {"$raw": "The capacity is 37.5 litres."}, "support": said("37.5 litres")},
        UNSUPPORTED,
        "schema",
    ),
    Case(
        "support-extra-key",
        "schema",
        "What is the measured reservoir capacity?",
        {
            "solver": answer("37.5 litres", "The measured reservoir capacity is 37.5 litres."),
            "support": {"status": "answer", "answer": "37.5 litres", "confidence": 1},
        },
        UNSUPPORTED,
        "schema",
    ),
    Case(
        "solver-truncated",
        "complete",
        "What is the measured reservoir capacity?",
        {"solver": {"$raw": '{"status": "answer", "answer": "37.5 li', "$finish": "length"}},
        UNSUPPORTED,
        "truncated",
    ),
    Case(
        "backend-fails",
        "backend",
        "What is the measured reservoir capacity?",
        {"solver": {"$fail": "model is loading"}},
        UNSUPPORTED,
        "backend failed",
    ),
    # -- freshness ---------------------------------------------------------------------
    Case(
        "dirty-source",
        "fresh",
        "What is the measured reservoir capacity?",
        both("37.5 litres", "The measured reservoir capacity is 37.5 litres."),
        STALE,
        "docs/tank.md",
        edit={"docs/tank.md": "# Tank\n\nThe measured reservoir capacity is 37.5 litres.\n"},
    ),
)
