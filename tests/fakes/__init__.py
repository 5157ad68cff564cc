"""Fake model commands (run with ``sys.executable``) and a fake OpenAI-compatible server."""
