"""Kitchens: a fridge, counter runs along one to three walls built from modules (sink, stove,
cabinets, drawers), upper cabinets, appliances on the counter, and a dining table or island.

A counter run is a row of modules against one wall. Plain modules (cabinets, drawers) are covered
by CounterTop slabs; the sink module has its own rim and a hollow basin (THOR's ``Sink|...|SinkBasin``
pair) with the faucet behind it; the stove module is a cabinet with four burners and knobs on top.
So a kitchen has one to four CounterTops, like ALFRED's.
"""

from __future__ import annotations

from dataclasses import dataclass

from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    WallSpot,
    add_cabinet,
    add_chairs_around,
    add_drawer_stack,
    add_floor_standing,
    add_garbage_can,
    add_light_switch,
    add_shelving_unit,
    add_side_table,
    add_table_somewhere,
    add_wall_item,
    add_window,
    along_of,
    edge_behind,
    overlaps3,
    wall_stretch_clear,
)
from alfred_gen.scenes.procedural.populate import place_decor
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents

SHAPE = ShapeSpec(width=(2.5, 4.5), depth=(2.8, 5.2), l_shape_share=0.25)

COUNTER_DEPTH = 0.62
COUNTER_TOP = 0.90
SLAB = 0.04
UPPER_Y = (1.45, 2.15)
UPPER_DEPTH = 0.35


@dataclass
class Module:
    kind: str  # sink | stove | cabinet | double | drawers | drawer_cabinet
    width: float
    u0: float = 0.0


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    fridge_width = round(rng.uniform(0.75, 0.95), 2)
    spot = b.wall_spot(fridge_width, 0.75, access=0.9, corner=True)
    if spot is None:
        raise BuildFailed("no room for the fridge")
    height = round(rng.uniform(1.7, 1.95), 2)
    cx, cz = spot.footprint.center
    b.add("Fridge", spot.box(0.0, fridge_width, 0.0, 0.75, 0.0, height), rotation=spot.rotation, position=(cx, 0.0, cz))

    runs = _counter_runs(b, wanted=1 + (rng.random() < 0.75) + (rng.random() < 0.3))
    if not runs:
        raise BuildFailed("no wall for a counter")
    modules = _plan_modules(b, runs)
    for spot, row in zip(runs, modules):
        _build_run(b, spot, row)
    # The window goes in before the upper cabinets, which then leave its stretch of wall free.
    if contents.has("Window"):
        add_window(b, blinds=contents.has("Blinds"), curtains=contents.has("Curtains"))
    microwave_above = contents.has("MicrowaveAbove")
    placed_microwave = False
    uppers = contents.has("UpperCabinets")
    for index, (spot, row) in enumerate(zip(runs, modules)):
        # Upper cabinets over the first run, and over others only sometimes.
        with_cabinets = uppers and (index == 0 or rng.random() < 0.4)
        placed_microwave |= _build_uppers(b, spot, row, with_cabinets, microwave_above and not placed_microwave)
    if not placed_microwave:
        if not _counter_appliance(b, "Microwave", 0.5, 0.37, 0.3):
            raise BuildFailed("no room for the microwave")
    for name, width, depth, height in (("CoffeeMachine", 0.25, 0.3, 0.4), ("Toaster", 0.22, 0.3, 0.2)):
        if not _counter_appliance(b, name, width, depth, height):
            raise BuildFailed(f"no room for the {name}")

    if contents.has("DiningTable"):
        rect = add_table_somewhere(b, "DiningTable", round(rng.uniform(0.9, 1.5), 2), round(rng.uniform(0.7, 1.0), 2),
                                   round(rng.uniform(0.72, 0.8), 2))
        if rect is None:
            raise BuildFailed("no room for the dining table")
        if contents.has("Chair"):
            add_chairs_around(b, rect, rng.randint(2, 4))
    elif contents.has("Island"):
        width, depth = round(rng.uniform(1.0, 1.8), 2), round(rng.uniform(0.6, 0.9), 2)
        if rng.random() < 0.5:
            width, depth = depth, width
        rect = b.free_spot(width, depth, clearance=0.6)
        if rect is not None:
            b.claim(rect)
            b.add("CounterTop", rect.box(0.0, COUNTER_TOP))
            if contents.has("Chair"):
                add_chairs_around(b, rect, rng.randint(1, 2))
    if contents.has("Shelf"):
        width = round(rng.uniform(0.6, 1.0), 2)
        shelf_spot = b.wall_spot(width, 0.35, access=0.55)
        if shelf_spot is not None:
            add_shelving_unit(b, shelf_spot, rng.randint(2, 3), round(rng.uniform(1.0, 1.5), 2))
    if contents.has("SideTable"):
        side = b.wall_spot(0.5, 0.4)
        if side is not None:
            add_side_table(b, side, with_drawer=False)
    if contents.has("Safe"):
        add_floor_standing(b, "Safe", 0.4, 0.45, 0.4, access=0.6)
    if add_garbage_can(b) is None:
        raise BuildFailed("no room for the garbage can")
    if contents.has("HousePlant"):
        place_decor(b, "HousePlant", ("CounterTop", "DiningTable", "SideTable"), size=(0.3, 0.45, 0.3))
    if contents.has("Mirror"):
        add_wall_item(b, "Mirror", 0.6, 1.2, 1.9)
    add_light_switch(b)


