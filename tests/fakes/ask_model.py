"""A fake model command for ``gitmem ask``: ``ask_model.py PLAN [--log FILE] [--edit PATH]``.

Reads the prompt on stdin and answers as plan PLAN says (see ask_plans.py).
``--log FILE`` appends ``{"role", "prompt"}`` per call, so tests can see exactly what
each call was shown. ``--edit PATH`` appends a line to PATH when called as the solver:
the source changes between the model calls, as when someone saves a file meanwhile.
"""

import argparse
import json
import sys

from ask_plans import reply, role

parser = argparse.ArgumentParser()
parser.add_argument("plan")
parser.add_argument("--log")
parser.add_argument("--edit")
args = parser.parse_args()
prompt = sys.stdin.buffer.read().decode("utf-8")
if args.log:
    with open(args.log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"role": role(prompt), "prompt": prompt}) + "\n")
if args.edit and role(prompt) == "solver":
    with open(args.edit, "a", encoding="utf-8") as handle:
        handle.write("TIMEOUT_SECONDS = 60  # raised while the model was thinking\n")
sys.stdout.write(reply(args.plan, prompt))
