"""The board walked through a game's records, turn by turn: who holds each territory and what
stands in it after every record (:func:`domain.record.board.walk.walk_board`)."""
