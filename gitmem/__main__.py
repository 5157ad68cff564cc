"""`python -m gitmem` runs the command-line interface."""

from gitmem.cli import main

if __name__ == "__main__":
    main()
