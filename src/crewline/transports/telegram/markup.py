"""Markdown as Telegram HTML: escaped everywhere, and well nested by construction.

Telegram refuses a whole message ("can't parse entities") over one stray ``<`` or one
badly nested tag, so the text is escaped first and only a small markdown subset becomes
tags: fenced and inline code, bold, italic, strike-through, http(s) links, headings (bold
lines) and bullets. A span is only formatted when its content holds no tag, so tags never
interleave; code and links are set aside first so nothing formats inside them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

__all__ = ["escape", "markdown_html", "plain_text", "utf16_len"]

_FENCE = re.compile(
    r"```(?P<lang>[A-Za-z0-9_+-]{0,20})[^\n`]*\n?(?P<code>.*?)(?:```|\Z)", re.DOTALL
)
_CODE = re.compile(r"`(?P<code>[^`\n]+)`")
_LINK = re.compile(r"\[(?P<text>[^\]\n<>]+)\]\((?P<url>https?://[^\s()<>\"]+)\)")
_BOLD = re.compile(
    r"\*\*(?P<text>[^\s*<>](?:[^\n<>]*?[^\s<>])??)\*\*"
    r"|__(?P<alt>[^\s_<>](?:[^\n<>]*?[^\s<>])??)__"
)
_ITALIC = re.compile(
    r"(?<![\w*])\*(?P<text>[^\s*<>](?:[^\n*<>]*?[^\s*<>])??)\*(?![\w*])"
    r"|(?<![\w_])_(?P<alt>[^\s_<>](?:[^\n_<>]*?[^\s_<>])??)_(?![\w_])"
)
_STRIKE = re.compile(r"~~(?P<text>[^\s~<>](?:[^\n~<>]*?[^\s~<>])??)~~")
_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<text>[^\n<>]+?)[ \t#]*$", re.MULTILINE)
_BULLET = re.compile(r"^(?P<indent>[ \t]*)[-*+][ \t]+", re.MULTILINE)
_SLOT = re.compile(r"\x00(\d+)\x00")
_TAG = re.compile(r"<[^>]*>")


def escape(text: str) -> str:
    """Text made safe for Telegram's HTML parse mode (only ``<``, ``>`` and ``&`` matter)."""
    return html.escape(text, quote=False)


def utf16_len(text: str) -> int:
    """Telegram measures lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def markdown_html(markdown: str) -> str:
    """The markdown subset crewline's texts use, as Telegram HTML."""
    slots: list[str] = []

    def keep(rendered: str) -> str:
        slots.append(rendered)
        return f"\x00{len(slots) - 1}\x00"

    text = markdown.replace("\x00", "")
    text = _FENCE.sub(lambda m: keep(_pre(m["code"], m["lang"])), text)
    text = _CODE.sub(lambda m: keep(f"<code>{escape(m['code'])}</code>"), text)
    text = escape(text)
    # Escaping leaves the markdown markers as they were, so the spans are found on safe text.
    text = _LINK.sub(lambda m: keep(f'<a href="{m["url"]}">{m["text"]}</a>'), text)
    text = _HEADING.sub(lambda m: f"<b>{m['text']}</b>", text)
    text = _BULLET.sub(lambda m: f"{m['indent']}• ", text)
    text = _BOLD.sub(_wrap("b"), text)
    text = _ITALIC.sub(_wrap("i"), text)
    text = _STRIKE.sub(_wrap("s"), text)
    return _SLOT.sub(lambda m: slots[int(m[1])], text)


def plain_text(rendered: str) -> str:
    """What a reader sees of rendered HTML: the tags dropped, the entities decoded."""
    return html.unescape(_TAG.sub("", rendered))


def _pre(code: str, lang: str) -> str:
    body = escape(code.rstrip("\n"))
    if lang:
        return f'<pre><code class="language-{lang}">{body}</code></pre>'
    return f"<pre>{body}</pre>"


def _wrap(tag: str) -> Callable[[re.Match[str]], str]:
    def wrap(match: re.Match[str]) -> str:
        return f"<{tag}>{match['text'] or match.groupdict().get('alt')}</{tag}>"

    return wrap
