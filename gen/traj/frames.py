"""Which frames a trajectory has: its ``images`` list plus the frame after the last action.

ALFRED's convention, which the loaders people train with rely on:

- ``images`` lists the frames taken before, or during, each low action, each with that action's
  ``low_idx`` and ``high_idx``. The *first* entry of ``low_idx`` i is the frame in which action i
  was chosen (for i = 0, the start state). Released files list several entries per navigation step
  (smooth animation); ours list exactly one per action.
- The frame after the last action is on disk as the next number after ``images[-1]`` and is *not*
  listed. E.T.'s data builder (``read_traj_images``) takes the first image of every ``low_idx`` and
  then that unlisted next number, and drops the demonstration when a file is missing; ALFRED's
  seq2seq (``Module.featurize``) keeps the first image of every ``low_idx`` and repeats the last
  one as its stop frame. So ``n`` low actions give ``n`` listed images and ``n + 1`` files.

Our files before this convention (alfred-gen up to issue 60) listed the final frame too, as a
second entry of the last ``low_idx`` with nothing after it; :func:`frame_entries` recognises that
layout (exactly one entry per action plus one more of the last) and does not invent a frame after
it, so the tools keep reading older output.

Everything here works on the parsed JSON alone (no disk access): the names of the files a
trajectory's frames live in, in order, and what each shows.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

#: What ``images[i].image_name`` holds (ALFRED's; the RGB file itself is ``%09d.jpg``).
IMAGE_NAME = "{:09d}.png"


class FrameEntry(NamedTuple):
    """One frame of a trajectory, listed in ``images`` or the unlisted final one."""

    position: int  #: index in the frame sequence (``images`` order, the final frame last)
    stem: str  #: file name without extension (``000000012``)
    low_idx: int
    high_idx: int
    before_action: bool  #: the frame in which low action ``low_idx`` was chosen
    listed: bool  #: in ``images`` (False only for the frame after the last action)


def frame_stem(image_name: str) -> str:
    """``000000012.png`` -> ``000000012`` (the name without folder or extension)."""
    stem, _ = os.path.splitext(os.path.basename(str(image_name)))
    return stem


def images_index(low_actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ``images`` list of a recording with one frame per action: the frame before each action
    (``%09d.png`` numbered from 0), nothing for the frame after the last one (file ``n``)."""
    return [{"high_idx": low["high_idx"], "image_name": IMAGE_NAME.format(i), "low_idx": i}
            for i, low in enumerate(low_actions)]


def lists_final_frame(images: Sequence[Mapping[str, Any]], n_low: int) -> bool:
    """Whether ``images`` is our pre-issue-60 layout: one entry per action, in order, plus one more
    of the last action (the final frame, listed). Released files never have this shape (their last
    action has a single frame only when every action has one, and then nothing repeats)."""
    if n_low == 0 or len(images) != n_low + 1:
        return False
    return [int(e["low_idx"]) for e in images] == [*range(n_low), n_low - 1]


def final_image_name(traj: Mapping[str, Any]) -> str | None:
    """``image_name`` of the frame after the last action (unlisted): one past ``images[-1]``, as
    E.T. computes it; None without images, or for the old layout that lists it already."""
    images = traj.get("images") or []
    if not images or lists_final_frame(images, len(traj["plan"]["low_actions"])):
        return None
    stem = frame_stem(images[-1]["image_name"])
    if not stem.isdigit():
        return None
    return IMAGE_NAME.format(int(stem) + 1)


def frame_entries(traj: Mapping[str, Any]) -> list[FrameEntry]:
    """Every frame of a trajectory, in order: the ``images`` entries, then the unlisted final frame.

    A trajectory without ``images`` (released train copies) gets the index our recorder would
    write for its actions."""
    low_actions = traj["plan"]["low_actions"]
    images = list(traj.get("images") or images_index(low_actions))
    entries: list[FrameEntry] = []
    seen: set[int] = set()
    for position, image in enumerate(images):
        low_idx = int(image["low_idx"])
        entries.append(FrameEntry(position, frame_stem(image["image_name"]), low_idx, int(image["high_idx"]),
                                  low_idx not in seen, True))
        seen.add(low_idx)
    final = final_image_name({**traj, "images": images})
    if final is not None:
        last = images[-1]
        entries.append(FrameEntry(len(entries), frame_stem(final), int(last["low_idx"]), int(last["high_idx"]),
                                  False, False))
    return entries


def action_frame_names(traj: Mapping[str, Any]) -> list[str | None]:
    """E.T.'s and ALFRED's reading: the first ``image_name`` of every ``low_idx`` (None where an
    action has none), then the frame after the last action."""
    names: list[str | None] = [None] * len(traj["plan"]["low_actions"])
    for image in traj.get("images") or ():
        low_idx = int(image["low_idx"])
        if 0 <= low_idx < len(names) and names[low_idx] is None:
            names[low_idx] = str(image["image_name"])
    entries = frame_entries(traj)
    names.append(f"{entries[-1].stem}.png" if entries and not entries[-1].before_action else None)
    return names
