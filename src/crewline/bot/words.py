"""Markdown said in plain words, for surfaces that show no markup (the bell, notifications).

A member writes markdown; a bell is sentences. ``**orders**`` must read "orders", a code span
its text, a link its label and address, a list its items in a row — and a sentence that
already ends in "?" must not get a "." after it.
"""

from __future__ import annotations

import re

__all__ = ["plain_words", "sentence"]

_FENCE = re.compile(r"```[^\n]*\n?(.*?)```", re.DOTALL)
_CODE = re.compile(r"`+([^`]+?)`+")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)
_QUOTE = re.compile(r"^\s{0,3}>\s?", re.MULTILINE)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", re.MULTILINE)
_TERMINAL = ".!?…:;"


def plain_words(markdown: str) -> str:
    """The text of ``markdown`` without its markup, on one line."""
    text = _FENCE.sub(lambda m: m[1], markdown)
    text = _CODE.sub(lambda m: m[1], text)
    text = _LINK.sub(lambda m: m[1] if m[1] == m[2] else f"{m[1]} ({m[2]})", text)
    text = _BOLD.sub(lambda m: m[2], text)
    text = _ITALIC.sub(lambda m: m[2], text)
    text = _STRIKE.sub(lambda m: m[1], text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    lines = [line.strip() for line in text.splitlines()]
    listed = [bool(_ITEM.match(raw)) for raw in text.splitlines()]
    out: list[str] = []
    for line, is_item in zip(lines, listed, strict=True):
        if not line:
            continue
        line = _ITEM.sub("", line) if is_item else line
        if out and is_item:
            out[-1] = sentence(out[-1])
        out.append(line)
    return " ".join(out)


def sentence(text: str) -> str:
    """``text`` ending in exactly one punctuation mark: "." only when it has none."""
    text = text.rstrip()
    return text if not text or text[-1] in _TERMINAL else text + "."
