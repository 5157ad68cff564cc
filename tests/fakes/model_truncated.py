"""A model command whose answer stops in the middle of a string (a token limit)."""

import sys

sys.stdin.read()
sys.stdout.write('{"items": [{"kind": "decision", "text": "Keep the ca')
