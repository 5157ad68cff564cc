"""Benchmark: the quote verifier on a 1 MB transcript.

    python benchmarks/bench_verifier.py

Times folding 1 MB of markdown-heavy text, checking 20 quotes against it (folded once),
and input shaped to make a backtracking regex blow up; then the paths that cost more and
run only when needed: a quote with an ellipsis (its gaps are searched for a negation),
the matched span (a second, offset-mapping fold of the message), and a quote that
reflows a list (the marker-aware search, which needs that fold too).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from gitmem.core.quotes import check_quote, check_quotes, fold, strip_gitmem_context

LINE = "- “Quoted” **bold** `code` snake_case_name _emph_ ~~old~~ — port 137, café.\n"
TEXT = LINE * (1_000_000 // len(LINE))
HOSTILE = "<gitmem-context " * 20_000 + "_a_" * 20_000 + "~" * 20_000 + "\n- " * 20_000
QUOTES = [f"snake_case_name emph old - port 137, café. quoted bold {n}" for n in range(19)]
QUOTES.append("quoted bold code snake_case_name")
SAID = '"quoted" bold code snake_case_name emph old - port 137, café.'
ELIDED = "snake_case_name emph old… port 137, café"
REFLOWED = 'café. - "quoted" bold code snake_case_name'


def best(func: Callable[[], object], runs: int = 7) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        func()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000, min(times) * 1000


def span(quote: str) -> str | None:
    return check_quote(quote, [TEXT], with_span=True).span


def main() -> None:
    rows = [
        ("fold 1 MB markdown (with context strip)", lambda: fold(strip_gitmem_context(TEXT))),
        ("20 quotes against 1 MB, folded once", lambda: check_quotes(QUOTES, [TEXT])),
        (
            "one quote against 1 MB in 2000 messages",
            lambda: check_quote(QUOTES[-1], [TEXT[i : i + 500] for i in range(0, len(TEXT), 500)]),
        ),
        ("hostile input (unclosed tags, _ ~ runs)", lambda: check_quote("absent words", [HOSTILE])),
        ("a quote with an ellipsis against 1 MB", lambda: check_quote(ELIDED, [TEXT])),
        ("the same quote's span, in a 1 MB message", lambda: span(SAID)),
        ("a reflowed list quote against 1 MB", lambda: check_quote(REFLOWED, [TEXT])),
    ]
    for name, func in rows:
        median, low = best(func)
        print(f"{name:45} {median:7.1f} ms (min {low:.1f})")


if __name__ == "__main__":
    main()
