"""Benchmark: the text check every reader runs on a teammate's records, under hostile input.

    python benchmarks/hostile_wording.py [--stop SECONDS]

A teammate (or another version of gitmem, or a fuzzer) writes the text and the quote of
the items every other clone's brief checks at each session start
(:func:`gitmem.core.support.shown_text`, through :mod:`gitmem.lifecycle.wording`), and the
texts of the decisions and open loops a new capture reads for what it turns away from or
closes (:mod:`gitmem.capture.closing`). This builds the worst (text, quote) pairs found so
far — words of thousands of letters, thousands of condition words in one clause, a chain
of hyphenated digits, a number of a thousand digits, … — at the most characters the
rules read (:data:`gitmem.core.support.READ_CHARS`) and far past it, and times each entry
point on each pair.

Each time is printed as a ratio against a floor measured in the same run: the median
time of :func:`~gitmem.core.support.unsupported` on the fair pairs of
``benchmarks/data/support_attacks.txt`` (a sentence and its quote). A call still running
after ``--stop`` seconds (default 10) is stopped and printed as ``> STOP``. Nothing here
asserts a time; the tests assert the work each rule does (tests/core/test_hostile_wording.py).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from gitmem.capture.extract.lastword import turned_away, user_turns
from gitmem.capture.extract.reports import called_off, reported_done
from gitmem.core.items import Draft, Kind, Trust
from gitmem.core.support import shown_text, unsupported
from gitmem.core.transcript import Message
from gitmem.lifecycle.wording import refused

try:
    from gitmem.core.support import READ_CHARS
except ImportError:  # a gitmem before the cap: measured at the cap all the same
    READ_CHARS = 1_000

sys.path.insert(0, str(Path(__file__).parent))
from support_attacks import FILE, load


class _Stopped(Exception):
    pass


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


def _repeat(unit: str, chars: int) -> str:
    return (unit * (chars // len(unit) + 1))[:chars]


def pairs(chars: int) -> list[tuple[str, str, str]]:
    """(name, text, quote) of the hostile pairs, each text and quote about *chars* long."""
    said = "We deploy on Fridays."

    def both(unit: str) -> tuple[str, str]:
        body = _repeat(unit, chars - 2)
        return body, body + " x"

    return [
        ("one word of letters", *both("a")),
        ("one word, text only", _repeat("a", chars), said),
        ("one word, quote only", said, _repeat("a", chars)),
        ("condition words", "We deploy " + _repeat("if we ", chars - 10), _repeat("if ", chars)),
        ("chain of hyphenated digits", *both("1-2")),
        ("a number of exponents", *both("1e999")),
        ("digits", *both("1")),
        ("snake_case chain", *both("a_b_")),
        ("dotted chain", *both("a.b.")),
        ("hyphenated word", *both("x-")),
        ("dashes", *both("—")),
        ("ellipses", *both("...")),
        ("negations", _repeat("not ", chars), _repeat("no ", chars)),
        ("modals", *both("could ")),
        ("ranges", *both("between 1 and 2 ")),
        ("words", "We deploy " + _repeat("word ", chars - 10), _repeat("word ", chars)),
    ]


def fair_floor() -> float:
    """The median seconds :func:`unsupported` takes on a fair pair."""
    fair = [p for p in load(FILE) if not p.attack]
    for p in fair:  # patterns compile on first use: not the floor
        unsupported(p.text, p.quote)
    times = []
    for p in fair:
        start = time.perf_counter()
        unsupported(p.text, p.quote)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def entry_points(cache: Path) -> dict[str, Callable[[str, str], object]]:
    """Each entry point a teammate's text and quote reach, as a call on (text, quote)."""
    messages = [
        Message("user", "Decision: drop Redis, the session cache moves to Postgres."),
        Message("assistant", "The load test is done and the docs are merged."),
        Message("user", "Skip the load test, we don't need it."),
    ]
    turning = user_turns(messages)
    counter = iter(range(10**9))

    def wording(text: str, quote: str) -> object:  # a cold cache: a new address each time
        return refused(cache, [(f"{next(counter):064x}", text, quote)])

    return {
        "shown_text": shown_text,
        "wording.refused": wording,
        "turned_away": lambda t, q: turned_away(
            Draft(Kind.DECISION, t, Trust.VERBATIM, q, {}), turning
        ),
        "reported_done": lambda t, q: reported_done([("x", t)], messages),
        "called_off": lambda t, q: called_off([("x", t)], messages),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stop", type=float, default=10.0)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _stop)
    floor = fair_floor()
    print(f"floor: unsupported on a fair pair, median {floor * 1e3:.3f} ms")
    with tempfile.TemporaryDirectory() as cache:
        calls = entry_points(Path(cache))
        for chars in (READ_CHARS, 100 * READ_CHARS):
            print(f"\n{'pair, ' + format(chars, ',') + ' characters':40}", end="")
            print("".join(f"{name:>17}" for name in calls))
            worst = 0.0
            for name, text, quote in pairs(chars):
                cells = []
                for call in calls.values():
                    signal.setitimer(signal.ITIMER_REAL, args.stop)
                    start = time.perf_counter()
                    try:
                        call(text, quote)
                        took = time.perf_counter() - start
                        cells.append(f"{took / floor:>16.0f}x")
                        worst = max(worst, took)
                    except _Stopped:
                        cells.append(f"{'> ' + format(args.stop, 'g') + ' s':>17}")
                        worst = max(worst, args.stop)
                    finally:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                print(f"{name:40}" + "".join(cells), flush=True)
            print(f"{'worst':40}{worst / floor:>16.0f}x ({worst * 1e3:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
