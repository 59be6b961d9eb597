"""The thin service layer: replay files in, events stored, projections out."""
