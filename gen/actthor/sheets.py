"""`alfred-gen actthor sheets`: contact sheets of contrast sets, so a person can check the data at a glance.

One PNG per set: the before-image, the action (and the sentence), then the candidates in their
shuffled order, each labelled with its letter, action and room, the true one framed in green.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from alfred_gen.actthor.contrast import SETS3_FILE, SETS4_FILE, load_sets
from alfred_gen.atomic import write_png
from alfred_gen.errors import ExitCode, UserError

FRAME = 300
MARGIN = 12
ACTION_PANEL = 170
CAPTION = 26
LABEL = 40
BACKGROUND = (250, 250, 248)
TEXT = (20, 20, 24)
TRUE_COLOR = (30, 160, 60)
OTHER_COLOR = (200, 200, 200)


def _image(root: Path, relative: str) -> Image.Image:
    path = root / relative
    try:
        with Image.open(path) as image:
            return image.convert("RGB").resize((FRAME, FRAME))
    except OSError as error:
        raise UserError(f"{path}: cannot read image ({error})", ExitCode.BAD_INPUT) from None


def contact_sheet(root: Path, record: Mapping[str, Any]) -> Image.Image:
    """The sheet of one contrast set (its record in sets4/sets3.jsonl) of the collection at ``root``."""
    candidates = record["candidates"]
    width = MARGIN + FRAME + MARGIN + ACTION_PANEL + len(candidates) * (FRAME + MARGIN)
    height = MARGIN + CAPTION + FRAME + LABEL + MARGIN
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.load_default()
    caption = (f"set {record['id']}  {record['scene']}  {record['object_type']} ({record['trial']})  "
               f"splits: rooms {record['splits']['rooms']}, objects {record['splits']['objects']}")
    draw.text((MARGIN, MARGIN), caption, fill=TEXT, font=font)
    top = MARGIN + CAPTION
    sheet.paste(_image(root, record["before"]), (MARGIN, top))
    draw.text((MARGIN, top + FRAME + 6), "before", fill=TEXT, font=font)
    panel = MARGIN + FRAME + MARGIN
    draw.text((panel + 8, top + FRAME // 2 - 30), f"--> {record['action']} -->", fill=TEXT, font=font)
    for row, chunk in enumerate(_wrap(record["sentence"], 24)):
        draw.text((panel + 8, top + FRAME // 2 + row * 14), chunk, fill=TEXT, font=font)
    for k, candidate in enumerate(candidates):
        x = panel + ACTION_PANEL + k * (FRAME + MARGIN)
        sheet.paste(_image(root, candidate["image"]), (x, top))
        true = k == record["true_index"]
        color = TRUE_COLOR if true else OTHER_COLOR
        for inset in range(4 if true else 1):
            draw.rectangle((x - 1 - inset, top - 1 - inset, x + FRAME + inset, top + FRAME + inset), outline=color)
        label = f"{'ABCD'[k]}: {candidate['action']} ({candidate['scene']})" + ("  TRUE" if true else "")
        draw.text((x, top + FRAME + 6), label, fill=TRUE_COLOR if true else TEXT, font=font)
    return sheet


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def sheets_command(directory: str, out: str, n: int = 10, seed: int = 0, three: bool = False,
                   echo: Callable[..., None] = print) -> int:
    """`alfred-gen actthor sheets`: write the sheets of ``n`` sets drawn by ``seed`` (all when n is 0)."""
    if n < 0:
        raise UserError(f"--n must not be negative, got {n}", ExitCode.USAGE)
    root = Path(directory)
    sets = load_sets(root, SETS3_FILE if three else SETS4_FILE)
    chosen = sets if n == 0 or n >= len(sets) else sorted(random.Random(seed).sample(sets, n), key=lambda s: s["id"])
    for record in chosen:
        write_png(contact_sheet(root, record), Path(out) / f"sheet-{record['id']:05d}.png")
    echo(f"wrote {len(chosen)} contact sheets of {len(sets)} {'three' if three else 'four'}-image sets to {out}")
    return int(ExitCode.OK)
