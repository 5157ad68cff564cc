"""A machine and a repository made ready (``init``), asked how they are (``status``), and
the demo (``demo`` with its sample data)."""
