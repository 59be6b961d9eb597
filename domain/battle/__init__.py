"""The mechanical battle: its value types, the columns of a battle board, dice sources, the engine.
"""
