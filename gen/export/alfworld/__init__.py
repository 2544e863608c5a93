"""Export to ALFWorld: trajectories become text games that ALFWorld's own loader and engine play.

- :mod:`.upstream` reads what ALFWorld itself defines (its PDDL domain, grammar, goal templates,
  placement and capability tables, the task types its loader takes) from the installed ``alfworld``
  package (the optional extra ``[alfworld]``); nothing of it is copied into this project.
- :mod:`.room` reads a start state (THOR metadata plus interaction poses) as ALFWorld sees a room.
- :mod:`.problem` writes that room and the task's goal as ALFWorld's ``initial_state.pddl``.
- :mod:`.walkthrough` turns our high-level plan into ALFWorld commands (``go to countertop 1``).
- :mod:`.export` is ``alfred-gen export alfworld``: restore, write the game files, report skips.
- :mod:`.check` is ``alfred-gen export alfworld-check``: ALFWorld's loader collects the games,
  its engine plays each walkthrough, and its handcoded expert plays for information.
"""
