"""The sources the ask gate cases run against, and the helpers that run one case through
the real CLI with a scripted model behind the command backend (a real subprocess) or the
openai backend (a real loopback HTTP server)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fakes.ask_script import ScriptServer

from gitmem.core.records import parse_record
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from helpers import GIT_ENV, TESTS, run

SCRIPT = TESTS / "fakes" / "ask_script.py"
BACKENDS = ("command", "http")

REFUNDS = """# Refunds

How returns are refunded.

| Condition | Refund |
|---|---|
| Returned within 30 days | Full refund |
| Returned after 30 days | Store credit |
| Item damaged on arrival | Replacement |
| Item not damaged, opened | 50% refund |
"""
SHIPPING = """# Shipping fees

| Weight | Standard | Express |
|---|---|---|
| Up to 10 kg | 5 EUR | 9 EUR |
| Over 10 kg | 20 EUR | 35 EUR |
| At least 50 kg | 40 EUR | 60 EUR |
"""
DISCOUNTS = """## Discounts

| Basket | Discount |
| --- | --- |
| 10 items or more | 5% off |
| 100 items or more | 12% off |
| Staff purchase | 20% off, except sale items |

Exception: baskets of 100 items or more paid on credit get no discount.
"""
PLANS = """plan,region,monthly_fee
basic,emea,4
basic,apac,5
pro,emea,12
pro,emea,15
"""
TICKETS = "age\tticket\nunder 12\tchild\n12 or more\tadult\n"
TANK = """# Tank

The measured reservoir capacity is 37.5 litres.
The overflow buffer holds 37,500 litres.
The level sensor lag is -37 ms.
The pump runs 37 minutes a day.
"""
WEATHER = """# Site weather rules

| Temperature | Action |
|---|---|
| Below -5 °C | Close the site |
| -5 °C to 5 °C | Grit the paths |
| Above 5 °C | Normal operation |
"""
FREIGHT = "distance\tfee\nup to 999 km\t450 EUR\n1,000 km or more\t1,200 EUR\n"
LATE = """## Late fees

| Case | Fee |
|---|---|
| Late payment | 5 EUR unless paid by card |
| Late return | 2 EUR per day |
| Lost item | 30 EUR |

Lost items reported within 7 days are exempt from the fee.
"""
RATES = 'band,rate\n"0 - 1,000 EUR",0%\n"over 1,000 EUR",20%\n'
LIMITS = """Limits of the upload service.

Limit | Value
--- | ---
Max upload | 25 MB
Max upload for admins | 100 MB
"""
PRESSURE = """# Pressure rules

When pressure >= 10, the status is locked.
When pressure < 10, the status is open, except during a purge.
When pressure > 30, the siren sounds.
"""
PUMP = """# Pump

The pump runs at 50% when the tank is below 20%.
Only when the mains supply is on.
"""
SEAL = """# Seal

| Status | Condition |
|---|---|
| locked | the seal is open |
| open | the seal is closed |
"""
ALARMS = """## Alarms

| Level | Alarm |
|---|---|
| Above 80% | Amber alarm |
| Above 95% | Red alarm |

