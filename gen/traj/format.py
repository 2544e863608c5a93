"""The trajectory file format: ALFRED's ``traj_data.json``, read, checked and written in one place.

We keep ALFRED's format (json_2.1.0) byte for byte so that ALFRED, ALFWorld and E.T. loaders read
our files unchanged. Everything that reads or writes a trajectory goes through this module; it
imports no other part of the pipeline.

Directory layout
================
One trajectory per directory, as in ALFRED::

    <out>/<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>/<task_id>/
        traj_data.json         this file format
        raw_images/%09d.jpg    one RGB frame per entry of ``images``, and the final one (300x300)
        depth_images/          depth frames, written by ``replay --depth``
        instance_masks/        instance segmentation frames, written by ``replay --seg``
        pddl_states/           optional planner state dumps (nothing reads them back)

``task_id`` has the form ``trial_T<date>_<time>_<micro>``; ours are a hash of the run seed and the
task (:mod:`alfred_gen.sample.trial_ids`), whose date part is a day of 2000-2019. See :func:`trajectory_dir_name` and
:func:`trajectory_dir_name_for` for how the task directory is named. In all 238 released sample
files the names follow that rule and the trial directory is the ``task_id``.

Keys of traj_data.json
======================
The shipped JSON Schema (``alfred_gen/traj/traj_data.schema.json``) checks all of these. Extra
keys are allowed at every level; they carry what ALFRED lacks (backend, versions, generator seed).

``task_id`` (str)
    ``trial_T...``, also the name of the trial directory.
``task_type`` (str)
    ``pick_and_place_simple``, ``pick_two_obj_and_place``, ``look_at_obj_in_light``,
    ``pick_clean_then_place_in_recep``, ``pick_heat_then_place_in_recep``,
    ``pick_cool_then_place_in_recep``, ``pick_and_place_with_movable_recep`` or a new type.
``scene`` (object): how to rebuild the start state.
    ``floor_plan`` (str: ``FloorPlan<N>`` for a THOR room, ``LitePlan<N>`` / ``LiteHouse<N>`` for
    lite's procedural rooms and houses), ``scene_num`` (int: N for ``FloorPlan<N>``, 10000 + N for
    ``LitePlan<N>``, 1000 + N for ``LiteHouse<N>``, so that ``'FloorPlan%d' % scene_num``, which
    ALFRED's eval loads, never names a real THOR room for a lite room; see
    :mod:`alfred_gen.traj.scene_nums`; a file whose two disagree is refused), ``random_seed`` (int, seed of
    the initial random spawn), ``init_action`` (the agent's start: a ``TeleportFull`` action dict
    with numbers ``x``, ``y``, ``z``, ``rotation``, ``horizon`` and bool ``rotateOnTeleport``),
    ``object_poses`` (list of ``{objectName, position{x,y,z}, rotation{x,y,z}}`` for
    ``SetObjectPoses``: the pickupable objects, as ALFRED's generator wrote them and THOR moves them;
    lite's files add the extra key ``furniture_poses`` with the furniture lite's catalogue calls
    moveable, which only lite reads back), ``object_toggles`` (list of ``{objectType, isOn}`` for
    ``SetObjectToggles``), ``dirty_and_empty`` (bool: ``SetStateOfAllObjects`` dirty and empty).
``plan`` (object)
    ``high_pddl``: the high-level plan, a list of ``{high_idx, planner_action, discrete_action}``.
    ``high_idx`` is the step's index (int >= 0); ``planner_action`` is the planner's step as an
    action dict (``action`` plus e.g. ``location`` ``"loc|x|z|rotation|horizon"``, ``objectId``,
    ``receptacleObjectId``, ``coordinateObjectId`` ``[type, [x, y, z, ...]]``, ``forceVisible``);
    ``discrete_action`` is ``{action, args: [str, ...]}`` (e.g. ``GotoLocation ["countertop"]``).
    The last step is ``End`` / ``NoOp``.

    ``low_actions``: the simulator actions, a list of ``{high_idx, api_action, discrete_action}``.
    ``high_idx`` says which high-level step the action belongs to; ``api_action`` is the AI2-THOR
    action dict as sent to the simulator (``action`` plus ``objectId``, ``receptacleObjectId``,
    ``forceAction``, ``moveMagnitude``, ``placeStationary``, ...); ``discrete_action`` is
    ``{action, args}`` with ``action`` ALFRED's discrete name (``MoveAhead_25``,
    ``RotateLeft_90``, ``LookDown_15``, ``PickupObject``, ...) and ``args`` either ``{}`` or, for an
    interaction, ``{mask, bbox, point}``: the target's mask as ``[[start, length], ...]`` runs over
    the flattened 300x300 frame, its box ``[x1, y1, x2, y2]`` and a click point ``[x, y]``. See
    :mod:`alfred_gen.traj.rle` for the exact conventions (including ALFRED's y off-by-one in bbox).
``images`` (list)
    The frames taken before or during each low action: ``{low_idx, high_idx, image_name}``; the
    first entry of a ``low_idx`` is the frame the action was chosen in. The frame after the last
    action is on disk as the next number after ``images[-1]`` and is *not* listed (E.T.'s loader
    reads it; see :mod:`alfred_gen.traj.frames`). Released files have several entries per
    navigation step (smooth animation); ours have one per action, so ``n`` low actions give ``n``
    entries and ``n + 1`` files. In all 63031 entries of the released sample ``image_name`` is
    ``%09d.png`` although the frames in ``raw_images/`` are JPEG files ``%09d.jpg``; readers swap
    the extension.
``pddl_params`` (object)
    ``object_target`` (str, class picked up), ``object_sliced`` (bool), ``parent_target`` (str,
    destination receptacle class, ``""`` if none), ``toggle_target`` (str, lamp for
    look_at_obj_in_light, else ``""``), ``mrecep_target`` (str, movable receptacle class or ``""``).
``template`` (object, optional)
    Templated language we generate: ``task_desc`` (str) and ``high_descs`` (list of str, one per
    high-level step). The released files have no ``template`` key. They carry human language in
    ``turk_annotations``.
``turk_annotations`` (object, optional)
    ``anns``: list of ``{assignment_id, task_desc, high_descs, votes}`` from Mechanical Turk.

Masks must also satisfy rules the schema cannot express: each run ends inside the image
(``start + length <= 90000``), and runs are in increasing order without overlap. These are checked
in code after the schema, and reported with the run's JSON path.

Files are written as ``json.dumps(data, indent=4, sort_keys=True)`` plus a final newline. That is
exactly ALFRED's formatting: every released file is those bytes minus the newline. Writes are
atomic: a reader sees the old file or the new one, never a mix.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import fastjsonschema
import jsonschema
import numpy as np

from alfred_gen.atomic import write_bytes as atomic_write_bytes
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_PIXELS, FRAME_WIDTH
from alfred_gen.traj.scene_nums import scene_num_problem

TRAJ_FILE_NAME = "traj_data.json"
RAW_IMAGES_DIR = "raw_images"
DEPTH_IMAGES_DIR = "depth_images"
INSTANCE_MASKS_DIR = "instance_masks"
PDDL_STATES_DIR = "pddl_states"
RAW_IMAGE_NAME = "{:09d}.jpg"  #: file name of frame i in raw_images/
NO_MRECEP = "None"  #: stands for "no movable receptacle" in a task directory name

SCHEMA_PACKAGE = "alfred_gen.traj"
SCHEMA_RESOURCE = "traj_data.schema.json"

_NAME_PART = re.compile(r"^[A-Za-z0-9_]+$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Problem(NamedTuple):
    """One reason a trajectory is invalid: where (``$.plan.low_actions[3].api_action``) and why."""

    json_path: str
    message: str


class InvalidTrajectoryError(ValueError):
    """Raised by :func:`save_trajectory` for data that is not a valid trajectory (a caller bug)."""


# --------------------------------------------------------------------------------------------
# Directory names


def trajectory_dir_name(
    task_type: str, object_type: str, mrecep_type: str | None, recep_type: str, scene_num: int
) -> str:
    """ALFRED's task directory name ``<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>``.

    ``mrecep_type`` None or ``""`` is written ``None``. Parts must be non-empty and made of
    letters, digits and ``_``, so the name splits back unambiguously on ``-``.
    """
    mrecep = mrecep_type or NO_MRECEP
    parts = [task_type, object_type, mrecep, recep_type, str(scene_num)]
    for part in parts:
        if not isinstance(part, str) or not _NAME_PART.match(part):
            raise ValueError(f"bad part {part!r} for a trajectory directory name")
    if isinstance(scene_num, bool) or not isinstance(scene_num, int) or scene_num < 0:
        raise ValueError(f"scene_num must be a non-negative int, got {scene_num!r}")
    return "-".join(parts)


def trajectory_dir_name_for(data: Mapping[str, Any]) -> str:
    """The task directory name of a trajectory, derived from its contents as ALFRED names it.

    The object is ``object_target`` plus ``Sliced`` for slicing tasks. The receptacle is
    ``parent_target``, or ``toggle_target`` (the lamp) for look_at_obj_in_light. This rule gives
    the directory name of all 238 released sample trajectories.
    """
    params = data["pddl_params"]
    object_type = params["object_target"] + ("Sliced" if params["object_sliced"] else "")
    recep = params["parent_target"] or params["toggle_target"]
    return trajectory_dir_name(
        data["task_type"], object_type, params["mrecep_target"], recep, data["scene"]["scene_num"]
    )


#: The ``generator`` block's ``name``: who wrote a file.
GENERATOR_NAME = "alfred-gen"


def make_trajectory(
    *,
    backend: tuple[str, str],
    high_pddl: list[dict[str, Any]],
    low_actions: list[dict[str, Any]],
    images: list[dict[str, Any]],
    template: Mapping[str, Any],
    seed: int | None = None,
    base: Mapping[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A trajectory dict as every family builds one: ``base`` (a source file a derived trajectory
    keeps the rest of; its ``plan``, ``images``, ``template`` and ``generator`` are replaced), then
    ``fields`` (``task_id``, ``task_type``, ``scene``, ``pddl_params``, ``turk_annotations``, a
    family's own block such as ``goal`` or ``eqa``), the plan, the frames index, the template, and
    the ``generator`` block saying which ``backend`` (name, version), which alfred-gen and, for a
    generated demonstration, which ``seed``. Key order is free: files are written with sorted keys."""
    from alfred_gen import __version__

    generator: dict[str, Any] = {"backend": backend[0], "backend_version": backend[1], "name": GENERATOR_NAME,
                                 "version": __version__}
    if seed is not None:
        generator["seed"] = seed
    traj = dict(base or {})
    traj.update(fields)
    traj.update({"generator": generator, "images": images, "plan": {"high_pddl": high_pddl, "low_actions": low_actions},
                 "template": template})
    return traj


