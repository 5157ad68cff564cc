"""A model command that proves it read the prompt on stdin: the item text is its SHA-256."""

import hashlib
import json
import sys

prompt = sys.stdin.buffer.read()
item = {
    "kind": "fact",
    "text": hashlib.sha256(prompt).hexdigest(),
    "trust": "inferred",
    "quote": None,
    "importance": len(prompt) % 4,
}
sys.stdout.write(json.dumps({"items": [item]}))
