"""Outputs made from trajectories: videos, a browsable site, other formats."""
