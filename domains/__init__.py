"""THOR's vocabulary and ALFRED's rules as data (rung 1): the PDDL domain ``household.pddl``, how its
actions read as ALFRED steps (``actions.json``), the task registry and goal templates (``tasks``,
``tasks.json``), and the object catalogue (``catalogue``: THOR types, flags, sizes, placement)."""
