"""PDDL encoding of a scene and task, FF-style search, plan validation. Works on plain metadata dicts."""
