"""Which counter appliances a house's kitchen holds: as often as SUNCG's kitchens hold them, per
fridge.

Every single-room kitchen has a fridge, a microwave, a coffee machine and a toaster, and a house's
kitchens were furnished the same way. EQA's homes are not: the object counts its question engine
ships (facebookresearch/EmbodiedQA, ``data/question-gen/data/obj_counts_by_room.json`` at commit
cd6660f590718d85bedb11ee9326023f4de95ba4; :data:`SUNCG_KITCHEN_COUNTS` holds the entries used here)
count, over its SUNCG homes, 576 refrigerators in kitchens against 423 microwaves, 350 coffee
machines and 1 toaster. A toaster in every kitchen gives a colour and a colour-in-the-kitchen
question in nearly every one of our homes where SUNCG's give one in almost none.

**Normalisation.** The file holds totals per room type, not how many rooms of each type there
are, so a rate per kitchen cannot be read from it. A rate per fridge can: each of our kitchens
has exactly one fridge (it is what makes the room a kitchen, and the counts' 576 is the kitchen's
largest count of a one-per-room appliance), so a kitchen holds each appliance with the chance
``count(appliance) / count(refrigerator)`` (:func:`appliance_shares`). The file counts an object
once under every type of its room (the engine's ``obj_counts_by_room`` loop runs over
``rooms[0].name``, a list), so open-plan rooms typed kitchen and dining room add to both; that
inflates each kitchen count alike and leaves these ratios as they are.

**Why no appliance goes into a dining or living room.** The same counts put 269 refrigerators,
201 microwaves and 159 coffee machines in dining rooms and 66, 41 and 27 in living rooms. Those are
open-plan rooms counted under each of their types, not appliances standing in a plain dining
room: range hoods (211 kitchen, 96 dining, 24 living), ovens (116, 41, 13) and dishwashers (120,
38, 6) show the same spread, and the one toaster, telephone, mortar and pestle and surveillance
camera are each counted once in all three (so are the two jugs and two foods). The engine asks
nothing about an object in such a room by its room (location, colour in a room, existence and
counts skip a room with more than one name), so a fridge in one of our single-typed dining rooms
would give "the fridge in the dining room", which SUNCG's engine never asks. Our houses' open-plan
rooms (:mod:`alfred_gen.scenes.houses.open_plan`) are those rooms: a kitchen that is also the
dining room is a kitchen first, furnished (and its appliances drawn) as one.

The draw is fixed by the house and room number (not the attempt), as a room's contents are, so a
kitchen keeps its appliances when its house is drawn again. The kitchen is furnished as a single
room's, every draw as before, and the appliances it lacks are then taken off its counters, before
its pickupables are placed (:func:`leave_out_appliances`): its layout, and so the house's, stays
the one the house had with all three (drawing them out of the furnishing changed the kitchen's
later draws, and LiteHouse121, a house of ten rooms that finds a valid plan in about 1 draw in
20, no longer built in 1000 attempts).
"""

from __future__ import annotations

from alfred_gen.scenes.houses.names import house_name
from alfred_gen.scenes.procedural.furnish import RoomBuilder
from alfred_gen.sim.scene import hash_str

#: The appliances a single-room kitchen always stands on its counters (or the microwave over the
#: stove) and a house's kitchen may lack.
APPLIANCES = ("Microwave", "CoffeeMachine", "Toaster")

#: SUNCG's counts in kitchens (EQA's ``obj_counts_by_room.json``, commit above): the anchor and
#: each of our counter appliances, by the engine's class name.
SUNCG_KITCHEN_COUNTS = {"refrigerator": 576, "microwave": 423, "coffee_machine": 350, "toaster": 1}

#: The engine's class of each of our appliances (THOR type -> SUNCG fine class).
SUNCG_CLASS = {"Microwave": "microwave", "CoffeeMachine": "coffee_machine", "Toaster": "toaster"}

#: The class each kitchen has exactly one of, the rates' denominator.
ANCHOR = "refrigerator"


def appliance_shares() -> dict[str, float]:
    """THOR appliance type -> the chance a house's kitchen holds it: its SUNCG kitchen count over
    the refrigerators'."""
    anchor = SUNCG_KITCHEN_COUNTS[ANCHOR]
    return {t: SUNCG_KITCHEN_COUNTS[SUNCG_CLASS[t]] / anchor for t in APPLIANCES}


def kitchen_appliances(house: int, room_index: int) -> tuple[str, ...]:
    """The appliances of the kitchen that is room ``room_index`` of house ``house``, in
    :data:`APPLIANCES` order: each kept when a uniform draw
    from a stable hash of the house, room and type falls under its share."""
    shares = appliance_shares()
    kept = []
    for object_type in APPLIANCES:
        draw = hash_str(f"{house_name(house)}/room {room_index}/{object_type}") / 2**64
        if draw < shares[object_type]:
            kept.append(object_type)
    return tuple(kept)


def leave_out_appliances(builder: RoomBuilder, house: int, room_index: int) -> None:
    """Take the appliances this kitchen does not hold (:func:`kitchen_appliances`) out of a
    furnished kitchen's objects; nothing else moves."""
    kept = kitchen_appliances(house, room_index)
    missing = set(APPLIANCES) - set(kept)
    builder.objects[:] = [o for o in builder.objects if o.object_type not in missing]
