"""The report of ``minister replay``: JSON (spec/replay-format.md, ``minister-report/1``) and text.

The JSON is built as plain dicts in a fixed key order and encoded with sorted-free, stable
output, so the same game gives byte-identical JSON on every run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from domain.battle.model import Outcome, Winner
from domain.review.impact import round_luck
from domain.review.views import (
    BattleStatus,
    BattleView,
    DiceEntry,
    DiceStatus,
    Finding,
    GameView,
    RoundView,
    SideRound,
    awaiting_note,
)
from domain.rules.findings import FindingStatus
from domain.rules.forces import Force
from projections.plain import visible
from projections.timeline_text import result_text

FORMAT = "minister-report/1"
#: A round's luck per side (:func:`~domain.review.impact.round_luck`).
Luck = dict[str, float | None]
_ENCODER = msgspec.json.Encoder()


def report_dict(view: GameView, *, encoded_rounds: bool = False) -> dict[str, Any]:
    """The report as JSON-ready data (``encoded_rounds``: each round already JSON, for
    :func:`report_json`)."""
    before, after = _game_dicts(view)
    return {**before, "battles": [battle_dict(b, encoded_rounds=encoded_rounds) for b in view.battles],
            **after}


def _game_dicts(view: GameView) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report's members before its battles and after them."""
    before = {
        "format": FORMAT,
        "game": {"id": view.game_id, "edition": view.edition,
                 **({"title": view.title} if view.title else {})},
        "as_rolled": view.as_rolled,
        "summary": summary_dict(view),
        "findings": [finding_dict(f, as_rolled=view.as_rolled) for f in view.findings]}
    after = {
        # The desk's reports, rulings and dice commitments, in full (only when there are some).
        **({"papers": [msgspec.to_builtins(p) for p in view.papers]} if view.papers else {}),
        # Each power's IPCs and income at the end of the record (only when the record knows them).
        **({"treasury": [msgspec.to_builtins(p) for p in view.treasury]} if view.treasury else {}),
    }
    return before, after


def summary_dict(view: GameView) -> dict[str, Any]:
    """Counts, so an expectation can say "exactly one finding" or "no battle awaiting"."""
    statuses: dict[str, int] = {}
    for finding in view.findings:
        status = shown_status(finding, as_rolled=view.as_rolled)
        statuses[status] = statuses.get(status, 0) + 1
    battles: dict[str, int] = {}
    for battle in view.battles:
        battles[battle.status] = battles.get(battle.status, 0) + 1
    return {"findings": len(view.findings), "finding_status": dict(sorted(statuses.items())),
            "battles": len(view.battles), "battle_status": dict(sorted(battles.items()))}


def report_json(view: GameView) -> bytes:
    """The JSON report, indented, newline-terminated."""
    return report_json_body(view) + b"\n"


def report_json_body(view: GameView) -> bytes:
    """The JSON report, indented, without its final newline (written apart by ``minister replay``
    FILE: one copy of a big report fewer)."""
    head, tail = json_head(view)
    return join_json(head, (battle_json(battle) for battle in view.battles), tail)


def json_head(view: GameView) -> tuple[bytes, bytes]:
    """The report's compact JSON before its battles (up to ``"battles":``) and after them: the
    parts of the report that are not one battle's (a stored review keeps each battle's part
    apart)."""
    before, after = _game_dicts(view)
    # "{...}" without its closing brace, then the battles' key; the members after the battles
    # as the same object's members.
    head = _ENCODER.encode(before)[:-1] + b',"battles":'
    tail = b"}" if not after else b"," + _ENCODER.encode(after)[1:]
    return head, tail


def battle_json(battle: BattleView, lucks: Sequence[Luck] | None = None) -> bytes:
    """One battle's object, compact (its rounds encoded one by one: the dicts of one round at a
    time exist, so memory per roll-log line stays small, benchmarks/bench_roll_log.py).
    ``lucks``: each round's :func:`round_luck`, when the caller has them."""
    return _ENCODER.encode(battle_dict(battle, encoded_rounds=True, lucks=lucks))


