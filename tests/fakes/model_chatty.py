"""A model command that wraps valid JSON in friendly prose."""

import sys

sys.stdin.read()
sys.stdout.write('Sure! Here are the items:\n{"items": []}\nLet me know if you need more.\n')
