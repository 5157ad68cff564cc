"""Reading the store's blobs: a blob larger than its path may hold is refused by the size
git's object header gives, before any of its bytes are read."""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import subprocess
import tracemalloc
import zlib
from pathlib import Path

import pygit2
import pytest

from gitmem.core.canonical import Unread, sha256_hex
from gitmem.core.integrity import (
    ITEM_UNREADABLE,
    RECEIPT_INVALID,
    RECORD_UNREADABLE,
    check_item,
    check_record,
)
from gitmem.core.quotes import QUOTE_NOT_IN_SNAPSHOT, stored_messages
from gitmem.store.layout import (
    blob_bytes,
    content_path,
    hashed_here,
    limit_of,
    object_bytes,
    walk_content,
)
from gitmem.store.repo import MEMORY_REF, Store


def claimed_blob(repo: pygit2.Repository, size: int) -> pygit2.Oid:
    """A loose blob whose header says it holds *size* bytes, followed by ten: reading it
    whole fails (git refuses it as corrupt), reading its header does not."""
    body = b"blob %d\0" % size + b"x" * 10
    oid = hashlib.sha1(body).hexdigest()
    folder = Path(repo.path) / "objects" / oid[:2]
    os.makedirs(folder, exist_ok=True)
    (folder / oid[2:]).write_bytes(zlib.compress(body))
    return pygit2.Oid(hex=oid)


def store_holding(repo: Path, path: str, oid: pygit2.Oid) -> Store:
    """The memory ref moved to a commit whose tree holds *oid* at *path*."""
    store = Store.discover(repo)
    git = store.repo
    index = pygit2.Index()
    index.add(pygit2.IndexEntry(path, oid, pygit2.enums.FileMode.BLOB))
    who = pygit2.Signature("Mallory", "mallory@example.com", 1764633600, 0)
    git.create_commit(MEMORY_REF, who, who, "more memory", index.write_tree(git), [])
    return store


@pytest.mark.parametrize(
    ("folder", "size", "what"),
    [
        ("snapshots", 300 << 20, "over the 256 MiB a snapshot may hold"),
        ("checkpoints", 5 << 20, "over the 4 MiB a record may hold"),
        ("items", 5 << 20, "over the 4 MiB an item may hold"),
        ("receipts", 65 << 10, "over the 64 KiB a receipt may hold"),
    ],
)
def test_a_blob_over_what_its_path_may_hold_is_refused_unread(
    repo: Path, folder: str, size: int, what: str
) -> None:
    # A pushed 300 MB blob was read whole (~640 MB of memory) before it was refused.
    # The blob here holds ten bytes behind a header that claims *size*: a reader that
    # read it would get nothing (git refuses it as corrupt), not its size.
    path = content_path(folder, sha256_hex(b"anything"))
    store = store_holding(repo, path, claimed_blob(pygit2.Repository(str(repo)), size))
    found = store.read_paths([path])[path]
    assert isinstance(found, Unread) and found.size == size
    assert found.reason == f"{size:,} bytes are stored, {what}; not read"
    assert store.read_path(path) == found


def test_a_blob_within_its_limit_is_read_whole(repo: Path) -> None:
    store = Store.discover(repo)
    data = b"x" * (4 << 20)  # exactly what a record may hold
    path = content_path("checkpoints", sha256_hex(data))
    oid = store.repo.create_blob(data)
    store = store_holding(repo, path, oid)
    found = store.read_paths([path])[path]
    assert not isinstance(found, Unread) and found == data
    assert blob_bytes(store.repo, store.repo.get(oid), None) == data
    assert limit_of("refs-of-no-folder")[0] == 4 << 20


def test_a_blob_read_by_its_id_is_read_as_the_tree_entry_is(repo: Path) -> None:
    # verify's helper is sent ids and reads them without making a Blob of each: the same
    # bytes, the same refusal of an oversized blob, and nothing for a non-blob or no object.
    store = Store.discover(repo)
    git = store.repo
    data = b'{"a":1}'
    oid = git.create_blob(data)
    path = content_path("checkpoints", sha256_hex(data))
    assert object_bytes(git, str(oid), path) == blob_bytes(git, git.get(oid), path) == data
    big = claimed_blob(pygit2.Repository(str(repo)), 5 << 20)
    unread = object_bytes(pygit2.Repository(str(repo)), str(big), path)
    assert isinstance(unread, Unread) and unread.size == 5 << 20
    tree = pygit2.Index().write_tree(git)
    assert object_bytes(git, str(tree), path) is None
    assert object_bytes(git, "0" * 40, path) is None
    assert object_bytes(git, "not an id", path) is None


def test_a_walk_that_hashes_what_it_reads_reads_as_git_does_and_holds_nothing(
    repo: Path,
) -> None:
    # In a hashed_here block (verify's walk) blobs are read from the object database's
    # backends: packed and loose alike, the same bytes and refusals as outside it, and
    # nothing kept per read (pygit2 leaks the wrappers of the backends it is asked for).
    store = Store.discover(repo)
    git = store.repo
    packed = [git.create_blob(b'{"n":%d}' % n) for n in range(50)]
    subprocess.run(["git", "-C", str(repo), "repack", "-a", "-d", "-q"], check=True)
    git = pygit2.Repository(str(repo))
    loose = git.create_blob(b'{"loose":true}')
    big = claimed_blob(git, 5 << 20)
    tree = pygit2.Index().write_tree(git)
    path = content_path("checkpoints", sha256_hex(b""))
    ids = [*packed, loose, big, tree]
    outside = [object_bytes(git, str(oid), path) for oid in ids]
    with hashed_here():
        inside = [object_bytes(git, str(oid), path) for oid in ids]
        assert object_bytes(git, "0" * 40, path) is None
        tracemalloc.start()
        try:
            for _ in range(20):
                for oid in ids:
                    object_bytes(git, str(oid), path)
            gc.collect()
            grown, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert inside == outside
    assert outside[0] == b'{"n":0}' and outside[50] == b'{"loose":true}'
    assert isinstance(outside[51], Unread) and outside[52] is None
    assert grown < 20_000  # 1,060 reads: ~50 KB when each read kept two wrappers


