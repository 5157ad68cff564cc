"""A model command that prints far more than gitmem's output cap, then hangs."""

import sys
import time

block = b"x" * (1024 * 1024)
for _ in range(8):
    sys.stdout.buffer.write(block)
sys.stdout.flush()
time.sleep(60)