def _counter_runs(b: RoomBuilder, wanted: int) -> list[WallSpot]:
    """Up to ``wanted`` counter runs on different walls, the longest free stretches first.

    Footprints are claimed as runs are chosen, so a second run starts where the first one's
    front ends and the two meet in an L; the strips in front are kept free only afterwards.
    """
    runs: list[WallSpot] = []
    used_edges: set[int] = set()
    for _ in range(wanted):
        best = None
        order = list(range(len(b.shape.edges)))
        b.rng.shuffle(order)
        for index in order:
            if index in used_edges:
                continue
            for a0, a1 in b.free_intervals(index, COUNTER_DEPTH, access=0.7):
                length = round(a1 - a0, 4)
                if length >= 1.0 and (best is None or length > best[0] + 1e-9):
                    best = (length, index, a0)
        if best is None:
            break
        length, index, a0 = best
        length = min(length, round(b.rng.uniform(2.4, 4.2), 2)) if length > 2.4 else length
        edge = b.shape.edges[index]
        # The run starts where the free stretch starts: in a corner, or against the fridge.
        spot = WallSpot(edge, a0, length, COUNTER_DEPTH)
        b.blocked.append(spot.footprint)
        runs.append(spot)
        used_edges.add(index)
    for spot in runs:
        b.keep_free.append(spot.rect(0.0, spot.width, COUNTER_DEPTH, COUNTER_DEPTH + 0.6))
    return runs