def battle_fragments(battle: BattleView) -> tuple[bytes, str]:
    """:func:`battle_json` and :func:`battle_text` of one battle, each round's luck worked out
    once for both (what a stored review's battle row holds)."""
    lucks = [round_luck(view) for view in battle.rounds]
    return battle_json(battle, lucks), battle_text(battle, lucks)


def join_json(head: bytes, battles: Iterable[bytes], tail: bytes) -> bytes:
    """The indented report from :func:`json_head`'s parts and each battle's
    :func:`battle_json`: the compact document joined, then indented once (compact parts are a
    third of the indented bytes a stored review inflates, and one indentation of the whole is
    cheaper than one per battle). The document is joined in one copy, and battles given as an
    iterator are let go before it is indented (memory per roll-log line,
    benchmarks/bench_roll_log.py)."""
    compact = b"".join(_document(head, battles, tail))
    return msgspec.json.format(compact, indent=2)


def _document(head: bytes, battles: Iterable[bytes], tail: bytes) -> Iterator[bytes]:
    """The compact report's pieces in order: its head, the battles' array, its tail."""
    yield head + b"["
    for index, battle in enumerate(battles):
        if index:
            yield b","
        yield battle
    yield b"]" + tail


#: A finding's status in a report as rolled where the rules give it a remedy: the record is
#: shown untouched, so nothing there is corrected; the report as corrected says what becomes of
#: it (corrected, awaiting dice or an election, superseded by another finding).
FOUND = "found"


def shown_status(finding: Finding, *, as_rolled: bool = False) -> str:
    """The status a report gives a finding: its own, except that a report as rolled never calls
    one ``corrected`` (nothing is applied to the record as rolled): it is ``found`` there."""
    return FOUND if as_rolled and finding.status == FindingStatus.CORRECTED else str(finding.status)


def finding_dict(finding: Finding, *, as_rolled: bool = False) -> dict[str, Any]:
    """One finding: id, kind, where, status, the rule cited and what it says."""
    data: dict[str, Any] = {"id": finding.id, "kind": finding.kind}
    for key in ("turn", "battle", "round", "side", "column"):
        value = getattr(finding, key)
        if value is not None:
            data[key] = value
    data["status"] = shown_status(finding, as_rolled=as_rolled)
    data["rule"] = finding.rule
    data["detail"] = finding.detail
    if finding.ruling is not None:
        data["ruling"] = finding.ruling
    if finding.key:
        data["key"] = finding.key
    return data


def battle_dict(battle: BattleView, *, encoded_rounds: bool = False,
                lucks: Sequence[Luck] | None = None) -> dict[str, Any]:
    """One battle with its rounds, voided dice and result (``encoded_rounds``: each round as
    its JSON bytes, ``msgspec.Raw``; ``lucks``: each round's :func:`round_luck`, if known)."""
    data: dict[str, Any] = {"turn": battle.turn, "battle": battle.battle, "kind": battle.kind,
                            "status": battle.status}
    if battle.resume_round is not None:
        data["resume_round"] = battle.resume_round
    data["findings"] = list(battle.finding_ids)
    # Without ``lucks``, each round works out its own as it is encoded: one round's at a time.
    rounds = zip(battle.rounds, lucks, strict=True) if lucks is not None else \
        ((r, None) for r in battle.rounds)
    data["rounds"] = [msgspec.Raw(_ENCODER.encode(round_dict(r, luck))) for r, luck in rounds] \
        if encoded_rounds else [round_dict(r, luck) for r, luck in rounds]
    data["voided"] = [{"round": v.round, "side": v.side, "column": v.column, "values": list(v.values)}
                      for v in battle.voided]
    data["result"] = result_dict(battle.result)
    if battle.awaiting is not None:
        wait = battle.awaiting
        data["awaiting"] = {"finding": wait.finding, "by": wait.by, "side": wait.side,
                            "elections": list(wait.elections)}
    if battle.impact is not None:
        data["impact"] = msgspec.to_builtins(battle.impact)
    if battle.needed is not None:
        data["dice_needed"] = msgspec.to_builtins(battle.needed)
    if battle.treasury:
        data["treasury"] = [msgspec.to_builtins(p) for p in battle.treasury]
    return data


