"""The ALFWorld export's own logic, on hand-made rooms and rules (runs without the alfworld extra).

What ALFWorld's engine makes of the games is tested in test_export_alfworld_engine.py; here: how a
start state is read as ALFWorld's room, how the problem is written, how a plan becomes commands,
which tasks are skipped and why, and the command's handling of bad input.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.errors import ExitCode
from alfred_gen.export.alfworld.export import ExportResult, summary_lines
from alfred_gen.export.alfworld.game import check_task, task_sentence
from alfred_gen.export.alfworld.outcomes import ExportReason
from alfred_gen.export.alfworld.problem import escape, goal_text, problem_text
from alfred_gen.export.alfworld.room import location_name, read_room, recorded_receptacles, standing_on
from alfred_gen.export.alfworld.upstream import AlfworldRules
from alfred_gen.export.alfworld.walkthrough import NotExportable, walkthrough
from alfred_gen.traj.format import save_trajectory
from tests.helpers import python_env
from tests.helpers.trajectories import make_trajectory

GOAL = """
    (:goal
        (exists (?r # receptacle)
            (exists (?o # object)
                (and (objectType ?o {obj}Type) (receptacleType ?r {recep}Type) (inReceptacle ?o ?r)))))
)
"""

#: A small stand-in for ALFWorld's rules (the real ones come from the installed package).
RULES = AlfworldRules(
    version="test",
    domain="(define (domain alfred))",
    grammar='"rhs": "Your task is to: UNKNOWN GOAL."',
    goals={
        "pick_and_place_simple": {"pddl": GOAL, "templates": ["put a {obj} in {recep}", "put some {obj} on {recep}"]},
        "pick_heat_then_place_in_recep": {"pddl": GOAL, "templates": ["put a hot {obj} in {recep}"]},
        "look_at_obj_in_light": {"pddl": GOAL, "templates": ["look at {obj} under the {toggle}"]},
    },
    task_types=("pick_and_place_simple", "look_at_obj_in_light", "pick_heat_then_place_in_recep"),
    object_classes=frozenset({"Apple", "Bowl", "Pen", "DeskLamp", "FloorLamp", "Mug"}),
    receptacle_classes=frozenset({"CounterTop", "Fridge", "Microwave", "Desk", "SinkBasin", "Cabinet"}),
    movable_receptacles=frozenset({"Bowl"}),
    openable_classes=frozenset({"Fridge", "Microwave", "Cabinet"}),
    placement={"CounterTop": frozenset({"Apple", "Bowl", "Mug"}), "Fridge": frozenset({"Apple"}),
               "Microwave": frozenset({"Apple", "Mug"}), "Desk": frozenset({"Pen", "Bowl"}),
               "Cabinet": frozenset({"Mug"})},
    capabilities={"heatable": frozenset({"Apple", "Mug"}), "coolable": frozenset({"Apple"}),
                  "cleanable": frozenset({"Apple", "Mug"}), "toggleable": frozenset({"DeskLamp", "FloorLamp"}),
                  "sliceable": frozenset({"Apple"})},
)

COUNTER = "CounterTop|+01.00|+00.90|+00.00"
FRIDGE = "Fridge|-01.00|+00.00|+01.00"
MICROWAVE = "Microwave|+01.50|+01.00|+00.50"
DESK = "Desk|+02.00|+00.00|-02.00"
CABINET = "Cabinet|+00.00|+00.40|-01.00"
APPLE = "Apple|-01.00|+00.50|+01.00"
BOWL = "Bowl|+02.00|+00.75|-02.00"
PEN = "Pen|+02.00|+00.80|-02.00"
LAMP = "DeskLamp|+02.20|+00.75|-02.10"
FLOOR_LAMP = "FloorLamp|+03.00|+00.00|+03.00"
MUG = "Mug|+05.00|+00.00|+05.00"
STATUE = "Statue|+01.00|+00.95|+00.00"

POSES = {COUNTER: [1.0, -0.5, 0, 30], FRIDGE: [-1.0, 0.25, 0, 30], MICROWAVE: [1.5, 0.0, 0, 15],
         DESK: [2.0, -1.5, 180, 30]}
START = [0.0, 0.0, 90, 30]


def thing(oid: str, *, parents: tuple[str, ...] = (), contents: tuple[str, ...] = (), **flags: Any) -> dict[str, Any]:
    x, y, z = (float(v) for v in oid.split("|")[1:4])
    return {"objectId": oid, "objectType": oid.split("|")[0], "position": {"x": x, "y": y, "z": z},
            "parentReceptacles": list(parents) or None, "receptacleObjectIds": list(contents) or None, **flags}


def metadata(*extra: dict[str, Any]) -> dict[str, Any]:
    """A room: counter top with nothing, a closed fridge holding the apple, a microwave, a desk with a
    bowl holding a pen (listed only by the bowl), a desk lamp (on) with no parent, a cabinet with no
    pose, a statue (a class ALFWorld lacks) on the counter, a mug on the floor, a floor lamp."""
    objects = [
        thing(COUNTER, receptacle=True),
        thing(FRIDGE, receptacle=True, openable=True, isOpen=False, contents=(APPLE,)),
        thing(MICROWAVE, receptacle=True, openable=True, isOpen=False),
        thing(DESK, receptacle=True, contents=(BOWL,)),
        thing(CABINET, receptacle=True, openable=True),
        thing(APPLE, pickupable=True, parents=(FRIDGE,)),
        thing(BOWL, pickupable=True, receptacle=True, contents=(PEN,)),
        thing(PEN, pickupable=True),
        thing(LAMP, toggleable=True, isToggled=True),
        thing(FLOOR_LAMP, toggleable=True),
        thing(MUG, pickupable=True),
        thing(STATUE, pickupable=True, parents=(COUNTER,)),
        *extra,
    ]
    return {"objects": objects}


def names_for(room) -> dict[str, str]:
    """Stand-in demangled names: class in lower case and a number per class, in id order."""
    counts: dict[str, int] = {}
    names = {}
    for oid in sorted([*room.receptacles, *room.items]):
        cls = oid.split("|")[0].lower()
        counts[cls] = counts.get(cls, 0) + 1
        names[escape(oid).lower()] = f"{cls} {counts[cls]}"
    return names


def step(action: str, **args: Any) -> dict[str, Any]:
    return {"planner_action": {"action": action, **args}}


def test_ids_and_poses_are_escaped_as_alfworld_names_them() -> None:
    assert escape("Apple|-01.70|+00.90|+00.20") == "Apple_bar__minus_01_dot_70_bar__plus_00_dot_90_bar__plus_00_dot_20"
    assert escape("Sink|+00.10|+00.90|-01.20|SinkBasin").endswith("_bar_SinkBasin")
    assert escape("a,b") == "a_comma_b"
    assert location_name([-1.0, 3.0, 90, 30]) == "loc|-4|12|1|30"
    assert location_name([0.5, -0.25, 270, 60]) == "loc|2|-1|3|60"
    assert location_name([0.0, 0.0, 360, -15]) == "loc|0|0|0|-15"


def test_the_room_reads_containment_both_ways_and_leaves_out_what_alfworld_cannot_hold() -> None:
    room = read_room(metadata(), POSES, START, RULES)
    assert set(room.receptacles) == {COUNTER, FRIDGE, MICROWAVE, DESK}
    assert room.receptacles[FRIDGE].openable and not room.receptacles[FRIDGE].opened
    assert not room.receptacles[COUNTER].openable
    assert room.items[APPLE].receptacles == (FRIDGE,)
    assert room.items[APPLE].location == location_name(POSES[FRIDGE])
    # the pen is listed only by the bowl, the bowl only by the desk: the pen is in the bowl, on the desk
    assert room.items[PEN].receptacles == (DESK,) and room.items[PEN].inside == BOWL
    assert room.items[MUG].receptacles == () and room.items[MUG].location == ""
    assert room.items[LAMP].is_on and not room.items[FLOOR_LAMP].is_on
    assert any(note.startswith(CABINET) and "no interaction pose" in note for note in room.left_out)
    assert any(note.startswith(STATUE) and "unknown to ALFWorld" in note for note in room.left_out)
    assert room.agent_location == "loc|0|0|1|30" and room.agent_location in room.locations


def test_the_agent_starts_at_a_location_of_its_own() -> None:
    room = read_room(metadata(), POSES, POSES[COUNTER], RULES)
    assert room.agent_location == location_name(POSES[COUNTER]) + "|start"
    assert room.locations[room.agent_location] == POSES[COUNTER]
    assert room.receptacles[COUNTER].location == location_name(POSES[COUNTER])
    plan = [step("PickupObject", objectId=STATUE.replace("Statue", "Apple")), step("NoOp")]
    metadata_with_apple = metadata(thing(STATUE.replace("Statue", "Apple"), pickupable=True, parents=(COUNTER,)))
    room = read_room(metadata_with_apple, POSES, POSES[COUNTER], RULES)
    assert walkthrough(plan, room, names_for(room), RULES)[0] == "go to countertop 1"


def test_a_recorded_pickup_receptacle_places_a_loose_object_but_never_overrides_metadata() -> None:
    near_counter = ["CounterTop", [4.1, 4.1, -0.2, -0.2, 3.6, 3.6]]  # ALFRED's record: 4x, 4x, 4z, 4z, 4y, 4y
    plan = [step("PickupObject", objectId=MUG, coordinateReceptacleObjectId=near_counter),
            step("PickupObject", objectId=APPLE, coordinateReceptacleObjectId=near_counter),
            step("PutObject", objectId=PEN, receptacleObjectId=COUNTER),
            step("PickupObject", objectId=PEN, coordinateReceptacleObjectId=near_counter)]
    recorded = recorded_receptacles(plan)
    assert set(recorded) == {MUG, APPLE}  # the pen was put somewhere before it was picked up
    room = read_room(metadata(), POSES, START, RULES, recorded)
    assert room.items[MUG].receptacles == (COUNTER,)
    assert room.items[APPLE].receptacles == (FRIDGE,)
    far = {MUG: ("CounterTop", (9.0, 9.0))}
    assert read_room(metadata(), POSES, START, RULES, far).items[MUG].receptacles == ()


def test_a_fixed_object_stands_on_the_receptacle_whose_top_meets_its_bottom() -> None:
    desk = ((1.5, 0.0, -2.5), (2.5, 0.75, -1.5))
    lamp = ((2.1, 0.76, -2.2), (2.3, 1.2, -2.0))
    assert standing_on(lamp, {DESK: desk}) == DESK
    assert standing_on(((2.1, 0.9, -2.2), (2.3, 1.3, -2.0)), {DESK: desk}) == ""  # floating above it
    assert standing_on(((2.9, 0.0, 2.9), (3.1, 1.5, 3.1)), {DESK: desk}) == ""  # a floor lamp
    boxes = {DESK: desk, LAMP: lamp}
    room = read_room(metadata(), POSES, START, RULES, boxes=boxes)
    assert room.items[LAMP].receptacles == (DESK,)


def test_the_problem_states_the_room_and_alfworlds_goal() -> None:
    room = read_room(metadata(), POSES, START, RULES)
    task = TaskSpec("pick_heat_then_place_in_recep", "Apple", "CounterTop")
    text = problem_text(room, task, RULES, "plan_trial_T1")
    apple, fridge = escape(APPLE), escape(FRIDGE)
    assert text.startswith("(define (problem plan_trial_T1)\n(:domain alfred)\n")
    for fact in (f"(objectType {apple} AppleType)", f"(inReceptacle {apple} {fridge})", f"(openable {fridge})",
                 f"(objectAtLocation {apple} {escape(location_name(POSES[FRIDGE]))})", f"(heatable {apple})",
                 f"(pickupable {apple})", f"(isReceptacleObject {escape(BOWL)})", f"(isOn {escape(LAMP)})",
                 f"(toggleable {escape(LAMP)})", "(atLocation agent1 loc_bar_0_bar_0_bar_1_bar_30)",
                 f"(inReceptacleObject {escape(PEN)} {escape(BOWL)})", "(canContain FridgeType AppleType)"):
        assert fact in text, fact
    assert "(canContain FridgeType MugType)" not in text  # ALFWorld's table has no mug in a fridge
    assert f"(opened {fridge})" not in text and "Statue" not in text and escape(CABINET) not in text
    assert "(objectType ?o AppleType) (receptacleType ?r CounterTopType)" in text and "#" not in text
    assert text.count("(") == text.count(")")  # the goal template closes the define
    assert problem_text(room, task, RULES, "plan_trial_T1") == text


def test_the_goal_is_alfworlds_template_for_the_task() -> None:
    goal = goal_text(TaskSpec("pick_and_place_simple", "Mug", "Cabinet"), RULES)
    assert "(objectType ?o MugType)" in goal and "(?r - receptacle)" in goal


def test_the_plan_becomes_alfworld_commands() -> None:
    room = read_room(metadata(), POSES, START, RULES)
    plan = [step("GotoLocation", location="loc|-4|1|0|30"),
            step("PickupObject", objectId=APPLE, coordinateReceptacleObjectId=["Fridge", [-4, -4, 4, 4, 0, 0]]),
            step("GotoLocation", location="loc|6|0|0|15"),
            step("HeatObject", objectId=MICROWAVE),
            step("GotoLocation", location="loc|4|-2|0|30"),
            step("PutObject", objectId=APPLE, receptacleObjectId=COUNTER),
            step("NoOp")]
    assert walkthrough(plan, room, names_for(room), RULES) == [
        "go to fridge 1", "open fridge 1", "take apple 1 from fridge 1",
        "go to microwave 1", "heat apple 1 with microwave 1",
        "go to countertop 1", "move apple 1 to countertop 1"]
    # a second put into the opened fridge needs no second "open"; nor a "go to" where the agent is
    plan += [step("PickupObject", objectId=APPLE), step("PutObject", objectId=APPLE, receptacleObjectId=FRIDGE)]
    tail = walkthrough(plan, room, names_for(room), RULES)[7:]
    assert tail == ["take apple 1 from countertop 1", "go to fridge 1", "move apple 1 to fridge 1"]


@pytest.mark.parametrize(("action", "tool", "command"), [
    ("HeatObject", MICROWAVE, "heat apple 1 with microwave 1"),
    ("CoolObject", FRIDGE, "cool apple 1 with fridge 1"),
])
def test_heating_and_cooling_name_the_held_object_and_the_appliance(action, tool, command) -> None:
    room = read_room(metadata(), POSES, START, RULES)
    plan = [step("PickupObject", objectId=APPLE), step(action, objectId=tool)]
    assert walkthrough(plan, room, names_for(room), RULES)[-1] == command


def test_a_lamp_is_used_where_it_stands() -> None:
    room = read_room(metadata(), POSES, START, RULES, boxes={DESK: ((1.5, 0, -2.5), (2.5, 0.75, -1.5)),
                                                          LAMP: ((2.1, 0.75, -2.2), (2.3, 1.2, -2.0))})
    plan = [step("PickupObject", objectId=PEN), step("ToggleObject", objectId=LAMP)]
    assert walkthrough(plan, room, names_for(room), RULES) == ["go to desk 1", "take pen 1 from desk 1",
                                                              "use desklamp 1"]


@pytest.mark.parametrize(("plan", "reason"), [
    ([step("PickupObject", objectId=MUG)], ExportReason.LOOSE_OBJECT),
    ([step("PickupObject", objectId=APPLE), step("ToggleObject", objectId=FLOOR_LAMP)],
     ExportReason.LAMP_WITHOUT_RECEPTACLE),
    ([step("PickupObject", objectId=APPLE), step("PutObject", objectId=APPLE, receptacleObjectId=DESK)],
     ExportReason.UNPLACEABLE),
    ([step("PickupObject", objectId=APPLE), step("PutObject", objectId=APPLE, receptacleObjectId=BOWL)],
     ExportReason.UNPLACEABLE),
    ([step("PickupObject", objectId=APPLE), step("PutObject", objectId=APPLE, receptacleObjectId=CABINET)],
     ExportReason.NO_POSE),
    ([step("PickupObject", objectId=APPLE), step("CleanObject", objectId=MICROWAVE)], ExportReason.UNPLACEABLE),
    ([step("PickupObject", objectId=STATUE)], ExportReason.UNPLACEABLE),
    ([step("SliceObject", objectId=APPLE)], ExportReason.SLICED),
    ([step("DanceObject", objectId=APPLE)], ExportReason.UNTRANSLATABLE),
], ids=["loose", "floor-lamp", "no-canContain", "movable-receptacle", "no-pose", "clean-in-microwave",
        "unknown-class", "slice", "unknown-action"])
def test_what_alfworld_cannot_do_is_a_skip_with_its_reason(plan, reason) -> None:
    room = read_room(metadata(), POSES, START, RULES)
    with pytest.raises(NotExportable) as caught:
        walkthrough(plan, room, names_for(room), RULES)
    assert caught.value.reason == reason


@pytest.mark.parametrize(("task", "reason"), [
    (TaskSpec("pick_and_place_with_movable_recep", "Apple", "CounterTop", "Bowl"), ExportReason.MOVABLE_RECEPTACLE),
    (TaskSpec("pick_heat_then_place_in_recep", "Apple", "CounterTop", object_sliced=True), ExportReason.SLICED),
    (TaskSpec("pick_two_obj_and_place", "Apple", "CounterTop"), ExportReason.UNKNOWN_TASK),
    (TaskSpec("pick_and_place_simple", "Statue", "CounterTop"), ExportReason.UNPLACEABLE),
])
def test_tasks_alfworld_has_no_games_for_are_skipped_before_any_room(task, reason) -> None:
    with pytest.raises(NotExportable) as caught:
        check_task(task, RULES)
    assert caught.value.reason == reason
    check_task(TaskSpec("look_at_obj_in_light", "Pen", toggle_target="DeskLamp"), RULES)  # no exception


def test_the_task_sentence_is_alfworlds_template_chosen_by_the_seed() -> None:
    task = TaskSpec("pick_and_place_simple", "Apple", "CounterTop")
    sentences = {task_sentence(task, RULES, seed, "trial_T1") for seed in range(20)}
    assert sentences == {"put a apple in countertop", "put some apple on countertop"}
    assert task_sentence(task, RULES, 3, "trial_T1") == task_sentence(task, RULES, 3, "trial_T1")


def test_the_summary_counts_games_by_task_type_and_skips_and_failures_by_reason() -> None:
    results = [ExportResult(Path("a"), ExportReason.OK, "pick_and_place_simple"),
               ExportResult(Path("b"), ExportReason.OK, "pick_and_place_simple"),
               ExportResult(Path("c"), ExportReason.SLICED, "pick_heat_then_place_in_recep"),
               ExportResult(Path("d"), ExportReason.BAD_FILE, "")]
    assert summary_lines(results, 1.25) == [
        "games by task type: pick_and_place_simple 2",
        "2 exported, 1 skipped: sliced 1; 1 failed: bad_file 1 (in 1.2 s)"]


def _run_cli(*args: str, prelude: str = "") -> subprocess.CompletedProcess:
    """`alfred-gen ARGS` in a fresh process, after the Python lines ``prelude``."""
    code = f"import sys\n{prelude}\nfrom alfred_gen.cli import main\nmain(sys.argv[1:])"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=python_env(), timeout=120)


@pytest.mark.slow  # ~13 s each on a busy 2-core machine (the fast lane's --durations)
def test_a_missing_source_is_one_line_and_not_found(tmp_path: Path) -> None:
    for command in (["export", "alfworld", str(tmp_path / "nothing"), "--out", str(tmp_path / "games")],
                    ["export", "alfworld-check", str(tmp_path / "nothing")]):
        result = _run_cli(*command)
        assert result.returncode == ExitCode.NOT_FOUND
        assert result.stderr.count("\n") == 1 and "no such" in result.stderr
    assert not (tmp_path / "games").exists()


def test_an_output_path_alfworlds_loader_would_skip_is_refused(tmp_path: Path) -> None:
    save_trajectory(make_trajectory(), tmp_path / "src" / "task" / "trial_T1" / "traj_data.json")
    result = _run_cli("export", "alfworld", str(tmp_path / "src"), "--out", str(tmp_path / "movable-games"))
    assert result.returncode == ExitCode.USAGE and result.stderr.count("\n") == 1
    assert "skips every path containing 'movable'" in result.stderr
    assert not (tmp_path / "movable-games").exists()


@pytest.mark.slow  # ~27 s each on a busy 2-core machine (the fast lane's --durations)
def test_without_alfworld_the_export_says_how_to_install_it(tmp_path: Path) -> None:
    save_trajectory(make_trajectory(), tmp_path / "src" / "task" / "trial_T1" / "traj_data.json")
    (tmp_path / "games" / "task" / "trial_T1").mkdir(parents=True)
    (tmp_path / "games" / "task" / "trial_T1" / "game.tw-pddl").write_text("{}")
    prelude = "sys.modules['alfworld'] = None  # as if the extra were not installed"
    for command in (["export", "alfworld", str(tmp_path / "src"), "--out", str(tmp_path / "games")],
                    ["export", "alfworld-check", str(tmp_path / "games")]):
        result = _run_cli(*command, prelude=prelude)
        assert result.returncode == ExitCode.MISSING_DEPENDENCY, result.stderr
        assert result.stderr.count("\n") == 1 and "pip install 'alfred-gen[alfworld]'" in result.stderr
