"""Recording a demonstration: execute low-level actions, keep one frame per step and the masks.

The recorder steps each :class:`LowAction` on a simulator, in order. Every action
must succeed; the first that does not stops the recording with a :class:`RecordingError`. For an
interaction it takes the target's instance mask from the frame *before* the action (what the agent
saw when it decided to act) and stores it as ALFRED does: ``{mask, bbox, point}``
(:func:`alfred_gen.traj.rle.interaction_args`).

Frames follow ALFRED's ``images`` convention (:mod:`alfred_gen.traj.frames`, read from the 238
released sample trajectories and the loaders of ALFRED's seq2seq and E.T.): the first image is the
start state, before any action; image ``i`` is the frame in which low action ``i`` was chosen and
carries that action's ``low_idx`` and ``high_idx``. The frame after the last action is written as
the next number and is not listed (E.T.'s loader takes it as the final frame). So ``n`` low actions
give ``n`` listed images and ``n + 1`` files. Released files have several frames per action (smooth
animation); we keep exactly the frames the loaders use.
``image_name`` is ``%09d.png`` as in every released file, while the file in ``raw_images/`` is the
JPEG ``%09d.jpg`` (:data:`alfred_gen.traj.format.RAW_IMAGE_NAME`), as ALFRED ships them.

JPEG encoding is deterministic: fixed quality and settings through Pillow, so the same frames give
the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.errors import GenerationReason
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.event import head_of
from alfred_gen.traj.format import RAW_IMAGE_NAME
from alfred_gen.traj.frames import images_index
from alfred_gen.traj.rle import interaction_args

#: JPEG quality of saved frames (Pillow's scale); fixed so files are reproducible.
JPEG_QUALITY = 90



class RecordingError(Exception):
    """Recording stopped: ``reason`` is ACTION_FAILED or MASK_MISSING; the message says where."""

    def __init__(self, reason: GenerationReason, message: str, low_idx: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.low_idx = low_idx


@dataclass
class LowAction:
    """One low-level action: the THOR action dict, ALFRED's discrete name, and whose mask to record."""

    high_idx: int
    api_action: dict[str, Any]
    discrete: str
    target: str = ""  # object id whose mask goes into discrete_action.args ("" for navigation)

    def entry(self, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ``plan.low_actions`` entry, with ``args`` the target's {mask, bbox, point} (or {})."""
        return {
            "high_idx": self.high_idx,
            "api_action": dict(self.api_action),
            "discrete_action": {"action": self.discrete, "args": dict(args or {})},
        }



def encode_jpeg(frame: np.ndarray, quality: int = JPEG_QUALITY) -> bytes:
    """The JPEG bytes of an HxWx3 uint8 RGB frame, always the same for the same pixels."""
    from PIL import Image

    pixels = np.ascontiguousarray(frame, dtype=np.uint8)
    if pixels.ndim != 3 or pixels.shape[2] != 3:
        raise ValueError(f"a frame is HxWx3 uint8, got shape {pixels.shape}")
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, format="JPEG", quality=quality, optimize=False, progressive=False,
                                        subsampling=0)
    return out.getvalue()


#: Where masks come from: event -> {object id: HxW bool mask} of the state that event shows (or None).
MaskSource = Callable[[Any], "Mapping[str, np.ndarray] | None"]


def event_masks(event: Any) -> Mapping[str, np.ndarray] | None:
    """The masks an event carries (THOR's ``instance_masks``; needs the object image switched on)."""
    return getattr(event, "instance_masks", None)


def on_demand_masks(controller: Controller) -> MaskSource:
    """Masks for a lite controller that renders no segmentation per step (faster): when an
    interaction needs them, the current state is rendered with the object image switched on.

    Valid because the recorder asks for the masks of its latest event right before the next action,
    when the simulator is still in the state that event shows. Uses lite's documented hooks (the
    ``render_object_image`` flag and the ``renderer``); any other controller keeps its event masks.
    """
    renderer = getattr(controller, "renderer", None)
    if renderer is None or not hasattr(controller, "render_object_image"):
        return event_masks

    def masks(event: Any) -> Mapping[str, np.ndarray] | None:
        found = event_masks(event)
        if found is not None:
            return found
        flag = controller.render_object_image
        controller.render_object_image = True
        try:
            return (renderer(controller) or {}).get("instance_masks")
        finally:
            controller.render_object_image = flag

    return masks