def trajectories_under(root: str | os.PathLike[str]) -> tuple[list[Path], list[Path]]:
    """Every traj_data.json under directory ``root`` (sorted), and every trial directory
    (``trial_*``) that has none, sorted.

    Hidden directories are skipped: a ``.tmp-trial_*`` directory is a trajectory still being
    written (or left by a killed run) and ``.alfred-gen`` is a sampler's run state; neither is a
    trajectory of the dataset. A trial directory without its traj_data.json (deleted, or frames
    copied without it) is not a trajectory either, and readers report it rather than skip it.
    """
    files: list[Path] = []
    missing: list[Path] = []
    for folder, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        here = Path(folder)
        if TRAJ_FILE_NAME in names and (here / TRAJ_FILE_NAME).is_file():
            files.append(here / TRAJ_FILE_NAME)
        elif here.name.startswith("trial_"):
            missing.append(here)
    return sorted(files), sorted(missing)


# --------------------------------------------------------------------------------------------
# Schema


@functools.cache
def _schema_text() -> str:
    return resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")


def load_schema() -> dict[str, Any]:
    """The trajectory JSON Schema (draft-07) shipped in the package (a fresh copy)."""
    return json.loads(_schema_text())


@functools.cache
def _checkers() -> tuple[jsonschema.protocols.Validator, Callable[[Any], Any]]:
    """jsonschema (for messages) and fastjsonschema (for speed), both from the same schema.

    jsonschema walks every node with a lot of bookkeeping: about 9 s for the 238 released files,
    which hold some 160k mask runs. fastjsonschema compiles the schema to Python code and checks
    them in under a second, but its messages name no JSON path. So valid data takes the fast
    path, and only data it rejects goes through jsonschema to find and explain the problems.
    The schema is draft-07 because that is the newest draft fastjsonschema implements.
    """
    schema = load_schema()
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema), fastjsonschema.compile(schema)


