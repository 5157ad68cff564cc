"""Real Copilot CLI and Gemini CLI sessions, recorded by their hosts and published under
MIT (tests/data/hosts/real/README.md gives each file's repository, path, commit and how it
was trimmed): read into the right messages, and captured through a real repository with
no quote badged verbatim that the session did not say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import DATA, Gm
from helpers.capturing import capture

from gitmem.capture.transcripts import detect_format, load_transcript, parse_transcript
from gitmem.core.transcript import said

REAL = DATA / "hosts" / "real"
COPILOT = REAL / "copilot-vct-96ef38f0.jsonl"
COPILOT_SUBAGENT = REAL / "copilot-csv-030f200c.jsonl"
GEMINI_LOG = REAL / "gemini-vct-0ab84937.jsonl"
GEMINI_DOC = REAL / "gemini-vct-8a20078e.json"

COPILOT_PROMPT = (
    "請不要修改任何代碼 我希望你幫我調查一下 有沒有好一點的自動生成文檔可以給這個 rust 專案 "
    "例如 python 可以透過 zensical 或 mkdostrings 之類的來做自動產生文檔網頁 "
    "我不確定有沒有適合我專案的 請幫我調查 不要產生代碼或編輯代碼"
)
SUBAGENT_PROMPT = (
    "Read .copilot/skills/demo-greeter/SKILL.md, then delegate a subagent to (1) count lines"
    " in hello.py and (2) summarize README.md in one sentence. Then report the subagent's"
    " findings back to me."
)
GEMINI_REQUEST = "幫我做一個小修改 請幫我將上面確保執行時要透過 uv run 來執行 避免環境有問題"
GEMINI_DOC_PROMPT = (
    "請幫我依照專案實際狀況更新 README.md README.zh-CN.md README.zh-TW.md, "
    "開發者的引導不需要寫在裡面, 這三份文件應該更加偏向使用者取向\n"
    "目前這樣把開發者的資訊也混在裡面太亂了, 開發者需要知道的知識應該放在 CONTRIBUTING.md"
)

COPILOT_TOOLS = ["report_intent", "view", "view", "web_search", "web_search", "view", "view"]
COPILOT_TOOLS += ["bash", "web_search", "bash", "task_complete"]
GEMINI_LOG_TOOLS = ["update_topic", *["read_file"] * 7, "write_file", "update_topic"]
GEMINI_LOG_TOOLS += ["update_topic", "replace"]

CASES = [
    # file, format, session, what the user typed, tools called in order
    (
        COPILOT,
        "copilot",
        "96ef38f0-9d09-45c3-8124-6448c36090ed",
        [COPILOT_PROMPT],
        COPILOT_TOOLS,
    ),
    (
        COPILOT_SUBAGENT,
        "copilot",
        "030f200c-c26f-4ef0-9099-6d1156c83631",
        [SUBAGENT_PROMPT],
        ["view", "report_intent", "task"],
    ),
    (
        GEMINI_LOG,
        "gemini",
        "0ab84937-9fe7-4284-986a-33c832af0b6a",
        ["/init", GEMINI_REQUEST],
        GEMINI_LOG_TOOLS,
    ),
    (
        GEMINI_DOC,
        "gemini",
        "8a20078e-2d5e-4f81-a640-9b879bbb7e6d",
        [GEMINI_DOC_PROMPT],
        ["read_file"] * 3 + ["write_file"] * 4,
    ),
]


@pytest.mark.parametrize(("path", "format", "session", "typed", "tools"), CASES)
def test_a_real_session_is_read_into_its_messages(
    path: Path, format: str, session: str, typed: list[str], tools: list[str]
) -> None:
    assert detect_format(path.read_bytes(), path.name) == format
    t = load_transcript(path)
    assert (t.format, t.session, t.skipped) == (format, session, ())
    assert [m.text for m in t.messages if m.role == "user"] == typed
    assert [m.text.split("\n", 1)[0] for m in t.messages if m.role == "tool_use"] == tools
    # every call has its result, and no call or result is read as someone's words
    assert sum(m.role == "tool_result" for m in t.messages) == len(tools)
    assert {m.role for m in t.messages} == {"user", "assistant", "tool_use", "tool_result"}
    assert all(m.time is not None for m in t.messages)


def test_copilot_decorations_system_prompt_and_nudges_are_not_the_users_words() -> None:
    t = load_transcript(COPILOT)
    assert t.cwd == "/home/wei/repo/VibeCodingTracker"
    # Copilot CLI's copy for the model (the date), its system prompt, and the autopilot
    # nudge it sends as a user message with empty content are none of them said.
    for host_text in ("<current_datetime>", "You are the GitHub Copilot CLI", "task_complete tool"):
        assert host_text not in t.snapshot
    (answer,) = [m.text for m in t.messages if m.role == "assistant"]
    assert answer.startswith("以下是我的調查結果")
    assert "reasoningOpaque" not in t.snapshot


def test_a_copilot_subagents_own_turns_are_not_the_sessions_assistant() -> None:
    t = load_transcript(COPILOT_SUBAGENT)
    # The subagent's reply, written into the parent's file, is the `task` call's result;
    # the session's assistant said only its own summary of it.
    report = "- Lines in hello.py: 6\n- README.md summary: This is a demo project"
    assert [m.role for m in t.messages if m.text.startswith(report)] == ["tool_result"]
    (answer,) = [m.text for m in t.messages if m.role == "assistant"]
    assert answer.startswith("Subagent findings:")
    assert '"path":"/Users/testuser/workspace/demo-project/hello.py"' not in t.snapshot
    assert t.cwd == "/Users/testuser/workspace/demo-project"


def test_gemini_log_reads_what_the_user_typed_not_what_the_cli_sent() -> None:
    t = load_transcript(GEMINI_LOG)
    # `/init` expands to a long generated prompt (content); the user typed displayContent.
    assert "You are an AI agent that brings the power of Gemini" not in t.snapshot
    # Gemini CLI's own retry turn is logged as a user message; nobody typed it.
    assert "System: Please continue." not in t.snapshot
    # A message the log rewrites (its tool calls finishing) is read once, at its place.
    assert [m.text for m in t.messages if m.role == "tool_use"].count(
        'read_file\n{"file_path":"README.md"}'
    ) == 1
    assert "Request cancelled." not in t.snapshot  # an info line, the CLI's notice


def rewound(extra: list[object]) -> bytes:
    """The real log with *extra* lines appended, as Gemini CLI appends to it."""
    lines = [json.dumps(e, ensure_ascii=False) for e in extra]
    return GEMINI_LOG.read_bytes() + "\n".join(lines).encode() + b"\n"


def test_a_rewind_drops_the_message_it_names_and_everything_after() -> None:
    t = load_transcript(GEMINI_LOG)
    request_id = "231038fa-bbfb-4b43-9a30-b8b7fcf54895"  # the user's second prompt
    after = parse_transcript(rewound([{"$rewindTo": request_id}]), GEMINI_LOG.name)
    kept = [m.text for m in after.messages]
    assert GEMINI_REQUEST not in kept and "replace" not in {k.split("\n")[0] for k in kept}
    assert kept == [m.text for m in t.messages][: len(kept)]
    assert kept[-1].startswith("我已經完成了 `GEMINI.md` 的撰寫")
    assert after.skipped == ()
    # A later message after the rewind is read again; the rewound one stays gone.
    again = {"id": "z", "timestamp": "2026-04-23T13:00:00.000Z", "type": "user", "content": "ok"}
    resumed = parse_transcript(rewound([{"$rewindTo": request_id}, again]), GEMINI_LOG.name)
    assert [m.text for m in resumed.messages if m.role == "user"] == ["/init", "ok"]


def test_a_rewind_to_a_message_the_file_lacks_empties_it_and_says_so() -> None:
    t = parse_transcript(rewound([{"$rewindTo": "no-such-id"}]), GEMINI_LOG.name)
    assert t.messages == ()
    (why,) = t.skipped
    assert why.startswith("line 29 rewinds to a message the file does not hold")


def test_malformed_log_updates_are_skipped_lines_not_a_crash() -> None:
    t = parse_transcript(rewound([{"$rewindTo": 5}, {"$set": "later"}]), GEMINI_LOG.name)
    assert [m.text for m in t.messages if m.role == "user"] == ["/init", GEMINI_REQUEST]
    assert t.skipped == (
        "line 29 is not a Gemini CLI record",
        "line 30 is not a Gemini CLI record",
    )


def test_a_resumed_log_takes_the_session_id_its_set_names() -> None:
    t = parse_transcript(rewound([{"$set": {"sessionId": "resumed-1"}}]), GEMINI_LOG.name)
    assert t.session == "resumed-1"


@pytest.mark.parametrize(("path", "format", "session", "typed", "tools"), CASES)
def test_capturing_a_real_session_badges_only_what_was_said(
    initialised: Path,
    gm: Gm,
    path: Path,
    format: str,
    session: str,
    typed: list[str],
    tools: list[str],
) -> None:
    done = gm("capture", "--transcript", str(path), "--json")
    assert done.exit_code == 0, done.stderr
    assert done.stderr == ""  # no line of a real file is reported skipped
    data = done.json()
    assert isinstance(data, dict) and data["session"] == session and data["items"]
    messages = load_transcript(path).messages
    spoken = [m.text for m in messages if said(m.role)]
    for item in data["items"]:
        if item["trust"] == "verbatim":
            assert item["quote_verified"]
            assert any(item["quote"] in text for text in spoken), item["quote"]
    assert gm("verify").exit_code == 0  # every quote re-verifies from the stored snapshot
    # The same file captured again adds nothing (its messages are read the same way).
    assert capture(gm, path)["written"] is False
