"""How heavy THOR's pickupable objects are: what lite's pushes and throws divide their force by.

THOR gives every object a mass (kilograms, in its metadata) that Unity's physics uses. The THOR facts
kept beside the project (``../shared/thor``, ProcTHOR's asset database) give sizes, not masses, so
lite estimates a mass from the object's box: its volume times an *effective density*, the kilograms
per cubic metre of bounding box for a kind of object (a mug is mostly air, a knife mostly steel
edge-on). The kinds and their densities are chosen so that typical objects weigh what such objects
weigh (an apple about 0.3 kg, a mug 0.3 kg, a laptop 1-2 kg, a book 1 kg, a knife 0.1 kg); they are
estimates, documented as such, not THOR's numbers. Two objects of one type but different sizes
differ in mass, as THOR's assets do.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Effective density (kg per m³ of bounding box) per kind, and the types of each kind.
KINDS: dict[str, tuple[float, frozenset[str]]] = {
    "produce": (250.0, frozenset({
        "Apple", "AppleSliced", "Potato", "PotatoSliced", "Tomato", "TomatoSliced", "Lettuce",
        "LettuceSliced", "Egg", "EggCracked"})),
    "bread": (150.0, frozenset({"Bread", "BreadSliced"})),
    "vessel": (200.0, frozenset({
        "Mug", "Cup", "Bowl", "Pot", "Pan", "Kettle", "Plate", "Vase", "Bottle", "WineBottle",
        "SoapBottle", "SprayBottle", "Glassbottle", "SaltShaker", "PepperShaker", "Watch", "Candle",
        "Statue", "AlarmClock", "WateringCan"})),
    "device": (800.0, frozenset({"CellPhone", "RemoteControl", "CD", "KeyChain", "CreditCard"})),
    "open laptop": (70.0, frozenset({"Laptop"})),
    "steel": (1500.0, frozenset({"Fork", "Knife", "ButterKnife", "Spoon", "Pen", "Pencil", "Dumbbell"})),
    "long tool": (100.0, frozenset({
        "Spatula", "Ladle", "ScrubBrush", "Plunger", "BaseballBat", "TennisRacket"})),
    "paper": (600.0, frozenset({"Book", "Newspaper"})),
    "soft": (100.0, frozenset({
        "Cloth", "Towel", "HandTowel", "DishSponge", "TissueBox", "ToiletPaper", "ToiletPaperRoll",
        "SoapBar", "BasketBall", "PaperTowel", "PaperTowelRoll"})),
    "stuffed": (40.0, frozenset({"Pillow", "TeddyBear", "Boots"})),
    "empty box": (20.0, frozenset({"Box"})),
}
#: Effective density of a type in no kind.
DEFAULT_DENSITY = 300.0
#: No object is lighter or heavier than this (kg): a credit card, a dumbbell.
MIN_MASS, MAX_MASS = 0.02, 30.0

_DENSITY = {name: density for density, names in KINDS.values() for name in names}


def density_of(type_name: str) -> float:
    """The effective density (kg/m³ of box) of a THOR object type."""
    return _DENSITY.get(type_name, DEFAULT_DENSITY)


def mass_of(type_name: str, size: Sequence[float]) -> float:
    """The estimated mass (kg) of an object of this type with this (x, y, z) box, in metres."""
    volume = float(size[0]) * float(size[1]) * float(size[2])
    return min(MAX_MASS, max(MIN_MASS, volume * density_of(type_name)))
