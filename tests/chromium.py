"""Headless Chromium for the page tests (Debian's ``chromium`` + ``chromium-driver``, driven by Selenium): where the
browser is, a skip marker for machines without it, starting a driver, and waiting on a live page.

Selenium is imported inside the functions: a test module asks for it first with ``pytest.importorskip``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 30.0
"""Seconds a page may take to show what is expected (generous: the machine may be busy)."""

needs_chromium = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
    reason="needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)",
)


def start_chromium(profile: Path, *, width: int = 1400, height: int = 1000, page_load: float = 20) -> Any:
    """A headless Chromium of its own profile folder, at one device pixel per CSS pixel, without scroll bars."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", f"--window-size={width},{height}",
        "--force-device-scale-factor=1", "--hide-scrollbars", f"--user-data-dir={profile}",
    ):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    driver.set_page_load_timeout(page_load)
    return driver


def emulate_screen(driver: Any, width: int, height: int) -> None:
    """Show pages on a screen ``width`` x ``height`` CSS pixels (a phone's is narrower than a headless window can
    be, so the screen is emulated; below 600 px as a phone's, which honours the page's viewport tag)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})  # fmt: skip


def waiting(driver: Any, seconds: float = WAIT) -> Any:
    """A ``WebDriverWait`` for a live page: the pages redraw their parts from a feed, so an element found by one poll
    may be replaced before it is read (``StaleElementReferenceException``); that poll counts as not yet, like an
    element not there yet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.1,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))  # fmt: skip


def shown_text(driver: Any, selector: str) -> str:
    """The text a person sees in the first element ``selector`` matches ('' if none), read in one script, so a
    part the page redraws meanwhile cannot go stale between finding it and reading it."""
    return driver.execute_script("const n = document.querySelector(arguments[0]); return n ? n.innerText : ''",
                                 selector)  # fmt: skip


def shown_texts(driver: Any, selector: str) -> list[str]:
    """The texts of every element ``selector`` matches, in page order, read in one script."""
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(n => n.innerText)",
                                 selector)  # fmt: skip


def columns(driver: Any, selector: str) -> int:
    """How many columns the elements ``selector`` matches stand in: the number of different left edges (a layout
    that drops its second column under the first has one)."""
    return driver.execute_script(
        "return new Set([...document.querySelectorAll(arguments[0])].map(n => Math.round(n.getBoundingClientRect().left))).size",
        selector)  # fmt: skip