Except during maintenance.
"""
FILES = {
    "docs/refunds.md": REFUNDS,
    "docs/shipping.md": SHIPPING,
    "docs/discounts.md": DISCOUNTS,
    "data/plans.csv": PLANS,
    "data/tickets.tsv": TICKETS,
    "docs/tank.md": TANK,
    "docs/weather.md": WEATHER,
    "data/freight.tsv": FREIGHT,
    "docs/late.md": LATE,
    "data/rates.csv": RATES,
    "docs/limits.md": LIMITS,
    "docs/pressure.md": PRESSURE,
    "docs/pump.md": PUMP,
    "docs/seal.md": SEAL,
    "docs/alarms.md": ALARMS,
    # Enough unrelated text that the sources cannot be read whole by an absence check.
    "docs/changelog.md": "".join(f"- release {n}: maintenance\n" for n in range(200)),
}


def make_repo(root: Path, files: dict[str, str]) -> tuple[Path, Path]:
    """A repository with *files* committed and gitmem initialised; returns it and the
    gitmem home (use them with :func:`ask_env`)."""
    repo, home = root / "repo", root / "home"
    repo.mkdir()
    git = ["git", "-C", str(repo)]
    with pytest.MonkeyPatch.context() as patch:
        # Module-scoped callers run before the per-test isolation: isolate here too.
        patch.setenv("HOME", str(root / "no-such-home"))
        patch.setenv("GIT_CONFIG_GLOBAL", str(root / "no-such-gitconfig"))
        patch.delenv("XDG_CONFIG_HOME", raising=False)
        for key, value in GIT_ENV.items():
            patch.setenv(key, value)
        patch.setenv("GITMEM_HOME", str(home))
        subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
        subprocess.run([*git, "config", "user.email", "alice@example.com"], check=True)
        subprocess.run([*git, "config", "user.name", "Alice"], check=True)
        for path, text in files.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "sources"], check=True)
        result = run("-C", str(repo), "init")
    assert result.exit_code == 0, result.stderr
    return repo, home


class Model:
    """Points ``gitmem ask`` at a scripted model, through one backend."""

    def __init__(self, backend: str, tmp: Path, server: ScriptServer) -> None:
        self.backend, self.tmp, self.server = backend, tmp, server
        self.log = tmp / "calls.jsonl"
        self.name = ""

    def use(self, monkeypatch: pytest.MonkeyPatch, script: dict[str, Any], name: str) -> None:
        self.name = name
        for key in ("GITMEM_COMMAND", "GITMEM_EXTRACTOR", "GITMEM_OPENAI_BASE_URL"):
            monkeypatch.delenv(key, raising=False)
        if self.backend == "command":
            path = self.tmp / f"{name}.json"
            path.write_text(json.dumps(script))
            argv = [sys.executable, str(SCRIPT), str(path), "--log", str(self.log)]
            monkeypatch.setenv("GITMEM_COMMAND", shlex.join(argv))
        else:
            self.server.scripts[name] = script
            monkeypatch.setenv("GITMEM_EXTRACTOR", "openai")
            monkeypatch.setenv("GITMEM_OPENAI_BASE_URL", self.server.url(name))
            monkeypatch.setenv("GITMEM_OPENAI_MODEL", "tiny")

    def roles(self) -> list[str]:
        """The roles called so far (both backends log every prompt)."""
        if self.backend == "command":
            if not self.log.exists():
                return []
            return [json.loads(line)["role"] for line in self.log.read_text().splitlines()]
        return [r for r, _ in self.server.prompts.get(self.name, [])]

    def prompts(self) -> list[tuple[str, str]]:
        if self.backend == "command":
            if not self.log.exists():
                return []
            lines = self.log.read_text().splitlines()
            return [(json.loads(x)["role"], json.loads(x)["prompt"]) for x in lines]
        return list(self.server.prompts.get(self.name, []))


def ask(repo: Path, question: str, *options: str) -> tuple[int, dict[str, Any]]:
    result = run("-C", str(repo), "ask", question, "--json", *options)
    assert result.stderr == "", result.stderr
    document = result.json()
    assert isinstance(document, dict)
    return result.exit_code, document


def ask_event(repo: Path, address: str) -> dict[str, Any]:
    data = Store.discover(repo).read_path(content_path("events", Sha256Hex(address)))
    assert data is not None
    record = parse_record(data)
    return {"event": getattr(record, "event", None), **dict(getattr(record, "extra", {}))}


def answer(text: str, quote: str, holding: str | None = None) -> dict[str, Any]:
    """A solver reply citing whichever excerpt holds *holding* (the quote by default)."""
    return {
        "status": "answer",
        "answer": text,
        "excerpt": f"@{holding or quote}",
        "quote": quote,
    }


def said(text: str) -> dict[str, Any]:
    return {"status": "answer", "answer": text}


ABSTAIN = {"status": "abstain"}
NOT_FOUND = {"status": "not_found"}


def run_case(
    case: Any, model: Model, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, dict[str, Any]]:
    """Ask *case* (an :class:`ask_cases.Case`) through the CLI with its script behind
    *model*; its edits are undone afterwards."""
    model.use(monkeypatch, case.script, case.name)
    saved = {path: (repo / path).read_bytes() for path in case.edit}
    try:
        for path, text in case.edit.items():
            (repo / path).write_text(text)
        return ask(repo, case.question, "--reuse-window", "0")
    finally:
        for path, data in saved.items():
            (repo / path).write_bytes(data)
