"""The use cases the interfaces call: open a game, import and export, dice, the desk."""
