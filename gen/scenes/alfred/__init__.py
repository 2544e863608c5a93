"""Real THOR rooms (``FloorPlanN``) imported from ALFRED's layouts and released demonstrations.

:mod:`~alfred_gen.scenes.alfred.importer` runs the import (``alfred-gen scenes import-alfred``) and
completes a room for a recorded start state; :mod:`~alfred_gen.scenes.alfred.evidence` reads what
the files prove; ``geometry`` and the ``fixture_*`` / ``support_*`` / ``surface_stats`` modules size
and place the furniture; ``thor_sizes`` reads THOR's asset sizes; ``catalogue_store`` keeps the
imported rooms on disk.
"""
