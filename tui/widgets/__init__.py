"""The timeline app's widgets."""
