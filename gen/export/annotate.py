"""One annotated video frame, drawn with Pillow: the picture(s), the words, the subgoal timeline.

Layout, top to bottom::

    task description                                 (one line)
    [ RGB ] [ depth ] [ segmentation ]               (panels, each 300 px frame scaled up)
    3/7  Pick up the apple on the counter.           (the running subgoal's instruction, <= 2 lines)
    action 14/40  PickupObject Apple                 (the low action of this frame)
    |== 1 ==|=== 2 ===|#### 3 ####|== 4 ==|...       (subgoals along the frames; the current one
                  ^                                   bright, a marker at this frame)

With masks on, the interaction mask of the frame's action is outlined on the RGB panel (and lightly
tinted) in the frame in which the action was chosen: what the agent saw and clicked.

Depth is shown with a fixed colour ramp from near (yellow) to far (dark blue) over 0-5 m, so the
same distance has the same colour in every frame and every video.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: How much each 300x300 panel is enlarged (nearest neighbour) so the captions stay readable.
SCALE = 2
PAD = 10
TITLE_SIZE = 17
TEXT_SIZE = 20
LINE = 26
TIMELINE_HEIGHT = 26

BACKGROUND = (24, 26, 30)
TEXT = (240, 240, 240)
DIM_TEXT = (170, 176, 186)
ACTION_TEXT = (255, 214, 102)
MASK_OUTLINE = (255, 235, 0)
MASK_TINT = np.array((255, 235, 0), dtype=np.float32)
MARKER = (255, 255, 255)

#: Subgoal colours on the timeline (dim; the current one is drawn brighter with an outline).
SUBGOAL_COLORS = [(78, 121, 167), (242, 142, 43), (89, 161, 79), (225, 87, 89), (118, 183, 178),
                  (237, 201, 72), (176, 122, 161), (156, 117, 95), (186, 176, 172), (255, 157, 167)]

#: Depth ramp: (metres, colour) anchors, linearly interpolated; 0 (no reading) is black.
DEPTH_FAR = 5.0
_DEPTH_RAMP = np.array([(253, 231, 37), (94, 201, 98), (33, 145, 140), (59, 82, 139), (68, 1, 84)],
                       dtype=np.float32)


@dataclass(frozen=True)
class Caption:
    """The words and the timeline position of one frame."""

    task_desc: str
    subgoal: int  #: high_idx of this frame
    subgoal_count: int
    instruction: str
    action: str  #: ``action 14/40  PickupObject Apple``
    spans: Sequence[tuple[int, int]]  #: (first, last) frame of each subgoal, -1 if none
    frame: int
    frames: int


@cache
def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return ImageFont.load_default()


def depth_to_rgb(millimetres: np.ndarray) -> np.ndarray:
    """HxW depth in millimetres -> HxWx3 uint8 on the fixed ramp (near yellow, far dark blue)."""
    metres = np.asarray(millimetres, dtype=np.float32) / 1000.0
    position = np.clip(metres / DEPTH_FAR, 0.0, 1.0) * (len(_DEPTH_RAMP) - 1)
    low = np.floor(position).astype(np.int64).clip(0, len(_DEPTH_RAMP) - 2)
    weight = (position - low)[..., None]
    rgb = _DEPTH_RAMP[low] * (1.0 - weight) + _DEPTH_RAMP[low + 1] * weight
    rgb[metres <= 0] = 0
    return rgb.round().astype(np.uint8)


def mask_outline(mask: np.ndarray) -> np.ndarray:
    """The boundary pixels of a bool mask: on the mask, with a 4-neighbour off it (or at the edge)."""
    inside = np.asarray(mask, dtype=bool)
    padded = np.pad(inside, 1, constant_values=False)
    interior = padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    return inside & ~interior


def outline_mask(rgb: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``rgb`` with ``mask`` tinted lightly and its outline drawn two pixels wide in yellow."""
    out = np.asarray(rgb, dtype=np.float32).copy()
    inside = np.asarray(mask, dtype=bool)
    out[inside] = out[inside] * 0.7 + MASK_TINT * 0.3
    edge = mask_outline(inside)
    thick = edge.copy()  # grow the outline inwards by one pixel so it shows at any scale
    thick[1:, :] |= edge[:-1, :] & inside[1:, :]
    thick[:-1, :] |= edge[1:, :] & inside[:-1, :]
    thick[:, 1:] |= edge[:, :-1] & inside[:, 1:]
    thick[:, :-1] |= edge[:, 1:] & inside[:, :-1]
    out[thick] = MASK_OUTLINE
    return out.round().astype(np.uint8)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Any, width: float, lines: int) -> list[str]:
    """Greedy word wrap into at most ``lines`` lines; the last one ends with an ellipsis if cut."""
    words, out, current = text.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=font) <= width or not current:
            current = trial
            continue
        out.append(current)
        current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        while last and draw.textlength(last + " ...", font=font) > width:
            last = last[:-1]
        out[-1] = last.rstrip() + " ..."
    return out


