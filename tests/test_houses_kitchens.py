"""A house's kitchen holds its counter appliances as often as SUNCG's kitchens do, per fridge
(alfred_gen.scenes.houses.kitchen_appliances); a single-room kitchen still holds all of them."""

from __future__ import annotations

from collections import Counter

from alfred_gen.scenes import get_house, get_scene
from alfred_gen.scenes.houses.build import house_room_types
from alfred_gen.scenes.houses.kitchen_appliances import (
    ANCHOR,
    APPLIANCES,
    SUNCG_CLASS,
    SUNCG_KITCHEN_COUNTS,
    appliance_shares,
    kitchen_appliances,
)

#: House numbers whose room types are drawn (cheap: no house is built).
DRAWN = range(1, 2001)


def test_shares_are_the_counts_over_the_fridges() -> None:
    shares = appliance_shares()
    assert set(shares) == set(APPLIANCES) == set(SUNCG_CLASS)
    for object_type, share in shares.items():
        assert share == SUNCG_KITCHEN_COUNTS[SUNCG_CLASS[object_type]] / SUNCG_KITCHEN_COUNTS[ANCHOR]
        assert 0 <= share <= 1


def test_kitchens_draw_each_appliance_at_its_share_and_keep_it_over_attempts() -> None:
    kitchens = [(n, i) for n in DRAWN for i, t in enumerate(house_room_types(n)) if t == "kitchen"]
    assert len(kitchens) > 1000
    held = Counter(t for n, i in kitchens for t in kitchen_appliances(n, i))
    for object_type, share in appliance_shares().items():
        # Binomial: within four standard deviations (and at least one kitchen's worth).
        spread = 4 * (share * (1 - share) / len(kitchens)) ** 0.5 + 1 / len(kitchens)
        assert abs(held[object_type] / len(kitchens) - share) <= spread, (object_type, held)
    # A function of the house and room alone, in APPLIANCES order.
    n, i = kitchens[0]
    assert kitchen_appliances(n, i) == kitchen_appliances(n, i)
    assert all(list(kitchen_appliances(n, i)) == [t for t in APPLIANCES if t in kitchen_appliances(n, i)]
               for n, i in kitchens[:50])


def test_a_built_kitchen_holds_exactly_its_drawn_appliances() -> None:
    # LiteHouse1-4 have one kitchen each; among them one keeps both a microwave and a coffee
    # machine, and one has neither.
    seen = set()
    for number in (1, 2, 3, 4):
        scene = get_house(number)
        kitchens = [(i, r) for i, r in enumerate(scene.rooms) if r.room_type == "kitchen"]
        for index, room in kitchens:
            assert house_room_types(number)[index] == "kitchen"
            wanted = kitchen_appliances(number, index)
            held = Counter(o.object_type for o in scene.objects if scene.room_of(o.object_id) == room)
            assert held["Fridge"] == 1
            assert {t: held[t] for t in APPLIANCES} == {t: int(t in wanted) for t in APPLIANCES}, scene.name
            seen.add(wanted)
    assert ("Microwave", "CoffeeMachine") in seen and () in seen


def test_a_single_room_kitchen_still_holds_every_appliance() -> None:
    for scene_num in (1, 2, 3):
        held = Counter(o.object_type for o in get_scene(scene_num).objects)
        assert all(held[t] == 1 for t in ("Fridge", *APPLIANCES)), scene_num


def test_leaving_out_appliances_takes_them_off_and_moves_nothing_else() -> None:
    from alfred_gen.scenes.houses.kitchen_appliances import leave_out_appliances
    from alfred_gen.sim.scene import SceneObject

    class Builder:  # only ``objects`` is read and written
        objects: list[SceneObject]

    kitchens = [(n, i) for n in DRAWN for i, t in enumerate(house_room_types(n)) if t == "kitchen"]
    number, index = next((n, i) for n, i in kitchens if kitchen_appliances(n, i) == ("Microwave",))
    scene = get_scene(1)
    builder = Builder()
    builder.objects = list(scene.objects)
    leave_out_appliances(builder, number, index)  # type: ignore[arg-type]  # a stand-in with its objects
    expected = [o for o in scene.objects if o.object_type not in ("CoffeeMachine", "Toaster")]
    assert builder.objects == expected and len(expected) == len(scene.objects) - 2
