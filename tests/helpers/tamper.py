"""What an attacker with push access can do to a store, for the tamper tests."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pygit2

from gitmem.core import canonical
from gitmem.core.receipts import Ed25519Signer, sign
from gitmem.core.types import Sha256Hex
from gitmem.setup.demo import tamper_checkpoint
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store

__all__ = [
    "add_entry",
    "edit_record",
    "overwrite_object",
    "remove_path",
    "resign_with_untrusted_key",
    "store_uncanonical_copy",
]

edit_record = tamper_checkpoint


def remove_path(store: Store, path: str) -> None:
    """Commit a tree without *path* on top of the memory ref."""
    repo = store.repo
    tip = repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    index = pygit2.Index()
    index.read_tree(tip.tree)
    index.remove(path)
    who = pygit2.Signature("mallory", "mallory@example.net")
    commit = repo.create_commit(None, who, who, "cleanup", index.write_tree(repo), [tip.id])
    repo.references[store.ref].set_target(commit, "cleanup")


def resign_with_untrusted_key(
    store: Store, address: Sha256Hex, old: bytes, new: bytes
) -> Sha256Hex:
    """Forge an edited copy of a checkpoint and of the item holding *old*, properly
    addressed and signed by mallory.

    The forged checkpoint still names alice as writer but carries mallory's key id, and
    the original is removed, so only the forgery remains.
    """
    data = store.read_path(content_path("checkpoints", address))
    assert data is not None
    value = canonical.decode(data)
    entries: list[Entry] = []
    for n, named in enumerate(value["items"]):
        blob = store.read_path(content_path("items", named))
        if blob is not None and old in blob:
            edited = blob.replace(old, new, 1)
            value["items"][n] = canonical.sha256_hex(edited)
            entries.append(Entry(content_path("items", value["items"][n]), edited))
            break
    else:
        raise AssertionError(f"no item of {address[:12]} holds {old!r}")
    mallory = Ed25519Signer.generate()
    value["key"] = mallory.public_key.fingerprint()
    forged_address = store_signed(store, canonical.encode(value), mallory, entries, "mallory")
    remove_path(store, content_path("checkpoints", address))
    remove_path(store, content_path("receipts", address))
    return forged_address


def store_uncanonical_copy(store: Store, address: Sha256Hex, signer: Ed25519Signer) -> Sha256Hex:
    """Store the checkpoint *address* again as JSON with spaces after its colons (valid
    JSON, not canonical), at the address of those bytes and signed over them by *signer*:
    everything about it holds but its form. Returns the copy's address."""
    data = store.read_path(content_path("checkpoints", address))
    assert data is not None
    return store_signed(store, data.replace(b'":', b'": '), signer, [], "tamper")


def store_signed(
    store: Store, data: bytes, signer: Ed25519Signer, beside: list[Entry], author: str
) -> Sha256Hex:
    """Append *data* as a checkpoint at the address of its bytes, with *signer*'s receipt
    over them (and the entries *beside* it, in the same commit). Returns its address."""
    address = canonical.sha256_hex(data)
    store.append(
        [
            *beside,
            Entry(content_path("checkpoints", address), data),
            Entry(content_path("receipts", address), sign(data, signer, "gitmem")),
        ],
        message=f"checkpoint stored by {author}",
        author=author,
    )
    return address


def overwrite_object(store: Store, path: str, old: bytes, new: bytes) -> None:
    """Rewrite the loose git object behind *path* in the tip tree with *old* replaced by
    *new*, in place: the ref does not move and the object keeps its name (git refuses to read
    it afterwards: its bytes no longer hash to its name)."""
    tip = store.repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    oid = str(tip.tree[path].id)
    loose = Path(store.repo.path) / "objects" / oid[:2] / oid[2:]
    data = store.read_path(path)
    assert data is not None and old in data and loose.is_file()
    edited = data.replace(old, new, 1)
    os.chmod(loose, 0o644)
    loose.write_bytes(zlib.compress(b"blob %d\0" % len(edited) + edited))


def add_entry(store: Store, path: str, data: bytes, mode: int) -> None:
    """Commit *data* at *path* with git file *mode* (a symlink, an executable) on top of
    the memory ref, as a hostile push could."""
    repo = store.repo
    tip = repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    index = pygit2.Index()
    index.read_tree(tip.tree)
    index.add(pygit2.IndexEntry(path, repo.create_blob(data), mode))
    who = pygit2.Signature("mallory", "mallory@example.net")
    commit = repo.create_commit(None, who, who, "add", index.write_tree(repo), [tip.id])
    repo.references[store.ref].set_target(commit, "add")
