"""What each room type contains: furniture and pickupable object types, and how often.

The shares are this library's own design (how often a kitchen has a dining table, a bedroom a
desk lamp), chosen so that over the 30 rooms of a type every object type that real AI2-THOR rooms
of that type hold turns up; ``bench/scenes_vs_alfred.py`` checks that against ALFRED's layouts.

Which rooms get an optional thing is decided by :func:`has`, a deterministic spread over the 30
rooms of a type: a thing with share s appears in exactly round(30 * s) of them, in rooms that
differ from thing to thing. It depends on the scene number only, so a room keeps its contents
when its geometry is re-drawn after a failed attempt.
"""

from __future__ import annotations

from alfred_gen.sim.scene import hash_str

ROOMS_PER_TYPE = 30

#: Pickupable object types per room type: type -> share of rooms holding one.
PICKUPABLES: dict[str, dict[str, float]] = {
    "kitchen": {
        "Apple": 1, "Bowl": 1, "Bread": 1, "ButterKnife": 0.95, "Cup": 1, "DishSponge": 1, "Egg": 1,
        "Fork": 1, "Knife": 1, "Lettuce": 1, "Mug": 1, "Pan": 1, "PepperShaker": 1, "Plate": 1, "Pot": 1,
        "Potato": 1, "SaltShaker": 1, "SoapBottle": 1, "Spatula": 1, "Spoon": 1, "Tomato": 1,
        "Kettle": 0.5, "Ladle": 0.35, "WineBottle": 0.35, "PaperTowelRoll": 0.35, "Glassbottle": 0.25,
        "Vase": 0.15, "Statue": 0.15, "CellPhone": 0.15, "CreditCard": 0.1, "Book": 0.1,
        "SprayBottle": 0.1, "Pen": 0.1, "Pencil": 0.1,
    },
    "living_room": {
        "Box": 1, "RemoteControl": 1, "Laptop": 1, "KeyChain": 1, "CreditCard": 1, "Pillow": 1,
        "Statue": 0.95, "Vase": 0.6, "Newspaper": 0.6, "Watch": 0.55, "WateringCan": 0.45, "Plate": 0.35,
        "TissueBox": 0.3, "CellPhone": 0.25, "Book": 0.25, "Pen": 0.15, "Boots": 0.15, "Bowl": 0.15,
        "Pencil": 0.15, "Candle": 0.1,
    },
    "bedroom": {
        "Pillow": 1, "Book": 1, "Pen": 1, "CellPhone": 1, "Pencil": 1, "CD": 1, "Laptop": 1,
        "KeyChain": 1, "AlarmClock": 1, "CreditCard": 1, "Mug": 0.55, "BaseballBat": 0.45, "Bowl": 0.45,
        "Box": 0.4, "BasketBall": 0.35, "TeddyBear": 0.35, "TennisRacket": 0.35, "Cloth": 0.15,
        "TissueBox": 0.15, "Statue": 0.15, "RemoteControl": 0.1, "Vase": 0.1, "Boots": 0.1,
        "Watch": 0.07, "Footstool": 0.05,
    },
    "bathroom": {
        "SoapBottle": 1, "Candle": 1, "ScrubBrush": 1, "Cloth": 1, "SoapBar": 1, "HandTowel": 1,
        "SprayBottle": 1, "Towel": 1, "Plunger": 1, "ToiletPaper": 1, "TissueBox": 0.3,
        "DishSponge": 0.2, "PaperTowelRoll": 0.15, "Footstool": 0.05,
    },
}

#: Pickupables no receptacle takes (THOR leaves them on the floor).
FLOOR_ITEMS = frozenset({"Boots", "Footstool", "PaperTowelRoll", "Plunger", "ScrubBrush", "TeddyBear"})

