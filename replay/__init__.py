"""Running actions on a simulator (rung 3): restoring a recorded start state (``restore``),
executing low-level actions (``execute``), recording frames and masks (``record``, ``images``), goal
checks (``goals``), vetting a trajectory by replay (``vet``, ``verify``) and re-rendering it
(``rerender``). Replay is handed a controller (or a :class:`~alfred_gen.sim.controller.Simulator`
recipe); it never imports the scene library, the sampler or the CLI."""