def round_dict(view: RoundView, luck: Luck | None = None) -> dict[str, Any]:
    """One round: both sides' units at its start, dice and hits, and the losses (``luck``: its
    :func:`round_luck`, if known)."""
    data: dict[str, Any] = {"round": view.round, "origin": view.origin,
                            "attacker": side_dict(view.attacker),
                            "defender": side_dict(view.defender),
                            "attacker_losses": view.attacker_losses.to_json(),
                            "defender_losses": view.defender_losses.to_json()}
    if view.aa_losses or any(entry.column == "AA" for entry in view.defender.dice):
        # Aircraft shot down before round 1 leave the game (Part 13 step 2): not round losses.
        data["aa_losses"] = view.aa_losses.to_json()
    if view.pause_required:
        data["pause_required"] = True
    data["luck"] = round_luck(view) if luck is None else luck
    return data


def side_dict(side: SideRound) -> dict[str, Any]:
    """A side's round."""
    # Units are the side's combat units: AA guns and ICs are never casualties (MB 2nd edition).
    data: dict[str, Any] = {"units": side.units.combatants().to_json(), "hits": side.hits,
                            "dice": [dice_dict(d) for d in side.dice]}
    if side.stated_hits is not None:
        data["stated_hits"] = side.stated_hits
    return data


def dice_dict(entry: DiceEntry) -> dict[str, Any]:
    """A run of dice of one column and status."""
    data: dict[str, Any] = {"column": entry.column, "values": list(entry.values), "status": entry.status}
    if entry.first_strike:
        data["first_strike"] = True
    return data


def result_dict(outcome: Outcome | None) -> dict[str, Any]:
    """``winner`` (null while unfinished) and what is left of each side."""
    if outcome is None:
        return {"winner": None, "attacker_left": {}, "defender_left": {}}
    data: dict[str, Any] = {"winner": outcome.winner.value if outcome.winner else None,
                            "attacker_left": outcome.attacker_left.to_json(),
                            "defender_left": outcome.defender_left.to_json()}
    if outcome.retreated:
        data["retreated"] = True
    return data


# -- text ----------------------------------------------------------------------------------------
def paper_lines(view: GameView) -> list[str]:
    """The desk's reports, rulings and dice commitments, in full, for the text report."""
    if not view.papers:
        return []
    out = ["", "Reports and rulings:"]
    for paper in view.papers:
        when = paper.at.strftime("%Y-%m-%d %H:%M:%SZ") if paper.at else "(no time)"
        if paper.entered is not None:
            when += f" (entered {paper.entered.strftime('%Y-%m-%d %H:%M:%SZ')})"
        # The desk's words come from e-mails: each kept on its row, control characters visible.
        by = f" by {visible(paper.by)}" if paper.by else ""
        kind = paper.kind.replace("_", " ")
        out.append(f"  [event {paper.event}] {when} {kind}{by} on {visible(paper.about)} — "
                   f"{paper.status}")
        if paper.text:
            out.append(f"      {visible(paper.text)}")
    return out


def report_text(view: GameView) -> str:
    """A readable report: per battle, per round, units, every die with its column, losses."""
    return join_text(text_head(view), [battle_text(battle) for battle in view.battles])


def text_head(view: GameView) -> str:
    """The text report before its battles: the game, its findings, the desk's papers."""
    out: list[str] = []
    mode = "as rolled" if view.as_rolled else "as corrected"
    out.append(f"{visible(view.game_id)} ({view.edition}) — {mode}"
               + (f": {visible(view.title)}" if view.title else ""))
    if view.findings:
        out.append("")
        out.append("Findings:")
        for f in view.findings:
            where = " ".join(x for x in (f.turn, f.battle, f"R{f.round}" if f.round else None,
                                         f.side, f"column {f.column}" if f.column is not None else None)
                             if x)
            status = shown_status(f, as_rolled=view.as_rolled)
            if status == FOUND:
                status = "found: the report as corrected says what becomes of it"
            out.append(f"  {f.id} {f.kind} [{status}] {where}")
            out.append(f"      {visible(f.detail)} — {f.rule}")
    out += paper_lines(view)
    return "\n".join(out)


