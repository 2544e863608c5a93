"""A dataset of demonstrations (rung 5): ``alfred-gen sample`` and ``alfred-gen stats``.

- :mod:`~alfred_gen.sample.feasibility`: the task tuples (task type, scene, object, receptacle,
  movable receptacle) a scene can host;
- :mod:`~alfred_gen.sample.balance`: ALFRED's active balancing of the next tuple;
- :mod:`~alfred_gen.sample.run`: the run (options, lock, resume, progress, summary); its parts:
  ``options`` (parsing), ``plan`` (what the dataset is: groups of trials and their tuples),
  ``schedule`` (which jobs are needed now), ``workers`` (who runs them: this process or worker
  processes that may die), ``jobs`` (the messages between them), ``ledger`` (what is known about
  each attempt), ``loop`` (driving it all), ``disk_state`` (what is on disk), ``report`` (the
  summary), ``trial_ids`` (seeded ids);
- :mod:`~alfred_gen.sample.stats`: counts and balance of a dataset on disk.
"""
