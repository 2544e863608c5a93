"""PNG charts of answer distributions before and after the entropy filter (the paper's Figures
11-13), drawn with Pillow.

One chart per template: two panels side by side, all questions (before the filter) and the
accepted ones (after), each listing the question strings asked in the most homes, one row each,
with a bar split into the shares of its answers. A colour answer is drawn in its own colour; other
answers take colours from a fixed cycle, the same answer the same colour in both panels. The
number after a question is how many homes ask it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_png
from alfred_gen.sim.palette import FINISHES
from alfred_gen.sim.scene import hash_str

#: Rows per panel.
MAX_ROWS = 24
_CYCLE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (140, 86, 75),
          (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207), (174, 199, 232), (255, 187, 120)]

Groups = Mapping[str, Mapping[str, int]]


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has one bitmap size
        return ImageFont.load_default()


def answer_color(answer: str) -> tuple[int, int, int]:
    """A colour answer's own colour; any other answer one of a fixed cycle, by its stable hash."""
    if answer in FINISHES:
        return FINISHES[answer]
    return _CYCLE[hash_str("answer:" + answer) % len(_CYCLE)]


def top_rows(groups: Groups, rows: int = MAX_ROWS) -> list[tuple[str, dict[str, int]]]:
    """The question strings asked in the most homes (ties alphabetical), with their answer counts."""
    ordered = sorted(groups.items(), key=lambda item: (-sum(item[1].values()), item[0]))
    return [(question, dict(answers)) for question, answers in ordered[:rows]]


def draw_answer_chart(template: str, before: Groups, after: Groups, path: str | Path) -> Path:
    """The two-panel chart of one template (module docstring) written to ``path``."""
    from PIL import Image, ImageDraw

    text_font, title_font = _font(12), _font(15)
    label_width, bar_width, row, top = 330, 260, 18, 58
    panel = label_width + bar_width + 40
    rows = max(1, len(top_rows(before)), len(top_rows(after)))
    legend_answers = sorted({a for groups in (before, after) for q, ans in top_rows(groups) for a in ans})
    legend_rows = (len(legend_answers) + 5) // 6
    height = top + rows * row + 30 + legend_rows * row + 10
    image = Image.new("RGB", (2 * panel + 20, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((10, 8), f"EQA {template}: answer distribution per question, before and after the entropy filter",
              fill=(0, 0, 0), font=title_font)
    for index, (title, groups) in enumerate((("before (all questions)", before), ("after (accepted)", after))):
        x0 = 10 + index * (panel + 10)
        count = len(groups)
        draw.text((x0, 32), f"{title}: {count} question strings, top {min(count, MAX_ROWS)} by homes",
                  fill=(60, 60, 60), font=text_font)
        for r, (question, answers) in enumerate(top_rows(groups)):
            y = top + r * row
            total = sum(answers.values())
            label = question if len(question) <= 52 else question[:49] + "..."
            draw.text((x0, y + 2), f"{label} ({total})", fill=(0, 0, 0), font=text_font)
            left = float(x0 + label_width)
            for answer, n in sorted(answers.items(), key=lambda item: (-item[1], item[0])):
                width = bar_width * n / total
                draw.rectangle([left, y + 2, left + width, y + row - 3], fill=answer_color(answer))
                left += width
            draw.rectangle([x0 + label_width, y + 2, x0 + label_width + bar_width, y + row - 3],
                           outline=(150, 150, 150))
    y = top + rows * row + 14
    for i, answer in enumerate(legend_answers):
        x = 10 + (i % 6) * ((2 * panel) // 6)
        yy = y + (i // 6) * row
        draw.rectangle([x, yy + 3, x + 12, yy + 13], fill=answer_color(answer), outline=(0, 0, 0))
        draw.text((x + 16, yy + 1), answer, fill=(0, 0, 0), font=text_font)
    out = Path(path)
    write_png(image, out)
    return out
