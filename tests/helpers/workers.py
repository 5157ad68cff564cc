"""Functions run in other processes by tests (a spawned process imports them by this
module's top-level name, which ``tests/`` on the path provides)."""

from __future__ import annotations

from gitmem.core.canonical import sha256_hex
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store


def append_snapshots(args: tuple[str, int]) -> None:
    """Append five snapshots, one commit each, as writer *n* of the repository at *path*."""
    path, n = args
    store = Store.discover(path)
    for i in range(5):
        data = f"{n}-{i}".encode()
        store.append([Entry(content_path("snapshots", sha256_hex(data)), data)], f"w{n}", f"w{n}")
