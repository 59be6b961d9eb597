"""The review of a recorded game: rounds as rolled, rolling and declaration errors, decisions,
corrections, the impact of an error, and the reviewed model the projections read.
"""