def frame_size(panels: int) -> tuple[int, int]:
    """(width, height) of a composed frame with ``panels`` panels; both even (yuv420p)."""
    width = panels * 300 * SCALE + (panels - 1) * PAD
    height = PAD + LINE + 300 * SCALE + PAD + 3 * LINE + PAD + TIMELINE_HEIGHT + PAD
    return width + width % 2, height + height % 2


def compose(panels: Sequence[np.ndarray], caption: Caption) -> np.ndarray:
    """The annotated frame (HxWx3 uint8) of 300x300 RGB ``panels`` (left to right) and a caption."""
    width, height = frame_size(len(panels))
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title, text = _font(TITLE_SIZE), _font(TEXT_SIZE)
    y = PAD
    task = _wrap(draw, caption.task_desc, title, width - 2 * PAD, 1)
    draw.text((PAD, y + 3), task[0] if task else "", fill=DIM_TEXT, font=title)
    y += LINE
    for i, panel in enumerate(panels):
        picture = Image.fromarray(np.ascontiguousarray(panel, dtype=np.uint8), "RGB")
        picture = picture.resize((300 * SCALE, 300 * SCALE), Image.Resampling.NEAREST)
        image.paste(picture, (i * (300 * SCALE + PAD), y))
    y += 300 * SCALE + PAD
    number = f"{caption.subgoal + 1}/{caption.subgoal_count}"
    indent = draw.textlength(number + "  ", font=text)
    draw.text((PAD, y), number, fill=_subgoal_color(caption.subgoal, True), font=text)
    for k, line in enumerate(_wrap(draw, caption.instruction, text, width - 2 * PAD - indent, 2)):
        draw.text((PAD + indent, y + k * LINE), line, fill=TEXT, font=text)
    y += 2 * LINE
    draw.text((PAD, y), caption.action, fill=ACTION_TEXT, font=text)
    y += LINE + PAD
    _timeline(draw, caption, PAD, y, width - 2 * PAD)
    return np.asarray(image)


def _subgoal_color(index: int, bright: bool) -> tuple[int, int, int]:
    base = SUBGOAL_COLORS[index % len(SUBGOAL_COLORS)]
    if bright:
        return base
    return tuple(int(c * 0.45 + 24 * 0.55) for c in base)  # type: ignore[return-value]  # three channels; mypy sees tuple[int, ...]


def _timeline(draw: ImageDraw.ImageDraw, caption: Caption, x0: int, y0: int, width: int) -> None:
    """Subgoal segments along the frames, the current one bright and outlined, and a marker."""
    frames = max(1, caption.frames)
    small = _font(13)
    for index, (first, last) in enumerate(caption.spans):
        if first < 0:
            continue
        left = x0 + width * first / frames
        right = x0 + width * (last + 1) / frames
        current = index == caption.subgoal
        draw.rectangle([left, y0, max(left, right - 1), y0 + TIMELINE_HEIGHT],
                       fill=_subgoal_color(index, current), outline=MARKER if current else None,
                       width=2 if current else 0)
        label = str(index + 1)
        if right - left > draw.textlength(label, font=small) + 6:
            draw.text(((left + right) / 2 - draw.textlength(label, font=small) / 2, y0 + 5), label,
                      fill=(255, 255, 255) if current else DIM_TEXT, font=small)
    at = x0 + width * (caption.frame + 0.5) / frames
    draw.polygon([(at - 6, y0 - 8), (at + 6, y0 - 8), (at, y0 - 1)], fill=MARKER)
    draw.line([(at, y0), (at, y0 + TIMELINE_HEIGHT)], fill=MARKER, width=2)
