"""The letter as data, and as the Minister sends it: plain text for an e-mail (wrapped at 78
columns), Markdown, HTML, or JSON (``minister-letter/1``).

Every word from the record (names, reports, rulings) is shown as written: control characters
made visible in every format, and in Markdown and HTML every character that would make markup
escaped, so a player's words can never add a link, a tag or a heading.
"""

from __future__ import annotations

import html
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

from projections.plain import visible

FORMATS = ("text", "markdown", "html")
_WIDTH = 78


@dataclass
class Para:
    """A paragraph: an optional run-in label ("The rule."), its words, and a list under it."""

    text: str
    label: str = ""
    items: list[str] = field(default_factory=list)


@dataclass
class Section:
    """A titled part of the letter (``level`` 1 a part, 2 a battle or finding, 3 within it)."""

    title: str
    level: int = 1
    paras: list[Para] = field(default_factory=list)


@dataclass
class Letter:
    """The letter as data: its head, greeting, parts and signature."""

    game_id: str
    sender: str
    to: str
    date: str
    subject: str
    greeting: str
    sections: list[Section]
    closing: str
    signature: str

    @property
    def heading(self) -> str:
        """The subject line (the JSON's ``heading``)."""
        return self.subject


#: Characters that start Markdown inline syntax (emphasis, code, links, images, strikethrough,
#: tables) anywhere in a line; each is written with a backslash, which Markdown drops.
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]!~|{}])")
#: What makes a block of its own at the start of a list item's text: a heading, a quote, a
#: nested list, a rule, a setext underline.
_MARKDOWN_BLOCK = re.compile(r"^(\d{1,9})([.)])|^([#>+\-=])")


def markdown_text(text: str) -> str:
    """Text from the record as Markdown that shows it as written: HTML (``<script>``, ``<img
    onerror=...>``) as entities, never markup, and Markdown syntax (links, emphasis, a heading
    or list marker at the start) escaped, so a player's words cannot add a link or a tag."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = _MARKDOWN_INLINE.sub(r"\\\1", escaped)
    return _MARKDOWN_BLOCK.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1)
                               else f"\\{m.group(3)}", escaped)


def _head(letter: Letter) -> list[tuple[str, str]]:
    return [("From", letter.sender), ("To", letter.to), ("Date", letter.date), ("Subject", letter.subject)]


def _shown(letter: Letter) -> Letter:
    """The letter with every control character of its words made visible."""
    return Letter(letter.game_id, visible(letter.sender), visible(letter.to), letter.date,
                  visible(letter.subject), visible(letter.greeting),
                  [Section(visible(s.title), s.level,
                           [Para(visible(p.text), p.label, [visible(i) for i in p.items]) for p in s.paras])
                   for s in letter.sections],
                  letter.closing, visible(letter.signature))


def render(letter: Letter, form: str = "text") -> str:
    """The letter as plain text, Markdown or HTML."""
    letter = _shown(letter)
    if form == "markdown":
        return _markdown(letter)
    if form == "html":
        return _html(letter)
    return _text(letter)


def _text(letter: Letter) -> str:
    out = [f"{name + ':':<9}{value}" for name, value in _head(letter)]
    out += ["", letter.greeting]
    for s in letter.sections:
        out.append("")
        if s.level == 1:
            out += [s.title.upper(), "=" * len(s.title)]
        elif s.level == 2:
            out += [s.title, "-" * min(len(s.title), _WIDTH)]
        else:
            out.append(f"{s.title}:")
        for p in s.paras:
            words = f"{p.label} {p.text}" if p.label else p.text
            out += ["", *textwrap.wrap(words, _WIDTH, break_on_hyphens=False)] if words else [""]
            for item in p.items:
                out += textwrap.wrap(item, _WIDTH, initial_indent="  - ", subsequent_indent="    ",
                                     break_on_hyphens=False)
    out += ["", letter.closing, letter.signature]
    return "\n".join(out) + "\n"


def _markdown(letter: Letter) -> str:
    out = [f"**{name}:** {markdown_text(value)}  " for name, value in _head(letter)]
    out[-1] = out[-1].rstrip()
    out += ["", markdown_text(letter.greeting)]
    for s in letter.sections:
        out += ["", f"{'#' * (s.level + 1)} {markdown_text(s.title)}"]
        for p in s.paras:
            label = f"**{markdown_text(p.label)}** " if p.label else ""
            out += ["", label + markdown_text(p.text)] if p.text or label else []
            if p.items:
                out += [""] + [f"- {markdown_text(item)}" for item in p.items]
    out += ["", markdown_text(letter.closing) + "  ", markdown_text(letter.signature)]
    return "\n".join(out) + "\n"


def _html(letter: Letter) -> str:
    head = "".join(f"<tr><th>{name}:</th><td>{html.escape(value)}</td></tr>" for name, value in _head(letter))
    out = [f"<table>{head}</table>", f"<p>{html.escape(letter.greeting)}</p>"]
    for s in letter.sections:
        level = min(s.level + 1, 6)
        out.append(f"<h{level}>{html.escape(s.title)}</h{level}>")
        for p in s.paras:
            label = f"<strong>{html.escape(p.label)}</strong> " if p.label else ""
            if p.text or label:
                out.append(f"<p>{label}{html.escape(p.text)}</p>")
            if p.items:
                out.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in p.items) + "</ul>")
    out.append(f"<p>{html.escape(letter.closing)}<br>{html.escape(letter.signature)}</p>")
    return "\n".join(out) + "\n"


def letter_dict(letter: Letter) -> dict[str, Any]:
    """The JSON shape (``minister-letter/1``): the head, then each section's title, level and
    paragraphs (``lines``: the same as one line per paragraph and per item, as before)."""
    return {"format": "minister-letter/1", "game": letter.game_id, "heading": letter.heading,
            "from": letter.sender, "to": letter.to, "date": letter.date, "subject": letter.subject,
            "greeting": letter.greeting,
            "sections": [{"title": s.title, "level": s.level,
                          "paragraphs": [{"label": p.label, "text": p.text, "items": list(p.items)}
                                         for p in s.paras],
                          "lines": [line for p in s.paras
                                    for line in ([f"{p.label} {p.text}".strip()] if p.text or p.label else [])
                                    + [f"- {i}" for i in p.items]]}
                         for s in letter.sections],
            "closing": letter.closing, "signature": letter.signature}
