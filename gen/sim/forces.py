"""From an action's force to how far an object goes: the few lines of mechanics lite's pushes and
throws use instead of Unity's physics.

THOR's ``DirectionalPush`` and ``ThrowObject`` apply ``moveMagnitude`` newtons to the object's rigid
body for one physics step (Unity's fixed step, :data:`FORCE_SECONDS`); the object leaves with the
momentum ``force x step`` and so the speed ``force x step / mass`` (mass: THOR's, here estimated,
:mod:`alfred_gen.domains.masses`). Then:

* sliding on a surface, friction (Unity's default dynamic friction, :data:`FRICTION`) slows it
  at ``FRICTION x g`` until it rests: it slides ``v² / (2 FRICTION g)`` metres;
* thrown level from the hand, it flies for the time a fall from the hand's height takes,
  ``sqrt(2 h / g)``, so ``v x sqrt(2 h / g)`` metres, then lands and slides with the same speed.

A light object therefore goes further than a heavy one under the same force, and twice the force
slides it four times as far. Whatever it hits on the way stops it
(:func:`alfred_gen.sim.kinematics.travel`). No bounce, no roll, no spin: the same state and
arguments always give the same result.
"""

from __future__ import annotations

import math

#: Unity's fixed physics step (seconds): how long THOR applies an action's force.
FORCE_SECONDS = 0.02
#: Unity's default dynamic friction coefficient.
FRICTION = 0.6
#: Gravity, m/s².
GRAVITY = 9.81
#: No push or throw carries an object further than this (metres): a room's size.
MAX_METRES = 5.0


def launch_speed(force: float, mass: float) -> float:
    """The speed (m/s) ``force`` newtons give an object of ``mass`` kilograms in one physics step."""
    if mass <= 0:
        raise ValueError(f"mass must be positive, got {mass:g}")
    return max(0.0, force) * FORCE_SECONDS / mass


def slide_distance(speed: float) -> float:
    """How far (metres) an object sliding at ``speed`` goes before friction stops it."""
    return min(MAX_METRES, speed * speed / (2.0 * FRICTION * GRAVITY))


def flight_distance(speed: float, height: float) -> float:
    """How far (metres) an object launched level at ``speed`` from ``height`` metres above what is
    below it flies before it lands."""
    if height <= 0:
        return 0.0
    return min(MAX_METRES, speed * math.sqrt(2.0 * height / GRAVITY))
