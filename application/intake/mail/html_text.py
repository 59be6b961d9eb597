"""An HTML-only e-mail body as plain text, with the standard library's ``html.parser``.

Enough for what game mail holds: paragraphs, line breaks, ``<pre>`` blocks (TripleA posts its
turn summaries so), lists, tables read row by row, links written as their text and address
(a dice server's verification link is evidence), entities decoded. Scripts, styles and the
head are dropped. Block quotes (``<blockquote type="cite">``, how mail clients quote in HTML)
come out as ``>`` lines, so the quoted text is unwrapped like a plain-text reply.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "tr",
                     "pre", "section", "article", "header", "footer", "center", "form", "hr"})
_HIDDEN = frozenset({"script", "style", "head", "title"})
#: Open tags kept track of at most: a page nested deeper than this is junk (or a bomb).
_MAX_DEPTH = 200


class _Text(HTMLParser):
    """Collects the text of a page, one output line per block or ``<br>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.hidden = 0
        self.pre = 0
        self.quote = 0
        self.href: list[str | None] = []

    def _break(self) -> None:
        if self.lines[-1].strip() or self.pre:
            self.lines.append("")
        else:
            self.lines[-1] = ""

    def _paragraph(self) -> None:
        self._break()
        if len(self.lines) >= 2 and self.lines[-2].strip():
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.lines.append("")
        elif tag == "blockquote":
            self._paragraph()
            self.quote = min(self.quote + 1, _MAX_DEPTH)
        elif tag == "a" and len(self.href) < _MAX_DEPTH:
            self.href.append(dict(attrs).get("href"))
        elif tag == "li":
            self._break()
            self.lines[-1] = "- "
        elif tag in ("td", "th"):
            if self.lines[-1].strip():
                self.lines[-1] += " "
        elif tag in _BLOCKS:
            if tag == "pre":
                self.pre += 1
            self._paragraph() if tag == "p" else self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "blockquote":
            self._paragraph()
            self.quote = max(0, self.quote - 1)
        elif tag == "a" and self.href:
            href = self.href.pop()
            if href and href.startswith(("http://", "https://")) and href not in self.lines[-1]:
                self.lines[-1] += f" <{href}>"
        elif tag in _BLOCKS:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self._paragraph() if tag == "p" else self._break()

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not self.pre:
            data = re.sub(r"\s+", " ", data)
            if not self.lines[-1].strip():
                data = data.lstrip()
        prefix = "> " * self.quote
        for index, piece in enumerate(data.split("\n")):
            if index:
                self.lines.append("")
            if prefix and not self.lines[-1]:
                self.lines[-1] = prefix
            self.lines[-1] += piece


def html_to_text(html: str) -> str:
    """The text of an HTML body: one line per block, runs of blank lines kept to one."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    out: list[str] = []
    for raw in parser.lines:
        line = raw.rstrip().replace("\xa0", " ")
        if line.strip(" >") or (out and out[-1]):
            out.append(line if line.strip(" >") else "")
    return "\n".join(out).strip("\n")
