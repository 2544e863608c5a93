"""Toilet paper rolls a start pose lays on their side.

ALFRED's start poses roll a toilet paper roll a quarter turn about its own z axis in 500 of the
6,574 train demos' poses (rotation z 90 or 270; x stays 0): THOR's roll then lies on its side, its
axis level, on a hanger's bar, a counter or the floor. Lite kept only a pose's yaw and stood every
roll upright on its origin, the middle of its base: over the wide sample (every 20th train demo,
held out by folds) the four first pickups of a lying roll drew lite's mask 5 to 82 pixels off
THOR's (IoU 0 to 0.28; ALFRED's rule picked the hanger, the toilet or the scrub brush under three
of them), where the five upright rolls lay within a pixel of THOR's.

Rolled a quarter turn about z (THOR turns z first, then x, then yaw, as Unity does), the roll's
height lies along its own x and its origin stays put: a roll at z 90 reaches from its origin
towards own -x, one at z 270 towards own +x, and its axis lies at the origin's height. Only the
rolled types' box and origin turn (:data:`ROLLED`); other types keep their box upright whatever
their pose's roll, as before.

Held out (each demo in its room built from the other 4 of 5 folds), the wide sample's 22 bathrooms,
with the scrub brush drawn as a holder under a thin handle
(:data:`~alfred_gen.sim.thor_shapes.NARROW_TOPS`; lying on its side, FloorPlan423's roll on the
brush's holder was hidden in its whole box): odd FloorPlans (where the misses were seen) IoU 0.6387
to 0.6429, ALFRED's rule 153 to 155 of 158 (ToiletPaper-Toilet-413 @7 0.109 to 0.618,
ToiletPaper-ToiletPaperHanger-423 @12 0 to 0.294); even ones 0.6321 to 0.6388, rule 86 of 86 both
(FloorPlan428's lying roll 0.282 to 0.838); fidelity 100% both. Whole wide sample: mean IoU 0.7151
to 0.7157, ALFRED's rule 2,055 to 2,057 of 2,104 (none lost), fidelity 100%; the 238's masks 0.6802
to 0.6801, rule 331 of 336 both.
"""

from __future__ import annotations

from alfred_gen.sim.world import World, WorldObject

#: Types whose box lies on its side when a start pose rolls them a quarter turn about own z.
ROLLED = frozenset({"ToiletPaper"})
#: How far (degrees) a pose's roll may lie off a quarter turn and still lay the object on its side.
ROLL_TOLERANCE = 10.0


def quarter_rolls(roll: float) -> int:
    """How many quarter turns (0 to 3) about own z ``roll`` degrees is; 0 when it is no whole
    quarter turn within :data:`ROLL_TOLERANCE`."""
    turns = round(roll / 90.0)
    if abs(roll - 90.0 * turns) > ROLL_TOLERANCE:
        return 0
    return turns % 4


def set_roll(world: World, obj: WorldObject, roll: float) -> None:
    """Give ``obj`` (of a :data:`ROLLED` type) the roll ``roll`` about its own z: its box and its
    origin's offset from the box's middle turn by the quarter turns between its roll and ``roll``.
    Other types are left alone. Call it before the pose's yaw is set and the object moved."""
    if obj.type_name not in ROLLED:
        return
    turns = (quarter_rolls(roll) - quarter_rolls(obj.rotation[2])) % 4
    yaw = obj.rotation[1]
    world.set_rotation(obj, 0.0)
    if turns % 2:
        sx, sy, sz = obj.size
        obj.size = (sy, sx, sz)
    ox, oy, oz = obj.offset
    for _ in range(turns):
        ox, oy = -oy, ox
    obj.offset = (ox, oy, oz)
    obj.rotation = (obj.rotation[0], obj.rotation[1], float(roll) % 360.0 if quarter_rolls(roll) else 0.0)
    world.set_rotation(obj, yaw)
    if turns:
        world.sight_changed()
    world.touch(obj)
