"""How well lite behaves like THOR (rung 5): released ALFRED demonstrations replayed in imported
rooms, and our planner's plans for their tasks (:mod:`~alfred_gen.fidelity.measure`, run by
``bench/alfred_fidelity.py``)."""