def _accepts(data: Any) -> bool:
    """Whether the compiled fast validator finds ``data`` valid."""
    try:
        _checkers()[1](data)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def format_json_path(parts: Iterable[str | int]) -> str:
    """``["plan", "low_actions", 3, "api_action"]`` -> ``$.plan.low_actions[3].api_action``."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}"
        else:
            text += f"[{json.dumps(part)}]"
    return text


def _json_type(value: Any) -> str:
    """JSON's name for a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"{type(value).__name__} (not a JSON type)"


def _short(text: str, limit: int = 160) -> str:
    """One line, at most ``limit`` characters: messages quote values that may be huge."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _problems_from_error(error: jsonschema.ValidationError) -> list[tuple[list, str]]:
    """A jsonschema error as (path parts, one-line message) pairs.

    A missing key is reported at its own path (``$.plan``), not at the object that lacks it.
    """
    path = list(error.absolute_path)
    kind, expected, instance = error.validator, error.validator_value, error.instance
    if kind == "required":
        missing = [key for key in expected if key not in instance]
        return [(path + [key], "required key is missing") for key in missing]
    if kind == "dependencies":
        return [
            (path + [name], f"required key is missing (needed with {key!r})")
            for key, needed in expected.items() if key in instance
            for name in needed if name not in instance
        ]
    if kind == "type":
        wanted = expected if isinstance(expected, str) else " or ".join(expected)
        return [(path, f"expected {wanted}, got {_json_type(instance)}")]
    if kind == "minItems":
        return [(path, f"expected at least {expected} items, got {len(instance)}")]
    if kind == "maxItems":
        return [(path, f"expected at most {expected} items, got {len(instance)}")]
    if kind == "minLength" and expected == 1:
        return [(path, "must not be empty")]
    if kind == "enum":
        return [(path, f"{_short(repr(instance), 60)} is not one of the {len(expected)} values allowed here")]
    return [(path, _short(error.message))]


def _path_sort_key(parts: list) -> tuple:
    """Order problems by where they are: document structure first, then key/index."""
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, part) for part in parts)


def _schema_problems(data: Any) -> list[Problem]:
    """Problems found by the JSON Schema, sorted by JSON path (empty if the schema accepts)."""
    if _accepts(data):
        return []
    validator = _checkers()[0]
    found: dict[tuple[tuple, str], Problem] = {}
    for error in validator.iter_errors(data):
        for parts, message in _problems_from_error(error):
            key = (_path_sort_key(parts), message)
            found.setdefault(key, Problem(format_json_path(parts), message))
    return [found[key] for key in sorted(found)]


def _mask_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Mask rules JSON Schema cannot express: runs end inside the image, sorted, no overlap.

    Only called on schema-valid data, so every mask is a list of integer pairs.
    """
    problems: list[tuple[int, int, Problem]] = []
    for index, action in enumerate(data["plan"]["low_actions"]):
        runs = action["discrete_action"]["args"].get("mask")
        if not runs:
            continue
        pairs = np.asarray(runs, dtype=np.int64)
        ends = pairs[:, 0] + pairs[:, 1]
        where: list[str | int] = ["plan", "low_actions", index, "discrete_action", "args", "mask"]
        for run in np.flatnonzero(ends > FRAME_PIXELS):
            problems.append((index, int(run), Problem(
                format_json_path([*where, int(run)]),
                f"run [{pairs[run, 0]}, {pairs[run, 1]}] ends at pixel {ends[run]}, past the "
                f"{FRAME_HEIGHT}x{FRAME_WIDTH} image ({FRAME_PIXELS} pixels)",
            )))
        for run in np.flatnonzero(pairs[1:, 0] < ends[:-1]) + 1:
            problems.append((index, int(run), Problem(
                format_json_path([*where, int(run)]),
                f"run starts at pixel {pairs[run, 0]}, before the previous run ends (pixel "
                f"{ends[run - 1]}): runs must be in increasing order without overlap",
            )))
    return [problem for _, _, problem in sorted(problems, key=lambda found: found[:2])]


