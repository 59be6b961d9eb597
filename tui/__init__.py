"""Terminal interfaces: the ``minister`` command and the Textual timeline."""