def target_args(event: Any, target: str, masks_of: MaskSource = event_masks) -> dict[str, list]:
    """ALFRED's ``{mask, bbox, point}`` of ``target`` in ``event``'s instance segmentation.

    RecordingError ``mask_missing`` when there is no segmentation or the target covers no pixel.
    """
    masks = masks_of(event)
    if masks is None:
        raise RecordingError(GenerationReason.MASK_MISSING,
                             "the simulator gives no instance masks (segmentation is off)")
    mask = masks.get(target) if isinstance(masks, Mapping) else None
    if mask is None or not np.any(mask):
        raise RecordingError(GenerationReason.MASK_MISSING, f"{target} is not in the frame before the action")
    return interaction_args(np.asarray(mask, dtype=bool))


class Recorder:
    """Executes low actions on ``controller`` from ``start_event`` and records what ALFRED keeps.

    ``image_dir``: where frames go (``raw_images/``), or None to record without writing frames
    (the ``images`` index is kept either way: ``alfred-gen replay`` can render the frames later).
    ``masks``: where interaction masks come from (default: the events' ``instance_masks``).
    ``restart``: brings the controller back to ``start_event``'s state and returns that event;
    needed only to :meth:`rewind`.
    """

    def __init__(
        self,
        controller: Controller,
        start_event: Any,
        image_dir: Path | None = None,
        jpeg_quality: int = JPEG_QUALITY,
        masks: MaskSource = event_masks,
        restart: Callable[[], Any] | None = None,
    ) -> None:
        self.controller = controller
        self.restart = restart
        self.masks = masks
        self.event = start_event
        self.image_dir = Path(image_dir) if image_dir is not None else None
        self.jpeg_quality = jpeg_quality
        self.low_actions: list[dict[str, Any]] = []
        self.frames_written = 0
        if self.image_dir is not None:
            self.image_dir.mkdir(parents=True, exist_ok=True)
        self._save_frame(start_event)

    @property
    def metadata(self) -> dict[str, Any]:
        """Metadata of the current state (after the last recorded action)."""
        return self.event.metadata

    def _save_frame(self, event: Any) -> None:
        if self.image_dir is None:
            return
        frame = getattr(event, "frame", None)
        if frame is None:
            raise ValueError("frames were asked for, but the simulator renders no RGB frame")
        path = self.image_dir / RAW_IMAGE_NAME.format(self.frames_written)
        path.write_bytes(encode_jpeg(frame, self.jpeg_quality))
        self.frames_written += 1

    def run(self, actions: Iterable[LowAction]) -> Any:
        """Execute ``actions`` in order; returns the last event. RecordingError at the first failure."""
        for action in actions:
            self.step(action)
        return self.event

    def step(self, action: LowAction) -> Any:
        """Execute one action, recording its mask (from the frame before) and the frame after."""
        low_idx = len(self.low_actions)
        try:
            args = target_args(self.event, action.target, self.masks) if action.target else {}
        except RecordingError as error:
            raise RecordingError(error.reason, f"low_idx {low_idx} {action.discrete}: {error}", low_idx) from None
        event = self.controller.step(dict(action.api_action))
        metadata = head_of(event)  # the frame is drawn before visibility, which then counts its pixels
        if not metadata.get("lastActionSuccess", False):
            message = " ".join(str(metadata.get("errorMessage") or "failed").split())
            what = f"{action.discrete} {action.target}".strip()
            raise RecordingError(GenerationReason.ACTION_FAILED, f"low_idx {low_idx} {what}: {message}", low_idx)
        self.low_actions.append(action.entry(args))
        self.event = event
        self._save_frame(event)
        return event

    @property
    def count(self) -> int:
        """How many actions were recorded."""
        return len(self.low_actions)

    def rewind(self, count: int) -> None:
        """Go back to the state after the first ``count`` recorded actions, forgetting the rest.

        The simulator has no undo: the controller is restarted and the kept actions are executed
        again. Their masks and frames were recorded the first time and stay; later frames are
        deleted. RecordingError if an action that succeeded before fails now.
        """
        if self.restart is None:
            raise ValueError("this recorder was made without a restart: it cannot rewind")
        if not 0 <= count <= len(self.low_actions):
            raise ValueError(f"cannot rewind to {count} of {len(self.low_actions)} actions")
        del self.low_actions[count:]
        event = self.restart()
        for low_idx, entry in enumerate(self.low_actions):
            event = self.controller.step(dict(entry["api_action"]))
            if not head_of(event).get("lastActionSuccess", False):
                raise RecordingError(GenerationReason.ACTION_FAILED,
                                     f"low_idx {low_idx}: an action failed when executed again after a rewind",
                                     low_idx)
        self.event = event
        if self.image_dir is not None:
            for stale in range(count + 1, self.frames_written):
                (self.image_dir / RAW_IMAGE_NAME.format(stale)).unlink(missing_ok=True)
            self.frames_written = count + 1

    def images(self) -> list[dict[str, Any]]:
        """The ``images`` index of what was recorded (:func:`images_index`)."""
        return images_index(self.low_actions)
