"""Benchmark: how many of the ask gate cases ``gitmem ask`` decides as the source
prototype's gates do.

    python benchmarks/ask_agreement.py [--backend command|http] [-v]

The cases are ``tests/helpers/ask_cases.py``: one per gate and trap of the evidence-gated design
(policy rows, exceptions, whole-number anchors, agreement, quotes, confirmed absence,
schema, truncation, backend failure, freshness), each with the replies of a scripted
model and the outcome the prototype gives. Each runs through the real CLI in a fresh
repository, the model a real subprocess per call (``command``, the default) or a real
loopback HTTP server (``http``). It prints ``agree N/M`` and, for each disagreement, the
case, both outcomes and gitmem's reason; ``-v`` prints every case. Exit status 1 when
any case disagrees.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import pytest  # noqa: E402
from fakes.ask_script import ScriptServer  # noqa: E402
from helpers.ask_cases import CASES, EXIT  # noqa: E402
from helpers.asking import FILES, Model, make_repo, run_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("command", "http"), default="command")
    parser.add_argument("-v", "--verbose", action="store_true")
    options = parser.parse_args()
    server = ScriptServer()
    agree, gates = 0, {}
    try:
        with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
            root = Path(folder)
            repo, home = make_repo(root, FILES)
            patch.setenv("HOME", str(root / "no-such-home"))
            patch.setenv("GIT_CONFIG_GLOBAL", str(root / "no-such-gitconfig"))
            patch.setenv("GITMEM_HOME", str(home))
            for case in CASES:
                logs = root / case.name
                logs.mkdir()
                code, document = run_case(case, Model(options.backend, logs, server), repo, patch)
                ok = (document["outcome"], code) == (case.prototype, EXIT[case.prototype]) and (
                    case.reason.lower() in document["reason"].lower()
                )
                agree += ok
                total, good = gates.get(case.gate, (0, 0))
                gates[case.gate] = (total + 1, good + ok)
                if options.verbose or not ok:
                    mark = "ok  " if ok else "DIFF"
                    print(
                        f"{mark} {case.name:30} prototype {case.prototype:20} gitmem "
                        f"{document['outcome']:20} exit {code}: {document['reason'][:200]}"
                    )
    finally:
        server.close()
    print(" ".join(f"{gate} {good}/{total}" for gate, (total, good) in sorted(gates.items())))
    print(f"agree {agree}/{len(CASES)} ({options.backend} backend)")
    return 0 if agree == len(CASES) else 1


if __name__ == "__main__":
    sys.exit(main())
