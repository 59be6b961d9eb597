"""The timeline app's modal screens."""
