"""Scoring agents on the project's data with each paper's own metrics (``alfred-gen eval``)."""
