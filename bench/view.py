"""Benchmark of `alfred-gen view`: build time, and how fast the index opens for 1,000 trajectories.

Side by side in one run, on the same data:

* ``build``: seconds to build the site for DIR (e.g. a 100-trajectory ``alfred-gen sample`` output),
  and for DIR repeated to ``--copies`` x as many trajectories (trial folders hard-linked, so the
  1,000-trajectory dataset costs no disk);
* ``open``: milliseconds until the index of the big site has listed every row (the page's
  load event; thumbnails below the fold are lazy), in headless Chromium, our page against the same
  page with lazy loading turned off (every thumbnail fetched before the load event), as a ratio.

Needs Debian's chromium and chromium-driver and selenium (test extra).

    python bench/view.py DIR [--copies 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.export.view.site import build_site

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers.browser import chromium, console_errors, file_url


def _multiply(source: Path, copies: int, out: Path) -> int:
    """``copies`` x the trajectories of ``source`` under ``out`` (hard links; trial names suffixed)."""
    count = 0
    for traj in sorted(source.rglob("traj_data.json")):
        trial = traj.parent
        for copy in range(copies):
            target = out / trial.parent.name / f"{trial.name}{copy:03d}"
            for path in trial.rglob("*"):
                if path.is_file():
                    link = target / path.relative_to(trial)
                    link.parent.mkdir(parents=True, exist_ok=True)
                    os.link(path, link)
            count += 1
    return count


def _open_ms(driver, index: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        driver.get("about:blank")
        driver.get(file_url(index))
        times.append(driver.execute_script(
            "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime;"))
        assert not console_errors(driver)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-view-") as scratch:
        work = Path(scratch)
        began = time.perf_counter()
        small = build_site(args.directory, work / "small-site", show_progress=False)
        small_seconds = time.perf_counter() - began
        total = _multiply(args.directory, args.copies, work / "big")
        began = time.perf_counter()
        build_site(work / "big", work / "big-site", show_progress=False)
        big_seconds = time.perf_counter() - began
        eager = work / "big-site" / "index-eager.html"
        script = (work / "big-site" / "assets" / "index.js").read_text()
        (work / "big-site" / "assets" / "index-eager.js").write_text(script.replace('loading="lazy" ', ""))
        page = (work / "big-site" / "index.html").read_text()
        eager.write_text(page.replace("assets/index.js", "assets/index-eager.js"))
        with chromium() as driver:
            lazy_ms = _open_ms(driver, work / "big-site" / "index.html", args.repeat)
            eager_ms = _open_ms(driver, eager, args.repeat)
            rows = driver.execute_script("return document.querySelectorAll('#rows tbody tr').length;")
    print(f"build: {len(small.rows)} trajectories in {small_seconds:.1f} s; "
          f"{total} trajectories in {big_seconds:.1f} s")
    print(f"open index of {rows} trajectories: lazy thumbnails {lazy_ms:.0f} ms, eager {eager_ms:.0f} ms "
          f"(median of {args.repeat}); ratio_eager_vs_lazy {eager_ms / lazy_ms:.2f}")


if __name__ == "__main__":
    main()
