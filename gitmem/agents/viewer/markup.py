"""HTML for the viewer: escaping, the page around each view, and its one stylesheet.

Memory text is hostile input: every value that reaches a page goes through :func:`esc`
(``&``, ``<``, ``>``, ``"`` and ``'`` become entities), in text and in attributes alike,
and attributes are always quoted. No page holds a script, an inline style, an event
handler or a URL from memory; links are built from hex ids and fixed paths only, and the
Content-Security-Policy forbids everything else (see :mod:`gitmem.agents.viewer.server`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from gitmem.core.shown import shown_text_line

CSS = """\
:root { color-scheme: light dark; --fg: #1d1f23; --bg: #fbfbfa; --muted: #5f6670;
  --line: #d8dbe0; --ok: #0b6e3d; --warn: #a04100; --bad: #b00020; --card: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e3; --bg: #16181b; --muted: #a0a6ae;
  --line: #33373d; --ok: #5ad08f; --warn: #f0a35e; --bad: #ff6b81; --card: #1e2125; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; align-items: center;
  padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--card); }
header .name { font-weight: 600; }
header a { color: inherit; }
form { display: flex; gap: .4rem; align-items: center; }
input[type=search], input[type=text] { font: inherit; padding: .25rem .5rem; width: 16rem;
  border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: inherit; }
button { font: inherit; padding: .25rem .75rem; border: 1px solid var(--line);
  border-radius: 4px; background: var(--bg); color: inherit; }
main { max-width: 72rem; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.3rem; margin: .5rem 0; }
h2 { font-size: 1rem; letter-spacing: .04em; margin: 1.75rem 0 .5rem; color: var(--muted); }
.summary { font-weight: 500; }
.preamble, .muted, footer { color: var(--muted); }
.asof { border-left: 4px solid var(--warn); padding: .25rem .75rem; }
ul.items { list-style: none; padding: 0; margin: 0; }
ul.items > li { padding: .4rem .6rem; margin: .3rem 0; background: var(--card);
  border: 1px solid var(--line); border-radius: 6px; }
li.degraded { border-color: var(--bad); }
.badge { font-weight: 600; white-space: nowrap; }
.t-verbatim { color: var(--ok); }
.t-inferred, .t-untagged { color: var(--muted); }
.t-degraded, .alarm { color: var(--bad); }
.mark { color: var(--muted); white-space: nowrap; }
.quote { font-style: italic; }
.contradiction { color: var(--warn); margin-top: .2rem; }
.id { font-family: ui-monospace, monospace; font-size: .9em; }
table { border-collapse: collapse; margin: .25rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: .2rem .8rem .2rem 0;
  border-bottom: 1px solid var(--line); }
code { font-family: ui-monospace, monospace; font-size: .92em; word-break: break-all; }
footer { padding: 1rem 1.5rem; border-top: 1px solid var(--line); font-size: .9em; }
"""


def esc(value: object) -> str:
    """*value* as text safe anywhere in a page: in an element or a quoted attribute.
    Raises nothing."""
    return html.escape(str(value), quote=True)


_CODE = re.compile(r"`([^`\n]+)`")
_STRONG = re.compile(r"\*\*(\S(?:[^*\n]*\S)?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](\S(?:[^*_\n]*\S)?)[*_](?![\w*])")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")


def markdown(text: str) -> str:
    """Memory text's inline markdown as markup, safely: the text is shown on one line
    (:func:`~gitmem.core.shown.shown_text_line`) and escaped first, so no control
    character, tag, attribute or script of it survives; then code spans, strong and emphasis become
    ``<code>``, ``<strong>``, ``<em>``, and a link shows its text with its address beside
    it as text (never a link: no URL from memory is followed). Raises nothing."""
    spans: list[str] = []

    def keep(match: re.Match[str]) -> str:
        spans.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(spans) - 1}\x00"

    # one line, its controls (NUL among them: the placeholders' mark) and bidirectional
    # characters shown as U+FFFD, as every other output shows a teammate's text
    out = _CODE.sub(keep, esc(shown_text_line(text)))  # code first: nothing inside is markup
    out = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", out)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    out = _EMPHASIS.sub(r"<em>\1</em>", out)
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], out)


def yes_no(value: object) -> str:
    """``yes``/``no`` for a truth value, anything else as text. Raises nothing."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def tag(name: str, content: str, cls: str | None = None, **attrs: str) -> str:
    """``<name class="…" …>content</name>``; *content* must already be markup, every
    attribute value is escaped here. Raises nothing."""
    pairs = ([("class", cls)] if cls else []) + sorted(attrs.items())
    opened = "".join(f' {key.rstrip("_")}="{esc(value)}"' for key, value in pairs)
    return f"<{name}{opened}>{content}</{name}>"


def link(path: str, text: str, cls: str | None = None) -> str:
    """A link to a page of this viewer (*path* is built by the viewer, never by memory);
    *text* is escaped. Raises nothing."""
    return tag("a", esc(text), cls, href=path)


def item_path(item_id: str) -> str:
    """The viewer's page of one item: only hex characters reach the URL."""
    return "/item/" + "".join(c for c in item_id.lower() if c in "0123456789abcdef")[:64]


def bullet_list(entries: Iterable[str], cls: str | None = None) -> str:
    """``<ul>`` of already-made markup, or an empty string when there is none."""
    items = "".join(tag("li", entry) for entry in entries)
    return tag("ul", items, cls) if items else ""


def page(title: str, body: str, *, repo: str, q: str = "", as_of: str = "") -> str:
    """A whole page: the header (the brief, the search box, the as-of box), *body* (made
    markup) and the footer. Raises nothing."""
    search = (
        '<form method="get" action="/search" role="search">'
        f'<input type="search" name="q" value="{esc(q)}" placeholder="recall: words…" '
        'aria-label="search memory">'
        + (f'<input type="hidden" name="as_of" value="{esc(as_of)}">' if as_of else "")
        + "<button>Search</button></form>"
    )
    moment = (
        '<form method="get" action="/">'
        f'<input type="text" name="as_of" value="{esc(as_of)}" '
        'placeholder="as of: 2026-07-01 or a revision" aria-label="memory as of">'
        "<button>Show</button></form>"
    )
    header = tag(
        "header",
        tag("span", f"gitmem · {esc(repo)}", "name") + link("/", "Brief") + search + moment,
    )
    footer = tag(
        "footer",
        "Read-only: this viewer never writes memory or moves a ref. Everything shown was "
        "verified when this page was made; reload to check again.",
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{esc(title)}</title>"
        '<link rel="stylesheet" href="/style.css"></head>'
        f"<body>{header}<main>{body}</main>{footer}</body></html>\n"
    )
