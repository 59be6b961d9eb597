"""The ruling letter: what the Minister of Law sends both players, paste-ready for an e-mail.

Built from the record (reports, rulings, commitments, draws, reveals, entered dice) and the
review (findings, the battles as corrected, what the error cost). Sections, in order: the facts
with their times, each finding with the edition and section applied and its remedy, the dice
and how to verify them, the corrected results, the odds as rolled and as corrected, and what is
still open and until when. Rendered as plain text, Markdown or HTML; :func:`letter_dict` is the
JSON shape (docs/format-extensions.md).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.record.game import Game
from domain.review.decisions import following_turn
from domain.review.papers import ABANDONED, REVEALED, commitment_standing
from domain.review.views import BattleStatus, BattleView, DiceStatus, Finding, GameView, awaiting_note
from domain.rules.editions import edition
from domain.rules.findings import FindingKind, FindingStatus
from projections.plain import visible

FORMATS = ("text", "markdown", "html")

#: How anyone re-checks the Minister's dice once the secret is revealed (minister-dice/2).
HOW_TO_VERIFY = ("Each roll's dice are HMAC-SHA256(key = secret, message = JSON [\"minister-dice/3\", "
                 "commitment, game id, sequence, battle, turn, round, side, column, purpose, count, "
                 "block]) for blocks 0, 1, …, where the turn, round, side, column, purpose and count "
                 "are the throw the battle awaited (derived from the game, never chosen); each byte "
                 "below 252 gives the die byte % 6 + 1. The commitment is "
                 "SHA-256(\"minister-dice/3:\" + secret). `minister verify --dice GAME` (or "
                 "`minister verify BUNDLE`) does all of it offline.")
#: The same for an older record's ``minister-dice/2`` commitments.
HOW_TO_VERIFY_2 = ("Each roll's dice are HMAC-SHA256(key = secret, message = JSON [\"minister-dice/2\", "
                   "commitment, game id, sequence, battle, purpose, count, block]) for blocks 0, 1, …; "
                   "each byte below 252 gives the die byte % 6 + 1. The commitment is "
                   "SHA-256(\"minister-dice/2:\" + secret). `minister verify --dice GAME` (or "
                   "`minister verify BUNDLE`) does all of it offline, and says whether each roll's "
                   "purpose and count are the throw the battle awaited.")


@dataclass
class Section:
    """One titled part of the letter: its lines, in order."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Letter:
    """The letter as data: a heading and its sections."""

    game_id: str
    heading: str
    sections: list[Section]


