"""The grammar of generated instructions, as data, and the one function that expands it.

A rule is a name and its alternatives. In an alternative, ``<name>`` expands another rule and
``{slot}`` is filled with a phrase the demonstration supplies (:mod:`.realise` computes them from
:mod:`.facts`: a route, a destination, an object's description). An alternative can be chosen
only when every slot it names has a phrase, so a line about a walk that passes no landmark never
says "past ..."; the choice among the rest is a seeded draw, so each annotation is a different,
reproducible realisation.

To extend the language, add alternatives here: wording lives in this table, facts in
:mod:`.facts`. An alternative must not add a direction, number or colour of its own: those words
come only through slots, which carry the claims the truth checker verifies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache

from alfred_gen.demo.language.facts import Claim

#: rule -> alternatives.
RULES: dict[str, tuple[str, ...]] = {
    # ---- navigation -----------------------------------------------------------------------------
    "goto": (
        "{route} to reach {dest}.",
        "{route} until you get to {dest}.",
        "{route}, and you are at {dest}.",
        "{route} and <stop_at> {dest}.",
        "{route}; <stop_at> {dest}.",
        "<Now> {route} and <stop_at> {dest}.",
        "Follow this route: {route}, then <stop_at> {dest}.",
        "{route} until you reach {dest}.",
        "{route}. Your destination is {dest}.",
        "{route} to find {dest}.",
        "{route} to <approach> {dest}.",
        "<go> towards {dest}: {route}.",
        "{route} to arrive at {dest}.",
        "{route}, which brings you to {dest}.",
        "<go> to {dest}: {route}.",
        "To get to {dest}, {route}.",
        "{route}, passing {passed}, to reach {dest}.",
        "{route}; on the way you pass {passed}. Stop at {dest}.",
        "{route}, going past {passed}, and stop in front of {dest}.",
        "{Dest_is} {dest_side}; {route} to get there.",
        "{Dest_is} {dest_side}. {route_turns} and <go> there.",
        "{first_turn} and <go> to {dest}, which was {dest_side}.",
        "{first_turn}, then <go> over to {dest}.",
        "{first_turn} and <go> to {dest}, going past {passed}.",
        "{route_turns} and <go> to {dest}.",
        "{route_turns}, making your way to {dest}.",
        "<go> to {dest} {dest_side}.",
        "<go> to {dest} that is {dest_side}, passing {passed}.",
        "<go> to {dest}, {distance} away.",
        "{first_turn} and <go> {distance} to {dest}.",
        "<go> over to {dest}.",
        "<Now> <go> to {dest}.",
        "<go> to {dest} so that you can <next_verb> {next_obj}.",
        "{route} to reach {dest}, where you will <next_verb> {next_obj}.",
        "{first_turn} and <go> to {dest} in order to <next_verb> {next_obj}.",
        "Your next stop is {dest}: {route}.",
        "Head for {dest}. To get there, {route}.",
        "{route}. You should now be facing {dest}.",
        "{route}, ending up in front of {dest}.",
        "Approach {dest}: {route}.",
        "Make your way to {dest} by the following route: {route}.",
    ),
    "next_verb": ("use", "get to", "deal with", "work with", "reach", "handle", "interact with", "attend to",
                  "access", "tackle"),
    "stop_at": ("stop at", "halt at", "pause at", "come to a stop at", "end up at", "arrive at",
                "position yourself at", "stand at", "wait at", "finish at", "settle in front of",
                "station yourself by"),
    "approach": ("approach", "get close to", "come up to", "close in on", "home in on",
                 "zero in on"),
    "go": ("walk", "go", "head", "move", "make your way", "proceed", "continue", "walk over", "carry on", "trek",
           "shuffle", "march", "journey", "roam", "saunter", "wend your way",
           "cross the room", "travel", "stroll", "wander", "amble", "stride", "navigate", "hurry", "step over",
           "find your way", "get yourself"),
    "Now": ("Now", "Next", "Then", "After that", "From here", "Once done", "When you are ready", "Okay,", "Alright,",
            "Good, now", "Afterwards", "Subsequently", "With that done,", "Moving on,", "Straight away,",
            "Without waiting,", "At this point,", "Immediately", "Having done that,", "Great, now", "Perfect, now",
            "Following that,", "Thereafter,"),
    "turn_right": ("turn right", "turn to the right", "take a right", "hang a right", "make a right turn",
                   "turn to your right", "face right"),
    "turn_left": ("turn left", "turn to the left", "take a left", "hang a left", "make a left turn",
                  "turn to your left", "face left"),
    "turn_around": ("turn around", "turn all the way around", "do an about-face", "spin around",
                    "turn right around", "turn to face the other way"),
    "walk_n": ("walk {n} steps", "go forward {n} steps", "take {n} steps forward", "move ahead {n} steps",
               "walk forward for {n} steps", "go straight for {n} steps", "walk {metres}", "go forward {metres}",
               "keep walking for {n} steps", "advance {n} steps"),
    "walk_1": ("take one step forward", "move one step ahead", "step forward once", "walk one step"),
    "walk_on": ("walk forward", "go straight", "keep going", "walk ahead", "continue forward", "move on"),
    "then": (", then ", " and then ", ", ", ", after that ", " and ", ", next ", ", afterwards ", "; then ",
             ", and after that ", ", subsequently "),
    "last_then": (" and ", ", then ", " and finally ", ", and then ", ", and lastly ", ", and at last ",
                  " and to finish "),
    "turns_then": (", then ", ", and then ", " and "),
    # ---- interactions ---------------------------------------------------------------------------
    "pickup": ("pick up", "take", "grab", "get", "lift", "collect", "retrieve", "take hold of", "remove", "fetch",
               "snatch", "grasp", "seize", "scoop up", "lift up", "obtain", "procure", "acquire", "claim", "pluck",
               "take up", "hoist", "gather", "secure", "nab", "grip"),
    "put": ("put", "place", "set", "lay", "leave", "rest", "drop", "position", "deposit", "stash", "store",
            "park", "settle", "stow", "plant", "slide", "tuck", "nestle", "pop", "sit", "arrange"),
    "open": ("open", "pull open", "swing open"),
    "close": ("close", "shut"),
    "switch_on": ("turn on", "switch on", "power on", "flick on", "light up", "activate"),
    "switch_off": ("turn off", "switch off", "power off", "flick off", "deactivate"),
    "slice": ("slice", "cut", "chop"),
    "Please": ("Please", "Kindly", "Now please", "Proceed to", "You should", "You need to", "You'll want to",
               "Try to", "Remember to", "Don't forget to", "Make sure to", "Your next job is to", "Be careful to",
               "It's time to", "Your job now is to", "Be sure to"),
    "pickup_line": (
        "<Please> <pickup> {obj} {from}.",
        "<Please> <pickup> {obj} that is lying {at}.",
        "Look for {obj} {at}, then <pickup> it.",
        "Spot {obj} {at} and <pickup> it.",
        "There is {obj_bare} {at}; <pickup> it.",
        "Locate {obj} {at} and carefully <pickup> it.",
        "<pickup> {obj} {from}.",
        "<pickup> {obj} {from}.",
        "<pickup> {obj} that is {at}.",
        "<Reach> <pickup> {obj} {from}.",
        "<pickup> {obj}, the one {at}.",
        "Find {obj} {at} and <pickup> it.",
        "<pickup> {obj} sitting {at}.",
        "<pickup> {obj} {from} with your hand.",
    ),
    "Reach": ("Reach out and", "Carefully", "From there,", "Now", "There,", "Here,", "Then", "Quickly", "Gently",
              "Delicately", "Firmly", "Cautiously", "Swiftly", "Promptly", "Casually", "Deftly",
              "Slowly", "Calmly", "Without delay,", "Please", "Proceed to", "Lean over and", "Bend down and"),
    "put_line": (
        "<Please> <put> {held} {into}.",
        "Release {held} {into}.",
        "Let go of {held} {into}.",
        "Carefully <put> {held} {into} and step back.",
        "Drop off {held} {into}.",
        "Your task here: <put> {held} {into}.",
        "<put> {held} {into}.",
        "<put> {held} {into}, then let go.",
        "<put> {held} you are carrying {into}.",
        "<Place_now> <put> {held} {into}.",
        "Set {held} down {into}.",
    ),
    "Place_now": ("Now", "Then", "There,", "Once there,", "Carefully", "Next", "Gently", "Neatly", "Finally,",
                  "Please", "Proceed to", "Lastly,"),
    "slice_line": (
        "<Please> <slice> {obj} with {tool}.",
        "Take {tool} and <slice> {obj} with it.",
        "Make slices of {obj} using {tool}.",
        "<slice> {obj} with {tool}.",
        "Use {tool} to <slice> {obj}.",
        "<slice> {obj} {at} with {tool}.",
        "With {tool} in hand, <slice> {obj}.",
        "<slice> {obj} into pieces using {tool}.",
    ),
    "toggle_line": (
        "<Please> <switch_on> {lamp}.",
        "Reach for {lamp} and <switch_on> it.",
        "Examine {held} by the light of {lamp}: <switch_on> it.",
        "Inspect {held} under {lamp} after you <switch_on> it.",
        "<switch_on> {lamp}.",
        "<switch_on> {lamp} while holding {held}.",
        "With {held} in hand, <switch_on> {lamp}.",
        "<switch_on> {lamp} to look at {held} in its light.",
        "Hold up {held} and <switch_on> {lamp}.",
    ),
    "heat_line": (
        "Put {held} into {appliance} to heat it up, and remove it afterwards.",
        "Heat up {held} using {appliance}, then retrieve it.",
        "Warm {held} inside {appliance}, and take it back out when it's hot.",
        "Heat {held} in {appliance}.",
        "Warm {held} up in {appliance}.",
        "Cook {held} in {appliance}.",
        "Use {appliance} to heat {held}.",
        "Microwave {held}{if_microwave}, then take it out again.",
        "{steps}.",
    ),
    "cool_line": (
        "Put {held} into {appliance} to cool it down, and remove it afterwards.",
        "Cool down {held} using {appliance}, then retrieve it.",
        "Leave {held} inside {appliance} until it's cold, then take it back.",
        "Cool {held} in {appliance}.",
        "Chill {held} in {appliance}.",
        "Let {held} cool in {appliance}.",
        "Use {appliance} to chill {held}.",
        "Refrigerate {held}{if_fridge}, then take it out again.",
        "{steps}.",
    ),
    "clean_line": (
        "Hold {held} under the water in {appliance} to clean it, then take it out.",
        "Wash off {held} in {appliance} and pick it back up.",
        "Rinse {held} thoroughly in {appliance}, then retrieve it.",
        "Rinse {held} in {appliance}.",
        "Wash {held} in {appliance}.",
        "Clean {held} in {appliance}.",
        "Use {appliance} to wash {held} off.",
        "Give {held} a rinse in {appliance}.",
        "{steps}.",
    ),
    "object_line": ("{steps}.", "<Step_open> {steps}.", "{steps}, <Step_close>."),
    "Step_open": ("Here you need to", "At this spot,", "Carefully", "In order:", "Step by step:", "Now",
                  "In sequence:", "Methodically", "Attentively", "Patiently",
                  "Do the following:", "Proceed as follows:"),
    "Step_close": ("in that order", "one after the other", "carefully", "without hurrying", "all in one go",
                   "then wait", "and you are done here"),
    # ---- one clause per low action, for lines that tell an interaction step by step --------------
    "do_OpenObject": ("<open> {x}",),
    "do_CloseObject": ("<close> {x}", "<close> {x} again"),
    "do_PickupObject": ("<pickup> {x}",),
    "do_PutObject": ("<put> {held} {into}", "<put> {held} {into}"),
    "do_ToggleObjectOn": ("<switch_on> {x}", "<switch_on> {x}"),
    "do_ToggleObjectOff": ("<switch_off> {x}", "<switch_off> {x} again"),
    "do_SliceObject": ("<slice> {x}",),
    "do_CleanObject": ("clean {x}",),
    # ---- goals ------------------------------------------------------------------------------------
    "goal_simple": ("<put> {a_obj} {into}.", "Move {a_obj} to {recep}.", "Take {a_obj} and <put> it {into}.",
                    "Find {a_obj} and <put> it {into}.", "{recep_Cap} needs {a_obj}.",
                    "Get {a_obj} and bring it to {recep}.", "Relocate {a_obj} to {recep}.",
                    "Transfer {a_obj} over to {recep}.", "Your goal: {a_obj} ends up {into}.",
                    "Make sure {a_obj} is sitting {into}.", "Carry {a_obj} across and leave it {into}.",
                    "Tidy up by putting {a_obj} {into}.", "This household chore: {a_obj} goes {into}.",
                    "Help organise the room: <put> {a_obj} {into}.", "Pick {a_obj} up and deliver it to {recep}."),
    "goal_two": ("<put> two {objs} {into}.", "Move two {objs} to {recep}.", "Bring two {objs} to {recep}.",
                 "<put> a pair of {objs} {into}.", "Take two {objs} and <put> them {into}.",
                 "Find two {objs} and <put> both {into}.", "Gather two {objs} and store them {into}.",
                 "Collect a couple of {objs} and leave them {into}.", "Both {objs} belong {into}: move two there.",
                 "Round up two {objs} and deliver them to {recep}.", "Tidy two {objs} away {into}."),
    "goal_look": ("Examine {a_obj} by the light of {lamp}.", "Look at {a_obj} under {lamp}.",
                  "Hold {a_obj} and <switch_on> {lamp}.", "Inspect {a_obj} in the light of {lamp}.",
                  "Pick up {a_obj} and look at it by {lamp}.", "Study {a_obj} with {lamp} on.",
                  "Read {a_obj} with the help of {lamp}.", "Check out {a_obj} beneath {lamp}.",
                  "Observe {a_obj} while {lamp} is lit.", "Switch on {lamp} and take a close look at {a_obj}.",
                  "Shine {lamp} on {a_obj} to view it better."),
    "goal_clean": ("<put> a clean {obj} {into}.", "Rinse {a_obj} and <put> it {into}.",
                   "Wash {a_obj}, then <put> it {into}.", "Clean {a_obj} and move it to {recep}.",
                   "<put> a washed {obj} {into}.", "Put a rinsed {obj} {into}.",
                   "Scrub {a_obj} clean and store it {into}.", "Give {a_obj} a wash before putting it {into}.",
                   "Rinse off {a_obj} under running water, then leave it {into}.",
                   "Make {a_obj} spotless and return it to {recep}."),
    "goal_heat": ("<put> a hot {obj} {into}.", "Heat {a_obj} and <put> it {into}.",
                  "Warm {a_obj} in the microwave and <put> it {into}.", "<put> a heated {obj} {into}.",
                  "Cook {a_obj}, then <put> it {into}.", "Microwave {a_obj} and move it to {recep}.",
                  "Bring a warmed {obj} to {recep}.", "Heat up {a_obj} before leaving it {into}.",
                  "Reheat {a_obj} and serve it {into}.", "Get {a_obj} nice and warm, then drop it off {into}."),
    "goal_cool": ("<put> a cold {obj} {into}.", "Chill {a_obj} and <put> it {into}.",
                  "Cool {a_obj} in the fridge and <put> it {into}.", "<put> a chilled {obj} {into}.",
                  "Refrigerate {a_obj}, then <put> it {into}.", "Move a cooled {obj} to {recep}.",
                  "Bring a chilled {obj} to {recep}.", "Cool down {a_obj} before leaving it {into}.",
                  "Make {a_obj} cold, then serve it {into}.",
                  "Keep {a_obj} in the fridge a while, then move it to {recep}."),
    "goal_mrecep": ("<put> {a_mrecep} with {a_obj} in it {into}.",
                    "<put> {a_obj} {in_mrecep} and move it to {recep}.",
                    "Move {a_mrecep} holding {a_obj} to {recep}.",
                    "Carry {a_obj} in {a_mrecep} to {recep}.",
                    "<put> {a_mrecep} containing {a_obj} {into}.",
                    "Load {a_obj} {in_mrecep} and take them together to {recep}."),
    "goal_other": ("Complete the task: {what}.",),
}

#: Other names people use for a class (the class's own words, :func:`.words.class_words`, come too).
NOUNS: dict[str, tuple[str, ...]] = {
    "CounterTop": ("countertop", "kitchen counter", "counter top", "worktop"),
    "Fridge": ("refrigerator", "fridge"),
    "Sofa": ("couch", "sofa"),
    "ArmChair": ("armchair", "easy chair", "lounge chair"),
    "GarbageCan": ("garbage can", "bin", "waste bin", "trash bin", "rubbish bin"),
    "TVStand": ("television stand", "TV table", "TV cabinet"),
    "Television": ("TV", "television", "television set"),
    "CellPhone": ("cell phone", "mobile phone", "smartphone", "cellphone"),
    "RemoteControl": ("remote", "TV remote", "controller", "clicker"),
    "DeskLamp": ("lamp", "table lamp", "reading lamp"),
    "FloorLamp": ("lamp", "standing lamp", "tall lamp"),
    "DiningTable": ("table", "kitchen table", "dinner table"),
    "CoffeeTable": ("low table", "table", "living room table"),
    "SideTable": ("end table", "nightstand", "night table", "bedside table"),
    "Dresser": ("chest of drawers", "bureau", "dresser"),
    "SinkBasin": ("sink", "basin", "wash basin"),
    "BathtubBasin": ("bathtub", "tub", "bath"),
    "Microwave": ("microwave oven", "microwave"),
    "StoveBurner": ("burner", "stove", "hob", "cooktop"),
    "CoffeeMachine": ("coffee maker", "espresso machine", "coffee machine"),
    "Toilet": ("toilet", "commode", "loo"),
    "ToiletPaper": ("roll of toilet paper", "toilet roll", "bathroom tissue"),
    "ToiletPaperHanger": ("toilet roll holder", "paper holder"),
    "HandTowelHolder": ("hand towel rack", "towel ring", "towel rail"),
    "TowelHolder": ("towel rack", "towel bar", "towel rail"),
    "Cabinet": ("cupboard", "cabinet"),
    "Drawer": ("drawer", "pull-out drawer"),
    "Shelf": ("shelf", "shelving", "bookshelf"),
    "Bed": ("bed", "mattress"),
    "Pillow": ("cushion", "pillow"),
    "Laptop": ("laptop computer", "notebook computer", "laptop"),
    "Book": ("book", "hardcover", "novel"),
    "KeyChain": ("keys", "key ring", "set of keys"),
    "CreditCard": ("card", "bank card", "credit card"),
    "AlarmClock": ("clock", "alarm clock", "alarm"),
    "Watch": ("wristwatch", "watch"),
    "Pen": ("pen", "ballpoint pen", "ink pen"),
    "Pencil": ("pencil", "lead pencil"),
    "Mug": ("mug", "coffee mug"),
    "Cup": ("cup", "drinking cup"),
    "Bowl": ("bowl", "mixing bowl"),
    "Plate": ("plate", "dinner plate"),
    "Pot": ("pot", "cooking pot", "saucepan"),
    "Pan": ("pan", "frying pan", "skillet"),
    "Knife": ("knife", "kitchen knife", "chef's knife", "blade"),
    "ButterKnife": ("butter knife", "table knife", "dinner knife"),
    "Fork": ("fork", "dinner fork"),
    "Spoon": ("spoon", "teaspoon"),
    "Ladle": ("ladle", "soup ladle"),
    "Spatula": ("spatula", "turner", "flipper"),
    "Kettle": ("kettle", "tea kettle"),
    "Apple": ("apple", "piece of fruit", "fruit"),
    "Tomato": ("tomato", "ripe tomato"),
    "Potato": ("potato", "spud", "tuber"),
    "Lettuce": ("lettuce", "head of lettuce", "lettuce head"),
    "Bread": ("bread", "loaf of bread", "loaf"),
    "Egg": ("egg", "chicken egg"),
    "SoapBar": ("bar of soap", "soap"),
    "SoapBottle": ("soap bottle", "bottle of soap", "soap dispenser"),
    "SprayBottle": ("spray bottle", "spray", "sprayer"),
    "DishSponge": ("sponge", "dish sponge", "scrubber"),
    "Cloth": ("cloth", "rag", "washcloth"),
    "HandTowel": ("hand towel", "face towel"),
    "Towel": ("towel", "bath towel"),
    "Candle": ("candle", "wax candle"),
    "Vase": ("vase", "flower vase"),
    "Statue": ("statue", "figurine", "sculpture", "ornament"),
    "Box": ("box", "cardboard box", "carton"),
    "Newspaper": ("newspaper", "paper"),
    "TissueBox": ("tissue box", "box of tissues", "tissues"),
    "WateringCan": ("watering can", "can"),
    "Plunger": ("plunger", "toilet plunger"),
    "ScrubBrush": ("scrub brush", "brush", "scrubbing brush"),
    "Cart": ("cart", "trolley"),
    "Safe": ("safe", "lockbox"),
    "Ottoman": ("ottoman", "footrest", "pouf"),
    "Chair": ("chair", "seat"),
    "Stool": ("stool", "bar stool"),
    "Desk": ("desk", "writing desk", "work desk"),
    "CD": ("CD", "compact disc", "disc"),
    "BaseballBat": ("baseball bat", "bat"),
    "BasketBall": ("basketball", "ball"),
    "TennisRacket": ("tennis racket", "racket", "racquet"),
    "WineBottle": ("wine bottle", "bottle of wine", "bottle"),
    "Bottle": ("bottle",),
    "PepperShaker": ("pepper shaker", "pepper pot", "pepper"),
    "SaltShaker": ("salt shaker", "salt cellar", "salt"),
    "Glassbottle": ("glass bottle", "bottle"),
    "PaperTowelRoll": ("paper towels", "kitchen roll", "roll of paper towels"),
    "LaundryHamper": ("hamper", "laundry basket", "clothes hamper"),
    "HousePlant": ("plant", "potted plant", "houseplant"),
    "Toaster": ("toaster", "bread toaster"),
    "Faucet": ("tap", "faucet"),
}

_REFERENCE = re.compile(r"<([A-Za-z_]+)>|\{([A-Za-z_]+)\}")


@dataclass(frozen=True)
class Phrase:
    """Words and the claims they carry."""

    text: str
    claims: tuple[Claim, ...] = field(default_factory=tuple)


@cache
def _references(alternative: str) -> tuple[frozenset[str], frozenset[str]]:
    """The rules and the slots an alternative names (the grammar is fixed: read once each)."""
    rules, slots = set(), set()
    for match in _REFERENCE.finditer(alternative):
        if match.group(1):
            rules.add(match.group(1))
        else:
            slots.add(match.group(2))
    return frozenset(rules), frozenset(slots)


def _usable(rule: str, slots: Mapping[str, Phrase], seen: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The alternatives of ``rule`` whose slots (and whose rules' slots) are all given, in order."""
    return _usable_with(rule, frozenset(slots), seen)