#: Optional furniture and fixtures per room type: name -> share of rooms that have it. Things every
#: room of a type has are built unconditionally by that type's furnishing code.
FURNITURE: dict[str, dict[str, float]] = {
    "kitchen": {
        "Window": 0.85, "Chair": 0.8, "DiningTable": 0.55, "Island": 0.35, "HousePlant": 0.35,
        "Shelf": 0.2, "Blinds": 0.2, "SideTable": 0.1, "Mirror": 0.1, "Curtains": 0.1, "Safe": 0.05,
        "MicrowaveAbove": 0.5, "UpperCabinets": 0.8,
    },
    "living_room": {
        "Window": 0.9, "ArmChair": 0.9, "CoffeeTable": 0.85, "SideTable": 0.8, "Drawer": 0.75,
        "Chair": 0.65, "DiningTable": 0.45, "TVStand": 0.4, "Shelf": 0.4, "Dresser": 0.35,
        "Curtains": 0.25, "DeskLamp": 0.25, "Lamp": 0.2, "Cabinet": 0.15, "Ottoman": 0.15,
        "Mirror": 0.1, "Safe": 0.07, "Blinds": 0.05, "Desk": 0.05, "SecondArmChair": 0.3,
    },
    "bedroom": {
        "Blinds": 0.9, "Drawer": 0.95, "Chair": 0.75, "Shelf": 0.65, "DeskLamp": 0.65, "Desk": 0.65,
        "SideTable": 0.65, "Dresser": 0.5, "Painting": 0.45, "Lamp": 0.35, "LaundryHamper": 0.25,
        "HousePlant": 0.25, "ArmChair": 0.2, "Poster": 0.2, "DiningTable": 0.15, "Cabinet": 0.15,
        "Safe": 0.15, "Television": 0.1, "Curtains": 0.07, "CoffeeTable": 0.05, "CounterTop": 0.05,
    },
    "bathroom": {
        "CounterTop": 0.85, "Bathtub": 0.7, "Window": 0.65, "ShowerDoor": 0.55, "Drawer": 0.5,
        "Cabinet": 0.5, "ShowerCurtain": 0.45, "ShowerGlass": 0.45, "ShowerHead": 0.4, "Shelf": 0.25,
        "Dresser": 0.07, "SideTable": 0.07, "FloorLamp": 0.07, "Cart": 0.07, "Painting": 0.05,
        "HousePlant": 0.05,
    },
}

#: Pickupable classes that some rooms hold twice (for pick-two tasks), per room type.
DOUBLES: dict[str, tuple[str, ...]] = {
    "kitchen": ("Apple", "Tomato", "Potato", "Egg", "Mug", "Cup", "Plate", "Bowl", "Fork", "Spoon",
                "Knife", "Lettuce", "Bread", "Pan", "Pot", "SaltShaker", "DishSponge", "Spatula"),
    "living_room": ("RemoteControl", "KeyChain", "CreditCard", "Pillow", "Box", "Statue", "Laptop",
                    "Newspaper", "Vase", "Watch"),
    "bedroom": ("Pillow", "Book", "CellPhone", "Pen", "Pencil", "CD", "KeyChain", "AlarmClock",
                "CreditCard", "Laptop"),
    "bathroom": ("SoapBar", "SoapBottle", "ToiletPaper", "Candle", "Cloth", "SprayBottle", "TissueBox",
                 "HandTowel"),
}


def room_slot(scene_num: int) -> int:
    """0-29: the position of a scene among the 30 rooms of its type."""
    return (scene_num % 100) - 1


def has(scene_num: int, thing: str, share: float) -> bool:
    """Whether room ``scene_num`` holds ``thing``, given the share of rooms that should.

    Exactly round(30 * share) consecutive slots (cyclically) hold it, starting at a slot fixed by
    a stable hash of the name, so different things land in different rooms.
    """
    count = round(ROOMS_PER_TYPE * share)
    offset = hash_str(thing) % ROOMS_PER_TYPE
    return (room_slot(scene_num) - offset) % ROOMS_PER_TYPE < count


class Contents:
    """The optional contents of one room, by name (see :func:`has`)."""

    def __init__(self, scene_num: int, room_type: str) -> None:
        self.scene_num = scene_num
        self.room_type = room_type

    def has(self, thing: str) -> bool:
        share = FURNITURE[self.room_type].get(thing)
        if share is None:
            raise KeyError(f"{thing} is not an optional thing of a {self.room_type}")
        return has(self.scene_num, f"{self.room_type}:{thing}", share)

    def pickupables(self) -> list[tuple[str, int]]:
        """(type, count) of the pickupable objects this room starts with, sorted by type."""
        table = PICKUPABLES[self.room_type]
        chosen = [t for t in sorted(table) if has(self.scene_num, f"{self.room_type}:{t}", table[t])]
        doubles = [t for t in DOUBLES[self.room_type] if t in chosen]
        # Two or three classes get a second instance, chosen by a spread over the room slots.
        picks = set()
        if doubles:
            start = room_slot(self.scene_num) * 7
            for k in range(2 + self.scene_num % 2):
                picks.add(doubles[(start + 5 * k) % len(doubles)])
        return [(t, 2 if t in picks else 1) for t in chosen]
