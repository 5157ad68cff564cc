"""A model command that starts a grandchild, writes both pids to argv[1], then hangs."""

import os
import subprocess
import sys
import time

grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
with open(sys.argv[1], "w") as handle:
    handle.write(f"{os.getpid()} {grandchild.pid}\n")
sys.stdout.write('{"items": [')
sys.stdout.flush()
time.sleep(60)
