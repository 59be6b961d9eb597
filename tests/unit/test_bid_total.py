"""The bid total against its details (issue 28, item 4; 2008 How to Start a Game (the
Challenge): "the bid that you entered ... will take precedence. You will then simply adjust the
bid details to match the bid")."""

from __future__ import annotations

import pytest

from application.intake.replayfile import parse_replay
from domain.review.game_review import review
from domain.review.views import Finding
from tests.conftest import REPLAYS

SHIPPED = (REPLAYS / "findings" / "bid_total_mismatch-2008.toml").read_text(encoding="utf-8")
BID = 'total = 12\nunits = ["Japan Manchuria: 2 INF", "Germany Central Mediterranean SZ: 1 TRN"]'


def findings(bid: str, extra: str = "") -> list[Finding]:
    text = SHIPPED.split("\n[expect]")[0].replace(BID, bid) + extra
    return [f for f in review(parse_replay(text).game).findings if f.kind.startswith("bid")]


def test_details_worth_more_than_the_total_are_a_finding_open_for_the_minister() -> None:
    [finding] = findings(BID)
    assert (finding.kind, finding.status, finding.turn) == ("bid_total_mismatch", "open", "USSR 1")
    assert "the bid details are worth 14 IPCs (2 INF for Japan in Manchuria: 6; 1 TRN for Germany " \
           "in Central Mediterranean Sea Zone: 8), the bid total entered is 12" in finding.detail
    assert "will take precedence. You will then simply adjust the bid details" in finding.detail
    assert finding.rule.startswith("iaapa-2008 How to Start a Game (the Challenge)")


@pytest.mark.parametrize("bid", [
    'total = 14\nunits = ["Japan Manchuria: 2 INF", "Germany Central Mediterranean SZ: 1 TRN"]',
    # 2008 Bidding's second example: "10 IPCs (1 G ARM in Libya, 1 J INF in Burma, 2 extra IPCs
    # for Japan)"; an IC and an AA gun count as land units at their cost.
    'total = 10\nunits = ["Germany Libya: 1 ARM", "Japan Burma: 1 INF"]\nipcs = ["Japan 2"]',
    'total = 20\nunits = ["Germany Libya: 1 IC, 1 AA"]',
    # A negative bid: the units removed count against it.
    'total = -6\nremove = ["Germany Ukraine: 2 INF"]',
    # No total stated: nothing to compare.
    'units = ["Japan Manchuria: 2 INF"]',
])
def test_details_that_add_up_to_the_total_are_no_finding(bid: str) -> None:
    assert findings(bid) == []


def test_a_negative_bid_whose_total_does_not_match() -> None:
    [finding] = findings('total = -3\nremove = ["Germany Ukraine: 2 INF"]')
    assert "worth -6 IPCs (2 INF of Germany removed from Ukraine S.S.R.: -6), the bid total " \
           "entered is -3" in finding.detail


def test_the_ministers_ruling_leaves_the_bid_on_the_board() -> None:
    ruling = ('\n[[event]]\ntype = "ruling"\nat = 2008-09-02T09:00:00Z\nfinding = "bid_total_mismatch"\n'
              'decision = "apply"\ntext = "The bid is 12: Germany drops its transport for 1 ARM and '
              '1 INF."\n')
    [finding] = findings(BID, ruling)
    assert finding.status == "stands" and finding.ruling is not None
    assert "the bid total stands" in finding.detail and "not changed" in finding.detail
