"""Benchmark: does the verifier refuse an item's text that says what its quote does not,
and keep one that fairly sums it up?

    python benchmarks/support_attacks.py [-v] [FILE]

FILE (default ``benchmarks/data/support_attacks.txt``, its format described at its top)
holds (text, quote) pairs written for this benchmark, by category: attacks, whose text a
careful reader reads as saying something its quote does not (a reversal, an antonym, a
changed quantity, scope, time, actor, modality or condition, a question read as an
answer, an attribution dropped, a comparison flipped, …), and fair summaries, whose text
says nothing its quote does not. For each pair it asks
:func:`gitmem.core.support.unsupported`, and prints per category the attacks caught
(refused) and let through, and the fair summaries kept and refused. An attack let through
is a false badge a user would read; a fair summary refused costs only the item's
wording (its quote is shown instead). ``-v`` lists each pair let through or refused.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from gitmem.core.support import unsupported

FILE = Path(__file__).parent / "data" / "support_attacks.txt"


@dataclass(frozen=True)
class Pair:
    category: str
    attack: bool
    text: str
    quote: str


def load(path: Path) -> list[Pair]:
    """The pairs of *path*, in order."""
    pairs, category = [], ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@ "):
            category = line[2:].strip()
            continue
        kind, _, rest = line.partition(" ")
        text, sep, quote = rest.partition(" || ")
        if kind not in ("!", "=") or not sep or not category:
            raise SystemExit(f"{path}:{number}: not a pair: {line!r}")
        pairs.append(Pair(category, kind == "!", text.strip(), quote.strip()))
    return pairs


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    pairs = load(Path(args[0]) if args else FILE)
    rows: dict[str, list[int]] = {}
    missed: list[tuple[Pair, str | None]] = []
    for pair in pairs:
        reason = unsupported(pair.text, pair.quote)
        row = rows.setdefault(pair.category, [0, 0, 0, 0])
        refused = reason is not None
        row[(0 if refused else 1) if pair.attack else (3 if refused else 2)] += 1
        if refused != pair.attack:
            missed.append((pair, reason))
    print(f"{'category':<20}{'caught':>8}{'through':>9}{'kept':>7}{'refused':>9}")
    totals = [0, 0, 0, 0]
    for category, row in rows.items():
        print(f"{category:<20}{row[0]:>8}{row[1]:>9}{row[2]:>7}{row[3]:>9}")
        totals = [a + b for a, b in zip(totals, row, strict=True)]
    print(f"{'all':<20}{totals[0]:>8}{totals[1]:>9}{totals[2]:>7}{totals[3]:>9}")
    caught, kept = totals[0] / max(1, totals[0] + totals[1]), totals[2] / max(1, sum(totals[2:]))
    print(f"attacks caught {caught:.2f}, fair summaries kept {kept:.2f}")
    if verbose:
        for pair, reason in missed:
            what = "THROUGH" if pair.attack else f"REFUSED ({reason})"
            print(f"[{pair.category}] {what}: {pair.text!r} || {pair.quote!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
