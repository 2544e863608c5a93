"""The PDDL domain and task goal templates (data files, read with importlib.resources)."""
