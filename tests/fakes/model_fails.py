"""A model command that fails: two lines on stderr, some stdout, exit status 1."""

import sys

sys.stdin.read()
sys.stdout.write("partial answer")
sys.stderr.write("\nerror: model 'tiny' is not loaded\nsecond line of detail\n")
sys.exit(1)
