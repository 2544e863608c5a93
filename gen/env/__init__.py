"""A Gymnasium environment over ALFRED-style trajectories (:class:`~alfred_gen.env.alfred.AlfredEnv`).

Importing this package registers one Gymnasium id per mode::

    import gymnasium, alfred_gen.env
    env = gymnasium.make("alfred_gen/ALFRED-mask-v0", trajectories="out/")

(``ALFRED-mask-v0``, ``ALFRED-object_id-v0``, ``ALFRED-high_level-v0``). ``gymnasium.make`` also
imports it when the id is written ``"alfred_gen.env:alfred_gen/ALFRED-mask-v0"``.
"""

from __future__ import annotations

import gymnasium

from alfred_gen.env.alfred import MODES, AlfredEnv

#: The registered Gymnasium ids, by mode.
ENV_IDS = {mode: f"alfred_gen/ALFRED-{mode}-v0" for mode in MODES}

for _mode, _id in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="alfred_gen.env.alfred:AlfredEnv", kwargs={"mode": _mode},
                           disable_env_checker=True)

__all__ = ["ENV_IDS", "MODES", "AlfredEnv"]
