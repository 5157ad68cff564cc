"""The read model (.git/gitmem/memory.sqlite): kept current incrementally as the memory
ref moves, always equal to a rebuild from scratch, rebuilt when deleted or corrupt, and
never trusted for what the brief renders."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tamper import edit_record, overwrite_object, resign_with_untrusted_key

from gitmem.brief.emit import make_brief
from gitmem.core.items import Trust
from gitmem.core.records import EVENT_STATUS
from gitmem.lifecycle.codec import encode_state
from gitmem.lifecycle.memory import MODEL_FILE, Memory
from gitmem.store.keys import load_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

TRANSCRIPT = "We agreed: deploys stop on Fridays.\nThe parser handles port 137.\n"


def capture(gm: Any, repo: Path, items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    path = repo.parent / name
    path.write_text(TRANSCRIPT + f"({name})\n")
    result = gm(
        "capture", "--transcript", str(path), "--items", "-", "--json", input=json.dumps(items)
    )
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert isinstance(document, dict)
    return document


def snapshot(store: Store, home: Path) -> tuple[bool, dict[str, Any], tuple[int, int, Any]]:
    model = Memory.open(store, load_trust_roots(home, store))
    try:
        state = model.state()
        encoded = {a: encode_state(s) for a, s in state.items.items()}
        return model.rebuilt, encoded, model.counts()
    finally:
        model.close()


def history(gm: Any, repo: Path, home: Path) -> Store:
    """Captures, a resolve, a supersede, a forget, and a status event dated in the past
    (as a sync brings), the model read after each step."""
    store = Store.discover(repo)
    first = capture(gm, repo, [{"kind": "decision", "text": "No deploys on Fridays"}], "a.md")
    snapshot(store, home)
    second = capture(
        gm,
        repo,
        [
            {"kind": "fact", "text": "The parser handles port 137", "trust": "inferred"},
            {"kind": "open_loop", "text": "Check the parser on port 138"},
        ],
        "b.md",
    )
    snapshot(store, home)
    keep, loop = (i["id"] for i in second["items"])
    assert gm("resolve", loop[:8], "--note", "done").exit_code == 0
    snapshot(store, home)
    newer = capture(gm, repo, [{"kind": "decision", "text": "Deploys stop Fri noon"}], "c.md")
    assert gm("supersede", first["items"][0]["id"][:8], newer["items"][0]["id"][:8]).exit_code == 0
    assert gm("forget", keep[:8]).exit_code == 0
    snapshot(store, home)
    earlier = datetime.now(UTC) - timedelta(days=3)
    extra = {"to": "STALE", "from": "INFERRED", "reason": "not seen again"}
    write_event(store, load_identity(home), EVENT_STATUS, loop, "s", earlier, extra)
    return store


def test_an_advanced_model_equals_a_rebuild(gm: Any, initialised: Path, home: Path) -> None:
    store = history(gm, initialised, home)
    rebuilt, advanced, counts = snapshot(store, home)
    assert not rebuilt  # every step advanced the file, none rebuilt it
    (store.local_dir / MODEL_FILE).unlink()
    again, fresh, fresh_counts = snapshot(store, home)
    assert again and advanced == fresh and counts == fresh_counts
    assert len(fresh) == 4 and sum(s["forgotten"] for s in fresh.values()) == 1


def test_a_deleted_or_corrupt_model_is_rebuilt(gm: Any, initialised: Path, home: Path) -> None:
    store = Store.discover(initialised)
    capture(gm, initialised, [{"kind": "decision", "text": "No deploys on Fridays"}], "a.md")
    _, before, _ = snapshot(store, home)
    path = store.local_dir / MODEL_FILE
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    rebuilt, after, _ = snapshot(store, home)
    assert rebuilt and after == before
    path.unlink()
    assert gm("brief").exit_code == 0 and path.is_file()
    assert "No deploys on Fridays" in gm("brief").stdout


def test_other_trust_roots_rebuild_the_model(gm: Any, initialised: Path, home: Path) -> None:
    store = Store.discover(initialised)
    capture(gm, initialised, [{"kind": "decision", "text": "No deploys on Fridays"}], "a.md")
    snapshot(store, home)
    (home / "allowed_signers").unlink()  # the writer's own key is no longer trusted
    rebuilt, states, _ = snapshot(store, home)
    assert rebuilt and states == {}  # records by an untrusted key replay nothing


def test_a_warm_model_never_hides_an_edited_rendered_item(
    gm: Any, initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    quote = "deploys stop on Fridays"
    items = [
        {"kind": "decision", "text": "Deploys stop on Fridays", "trust": "verbatim", "quote": quote}
    ]
    captured = capture(gm, initialised, items, "a.md")
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.VERBATIM  # the model is warm now
    # The git object behind the item is rewritten in place: the ref does not move, so
    # the model has nothing new to read; the brief checks what it renders anyway.
    path = content_path("items", captured["items"][0]["id"])
    overwrite_object(store, path, b"Deploys stop", b"Deploys go")
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.UNTAGGED and shown.quote is None
    assert shown.degraded_label is not None
    assert "⚠" in gm("brief").stdout


def test_a_warm_model_never_hides_an_edited_checkpoint(
    gm: Any, initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    items = [{"kind": "decision", "text": "No deploys on Fridays", "quote": "Fridays"}]
    captured = capture(gm, initialised, items, "a.md")
    make_brief(store, home, world_check=False)
    data = store.read_path(content_path("checkpoints", captured["checkpoint"]))
    assert data is not None
    overwrite_object(
        store, content_path("checkpoints", captured["checkpoint"]), b'"a.md"', b'"x.md"'
    )
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.UNTAGGED and shown.degraded_label is not None


def test_an_edited_item_a_failed_checkpoint_also_names_stays_visible(
    gm: Any, initialised: Path, home: Path
) -> None:
    """An item blob edited in a new commit, and a later checkpoint that carries it edited
    too: the item is shown degraded (never dropped) by the advanced model and by a
    rebuild alike, whichever checkpoint naming it the model reads last."""
    store = Store.discover(initialised)
    quote = "deploys stop on Fridays"
    items = [
        {"kind": "decision", "text": "Deploys stop on Fridays", "trust": "verbatim", "quote": quote}
    ]
    first = capture(gm, initialised, items, "a.md")
    later = capture(gm, initialised, [{"kind": "fact", "text": "Port 137 is parsed"}], "b.md")
    make_brief(store, home, world_check=False)  # the model is warm
    edit_record(store, first["checkpoint"], b"Deploys stop", b"Deploys go")
    make_brief(store, home, world_check=False)
    edit_record(store, later["checkpoint"], b"alice@example.com", b"alice@example.org")

    def shown() -> dict[str, str | None]:
        return {i.id: i.degraded_label for i in make_brief(store, home, world_check=False).items}

    advanced = shown()
    assert advanced[first["items"][0]["id"]] == "item edited"
    (store.local_dir / MODEL_FILE).unlink()
    assert shown() == advanced


def test_the_model_knows_which_sessions_sighted_an_item(
    gm: Any, initialised: Path, home: Path
) -> None:
    capture(gm, initialised, [{"kind": "decision", "text": "No deploys on Fridays"}], "a.md")
    store = Store.discover(initialised)
    session = str(gm("log", "--json").json()[0]["session"])
    model = Memory.open(store, load_trust_roots(home, store))
    try:
        assert model.sighted_in(session)
        assert not model.sighted_in(session[:-1])  # a prefix is another session
        assert not model.sighted_in("commit-000000000000")
    finally:
        model.close()


def test_a_rebuild_on_two_cores_is_the_rebuild_on_one(
    gm: Any, initialised: Path, home: Path, monkeypatch: Any
) -> None:
    """Checks split across a forked child give the model a one-process rebuild gives,
    a failed record's verdict included."""
    from gitmem.store import parallel

    store = history(gm, initialised, home)
    captured = capture(gm, initialised, [{"kind": "fact", "text": "Port 137 is open"}], "d.md")
    resign_with_untrusted_key(store, captured["checkpoint"], b"137", b"138")

    def rebuilt() -> tuple[dict[str, Any], Any, Any]:
        (store.local_dir / MODEL_FILE).unlink(missing_ok=True)
        model = Memory.open(store, load_trust_roots(home, store))
        try:
            state = {a: encode_state(s) for a, s in model.state().items.items()}
            return state, model.counts(), [(f.path, f.check.problem) for f in model.failed()]
        finally:
            model.close()

    one = rebuilt()
    monkeypatch.setattr(parallel, "MIN_SPLIT", 2)
    if not parallel._worth_splitting(10):
        return  # one core here: nothing to compare
    two = rebuilt()
    assert two == one and one[2]  # the edited checkpoint failed in both


def test_a_rebuild_that_dies_midway_leaves_a_file_the_next_command_rebuilds(
    gm: Any, initialised: Path, home: Path, monkeypatch: Any
) -> None:
    """A fresh model is written without a journal (its pages once, not twice): a rebuild
    that fails halfway leaves a file without its key, which the next open rebuilds."""
    import pytest

    from gitmem.lifecycle import model_build

    store = history(gm, initialised, home)
    _, before, counts = snapshot(store, home)
    (store.local_dir / MODEL_FILE).unlink()

    def dies(*args: Any) -> None:
        raise OSError("killed")

    with monkeypatch.context() as patched:
        patched.setattr(model_build, "_replay_whole", dies)
        with pytest.raises(OSError, match="killed"):
            snapshot(store, home)
    assert (store.local_dir / MODEL_FILE).is_file()  # what the dead rebuild left
    rebuilt, after, after_counts = snapshot(store, home)
    assert rebuilt and after == before and after_counts == counts
