"""A chat extractor model for tests/data/chat/telegram_export.json (it never reads stdin).

Message numbers are those of the prompt: 1 Alice's decision, 2 my deposit, 3 Alice's
cats, 4 the masked key, 5 the moving date.
"""

import json
import sys

ANSWER = {
    "items": [
        {
            "message": 2,
            "kind": "open_loop",
            "text": "I send the deposit to the landlord by Friday.",
            "trust": "verbatim",
            "quote": "I send the deposit to the landlord by Friday",
        },
        {
            # Alice's words, attributed to my message 5: never verbatim.
            "message": 5,
            "kind": "decision",
            "text": "We take the flat on Via Roma.",
            "trust": "verbatim",
            "quote": "we take the flat on Via Roma from March",
        },
        {
            "message": 3,
            "kind": "belief",
            "text": "The landlord hates cats.",
            "trust": "verbatim",
            "quote": "the landlord hates cats in the flat",
        },
        {
            "message": 1,
            "kind": "decision",
            "text": "Alice chose the flat.",
            "trust": "inferred",
            "quote": None,
        },
    ]
}

sys.stdout.write(json.dumps(ANSWER) + "\n")