def index_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Cross-references JSON Schema cannot express: ``scene_num`` is the number ``floor_plan``
    records (:mod:`alfred_gen.traj.scene_nums`), each low action's ``high_idx`` names a step of
    ``high_pddl``, each image's ``low_idx`` a low action and its ``high_idx`` a step. Replay
    refuses a file that breaks them, so ``validate`` must too. Only called on schema-valid data."""
    plan = data["plan"]
    n_high, n_low = len(plan["high_pddl"]), len(plan["low_actions"])
    problems = []
    for i, low in enumerate(plan["low_actions"]):
        if low["high_idx"] >= n_high:
            problems.append(Problem(format_json_path(["plan", "low_actions", i, "high_idx"]),
                                    f"{low['high_idx']} but high_pddl has {n_high} steps"))
    for i, image in enumerate(data["images"]):
        if image["low_idx"] >= n_low:
            problems.append(Problem(format_json_path(["images", i, "low_idx"]),
                                    f"{image['low_idx']} but there are {n_low} low actions"))
        if image["high_idx"] >= n_high:
            problems.append(Problem(format_json_path(["images", i, "high_idx"]),
                                    f"{image['high_idx']} but high_pddl has {n_high} steps"))
    mismatch = scene_num_problem(data["scene"])
    if mismatch is not None:
        problems.insert(0, Problem(format_json_path(["scene", "scene_num"]), mismatch))
    return problems


def validate_trajectory(data: Any) -> list[Problem]:
    """Every problem found in a parsed traj_data.json; an empty list means valid.

    Schema problems come first, sorted by JSON path. Mask-range and index problems are checked
    only when the schema accepts.
    """
    problems = _schema_problems(data)
    if problems:
        return problems
    return _mask_problems(data) + index_problems(data)


@functools.cache
def low_action_names() -> frozenset[str]:
    """The actions a trajectory's low_actions may hold (the schema's ``low_action_name``)."""
    return frozenset(load_schema()["definitions"]["low_action_name"]["enum"])


def first_problem(data: Any) -> Problem | None:
    """The first problem :func:`validate_trajectory` reports, or None if the data is valid."""
    problems = validate_trajectory(data)
    return problems[0] if problems else None


# --------------------------------------------------------------------------------------------
# Reading


class _NotJSON(ValueError):
    pass


class _OutOfRangeError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not a JSON value")


#: Integer literals longer than this are out of range for every field (int64 has 19 digits);
#: Python would refuse to convert those beyond 4300 digits with an error naming no place.
MAX_INTEGER_DIGITS = 20


class OutOfRange:
    """Stands in, while parsing, for a number no field can hold (too many digits, or a float
    literal that overflows to infinity), so the error can name its JSON path afterwards."""

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def describe(self) -> str:
        digits = len(self.literal.lstrip("-"))
        shown = self.literal if len(self.literal) <= 24 else f"{self.literal[:12]}...({digits} digits)"
        return f"number {shown} is out of range"


def _find_out_of_range(data: Any, path: list[str | int]) -> tuple[list[str | int], OutOfRange] | None:
    """The first OutOfRange in document order, with its path."""
    if isinstance(data, OutOfRange):
        return path, data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        if isinstance(value, (dict, list, OutOfRange)):
            found = _find_out_of_range(value, path + [key])
            if found is not None:
                return found
    return None


#: Bytes with every digit as ``0`` and ``E`` as ``e``, so that the patterns below are plain
#: substrings (found at memchr speed, ~15% of the parse; a regex with classes cost more than it).
_SHAPES = bytes(ord("0") if 48 <= b <= 57 else ord("e") if b == ord("E") else b for b in range(256))

#: What every out-of-range number contains: more than MAX_INTEGER_DIGITS digits in a row (a long
#: integer, or a float literal too long to be finite without an exponent), or an exponent of three
#: digits or more (a float literal can only overflow with one of these).
_LONG_DIGITS = b"0" * (MAX_INTEGER_DIGITS + 1)
_LONG_EXPONENTS = (b"e000", b"e+000", b"e-000")

#: Bytes that cannot stand next to a number token in JSON (they belong to a name).
_WORD = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.+-")


def _may_be_out_of_range(text: str) -> bool:
    """Whether ``text`` may hold a number no field can hold (no false negatives; a false positive
    only costs the checking parse). A text without one, the usual case, is parsed without a Python
    call per number, which otherwise costs most of the time on files of masks. An exponent counts
    only at the end of a whole number token: hex names such as ``Cup_f306e730`` hold none."""
    shapes = text.encode("utf-8", "surrogatepass").translate(_SHAPES)
    if _LONG_DIGITS in shapes:
        return True
    for pattern in _LONG_EXPONENTS:
        at = shapes.find(pattern)
        while at >= 0:
            end = at + len(pattern)
            while end < len(shapes) and shapes[end] == ord("0"):
                end += 1
            start = at
            while start > 0 and shapes[start - 1] in b"0.":
                start -= 1
            if start > 0 and shapes[start - 1] == ord("-"):
                start -= 1
            if (end == len(shapes) or shapes[end] not in _WORD) and start < at and shapes[start] != ord(".") \
                    and (start == 0 or shapes[start - 1] not in _WORD):
                return True
            at = shapes.find(pattern, at + 1)
    return False


def loads_checked(text: str | bytes) -> Any:
    """``json.loads`` that refuses what is not JSON (NaN, Infinity) and numbers no field can hold.

    Raises ValueError with one line: ``not valid JSON (...)``-style messages from the parser, or
    ``$.scene.random_seed: number 99999...(5000 digits) is out of range``.
    """
    if isinstance(text, (bytes, bytearray)):
        text = text.decode(json.detect_encoding(text), "surrogatepass")  # as json.loads reads bytes
    if not _may_be_out_of_range(text):  # no such number: the C parser alone, several times faster
        return json.loads(text, parse_constant=_reject_constant)
    found: list[OutOfRange] = []

    def parse_int(literal: str) -> int | OutOfRange:
        if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
            found.append(OutOfRange(literal))
            return found[-1]
        return int(literal)

    def parse_float(literal: str) -> float | OutOfRange:
        value = float(literal)
        if not math.isfinite(value):
            found.append(OutOfRange(literal))
            return found[-1]
        return value

    data = json.loads(text, parse_constant=_reject_constant, parse_int=parse_int, parse_float=parse_float)
    if found:
        where = _find_out_of_range(data, [])
        path, bad = where if where is not None else ([], found[0])
        raise _OutOfRangeError(f"{format_json_path(path)}: {bad.describe()}")
    return data


def parse_trajectory_json(path: str | os.PathLike) -> Any:
    """Read and parse a file as JSON, without checking the schema.

    Raises UserError(BAD_INPUT) with one line naming the file for unreadable, non-UTF-8,
    truncated or garbage files (NaN and Infinity are rejected: they are not JSON).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise UserError(f"{path}: cannot read ({error.strerror or error})", ExitCode.BAD_INPUT) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(
            f"{path}: not valid JSON (not UTF-8 text, byte {error.start})", ExitCode.BAD_INPUT
        ) from None
    try:
        return loads_checked(text)
    except _OutOfRangeError as error:
        raise UserError(f"{path}: {error}", ExitCode.BAD_INPUT) from None
    except json.JSONDecodeError as error:
        hint = "; the file ends early (truncated?)" if error.pos >= len(text.rstrip()) else ""
        raise UserError(
            f"{path}: not valid JSON (line {error.lineno} col {error.colno}: {error.msg}{hint})",
            ExitCode.BAD_INPUT,
        ) from None
    except _NotJSON as error:
        raise UserError(f"{path}: not valid JSON ({error})", ExitCode.BAD_INPUT) from None
    except RecursionError:
        raise UserError(f"{path}: not valid JSON (nested too deeply)", ExitCode.BAD_INPUT) from None
    except ValueError as error:  # anything else the parser refuses, said in one line
        raise UserError(f"{path}: not valid JSON ({_short(str(error))})", ExitCode.BAD_INPUT) from None


