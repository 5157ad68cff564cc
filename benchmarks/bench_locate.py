"""Benchmark: finding a model's quotes in a 3 MB session, respelt and read again.

    python benchmarks/bench_locate.py

A session of 3,000 messages (about 3 MB, with links, emoji and dashes) and 50 model items:
20 quoted as written, 10 respelt (" -- " for "—", a link's markdown dropped), 20
invented from the session's own words. Times :func:`gitmem.capture.locate.locate_quotes`
(the capture's step) against its floor in the same run, one check of the same 50 quotes
as written (:func:`gitmem.core.quotes.check_quotes`), and prints the ratio: what the
respellings and readings cost on top of the one pass every capture makes. A try whose
words are not all said in a row is not checked message by message (``_may_match``).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from gitmem.capture.locate import locate_quotes
from gitmem.core.items import Draft, Kind, Trust
from gitmem.core.quotes import check_quotes

WORDS = [
    "the",
    "cache",
    "deploy",
    "parser",
    "redis",
    "sqlite",
    "retry",
    "worker",
    "queue",
    "café",
    "shard",
    "index",
]


def session(rng: random.Random) -> list[str]:
    texts = []
    for n in range(3000):
        words = [rng.choice(WORDS) for _ in range(150)]
        words[20] = "[the retry policy](https://example.org/retry.md)"
        words[40] = "—"
        words[60] = "🎉"
        texts.append(" ".join(words) + f" message {n}.")
    return texts


def drafts(texts: list[str], rng: random.Random) -> list[Draft]:
    quotes = [" ".join(texts[n * 97].split()[2:14]) for n in range(20)]
    for n in range(10):  # respelt: the dash in ASCII, the link's markdown dropped
        words = texts[n * 89 + 1].split()[15:45]
        quotes.append(
            " ".join(words)
            .replace("—", "--")
            .replace("[the retry policy](https://example.org/retry.md)", "the retry policy")
        )
    for _ in range(20):  # invented from the session's own words
        quotes.append(" ".join(rng.choice(WORDS) for _ in range(12)) + " for good")
    return [Draft(Kind.FACT, f"item {n}", Trust.VERBATIM, q, {}) for n, q in enumerate(quotes)]


def best(func: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        func()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    rng = random.Random(27)
    texts = session(rng)
    items = drafts(texts, rng)
    quotes = [d.quote or "" for d in items]
    floor = best(lambda: check_quotes(quotes, texts))
    located = best(lambda: locate_quotes(items, texts))
    found = sum(c is not None and c.verbatim for c in locate_quotes(items, texts))
    size = sum(len(t) for t in texts) / 1e6
    print(f"session {size:.1f} MB, {len(items)} quotes, {found} verbatim after locating")
    print(f"floor (one check as written) {floor * 1000:8.0f} ms")
    print(f"locate_quotes                {located * 1000:8.0f} ms   ratio {located / floor:5.2f}")


if __name__ == "__main__":
    main()