def _time(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%SZ") if moment is not None else "(no time)"


def _claimed(game: Game, seq: int, at: datetime | None) -> str:
    """A record's claimed time (the e-mail's: the rules use it), with when it was entered if later
    ("1999-07-20 19:00:00Z (entered 1999-07-25 10:02:00Z)")."""
    stamp = game.stamps[seq] if seq < len(game.stamps) else None
    if at is None or stamp is None or stamp == at:
        return _time(at)
    return f"{_time(at)} (entered {_time(stamp)})"


def build_letter(game: Game, view: GameView, finding: str | None = None) -> Letter:
    """The letter for the whole game, or for one finding (id or kind)."""
    findings = [f for f in view.findings if f.status != FindingStatus.IGNORED
                and (finding is None or finding in (f.id, f.kind))]
    battles = {f.battle for f in findings if f.battle}
    shown = [b for b in view.battles if b.battle in battles or (finding is None and b.finding_ids)]
    policy = edition(game.edition)
    title = f" — {game.title}" if game.title else ""
    heading = f"Ruling of the Minister of Law: game {game.game_id} ({policy.name}){title}"
    sections = [_facts(game, battles), _findings(findings, view), _dice(game, battles if finding else None),
                _results(shown), _cost(shown), _open(findings, shown, game)]
    return Letter(game.game_id, heading, sections)


def _offset(game: Game) -> int:
    return game.version - game.seq


def _facts(game: Game, battles: set[str]) -> Section:
    """When the battles in question were rolled; who reported what and when; every ruling,
    withdrawal and amendment."""
    section = Section("Facts")
    off = _offset(game)
    for record in game.battles:
        if record.territory in battles and record.rolls:
            posts = f"{len(record.rolls)} post" + ("s" if len(record.rolls) > 1 else "")
            section.lines.append(f"{_time(record.rolls[0].at)} — {record.turn}, {record.territory}: "
                                 f"the dice server's record ({posts})")
    gone = {w.target: w for w in game.withdrawals}
    for entry in game.reports:
        about = f" about {entry.battle}" if entry.battle else ""
        restated = f" (restates event {entry.amends + off})" if entry.amends else ""
        section.lines.append(f"{_claimed(game, entry.seq, entry.at)} — {entry.by} reported{about} "
                             f"[event {entry.seq + off}]{restated}: \"{entry.text}\"")
    for ruling in game.rulings:
        by = f" by {ruling.by}" if ruling.by else ""
        election = f", election {ruling.election}" if ruling.election else ""
        replaced = f" (replaces event {ruling.amends + off})" if ruling.amends else ""
        words = f": \"{ruling.text}\"" if ruling.text else ""
        section.lines.append(f"{_claimed(game, ruling.seq, ruling.at)} — ruling on {ruling.finding}{by} "
                             f"[event {ruling.seq + off}]{replaced}: {ruling.decision}{election}{words}")
    for target, withdrawal in gone.items():
        why = f": \"{withdrawal.text}\"" if withdrawal.text else ""
        by = f" by {withdrawal.by}" if withdrawal.by else ""
        section.lines.append(f"{_claimed(game, withdrawal.seq, withdrawal.at)} — event {target + off} "
                             f"withdrawn{by} [event {withdrawal.seq + off}]{why}")
    if not section.lines:
        section.lines.append("No report or ruling is recorded.")
    return section


def _findings(findings: list[Finding], view: GameView) -> Section:
    section = Section("Findings")
    by_battle = {b.battle: b for b in view.battles}
    for f in findings:
        where = ", ".join(x for x in (f.turn, f.battle, f"round {f.round}" if f.round else None, f.side,
                                      f"column {f.column}" if f.column is not None else None) if x)
        section.lines.append(f"{f.id} {f.kind} ({where}): {f.detail}")
        section.lines.append(f"    Rule applied: {f.rule}")
        section.lines.append(f"    Status: {f.status}" + (f"; ruling: {f.ruling}" if f.ruling else ""))
        battle = by_battle.get(f.battle) if f.battle else None
        section.lines.append(f"    Remedy: {_remedy(f, battle)}")
    if not findings:
        section.lines.append("No finding.")
    return section


def _remedy(finding: Finding, battle: BattleView | None) -> str:
    if finding.status in (FindingStatus.STANDS, FindingStatus.FIXED):
        return "none: the record stands"
    if battle is None:
        if finding.kind == FindingKind.BID_ILLEGAL and finding.status == FindingStatus.CORRECTED:
            return "the bid's illegally placed units come off the board (2008 Bidding)"
        return "as the rule cited says"
    if battle.status == BattleStatus.AWAITING:
        return awaiting_note(battle) or "awaiting an election or a ruling"
    if battle.status in (BattleStatus.VOID, BattleStatus.NOT_FOUGHT):
        return f"the battle is {battle.status.replace('_', ' ')}: none of its dice count"
    parts = ["the valid dice stand"]
    for rv in battle.rounds:
        added = [v for side in (rv.attacker, rv.defender) for e in side.dice if e.status == DiceStatus.ADDED
                 for v in e.values]
        if added and rv.origin == "as_rolled":
            parts.append(f"round {rv.round}: {len(added)} dice added ({' '.join(map(str, added))})")
    if battle.resume_round is not None:
        rerolled = [rv.round for rv in battle.rounds if rv.origin == "rerolled"]
        span = f"rounds {rerolled[0]}-{rerolled[-1]}" if len(rerolled) > 1 else f"round {battle.resume_round}"
        parts.append(f"re-rolled from round {battle.resume_round} ({span} fought again; "
                     f"{sum(len(v.values) for v in battle.voided)} original dice voided)")
    return "; ".join(parts)


def _dice(game: Game, battles: set[str] | None) -> Section:
    """Every die recorded for corrections: entered from the dice server, or drawn and revealed."""
    section = Section("Dice")
    revealed = {r.commitment: r for r in game.reveals}
    standing = {d.seq: (c, state) for c, state, draws in commitment_standing(game) for d in draws}
    unchecked: list[str] = []
    for c in game.commitments:
        by = f" by {c.by}" if c.by else ""
        section.lines.append(f"{_time(c.at)} — commitment{by} ({c.scheme}), recorded before its dice "
                             f"were drawn: {c.commitment}")
    for record in game.battles:
        if battles is not None and record.territory not in battles:
            continue
        for supplied in record.supplied:
            section.lines.append(f"{_claimed(game, supplied.seq, supplied.at)} — dice server, "
                                 f"{record.territory}: {' '.join(map(str, supplied.dice))}")
        for drawn in record.draws:
            moment = game.moments[drawn.seq] if drawn.seq < len(game.moments) else None
            sealed, state = standing.get(drawn.seq, (None, REVEALED))
            warning = ""
            if sealed is not None and state != REVEALED:
                warning = (" — UNVERIFIABLE: its commitment was abandoned unrevealed, so nobody can "
                           "ever check these dice" if state == ABANDONED else
                           " — NOT VERIFIED: its commitment's secret is not revealed yet")
                unchecked.append(f"roll #{drawn.sequence} ({record.territory})")
            section.lines.append(f"{_time(moment)} — roll #{drawn.sequence}, {record.territory}, "
                                 f"{drawn.purpose}: {' '.join(map(str, drawn.dice))}{warning}")
    for c in game.commitments:
        opened = revealed.get(c.commitment)
        if opened is not None:
            section.lines.append(f"{_time(opened.at)} — secret revealed for {c.commitment[:16]}…: "
                                 f"{opened.secret}")
        elif c is game.commitments[-1]:
            section.lines.append(f"The secret of commitment {c.commitment[:16]}… is not revealed yet: "
                                 "its dice cannot be checked until it is.")
        else:
            section.lines.append(f"Commitment {c.commitment[:16]}… was abandoned without its secret "
                                 "being revealed: the dice drawn under it can never be checked.")
    if unchecked:
        section.lines.append(f"These dice cannot be checked by anyone: {', '.join(unchecked)}. "
                             "What they decide rests on the Minister's word alone.")
    for scheme, how in (("minister-dice/2", HOW_TO_VERIFY_2), ("minister-dice/3", HOW_TO_VERIFY)):
        if any(c.scheme == scheme for c in game.commitments):
            section.lines.append("How to verify: " + how)
    if not section.lines:
        section.lines.append("No correction dice are recorded.")
    return section


def _results(battles: list[BattleView]) -> Section:
    section = Section("Corrected result")
    for b in battles:
        if b.result is None or b.status == BattleStatus.AWAITING:
            section.lines.append(f"{b.turn}, {b.battle}: {b.status} — no result yet")
            continue
        winner = b.result.winner.value if b.result.winner else "none"
        section.lines.append(f"{b.turn}, {b.battle}: {b.status}; winner {winner}; attacker left "
                             f"{b.result.attacker_left or 'nothing'}; defender left "
                             f"{b.result.defender_left or 'nothing'}")
    if not section.lines:
        section.lines.append("No battle was changed.")
    return section


def _cost(battles: list[BattleView]) -> Section:
    section = Section("What the error cost")
    for b in battles:
        if b.impact is None:
            continue
        rolled, corrected = b.impact.as_rolled, b.impact.as_corrected
        section.lines.append(f"{b.battle}, from round {b.impact.from_round}: attacker wins "
                             f"{rolled.attacker_win:.1%} as rolled, {corrected.attacker_win:.1%} as "
                             f"corrected; defender wins {rolled.defender_win:.1%} as rolled, "
                             f"{corrected.defender_win:.1%} as corrected")
    if not section.lines:
        section.lines.append("No odds to compare (no battle corrected).")
    return section


def _open(findings: list[Finding], battles: list[BattleView], game: Game) -> Section:
    section = Section("Still open")
    policy = edition(game.edition)
    for f in findings:
        if f.status != FindingStatus.OPEN:
            continue
        until = (f"until {following_turn(f.turn)} is rolled (2008 Section VII)"
                 if policy.time_limit and f.turn else "no time limit (Part 14)")
        section.lines.append(f"{f.id} {f.kind}: {f.detail} — {until}")
    for b in battles:
        if b.status == BattleStatus.AWAITING and b.needed is not None:
            section.lines.append(f"{b.battle}: {awaiting_note(b)}")
    if not section.lines:
        section.lines.append("Nothing: every finding is settled.")
    return section


# -- rendering ---------------------------------------------------------------------------------
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


def render(letter: Letter, form: str = "text") -> str:
    """The letter as text, Markdown or HTML; the record's words (names, report texts) with
    their control characters made visible, each line kept on its row (the JSON keeps them)."""
    letter = Letter(letter.game_id, visible(letter.heading),
                    [Section(visible(s.title), [visible(line) for line in s.lines])
                     for s in letter.sections])
    if form == "markdown":
        out = [f"# {markdown_text(letter.heading)}"]
        for s in letter.sections:
            out += ["", f"## {markdown_text(s.title)}", "",
                    *(f"- {markdown_text(line.strip())}" if not line.startswith("    ")
                      else f"  - {markdown_text(line.strip())}" for line in s.lines)]
        return "\n".join(out) + "\n"
    if form == "html":
        out = [f"<h1>{html.escape(letter.heading)}</h1>"]
        for s in letter.sections:
            items = "".join(f"<li>{html.escape(line.strip())}</li>" for line in s.lines)
            out.append(f"<h2>{html.escape(s.title)}</h2><ul>{items}</ul>")
        return "\n".join(out) + "\n"
    out = [letter.heading, "=" * min(len(letter.heading), 78)]
    for s in letter.sections:
        out += ["", s.title, "-" * len(s.title), *s.lines]
    return "\n".join(out) + "\n"


def letter_dict(letter: Letter) -> dict[str, Any]:
    """The JSON shape (``minister-letter/1``)."""
    return {"format": "minister-letter/1", "game": letter.game_id, "heading": letter.heading,
            "sections": [{"title": s.title, "lines": list(s.lines)} for s in letter.sections]}