def load_trajectory(path: str | os.PathLike) -> dict[str, Any]:
    """Read a traj_data.json and check it against the schema and the mask rules.

    Raises UserError(BAD_INPUT) with one line ``<file>: <json path>: <message>`` naming the
    first problem (or ``<file>: not valid JSON (...)``).
    """
    data = parse_trajectory_json(path)
    problem = first_problem(data)
    if problem is not None:
        raise UserError(f"{path}: {problem.json_path}: {problem.message}", ExitCode.BAD_INPUT)
    return data


# --------------------------------------------------------------------------------------------
# Writing


def serialize_trajectory(data: Mapping[str, Any]) -> bytes:
    """The exact bytes we write: ALFRED's formatting (indent 4, sorted keys, ASCII) plus newline."""
    try:
        text = json.dumps(data, indent=4, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidTrajectoryError(f"cannot serialise trajectory as JSON: {error}") from None
    return (text + "\n").encode("ascii")


def save_trajectory(data: Mapping[str, Any], path: str | os.PathLike) -> None:
    """Check ``data`` and write it to ``path`` atomically in ALFRED's formatting.

    Raises InvalidTrajectoryError (a ValueError: the caller built bad data) naming the first
    problem, before anything touches the disk. OSError from the write propagates, and any old
    file stays intact.
    """
    problem = first_problem(data)
    if problem is not None:
        raise InvalidTrajectoryError(
            f"{path}: refusing to write an invalid trajectory: {problem.json_path}: "
            f"{problem.message}"
        )
    atomic_write_bytes(path, serialize_trajectory(data))