def test_every_check_refuses_an_unread_blob_by_its_size() -> None:
    unread = Unread(300 << 20, 4 << 20, "a record")
    address = sha256_hex(b"")  # the stand-in's own (empty) bytes would hash to this
    verdict = check_record(address, unread, b"receipt", ())
    assert verdict.problem == RECORD_UNREADABLE and "over the 4 MiB" in verdict.detail
    item = check_item(address, Unread(5 << 20, 4 << 20, "an item"))
    assert item.problem == ITEM_UNREADABLE and "5,242,880 bytes" in item.detail
    receipt = Unread(1 << 20, 64 << 10, "a receipt")
    signed = check_record(sha256_hex(b"{}"), b"{}", receipt, ())
    assert signed.problem == RECEIPT_INVALID and "over the 64 KiB a receipt" in signed.detail
    _, quote = stored_messages(Unread(300 << 20, 256 << 20, "a snapshot"), "text", address)
    assert quote.problem == QUOTE_NOT_IN_SNAPSHOT and "cannot be read" in quote.reason
    # The helper process that checks a share of each chunk gets it pickled.
    again = pickle.loads(pickle.dumps(unread))
    assert isinstance(again, Unread) and again.reason == unread.reason


def test_the_walk_of_a_folder_names_each_misfit_and_yields_the_rest(tmp_path: Path) -> None:
    """Every leaf is a blob at its digest, a misfit (a stray) or an entry that is not a
    plain file, whatever its fan-out folder's name: the names are checked by pattern."""
    repo = pygit2.init_repository(tmp_path / "r", bare=True)
    blob = repo.create_blob(b"x")
    good, upper = "ab" + "0" * 62, "ab" + "A" * 62
    modes = pygit2.enums.FileMode

    def tree(entries: list[tuple[str, pygit2.Oid, int]]) -> pygit2.Oid:
        builder = repo.TreeBuilder()
        for name, oid, mode in entries:
            builder.insert(name, oid, mode)
        return builder.write()

    sub = tree([(good[2:] + ".json", blob, modes.BLOB)])
    fan_ab = tree(
        [
            (good[2:] + ".json", blob, modes.BLOB),
            (upper[2:] + ".json", blob, modes.BLOB),
            ("1" * 62 + ".txt", blob, modes.BLOB),
            ("2" * 62 + ".json", blob, modes.BLOB_EXECUTABLE),
            ("3" * 62 + ".json", blob, modes.LINK),
            ("4" * 62 + ".json", sub, modes.TREE),
            (".json", blob, modes.BLOB),
            ("5" * 61 + ".json", blob, modes.BLOB),
        ]
    )
    fan_zz = tree([("0" * 62 + ".json", blob, modes.BLOB)])
    top = repo[
        tree(
            [
                ("ab", fan_ab, modes.TREE),
                ("zz", fan_zz, modes.TREE),
                ("0g", fan_zz, modes.TREE),
                ("abc", fan_zz, modes.TREE),
                ("cd", blob, modes.BLOB),
            ]
        )
    ]
    strays: list[str] = []
    odd: list[tuple[str, str]] = []
    walked = [(digest, str(leaf.id)) for digest, leaf in walk_content(top, "items", strays, odd)]
    assert walked == [(good, str(blob))]
    assert strays == [
        "items/0g/" + "0" * 62 + ".json",
        "items/ab/.json",
        "items/ab/" + "1" * 62 + ".txt",
        "items/ab/" + "4" * 62 + ".json",
        "items/ab/" + "5" * 61 + ".json",
        "items/ab/" + "A" * 62 + ".json",
        "items/abc",
        "items/cd",
        "items/zz/" + "0" * 62 + ".json",
    ]
    assert odd == [
        ("items/ab/" + "2" * 62 + ".json", "an executable"),
        ("items/ab/" + "3" * 62 + ".json", "a symlink"),
    ]


def test_the_backends_asked_last_are_those_of_the_repository_asked(tmp_path: Path) -> None:
    from gitmem.store.layout import _backends

    first = pygit2.init_repository(tmp_path / "a", bare=True)
    second = pygit2.init_repository(tmp_path / "b", bare=True)
    mine = _backends(first)
    theirs = _backends(second)
    assert _backends(first) is mine and _backends(second) is theirs
    assert _backends(first) is not theirs
    oid = first.create_blob(b"only in the first")
    assert bounded_read(first, oid) == b"only in the first"
    assert bounded_read(second, oid) is None


def bounded_read(repo: pygit2.Repository, oid: pygit2.Oid) -> bytes | None:
    from gitmem.store.layout import LIMITS, bounded_bytes

    with hashed_here():
        return bounded_bytes(repo, oid, LIMITS["items"])
