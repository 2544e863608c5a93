"""Outputs of trajectories in other forms: ALFWorld text games, videos, a viewer."""