def _plan_modules(b: RoomBuilder, runs: list[WallSpot]) -> list[list[Module]]:
    """Which modules go on which run: the sink on the first, the stove where it fits, the rest
    filled with cabinets and drawers; widths stretched to fill each run exactly."""
    rng = b.rng
    plans: list[list[Module]] = [[] for _ in runs]
    sink = Module("sink", round(rng.uniform(0.75, 0.9), 2))
    stove = Module("stove", round(rng.uniform(0.7, 0.8), 2))
    if runs[0].width < sink.width:
        raise BuildFailed("first run too short for the sink")
    plans[0].append(sink)
    homes = [i for i in range(len(runs)) if runs[i].width - sum(m.width for m in plans[i]) >= stove.width]
    if not homes:
        raise BuildFailed("no run has room for the stove")
    home = homes[-1] if len(homes) > 1 and rng.random() < 0.6 else homes[0]
    plans[home].append(stove)
    for spot, plan in zip(runs, plans):
        free = spot.width - sum(m.width for m in plan)
        fill: list[Module] = []
        while free >= 0.4:
            kind = rng.choice(["cabinet", "cabinet", "cabinet", "double", "drawers", "drawer_cabinet"])
            widths = {"cabinet": rng.uniform(0.45, 0.6), "double": rng.uniform(0.8, 1.0)}
            width = widths.get(kind, rng.uniform(0.4, 0.55))
            width = round(min(width, free), 2)
            if kind == "double" and width < 0.8:
                kind = "cabinet"
            fill.append(Module(kind, width))
            free = round(free - width, 4)
        # Spread what is left over the fill modules (or the fixed ones when there are none).
        stretch = fill or plan
        for module in stretch:
            module.width = round(module.width + free / len(stretch), 4)
        plan.extend(fill)
        rng.shuffle(plan)
        u = 0.0
        for module in plan:
            module.u0 = round(u, 4)
            u += module.width
        plan[-1].width = round(spot.width - plan[-1].u0, 4)
    return plans


def _build_run(b: RoomBuilder, spot: WallSpot, plan: list[Module]) -> None:
    """The lower part of a run: modules, and CounterTop slabs over each group of plain modules."""
    group: list[Module] = []
    for module in plan + [Module("end", 0.0, spot.width)]:
        if module.kind in ("sink", "stove", "end"):
            if group:
                u0, u1 = group[0].u0, group[-1].u0 + group[-1].width
                b.add(
                    "CounterTop",
                    spot.box(u0, u1, 0.0, COUNTER_DEPTH, COUNTER_TOP - SLAB, COUNTER_TOP),
                    rotation=spot.rotation,
                )
                group = []
        else:
            group.append(module)
        _build_module(b, spot, module)


def _build_module(b: RoomBuilder, spot: WallSpot, m: Module) -> None:
    u0, u1 = m.u0, m.u0 + m.width
    below = COUNTER_TOP - SLAB - 0.01
    front = COUNTER_DEPTH - 0.02
    if m.kind == "cabinet":
        add_cabinet(b, spot, u0, u1, 0.02, front, 0.02, below)
    elif m.kind == "double":
        mid = (u0 + u1) / 2
        add_cabinet(b, spot, u0, mid, 0.02, front, 0.02, below)
        add_cabinet(b, spot, mid, u1, 0.02, front, 0.02, below)
    elif m.kind == "drawers":
        add_drawer_stack(b, spot, u0, u1, front, 0.05, below, b.rng.choice([2, 3]))
    elif m.kind == "drawer_cabinet":
        add_drawer_stack(b, spot, u0, u1, front, below - 0.17, below, 1)
        add_cabinet(b, spot, u0, u1, 0.02, front, 0.02, below - 0.18)
    elif m.kind == "sink":
        rim = 0.06
        sink = b.add(
            "Sink",
            spot.box(u0, u1, 0.02, 0.16, COUNTER_TOP - SLAB, COUNTER_TOP + 0.01),
            rotation=spot.rotation,
            parts=(
                spot.box(u0, u0 + rim, 0.16, COUNTER_DEPTH, COUNTER_TOP - SLAB, COUNTER_TOP + 0.01),
                spot.box(u1 - rim, u1, 0.16, COUNTER_DEPTH, COUNTER_TOP - SLAB, COUNTER_TOP + 0.01),
                spot.box(
                    u0 + rim, u1 - rim, COUNTER_DEPTH - 0.05, COUNTER_DEPTH, COUNTER_TOP - SLAB, COUNTER_TOP + 0.01
                ),
            ),
        )
        basin = spot.box(u0 + rim, u1 - rim, 0.16, COUNTER_DEPTH - 0.05, COUNTER_TOP - 0.2, COUNTER_TOP + 0.005)
        b.add("SinkBasin", basin, rotation=spot.rotation, object_id=f"{sink.object_id}|SinkBasin")
        mid = (u0 + u1) / 2
        b.add(
            "Faucet",
            spot.box(mid - 0.06, mid + 0.06, 0.03, 0.15, COUNTER_TOP + 0.01, COUNTER_TOP + 0.25),
            rotation=spot.rotation,
        )
        add_cabinet(b, spot, u0, u1, 0.02, front, 0.02, COUNTER_TOP - 0.22)
    elif m.kind == "stove":
        add_cabinet(b, spot, u0, u1, 0.02, front, 0.02, COUNTER_TOP - 0.01)
        half = m.width / 2
        for du in (0.0, half):
            for v0 in (0.12, 0.36):
                b.add(
                    "StoveBurner",
                    spot.box(
                        u0 + du + 0.07, u0 + du + half - 0.07, v0, v0 + 0.22, COUNTER_TOP - 0.01, COUNTER_TOP + 0.01
                    ),
                    rotation=spot.rotation,
                )
        for k in range(4):
            c = u0 + (k + 0.5) * m.width / 4
            b.add(
                "StoveKnob",
                spot.box(c - 0.025, c + 0.025, 0.03, 0.08, COUNTER_TOP - 0.01, COUNTER_TOP + 0.04),
                rotation=spot.rotation,
            )


