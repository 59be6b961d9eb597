"""The pure domain model of minister: units, board, notation, battles, events and the Game.

Nothing here imports Textual or any storage: the domain is plain Python over immutable values.
"""
