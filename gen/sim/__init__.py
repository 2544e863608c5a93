"""Simulators behind one AI2-THOR-shaped interface: ``lite`` (embedded) and ``thor`` (ai2thor).

:mod:`alfred_gen.sim.controller` holds the interface (:class:`~alfred_gen.sim.controller.Controller`),
the scene lookup a lite controller is given, and :class:`~alfred_gen.sim.controller.Simulator`, the
picklable recipe that makes controllers. ``lite``: :mod:`~alfred_gen.sim.lite` (controller),
:mod:`~alfred_gen.sim.world` and the action modules (state), :mod:`~alfred_gen.sim.pixels` and
:mod:`~alfred_gen.sim.render` (frames, masks, depth). ``thor``: :mod:`~alfred_gen.sim.thor` and its
version table.
"""
