"""Simulator backends behind one AI2-THOR-shaped interface (`lite` embedded, `thor` real)."""

from __future__ import annotations

from typing import Any


def make_controller(backend: str = "lite", **options: Any) -> Any:
    """A controller for the named backend: ``lite`` (embedded, default) or ``thor`` (ai2thor).

    ``options`` go to the backend's constructor (for lite: ``scene``, ``width``, ``height``,
    ``visibility_distance``, ``scene_resolver``, ``visibility``, ``renderer``, ...; for thor: see
    :func:`alfred_gen.sim.thor.make_thor_controller`).
    """
    if backend == "lite":
        from alfred_gen.sim.lite import LiteController

        return LiteController(**options)
    if backend == "thor":
        from alfred_gen.sim.thor import make_thor_controller

        return make_thor_controller(**options)
    from alfred_gen.errors import ExitCode, UserError

    raise UserError(f"unknown simulator backend {backend!r} (choose lite or thor)", ExitCode.USAGE)
