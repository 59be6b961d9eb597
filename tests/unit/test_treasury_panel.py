"""The board panel's treasury line (tui/widgets/treasury.py) and the report's treasury keys."""

from __future__ import annotations

import json

from application.intake.replayfile import load_replay
from domain.review.game_review import review
from projections.report import report_json
from tests.conftest import REPLAYS
from tui.widgets.treasury import treasury_lines

GAMES = REPLAYS / "games"


def test_the_panel_shows_each_powers_ipcs_and_income_after_the_battle() -> None:
    game = load_replay(GAMES / "full-game-three-rounds-2008.toml").game
    egypt = review(game).battles[1]  # Germany 1 takes Anglo Sudan Egypt (+$2), having spent 11
    [line] = treasury_lines(egypt, None, "as rolled")
    text = "".join(part for part, _ in line)
    assert text == "IPCs  USSR 39 (+24) Germany 21 (+34) UK 30 (+28) Japan 25 (+25) USA 36 (+36)"


def test_a_record_that_starts_mid_game_shows_no_treasury() -> None:
    game = load_replay(REPLAYS / "consequences" / "corrected-result-flows-2008.toml").game
    view = review(game)
    assert treasury_lines(view.battles[0], None, "as rolled") == []
    assert "treasury" not in json.loads(report_json(view))


def test_the_report_gives_the_treasury_at_the_end_and_after_each_battle() -> None:
    report = json.loads(report_json(review(load_replay(GAMES / "full-game-three-rounds-2008.toml").game)))
    assert report["treasury"][3] == {"power": "Japan", "ipcs": 25 - 6 + 27 - 6 + 27 - 78 + 27, "income": 27}
    assert report["battles"][3]["treasury"][4] == {"power": "USA", "ipcs": 36, "income": 34}  # China lost
