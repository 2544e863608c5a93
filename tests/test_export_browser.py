"""The site of `alfred-gen view` in a real browser (headless Chromium through selenium): pages load
without console errors from file://, filters change the listed rows and the charts, scrubbing changes
the frame and the highlighted subgoal, the mask overlay follows its toggle. Screenshots are saved
next to the test's files (and into $ALFRED_GEN_SHOTS when set, for people to look at).

Skipped only when Chromium or its driver is not installed; CI installs both (.ci/run)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from alfred_gen.export.view import site
from tests.helpers.browser import chromium, console_errors, file_url, find_browser
from tests.helpers.export_data import small_dataset

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_browser() is None, reason="chromium and chromium-driver are not installed")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dataset = small_dataset(tmp_path_factory.getbasetemp())
    out = tmp_path_factory.mktemp("browser") / "site"
    site.build_site(dataset, out, show_progress=False)
    return out


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def _shot(driver, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    assert driver.save_screenshot(str(path))
    shots = os.environ.get("ALFRED_GEN_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(shots) / f"{name}.png"))
    return path


def _visible_rows(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows tbody tr')).filter(r => !r.hidden)"
        ".map(r => r.cells[1].textContent);")


def _chart(driver, slot: str) -> dict[str, int]:
    return driver.execute_script(
        "const out = {}; document.querySelectorAll('.chart[data-slot=\"' + arguments[0] + '\"] .bar')"
        ".forEach(b => out[b.dataset.value] = Number(b.dataset.count)); return out;", slot)


def test_index_lists_every_trajectory_and_filters_change_the_rows(built: Path, browser, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(file_url(built / "index.html"))
    assert console_errors(browser) == []
    assert browser.find_element("id", "count").text == "3 of 3 trajectories"
    assert sorted(_visible_rows(browser)) == sorted(
        ["look_at_obj_in_light", "pick_and_place_simple", "pick_heat_then_place_in_recep"])
    assert _chart(browser, "task_type") == {"look_at_obj_in_light": 1, "pick_and_place_simple": 1,
                                            "pick_heat_then_place_in_recep": 1}
    loaded = browser.execute_script(
        "return Array.from(document.querySelectorAll('#rows img')).every(i => i.complete && i.naturalWidth === 96);")
    assert loaded  # thumbnails are there (and load from file://)
    _shot(browser, tmp_path, "index")

    Select(browser.find_element("id", "filter-room_type")).select_by_value("kitchen")
    assert sorted(_visible_rows(browser)) == ["pick_and_place_simple", "pick_heat_then_place_in_recep"]
    assert browser.find_element("id", "count").text == "2 of 3 trajectories"
    assert _chart(browser, "room_type") == {"kitchen": 2}  # the charts count what is listed
    Select(browser.find_element("id", "filter-task_type")).select_by_value("look_at_obj_in_light")
    assert _visible_rows(browser) == []
    browser.find_element("id", "filter-reset").click()
    assert len(_visible_rows(browser)) == 3
    search = browser.find_element("id", "filter-text")
    search.send_keys("lamp")
    assert _visible_rows(browser) == ["look_at_obj_in_light"]
    assert "text=lamp" in browser.current_url  # the filter survives going to a page and back
    assert console_errors(browser) == []


def test_trajectory_page_scrubbing_changes_frame_and_subgoal(built: Path, browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    page = next((built / "t").glob("pick_heat_then_place_in_recep-*.html"))
    browser.get(file_url(page))
    assert console_errors(browser) == []
    body = browser.find_element("tag name", "body")
    frame_img = browser.find_element("id", "frame-rgb")
    assert body.get_attribute("data-frame") == "0"
    first_src = frame_img.get_attribute("src")
    current = browser.find_elements("css selector", "#subgoals li.current")
    assert [li.get_attribute("data-subgoal") for li in current] == ["0"]
    assert browser.execute_script("return document.getElementById('frame-rgb').naturalWidth") == 300
    _shot(browser, tmp_path, "trajectory")

    scrub = browser.find_element("id", "scrub")
    scrub.send_keys(Keys.END)  # the scrubber to the last frame
    last = int(scrub.get_attribute("max"))
    assert body.get_attribute("data-frame") == str(last) and last > 10
    assert frame_img.get_attribute("src") != first_src
    highlighted = browser.find_elements("css selector", "#subgoals li.current, #timeline .seg.current")
    assert {el.get_attribute("data-subgoal") for el in highlighted} == {body.get_attribute("data-subgoal")} != {"0"}
    scrub.send_keys(Keys.LEFT)
    assert body.get_attribute("data-frame") == str(last - 1)

    # The mask overlay: on the frame of the first interaction, and gone when toggled off.
    frame = browser.execute_script(
        "const T = window.ALFRED_VIEW_TRAJ; return T.frames.findIndex(f => f[3] && T.lows[f[1]] && T.lows[f[1]].mask);")
    browser.execute_script("document.getElementById('scrub').value = arguments[0];"
                           "document.getElementById('scrub').dispatchEvent(new Event('input'));", frame)
    canvas = browser.find_element("id", "mask-canvas")
    assert canvas.get_attribute("data-mask") not in (None, "")
    painted = "return Array.from(document.getElementById('mask-canvas').getContext('2d')" \
              ".getImageData(0, 0, 300, 300).data).filter((v, i) => i % 4 === 3 && v > 0).length;"
    assert browser.execute_script(painted) > 10
    _shot(browser, tmp_path, "trajectory-mask")
    browser.find_element("id", "masks-toggle").click()
    assert canvas.get_attribute("data-mask") == "" and browser.execute_script(painted) == 0

    # Play advances frames by itself; the map marker follows the agent.
    browser.execute_script("document.getElementById('scrub').value = 0;"
                           "document.getElementById('scrub').dispatchEvent(new Event('input'));")
    marker_before = browser.find_element("id", "agent").get_attribute("transform")
    browser.find_element("id", "play").click()
    deadline = time.monotonic() + 10
    while body.get_attribute("data-frame") in ("0", "1", "2") and time.monotonic() < deadline:
        time.sleep(0.1)
    browser.find_element("id", "play").click()  # pause
    assert int(body.get_attribute("data-frame")) > 2
    assert browser.find_element("id", "agent").get_attribute("transform") != marker_before
    assert console_errors(browser) == []
