"""One demonstration (rung 4): from a task in a room to a vetted trajectory on disk.

- :mod:`~alfred_gen.demo.start`: the start state (spawn from a seed, start pose, ALFRED's ``scene``
  block, the state restored from that block) and its PDDL problem; shared by ``generate``, ``plan``
  and the sampler, so they all solve the same problem;
- :mod:`~alfred_gen.demo.generate`: spawn, plan, expand, record, write, vet, rename (``alfred-gen
  generate``);
- :mod:`~alfred_gen.demo.plan`: the plan of a task without recording it (``alfred-gen plan``);
- :mod:`~alfred_gen.demo.expand`: high-level plan steps to THOR actions with interaction targets;
- :mod:`~alfred_gen.demo.navigation`: shortest walks on the reachable grid;
- :mod:`~alfred_gen.demo.language`: templated instructions.
"""
