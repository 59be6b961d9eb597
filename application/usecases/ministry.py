"""The Minister of Law's desk (kept for callers of the first version): see
:mod:`application.usecases.desk`."""

from __future__ import annotations

from application.usecases.desk.papers import DECISIONS, amend_report, report, rule, withdraw

__all__ = ["DECISIONS", "amend_report", "report", "rule", "withdraw"]
