"""A model command that answers with two valid items (it never reads its stdin)."""

import json
import sys

ANSWER = {
    "items": [
        {
            "kind": "decision",
            "text": "Keep the cache in .git/gitmem.",
            "trust": "verbatim",
            "quote": "the cache lives in .git/gitmem/",
            "importance": 2,
        },
        {
            "kind": "open_loop",
            "text": "PR 60 waits for review.",
            "trust": "inferred",
            "quote": None,
            "external_state": True,
        },
    ]
}

sys.stdout.write(json.dumps(ANSWER) + "\n")
