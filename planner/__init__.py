"""Planning (rung 2): PDDL encoding of a scene state and task (``encode``), grounding, FF-style
search with helpful actions (``search``, ``heuristic``), plan tidying and validation, and reading
plans back as ALFRED steps (``result``). Works on plain metadata dicts and PDDL text; it never
imports a simulator."""
