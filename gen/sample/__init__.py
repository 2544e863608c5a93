"""A dataset of demonstrations (rung 5): ``alfred-gen sample`` and ``alfred-gen stats``.

- :mod:`~alfred_gen.sample.feasibility`: the task tuples (task type, scene, object, receptacle,
  movable receptacle) a scene can host;
- :mod:`~alfred_gen.sample.balance`: ALFRED's active balancing of the next tuple;
- :mod:`~alfred_gen.sample.run`: the run (options, lock, resume, progress, summary); its parts:
  ``options`` (parsing), ``ledger`` (what was made and failed), ``schedule`` (which job next),
  ``jobs`` (messages to workers), ``workers`` (in-process or a pool), ``loop`` (driving them),
  ``disk_state`` (what is on disk), ``report`` (the summary), ``trial_ids`` (seeded ids);
- :mod:`~alfred_gen.sample.stats`: counts and balance of a dataset on disk.
"""
