"""Debian's Chromium, headless, driven by Selenium through chromium-driver, for the page's tests.

Chromium starts without its background connections (this closed network refuses them, and a test must
not depend on any other server), in a fresh profile each time. ``Page`` reads the page's log region
line by line and types into its command field as a person would, one key at a time.
"""
from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[1] / "fixtures" / "axe" / "axe.min.js"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1000,900")


def chromium_or_skip() -> tuple[str, str]:
    """The Chromium and chromium-driver programs; the test is skipped, saying why, when either is missing."""
    pytest.importorskip("selenium", reason="selenium is not installed (pip install '.[test]')")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.skip("Debian's chromium and chromium-driver are not installed "
                    "(apt-get install chromium chromium-driver)")
    return browser, driver


@contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """A headless Chromium with a fresh profile in ``profile``; quit after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, driver = chromium_or_skip()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield session
    finally:
        session.quit()


class Page:
    """The page as a player meets it: the lines of its log, its prompt, its command field."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.read = 0  # log lines already looked at by ``wait_for``

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.read = 0

    def lines(self) -> list[str]:
        return list(self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#log p'), p => p.innerText.split('\\n')).flat();"))

    def prompt(self) -> str:
        return str(self.driver.execute_script("return document.getElementById('prompt').textContent;"))

    def focused_id(self) -> str:
        return str(self.driver.execute_script("return document.activeElement ? document.activeElement.id : '';"))

    def wait_for(self, found: Callable[[str], bool], timeout: float = 20.0) -> str:
        """The first line, after those looked at already, for which ``found`` holds; the lines up to it are
        looked at. Fails with the lines seen when none comes within ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.lines()
            for index in range(self.read, len(lines)):
                if found(lines[index]):
                    self.read = index + 1
                    return lines[index]
            if time.monotonic() > deadline:
                raise AssertionError("not heard in time; the log:\n" + "\n".join(lines[-40:]))
            time.sleep(0.05)

    def wait_prompt(self, *prompts: str, timeout: float = 20.0) -> str:
        return self.wait_for(lambda line: line in prompts, timeout)

    def type(self, keys: str) -> None:
        """Keys typed into the command field, one at a time (Selenium's Keys for Enter and Escape)."""
        from selenium.webdriver.common.by import By
        field = self.driver.find_element(By.ID, "command")
        for key in keys:
            field.send_keys(key)
            time.sleep(0.03)

    def enter(self) -> None:
        from selenium.webdriver.common.keys import Keys
        self.type(Keys.ENTER)

    def escape(self) -> None:
        from selenium.webdriver.common.keys import Keys
        self.type(Keys.ESCAPE)

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's violations on the page as it is now (WCAG 2.x A and AA, and best practices)."""
        self.driver.execute_script(AXE.read_text(encoding="utf-8"))
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)),"
            " e => done(JSON.stringify([{id: 'axe failed', help: String(e), nodes: []}])));")
        return list(json.loads(result))


def violations_text(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"{v['id']}: {v.get('help')} at {[n.get('target') for n in v.get('nodes', [])]}"
                     for v in violations)
