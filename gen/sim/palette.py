"""Colours of the `lite` renderer: display colours per THOR type, and instance-segmentation colours.

Display colours exist for people looking at frames: a type keeps its colour family in every scene
(fridges white, apples red, lettuce green, counter tops stone grey) with a small per-instance
variation derived from the object id, so two mugs differ a little but both read as mugs. Faces are
shaded by their world normal (tops light, sides darker), as under a light from above.

Segmentation colours identify instances: a stable colour per object id from
:func:`alfred_gen.sim.scene.hash_str` (independent of PYTHONHASHSEED), with collisions inside one
frame resolved deterministically by :func:`owner_colors`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from alfred_gen.sim.scene import hash_str

RGB = tuple[int, int, int]

#: What is drawn where no box is hit (a room is closed, so this is rarely seen).
BACKGROUND_COLOR: RGB = (18, 18, 24)

#: Shade per world normal: axis (0 x, 1 y, 2 z) -> (factor of the low face, of the high face).
#: Light comes from above and slightly from +z/+x, so tops are brightest and bottoms darkest.
SHADE_BY_NORMAL: dict[int, tuple[float, float]] = {
    0: (0.70, 0.80),
    1: (0.45, 1.00),
    2: (0.76, 0.88),
}

#: Shade of a room's ceiling seen from below (brighter than other undersides: bounce light).
CEILING_SHADE = 0.80

# Base colours by THOR type, grouped by family. Values are plain design choices.
_WOOD_DARK: RGB = (112, 76, 46)
_WOOD: RGB = (150, 108, 66)
_WOOD_LIGHT: RGB = (186, 146, 100)
_METAL: RGB = (176, 178, 186)
_BLACK: RGB = (38, 38, 42)
_WHITE: RGB = (236, 236, 238)
_CERAMIC: RGB = (222, 226, 230)

TYPE_COLORS: dict[str, RGB] = {
    # structure
    "Floor": (128, 92, 60),
    "Wall": (214, 208, 194),
    "Ceiling": (236, 234, 228),
    "Window": (168, 206, 232),
    "Blinds": (228, 222, 204),
    "Curtains": (150, 62, 60),
    "Painting": (170, 120, 70),
    "Poster": (200, 170, 90),
    "Mirror": (176, 202, 218),
    "LightSwitch": (240, 238, 232),
    # kitchen furniture and appliances
    "CounterTop": (166, 160, 150),
    "Cabinet": (190, 150, 98),
    "Drawer": (186, 146, 96),
    "Fridge": (232, 234, 238),
    "Microwave": (196, 196, 202),
    "StoveBurner": (44, 44, 46),
    "StoveKnob": (24, 24, 26),
    "Sink": (196, 200, 206),
    "SinkBasin": (206, 212, 220),
    "Faucet": _METAL,
    "Toaster": (196, 68, 56),
    "CoffeeMachine": (44, 44, 50),
    "GarbageCan": (86, 96, 88),
    "Kettle": (170, 172, 182),
    "Pot": (74, 74, 80),
    "Pan": (52, 52, 58),
    # tables, seats, storage
    "DiningTable": _WOOD_DARK,
    "CoffeeTable": (104, 72, 46),
    "SideTable": _WOOD,
    "Desk": (156, 118, 76),
    "Dresser": (128, 88, 54),
    "Shelf": _WOOD_LIGHT,
    "TVStand": (76, 64, 58),
    "Chair": _WOOD,
    "Stool": _WOOD,
    "Sofa": (84, 106, 150),
    "ArmChair": (124, 86, 126),
    "Ottoman": (112, 92, 122),
    "Footstool": (120, 84, 54),
    "Bed": _WOOD,
    "Pillow": (240, 238, 226),
    "Safe": (92, 92, 98),
    "Box": (184, 142, 96),
    "LaundryHamper": (212, 200, 178),
    "LaundryHamperLid": (200, 188, 166),
    "Cart": (160, 160, 166),
    # bathroom
    "Toilet": (244, 244, 240),
    "ToiletPaper": (250, 250, 248),
    "ToiletPaperHanger": _METAL,
    "Bathtub": (244, 244, 246),
    "BathtubBasin": (234, 238, 244),
    "ShowerDoor": (188, 218, 230),
    "ShowerGlass": (188, 218, 230),
    "ShowerCurtain": (216, 228, 240),
    "ShowerHead": _METAL,
    "TowelHolder": _METAL,
    "HandTowelHolder": _METAL,
    "Towel": (96, 156, 200),
    "HandTowel": (204, 124, 124),
    "SoapBar": (240, 230, 200),
    "SoapBottle": (82, 150, 204),
    "ScrubBrush": (222, 182, 62),
    "Plunger": (168, 42, 42),
    "Cloth": (178, 82, 160),
    "PaperTowelRoll": (246, 246, 240),
    "TissueBox": (110, 170, 210),
    # food
    "Apple": (196, 28, 34),
    "AppleSliced": (222, 72, 58),
    "Tomato": (226, 52, 30),
    "TomatoSliced": (232, 84, 60),
    "Lettuce": (92, 172, 60),
    "LettuceSliced": (124, 192, 84),
    "Potato": (168, 128, 78),
    "PotatoSliced": (222, 202, 142),
    "Bread": (204, 150, 78),
    "BreadSliced": (232, 202, 140),
    "Egg": (244, 238, 222),
    "EggCracked": (250, 218, 90),
    # kitchenware
    "Bowl": (196, 210, 226),
    "Plate": (242, 242, 242),
    "Mug": (200, 72, 62),
    "Cup": (198, 220, 232),
    "Knife": (168, 170, 180),
    "ButterKnife": (182, 182, 192),
    "Fork": (176, 176, 186),
    "Spoon": (176, 176, 186),
    "Spatula": (54, 54, 56),
    "Ladle": (160, 160, 170),
    "DishSponge": (240, 210, 60),
    "SprayBottle": (62, 122, 202),
    "SaltShaker": (236, 236, 236),
    "PepperShaker": (62, 62, 62),
    "WineBottle": (44, 84, 52),
    "Glassbottle": (112, 162, 122),
    # small things
    "Book": (162, 44, 44),
    "CreditCard": (40, 82, 162),
    "KeyChain": (202, 182, 62),
    "CellPhone": (30, 30, 36),
    "RemoteControl": (36, 36, 42),
    "Laptop": (52, 52, 58),
    "Television": (26, 26, 32),
    "CD": (202, 202, 216),
    "Pen": (32, 62, 172),
    "Pencil": (240, 202, 40),
    "Newspaper": (216, 216, 206),
    "Watch": (160, 130, 60),
    "AlarmClock": (60, 62, 72),
    "Statue": (172, 162, 142),
    "Vase": (92, 122, 172),
    "Candle": (246, 236, 212),
    "HousePlant": (52, 132, 62),
    "FloorLamp": (232, 212, 150),
    "DeskLamp": (232, 212, 150),
    "Lamp": (232, 212, 150),
    "BaseballBat": (192, 152, 102),
    "TennisRacket": (62, 142, 62),
    "BasketBall": (222, 112, 42),
    "TeddyBear": (152, 102, 62),
    "Boots": (82, 56, 36),
    "WateringCan": (72, 142, 92),
}

#: Types whose instances vary a lot in real rooms (books, mugs, vases...): wider hue variation.
_VARIED_TYPES = frozenset({"Book", "Mug", "Vase", "Painting", "Poster", "Towel", "HandTowel", "Cloth",
                           "Pillow", "Sofa", "ArmChair", "Statue", "Candle", "TissueBox", "Cup"})

#: Fixed colours that shape parts use regardless of the object's colour.
PART_COLORS: dict[str, RGB] = {
    "handle": (96, 98, 106),
    "seam": (70, 72, 78),
    "screen": (22, 24, 30),
    "glass": (44, 50, 60),
    "mattress": (238, 238, 242),
    "foliage": (56, 140, 64),
    "pot": (176, 96, 62),
    "shade": (236, 218, 160),
    "metal": _METAL,
    "black": _BLACK,
    "white": _WHITE,
    "ceramic": _CERAMIC,
    "stem": (96, 66, 36),
    "leaf": (70, 150, 50),
    "stone": (166, 160, 150),
    "cabinet": (190, 150, 98),
    # states (lite's looks for THOR's state changes)
    "paper": (246, 244, 236),
    "water": (70, 150, 230),
    "coffee": (92, 56, 30),
    "wine": (128, 20, 48),
    "flame": (255, 176, 36),
    "screen_on": (120, 200, 255),
}

#: The colour a dirty object's colours are mixed with, and how much of it (lite's look of isDirty).
GRIME: RGB = (98, 80, 52)
GRIME_SHARE = 0.6


@dataclass(frozen=True)
class Tone:
    """How a part's colour derives from its object's colour: a fixed part colour, or a scale."""

    scale: float = 1.0
    part: str | None = None

    def apply(self, base: Sequence[int]) -> RGB:
        source = PART_COLORS[self.part] if self.part is not None else base
        return tuple(int(min(255, max(0, round(c * self.scale)))) for c in source)  # type: ignore[return-value]  # tuple() over three channels: mypy sees tuple[int, ...]


def type_color(object_type: str, object_id: str) -> RGB:
    """Display colour of an object: its type's colour family with a small per-instance variation.

    Unknown types get a muted colour derived from the type name, so they are stable too.
    """
    base = TYPE_COLORS.get(object_type)
    if base is None:
        seed = hash_str("type:" + object_type)
        base = (90 + seed % 110, 90 + (seed >> 8) % 110, 90 + (seed >> 16) % 110)
    if object_id == object_type:
        return base
    seed = hash_str(object_id)
    varied = object_type in _VARIED_TYPES
    spread = 0.30 if varied else 0.08
    brightness = 1.0 + spread * (((seed & 0xFF) / 255.0) - 0.5)
    color = [c * brightness for c in base]
    if varied:  # rotate some energy between channels: different hue, same family of darkness
        shift = ((seed >> 8) % 3, (seed >> 10) % 3)
        amount = 40 * (((seed >> 16) & 0xFF) / 255.0)
        color[shift[0]] += amount
        color[shift[1]] -= amount / 2
    return tuple(int(min(255, max(0, round(c)))) for c in color)  # type: ignore[return-value]  # tuple() over three channels: mypy sees tuple[int, ...]


#: Finishes an object may get when colour variation is on (:func:`varied_color`): one plain
#: colour per basic colour name, light and saturated enough that lite's face shading (0.7-1.0 on
#: the faces a camera sees) keeps it nearest to its own name. Values are plain design choices.
FINISHES: dict[str, RGB] = {
    "black": (34, 34, 38),
    "white": (242, 242, 240),
    "grey": (112, 112, 116),
    "red": (196, 34, 38),
    "orange": (232, 118, 28),
    "yellow": (236, 204, 40),
    "green": (46, 150, 60),
    "blue": (40, 84, 196),
    "purple": (118, 48, 150),
    "pink": (238, 140, 180),
    "brown": (118, 72, 36),
}

_SOFT = ("red", "blue", "green", "grey", "brown", "black", "white", "yellow", "purple", "pink", "orange")
_WOODS = ("brown", "black", "white", "grey", "red")
_APPLIANCE = ("white", "black", "grey", "red")
_KITCHENWARE = ("white", "red", "blue", "yellow", "green", "black", "pink", "orange")

#: Which finishes each type's instances are drawn from under colour variation (EQA's colour
#: questions need objects whose colour is not given by their type). Types not listed keep their
#: :func:`type_color` even with variation on (a fixture, food, a screen).
TYPE_FINISHES: dict[str, tuple[str, ...]] = {
    "Sofa": _SOFT, "ArmChair": _SOFT, "Ottoman": _SOFT, "Footstool": _SOFT, "Pillow": _SOFT,
    "Towel": _SOFT, "HandTowel": _SOFT, "Cloth": _SOFT, "Curtains": _SOFT, "TeddyBear": _SOFT,
    "Chair": _WOODS, "Stool": _WOODS, "DiningTable": _WOODS, "CoffeeTable": _WOODS, "SideTable": _WOODS,
    "Desk": _WOODS, "Dresser": _WOODS, "Shelf": _WOODS, "TVStand": _WOODS, "Bed": _WOODS,
    "Fridge": _APPLIANCE, "Microwave": _APPLIANCE, "Toaster": _APPLIANCE, "CoffeeMachine": _APPLIANCE,
    "Kettle": _APPLIANCE + ("blue", "green"), "GarbageCan": ("grey", "black", "white", "green", "blue"),
    "Safe": ("grey", "black", "white"), "LaundryHamper": ("white", "brown", "grey", "blue"),
    "Mug": _KITCHENWARE, "Cup": _KITCHENWARE, "Bowl": _KITCHENWARE, "Plate": ("white", "blue", "green", "yellow"),
    "Pot": ("grey", "black", "red", "blue"), "Pan": ("grey", "black", "red"),
    "Vase": _KITCHENWARE + ("purple", "brown"), "Statue": ("white", "grey", "black", "brown", "yellow"),
    "Candle": ("white", "red", "yellow", "pink", "purple"), "Box": ("brown", "white", "red", "blue", "green"),
    "Book": _SOFT, "TissueBox": _KITCHENWARE, "SoapBottle": _KITCHENWARE,
    "WateringCan": ("green", "red", "blue", "yellow"),
    "Boots": ("black", "brown", "red", "yellow"), "Laptop": ("grey", "black", "white"),
    "Toilet": ("white", "black", "grey"), "Bathtub": ("white", "pink", "blue"),
    "Lamp": ("white", "black", "red", "yellow"),
    "FloorLamp": ("white", "black", "brown"), "DeskLamp": ("white", "black", "red", "blue", "green"),
}


def varied_color(object_type: str, object_id: str) -> RGB:
    """Display colour of an object under colour variation (a lite scene option, off by default).

    A type of :data:`TYPE_FINISHES` takes one of its finishes, chosen by the object id's stable
    hash, with a small brightness jitter; any other type keeps :func:`type_color`. So the same
    object always has the same colour, and two sofas of a house may be red and blue.
    """
    finishes = TYPE_FINISHES.get(object_type)
    if not finishes or object_id == object_type:
        return type_color(object_type, object_id)
    seed = hash_str("finish:" + object_id)
    base = FINISHES[finishes[seed % len(finishes)]]
    brightness = 1.0 + 0.06 * ((((seed >> 16) & 0xFF) / 255.0) - 0.5)
    return tuple(int(min(255, max(0, round(c * brightness)))) for c in base)  # type: ignore[return-value]  # tuple() over three channels: mypy sees tuple[int, ...]


def object_color(object_id: str) -> RGB:
    """The instance-segmentation colour of an id: three bytes of its stable hash, never black."""
    return _color_from_hash(hash_str(object_id))


def _color_from_hash(value: int) -> RGB:
    r, g, b = (value >> 40) & 0xFF, (value >> 24) & 0xFF, (value >> 8) & 0xFF
    if r + g + b < 24:  # keep clear of the black background
        r |= 0x80
    return (r, g, b)


def owner_colors(owners: Sequence[str]) -> np.ndarray:
    """(K, 3) uint8 segmentation colours, distinct within ``owners``.

    Every owner gets :func:`object_color` unless it is already taken; colliding ids are visited in
    sorted order and rehashed with a counter suffix, so the result depends only on the set of ids.
    """
    assigned: dict[str, RGB] = {}
    used: set[RGB] = set()
    for name in sorted(set(owners)):
        color = object_color(name)
        salt = 0
        while color in used:
            salt += 1
            color = _color_from_hash(hash_str(f"{name}#{salt}"))
        used.add(color)
        assigned[name] = color
    return np.array([assigned[name] for name in owners], dtype=np.uint8).reshape(-1, 3)
