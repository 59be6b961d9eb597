"""The edge: a replay file checked field by field and turned into events, its text read once."""
