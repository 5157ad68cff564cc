"""Benchmark: the model-free extraction of hostile conversations, each of many shapes.

    python benchmarks/capture_shapes.py [--megabytes 3] [--runs 1] [SHAPE ...]

A file of a few megabytes can hold any text: a session where every line marks a decision,
a recap or a question, options and picks by the thousand, one line with no full stop.
For each shape, a conversation of about ``--megabytes`` MB of *message text* (a real
session of that size holds about a sixth of it: the rest is tool output), then the time
of what the background worker runs on it with the heuristic: the extraction
(``heuristic.extract``) and the session's last word over its items
(``extract.lastword.last_word``), best of ``--runs``. The floor, in the same run, is one
fold (``core.folding.fold``) of the same text: the least any reading of it costs.
Printed: seconds, and both as a multiple of the floor.

Budget (issue 27): a captured session of 3 MB costs at most 2 s of background time. A
real one (``benchmarks/bench_capture.py``) is far under it; these shapes show what a file
built to cost the most costs, which must stay linear in its size.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.lastword import last_word
from gitmem.core.folding import fold
from gitmem.core.transcript import Message

WORDS = [
    *("cache", "parser", "module", "handler", "config", "index"),
    *("worker", "queue", "layer", "router", "token", "schema"),
]


def w(n: int) -> str:
    return WORDS[n % len(WORDS)]


def turns(size: int, say: Callable[[int, str], str]) -> list[Message]:
    """Alternating user and assistant messages of *say*(number, role) up to *size* chars."""
    messages: list[Message] = []
    total = 0
    while total < size:
        role = ("user", "assistant")[len(messages) % 2]
        text = say(len(messages), role)
        messages.append(Message(role, text))
        total += len(text)
    return messages


def offered(i: int, role: str) -> str:
    if role == "user":
        return f"{i % 8 + 1}, and keep {w(i)}"
    options = (f"{k}. **Option {k}** use {w(k)}{i} for the {w(k + 3)}" for k in range(1, 9))
    return "Which do you prefer?\n" + "\n".join(options)


def recap(i: int, role: str) -> str:
    if role == "user":
        return "All done, thanks. Skip the TODOs."
    done = "\n".join(f"- Done: added {w(k)}{i}_{k} rate={k}r/m" for k in range(40))
    todo = "\n".join(f"- TODO wire {w(k)}{i}" for k in range(40))
    kept = "\n".join(f"- We decided to keep {w(k)}{i} in src/{k}.py" for k in range(20))
    return f"## Summary\n{done}\n## Next steps\n{todo}\n## Decisions\n{kept}"


def shapes(size: int) -> dict[str, Callable[[], list[Message]]]:
    rng = random.Random(7)
    return {
        "options and picks": lambda: turns(size, offered),
        "one list of options": lambda: [
            Message(
                "assistant",
                "Which one should we pick?\n"
                + "\n".join(f"{k}. **Choice {k}** use {w(k)}{k} now" for k in range(1, size // 43)),
            ),
            Message("user", "3, but also 7"),
        ],
        "replacements": lambda: turns(
            size,
            lambda i, _: (
                f"Use {w(i)}{i} for the {w(i + 1)} layer. Actually use {w(i + 2)}{i} "
                f"instead. Scratch that, revert {w(i)}{i}."
            ),
        ),
        "rejections": lambda: turns(
            size,
            lambda i, role: (
                f"I propose we use {w(i)}{i} for the {w(i + 5)}."
                if role == "assistant"
                else "No, that's not what I asked. Nope."
            ),
        ),
        "recaps": lambda: turns(size, recap),
        "questions": lambda: turns(
            size,
            lambda i, role: (
                f"Should we use {w(i)}{i}? Or {w(i + 1)}{i}? What about the {w(i + 2)}?"
                if role == "user"
                else f"Yes, we keep {w(i)}{i}. No, not {w(i + 1)}{i}."
            ),
        ),
        "headings": lambda: turns(
            size,
            lambda i, _: "\n".join(
                f"{'#' * (1 + k % 6)} Decision {k}: use {w(k)}{i}" for k in range(50)
            ),
        ),
        "still open": lambda: turns(
            size,
            lambda i, _: (
                f"One thing still open: the {w(i)}{i} retry. Still needs: {w(i + 1)} "
                f"tests. Done: fixed {w(i + 2)}{i}."
            ),
        ),
        "called off": lambda: turns(
            size,
            lambda i, role: (
                f"Next I will add {w(i)}{i} tests and wire {w(i + 3)}{i}."
                if role == "assistant"
                else f"skip the {w(i)}{i} tests, no need to wire {w(i + 3)}{i}"
            ),
        ),
        "one line, no full stop": lambda: [
            Message("assistant", " ".join(rng.choice(WORDS) for _ in range(size // 6)))
        ],
        "CJK, no punctuation": lambda: [
            Message(
                "assistant",
                "".join(
                    rng.choice("的了给我们决定使用缓存模块解析器配置索引") for _ in range(size // 3)
                ),
            )
        ],
        "one word": lambda: [Message("user", "decide:" + "x" * size)],
        "quotes around a quote": lambda: [
            Message("assistant", '"' * (size // 2) + "use the cache" + '"' * (size // 2))
        ],
    }


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("shape", nargs="*", help="only these shapes (default: all)")
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    made = shapes(size)
    chosen = args.shape or list(made)
    unknown = [name for name in chosen if name not in made]
    if unknown:
        parser.error(f"no shape {unknown[0]!r}; the shapes: {', '.join(made)}")
    head = f"{'shape':28s} {'MB':>5s} {'msgs':>7s} {'floor':>6s} {'extract':>8s} {'last word':>10s}"
    print(head + "  items")
    for name in chosen:
        messages = made[name]()
        text = sum(len(m.text) for m in messages)
        print(f"{name:28s} {text / 1e6:5.2f} {len(messages):7d} " + timings(messages, args.runs))


def timings(messages: list[Message], runs: int) -> str:
    """The floor, the extraction and the last word of *messages*, best of *runs*."""
    floor = best(runs, lambda: [fold(m.text) for m in messages])
    drafts = extract(messages)
    extraction = best(runs, lambda: extract(messages))
    last = best(runs, lambda: last_word(drafts, messages))
    return (
        f"{floor:5.2f}s {extraction:6.2f}s {extraction / floor:4.0f}x "
        f"{last:5.2f}s {last / floor:4.0f}x  {len(drafts)}"
    )


if __name__ == "__main__":
    main()
