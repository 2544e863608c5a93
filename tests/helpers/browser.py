"""Headless Chromium for the browser tests (Debian's ``chromium`` and ``chromium-driver``).

Selenium is pointed at the system chromedriver and browser explicitly, so it never tries to
download a driver of its own (Selenium Manager), which cannot work offline. The flags are those
headless Chromium needs as root in a container, with a fresh profile per browser so runs share
nothing. Console messages are collected (``goog:loggingPrefs``) so tests can require none are errors.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Where Debian installs them (``apt-get install chromium chromium-driver``).
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
DRIVER_NAMES = ("chromedriver",)

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--allow-file-access-from-files", "--hide-scrollbars")


def find_browser() -> tuple[str, str] | None:
    """(browser, driver) executables, or None when Chromium or its driver is not installed."""
    browser = next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    driver = next((path for name in DRIVER_NAMES if (path := shutil.which(name))), None)
    return (browser, driver) if browser and driver else None


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium driven by selenium; quits and removes its profile on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_browser()
    if found is None:
        raise RuntimeError("chromium and chromedriver are not installed")
    browser, driver_path = found
    profile = tempfile.mkdtemp(prefix="alfred-gen-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: Any) -> list[str]:
    """Console messages of level SEVERE since the last call (errors, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def file_url(path: Path) -> str:
    return path.resolve().as_uri()
