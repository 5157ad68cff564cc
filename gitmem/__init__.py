"""gitmem: memory for AI coding agents that lives inside the git repository it is about."""

__version__ = "0.1.0"
