"""The desk's record types in a replay file (``commitment``, ``reveal``, ``report_amendment``,
``ruled``, ``withdrawal``): how each becomes its event. Mixed into the replay-file builder
(:mod:`application.intake.record_events`), whose ``add``, ``error`` and ``events`` these use."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from application.intake.replayschema import (
    CommitmentRecord,
    ReportAmendmentRecord,
    RevealRecord,
    RuledRecord,
    WithdrawalRecord,
)
from domain.errors import ReplayError
from domain.record.entries import Ruling
from domain.record.events import (
    DiceCommitted,
    DiceRevealed,
    EntryWithdrawn,
    GameEvent,
    ReportAmended,
    RulingGiven,
)

#: The decisions a ruling may take (the domain's :class:`Ruling`), as a replay file writes them.
DECISIONS = tuple(r.value for r in Ruling)


class DeskRecords:
    """The builder's methods for the desk's record types."""

    events: list[GameEvent]

    def add(self, cls: type[GameEvent], at: datetime, line: int | None, **fields: Any) -> None:
        """Record one event (the builder's own method)."""
        raise NotImplementedError

    def error(self, message: str, index: int, key: str | None = None) -> ReplayError:
        """An error at a key's line (the builder's own method)."""
        raise NotImplementedError

    def turn_of(self, index: int, text: str | None) -> str | None:
        """An optional ``turn`` key, canonical (the builder's own method)."""
        raise NotImplementedError

    def commitment(self, index: int, record: CommitmentRecord, line: int | None) -> None:
        """``type = "commitment"``: the hash of the Minister's dice secret (never the secret)."""
        self.add(DiceCommitted, record.at, line, commitment=record.commitment, scheme=record.scheme,
                 by=record.by)

    def reveal(self, index: int, record: RevealRecord, line: int | None) -> None:
        """``type = "reveal"``: the secret behind a commitment."""
        self.add(DiceRevealed, record.at, line, commitment=record.commitment, secret=record.secret)

    def report_amendment(self, index: int, record: ReportAmendmentRecord, line: int | None) -> None:
        """``type = "report_amendment"``: a report restated (``amends`` = its event number)."""
        battle = record.battle
        self.add(ReportAmended, record.at, line, amends=self._earlier(index, record.amends, "amends"),
                 by=record.by, text=record.text, battle=str(battle) if battle is not None else None,
                 turn=self.turn_of(index, record.turn))

    def ruled(self, index: int, record: RuledRecord, line: int | None) -> None:
        """``type = "ruled"``: a ruling with who gave it, possibly amending an earlier one."""
        if record.decision not in DECISIONS:
            raise self.error(f"expected decision one of {', '.join(DECISIONS)}, "
                             f"found {record.decision!r}", index, "decision")
        amends = self._earlier(index, record.amends, "amends") if record.amends is not None else None
        election = record.election
        self.add(RulingGiven, record.at, line, finding=record.finding, decision=record.decision,
                 election=str(election) if election is not None else None, by=record.by,
                 text=record.text, amends=amends, turn=self.turn_of(index, record.turn),
                 battle=record.battle, finding_key=record.finding_key)

    def withdrawal(self, index: int, record: WithdrawalRecord, line: int | None) -> None:
        """``type = "withdrawal"``: a report or ruling withdrawn (``withdraws`` = its event number)."""
        self.add(EntryWithdrawn, record.at, line,
                 withdraws=self._earlier(index, record.withdraws, "withdraws"), by=record.by,
                 text=record.text)

    def _earlier(self, index: int, value: int, key: str) -> int:
        if not 1 <= value <= len(self.events):
            raise self.error(f"expected {key} = the number of an earlier event (1-{len(self.events)}), "
                             f"found {value}", index, key)
        return value
