"""The record: events, the text read once at intake, the Game aggregate and its entries.
"""
