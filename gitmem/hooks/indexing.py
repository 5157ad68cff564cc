"""``gitmem hook index``: the index of this clone's memory brought up to date (built
whole, in steps a killed process goes on from) in the background, started by a brief
that read only the newest checkpoints (:mod:`gitmem.lifecycle.head`)."""

from __future__ import annotations

from gitmem.store.repo import Store


def build_index(store: Store) -> None:
    """Bring the index of *store*'s memory (the fetched view, as readers see it) up to
    date under the reader's trust roots. Raises GitError when the memory ref cannot be
    read (the hook logs it)."""
    from gitmem.lifecycle.fetched import with_fetched
    from gitmem.lifecycle.index import Index
    from gitmem.store.home import gitmem_home
    from gitmem.store.roots import load_trust_roots

    roots = load_trust_roots(gitmem_home(), store)
    Index.open(with_fetched(store, roots), roots).close()
