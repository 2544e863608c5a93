"""Bathroom faucets: raised to where THOR's masks show them, drawn with their two handles; others centred.
Microwaves: lifted off their id to where THOR's masks show them; other appliances stay on it."""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.mask_heights import (
    BASE_ABOVE_ID,
    HANDLES,
    MIDDLE_ABOVE_ID,
    handle_parts,
    lift_to_masks,
    raise_to_masks,
)


def _centred(kind: str, y: float = 1.02, height: float = 0.2) -> Block:
    return Block(f"{kind}|-02.68|+01.02|+00.89", kind, (-2.68, y, 0.89), [-2.8, y - height / 2, 0.77],
                 [-2.55, y + height / 2, 1.01], False, 180)


def test_a_bathroom_faucet_is_raised_and_keeps_its_height() -> None:
    block = _centred("Faucet")
    raise_to_masks(block, "FloorPlan408")
    rise = MIDDLE_ABOVE_ID[("Faucet", "bathroom")]
    assert abs((block.lo[1] + block.hi[1]) / 2 - (1.02 + rise)) < 1e-9
    assert abs(block.hi[1] - block.lo[1] - 0.2) < 1e-9
    assert block.lo[0] == -2.8 and block.hi[2] == 1.01  # only the height moves


def test_kitchen_faucets_other_fixtures_and_other_rooms_stay_centred() -> None:
    for kind, floor_plan in (("Faucet", "FloorPlan13"), ("Toaster", "FloorPlan408"), ("Faucet", "LiteKitchen3")):
        block = _centred(kind)
        raise_to_masks(block, floor_plan)
        assert (block.lo[1], block.hi[1]) == (1.02 - 0.1, 1.02 + 0.1)


def test_a_bathroom_faucet_has_a_handle_at_either_side_across_its_front() -> None:
    handles = HANDLES[("Faucet", "bathroom")]
    for facing, across, depth in ((180, 0, 2), (90, 2, 0)):
        block = _centred("Faucet")
        block.facing = facing
        parts = handle_parts(block, "FloorPlan408")
        position = block.position
        assert len(parts) == 4  # a stem and a cross bar each side
        assert abs(min(p.lo[across] for p in parts) - (position[across] - handles.span / 2)) < 1e-9
        assert abs(max(p.hi[across] for p in parts) - (position[across] + handles.span / 2)) < 1e-9
        left = [p for p in parts if p.hi[across] < position[across]]
        right = [p for p in parts if p.lo[across] > position[across]]
        assert len(left) == len(right) == 2  # the middle is left to the spout
        for side in (left, right):
            assert abs(min(p.lo[1] for p in side) - (1.02 + handles.bottom)) < 1e-9
            assert abs(max(p.hi[1] for p in side) - (1.02 + handles.top)) < 1e-9
            assert sorted(round(p.hi[across] - p.lo[across], 9) for p in side) == [handles.stem, handles.width]
        middle = (block.lo[depth] + block.hi[depth]) / 2
        for part in parts:
            assert abs((part.lo[depth] + part.hi[depth]) / 2 - middle) < 1e-9


def test_kitchen_faucets_other_fixtures_and_procedural_rooms_get_no_handles() -> None:
    for kind, floor_plan in (("Faucet", "FloorPlan13"), ("Toaster", "FloorPlan408"), ("Faucet", "LiteKitchen3")):
        assert handle_parts(_centred(kind), floor_plan) == ()


def _standing(kind: str, y: float = 0.9, height: float = 0.353) -> Block:
    return Block(f"{kind}|+00.28|+00.90|-01.33", kind, (0.28, y, -1.33), [-0.02, y, -1.51], [0.58, y + height, -1.15],
                 False, 0)


def test_a_microwave_is_lifted_off_its_id_and_keeps_its_height() -> None:
    block = _standing("Microwave")
    lift_to_masks(block)
    assert BASE_ABOVE_ID["Microwave"] > 0
    assert abs(block.lo[1] - (0.9 + BASE_ABOVE_ID["Microwave"])) < 1e-9
    assert abs(block.hi[1] - block.lo[1] - 0.353) < 1e-9
    assert (block.lo[0], block.hi[2]) == (-0.02, -1.15)  # only the height moves


def test_other_appliances_stay_on_their_id() -> None:
    for kind in ("Toaster", "CoffeeMachine"):
        block = _standing(kind)
        lift_to_masks(block)
        assert (block.lo[1], block.hi[1]) == (0.9, 0.9 + 0.353)
