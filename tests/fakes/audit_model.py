"""A scripted audit model: its verdict follows the item's words; every prompt it is shown
is appended to $AUDIT_SEEN (when set), so a test can check what the auditor saw.

"deposit" → keep; "Via Roma" → drop; "cats" → unsure; anything else → prose (a reply
outside the schema, so the audit fails).
"""

import json
import os
import sys

prompt = sys.stdin.read()
seen = os.environ.get("AUDIT_SEEN")
if seen:
    with open(seen, "a", encoding="utf-8") as handle:
        handle.write(prompt + "\n=====\n")
item = next((line for line in prompt.splitlines() if line.startswith("Item: ")), "")
if "deposit" in item:
    answer = {"verdict": "keep", "reason": "the quote states the promise"}
elif "Via Roma" in item:
    answer = {"verdict": "drop", "reason": "the quote is not from this speaker"}
elif "cats" in item:
    answer = {"verdict": "unsure", "reason": "the quote does not say hates"}
else:
    sys.stdout.write("Looks fine to me!\n")
    sys.exit(0)
sys.stdout.write(json.dumps(answer) + "\n")