def _build_uppers(b: RoomBuilder, spot: WallSpot, plan: list[Module], cabinets: bool, microwave: bool) -> bool:
    """Upper cabinets over plain modules (not over a window), a microwave over the stove if asked.
    Returns whether the microwave was placed."""
    placed = False
    y0, y1 = UPPER_Y
    y1 = min(y1, b.shape.height - 0.1)
    for m in plan:
        u0, u1 = m.u0, m.u0 + m.width
        stretch = WallSpot(spot.edge, spot.a0 + u0, m.width, UPPER_DEPTH)
        if not wall_stretch_clear(b, stretch, y0, y1, reach=UPPER_DEPTH):
            continue
        if m.kind == "stove":
            if microwave:
                mid = (u0 + u1) / 2
                b.add("Microwave", spot.box(mid - 0.3, mid + 0.3, 0.0, 0.4, y0, y0 + 0.34), rotation=spot.rotation)
                placed = True
            continue
        if cabinets:
            if m.width >= 0.8:
                mid = (u0 + u1) / 2
                add_cabinet(b, spot, u0, mid, 0.0, UPPER_DEPTH, y0, y1)
                add_cabinet(b, spot, mid, u1, 0.0, UPPER_DEPTH, y0, y1)
            else:
                add_cabinet(b, spot, u0, u1, 0.0, UPPER_DEPTH, y0, y1)
    return placed


def _counter_appliance(b: RoomBuilder, object_type: str, width: float, depth: float, height: float) -> bool:
    """Stand an appliance at the back of a CounterTop where its top and the space above are free."""
    counters = [o for o in b.objects if o.object_type == "CounterTop" and o.box.hi[1] - o.box.lo[1] < 0.3]
    b.rng.shuffle(counters)
    for counter in counters:
        rotation = int(counter.rotation[1])
        edge = edge_behind(b, counter.box, rotation)
        if edge is None:
            continue
        lo, hi = counter.box.lo, counter.box.hi
        along0 = along_of(edge, counter.box)
        length = (hi[0] - lo[0]) if edge.normal[0] == 0 else (hi[2] - lo[2])
        if length < width + 0.04:
            continue
        spots = [round(0.02 + k * 0.05, 4) for k in range(int((length - width - 0.04) / 0.05) + 1)]
        b.rng.shuffle(spots)
        for u in spots:
            local = WallSpot(edge, along0 + u, width, depth)
            box = local.box(0.0, width, 0.04, 0.04 + depth, hi[1], hi[1] + height)
            if not any(overlaps3(box, o.box) for o in b.objects if o is not counter):
                b.add(object_type, box, rotation=rotation)
                return True
    return False
