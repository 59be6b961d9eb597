"""Sub-commands of ``minister`` that live in their own modules."""
