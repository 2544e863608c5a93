"""Simulator backends behind one AI2-THOR-shaped interface (`lite` embedded, `thor` real)."""

from __future__ import annotations

from typing import Any


def make_controller(backend: str = "lite", **options: Any) -> Any:
    """A controller for the named backend: ``lite`` (embedded, default) or ``thor`` (ai2thor).

    ``options`` go to the backend's constructor (for lite: ``scene``, ``width``, ``height``,
    ``visibility_distance``, ``scene_resolver``, ``visibility``, ``renderer``, ...).
    """
    if backend == "lite":
        from alfred_gen.sim.lite import LiteController

        return LiteController(**options)
    if backend == "thor":
        try:
            from alfred_gen.sim import thor  # type: ignore[attr-defined]
        except ImportError as error:
            from alfred_gen.errors import ExitCode, UserError

            raise UserError(
                "the thor backend is not available (install alfred-gen[thor] and a THOR build)",
                ExitCode.BACKEND_UNAVAILABLE,
            ) from error
        return thor.make_controller(**options)
    from alfred_gen.errors import ExitCode, UserError

    raise UserError(f"unknown simulator backend {backend!r} (choose lite or thor)", ExitCode.USAGE)
