"""Executing low-level actions on a simulator, recording frames, vetting trajectories by replay."""