@lru_cache(maxsize=4096)
def _usable_with(rule: str, given: frozenset[str], seen: frozenset[str]) -> tuple[str, ...]:
    """:func:`_usable` by the names of the slots given (which alternatives fit depends on nothing
    else, and a demonstration's annotations ask the same questions hundreds of times)."""
    if rule not in RULES:
        raise KeyError(f"the grammar has no rule {rule!r}")
    out = []
    for alternative in RULES[rule]:
        rules, needed = _references(alternative)
        if needed - given:
            continue
        if any(r in seen or not _usable_with(r, given, seen | {rule}) for r in rules):
            continue
        out.append(alternative)
    return tuple(out)


def can_expand(rule: str, slots: Mapping[str, Phrase]) -> bool:
    """Whether ``rule`` has an alternative whose slots are all given."""
    return bool(_usable(rule, slots))


def expand(rule: str, slots: Mapping[str, Phrase], rng: random.Random) -> Phrase:
    """One realisation of ``rule``: a seeded choice among its usable alternatives, recursively.

    A rule whose name starts with a capital is a sentence start: its words come capitalised.
    Raises KeyError when no alternative is usable.
    """
    options = _usable(rule, slots)
    if not options:
        raise KeyError(f"no alternative of {rule!r} fits the slots {sorted(slots)}")
    alternative = options[rng.randrange(len(options))]
    claims: list[Claim] = []

    def fill(match: re.Match[str]) -> str:
        phrase = expand(match.group(1), slots, rng) if match.group(1) else slots[match.group(2)]
        claims.extend(phrase.claims)
        return phrase.text

    text = _REFERENCE.sub(fill, alternative)
    return Phrase(text, tuple(claims))