def join_text(head: str, battles: list[str]) -> str:
    """The text report from :func:`text_head` and each battle's :func:`battle_text`."""
    return head + "".join(battles) + "\n"


def battle_text(battle: BattleView, lucks: Sequence[Luck] | None = None) -> str:
    """One battle of the text report, from the line break before the blank line that opens it
    (``lucks``: each round's :func:`round_luck`, if known)."""
    out: list[str] = [""]
    head = f"{battle.turn}: {battle.battle} ({battle.kind}) — {battle.status}"
    if battle.resume_round is not None:
        head += f", re-rolled from round {battle.resume_round}"
    out.append(head)
    if battle.needed is not None:
        out.append(f"  {awaiting_note(battle)}")
    for index, rv in enumerate(battle.rounds):
        luck = round_luck(rv) if lucks is None else lucks[index]
        tag = "" if rv.origin == "as_rolled" else " (re-rolled)"
        out.append(f"  Round {rv.round}{tag}")
        for label, sr, losses in (("A", rv.attacker, rv.attacker_losses),
                                  ("D", rv.defender, rv.defender_losses)):
            dice = " ".join([_dice_text(d) for d in sr.dice]) or "-"
            out.append(f"    {label}({sr.units}) {dice} = {sr.hits} hit{'s' if sr.hits != 1 else ''}"
                       + (f"; loses {losses}" if losses else ""))
        shown = [f"{side} {value:.0f}" for side, value in luck.items() if value is not None]
        if shown:
            out.append("    luck: " + ", ".join(shown) + " (percentile of the hits for the dice thrown)")
        if rv.pause_required:
            out.append("    (pause: the defender must be asked for casualties)")
    if battle.impact is not None:
        imp = battle.impact
        out.append(f"  Impact: from round {imp.from_round} the attacker wins "
                   f"{imp.as_rolled.attacker_win:.1%} as rolled, {imp.as_corrected.attacker_win:.1%} "
                   "as corrected")
    for v in battle.voided:
        out.append(f"  voided: R{v.round} {v.side} column {v.column}: "
                   + "".join(str(x) for x in v.values))
    unfought = battle.status in (BattleStatus.VOID, BattleStatus.NOT_FOUGHT)
    out.append("  Result: " + (_result_text(battle.result) if not unfought
                               else result_text(battle)))
    return "\n" + "\n".join(out)


_MARKS = {DiceStatus.KEPT: "", DiceStatus.VOIDED: " voided", DiceStatus.ADDED: " added"}


#: A die as the text report writes it, by face and whether it hits: "5" or "5*".
_FACE = {(value, hit): f"{value}{'*' if hit else ''}" for value in range(1, 7) for hit in (False, True)}


def _dice_text(entry: DiceEntry) -> str:
    values, hits = entry.values, entry.hits
    if len(hits) < len(values):  # hits not (all) worked out: a die without one is unmarked
        hits = hits + (False,) * (len(values) - len(hits))
    try:
        faces = "".join(map(_FACE.__getitem__, zip(values, hits, strict=False)))
    except KeyError:  # a face off the table, which no parser lets in, is still written as it is
        faces = "".join([f"{value}{'*' if hit else ''}" for value, hit in zip(values, hits, strict=False)])
    mark = _MARKS[entry.status]
    strike = " first strike" if entry.first_strike else ""
    return f"[{entry.column}{strike}{mark}: {faces}]"


def _result_text(outcome: Outcome | None) -> str:
    if outcome is None or outcome.winner is None:
        left = ""
        if outcome is not None:
            left = f" (attacker {_force(outcome.attacker_left)}, defender {_force(outcome.defender_left)})"
        return "unfinished" + left
    if outcome.retreated:
        return f"attacker retreated with {_force(outcome.attacker_left)}"
    if outcome.winner is Winner.NONE:
        return "both sides destroyed"
    return (f"{outcome.winner.value} wins; attacker left {_force(outcome.attacker_left)}, "
            f"defender left {_force(outcome.defender_left)}")


def _force(force: Force) -> str:
    return str(force) or "nothing"
