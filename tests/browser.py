"""The workbench as a designer sees it: `cardlab serve` started on a free port of 127.0.0.1 over
a copy of a game folder, and Debian's Chromium (/usr/bin/chromium) driven by Playwright."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path(os.environ.get("CARDLAB_CHROMIUM", "/usr/bin/chromium"))
# Chromium on a closed network: no background connections, no sandbox as root, no GPU.
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DECKS = Path(__file__).resolve().parents[1] / "decks"
WAIT = 120_000  # ms: a first page of a game may wait for its engine to load


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(tmp: Path, game: str = "paintline"):
    """A copy of the game's sample folder and `cardlab serve` over it: (url, folder,
    results); the server is stopped afterwards."""
    folder = tmp / game
    shutil.copytree(DECKS / game, folder)
    results = tmp / "results"
    port = free_port()
    log = open(tmp / f"serve-{port}.log", "w")  # closed when the server stops
    proc = subprocess.Popen([sys.executable, "-m", "sim", "serve", "--folder", str(folder),
                             "--port", str(port), "--results", str(results)],
                            stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError((tmp / f"serve-{port}.log").read_text()) from None
                time.sleep(0.2)
        yield url, folder, results
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser, url: str):
    """A new tab (its own browser context, as a second designer's) with the page loaded."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(url)
    page.get_by_role("button", name="Play").wait_for(timeout=WAIT)
    return page


def edit_card(page, card: str, field: str, text: str) -> None:
    """Type a value into a card's cell of the cards table, as a designer does."""
    row = page.locator(".cards-table .tabulator-row").filter(has_text=card)
    row.locator(f'.tabulator-cell[tabulator-field="{field}"]').first.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def edit_copies(page, card: str, copies: int) -> None:
    """Type a count into a card's line of the shown deck."""
    row = page.locator(".deck-table .tabulator-row").filter(has_text=card)
    row.locator('.tabulator-cell[tabulator-field="copies"]').first.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(copies))
    page.keyboard.press("Enter")


def tab(page, name: str) -> None:
    """Open one of the page's tabs (Cards, Decks, Results, Runs, Save)."""
    page.locator(".bk-tab").filter(has_text=re.compile(f"^{name}$")).first.click()


def card_cell(page, card: str, field: str) -> str:
    row = page.locator(".cards-table .tabulator-row").filter(has_text=card)
    return row.locator(f'.tabulator-cell[tabulator-field="{field}"]').first.inner_text()


def set_number(page, css: str, value: int) -> None:
    box = page.locator(f".{css} input").first
    box.fill(str(value))
    box.press("Enter")


def shown(page, css: str) -> str:
    """The text a pane of the page shows (it sits in the pane's shadow root)."""
    return " ".join(page.locator(f".{css} div").all_inner_texts()).strip()


def play(page, matches: int) -> str:
    """Set the match count, press Play and wait for the result: the status line."""
    set_number(page, "matches", matches)
    page.get_by_role("button", name="Play").click()
    return wait_status(page, f"Played {matches:,} matches")


def status(page) -> str:
    return shown(page, "status")


def wait_status(page, text: str, timeout: int = WAIT) -> str:
    """The status line once it says `text`."""
    page.locator(".status").filter(has_text=text).wait_for(timeout=timeout)
    return status(page)


def table_row(page, css: str, first: str) -> dict[str, str]:
    """The cells of a shown table's row whose first cell is `first`, by column."""
    row = page.locator(f".{css} .tabulator-row").filter(has_text=first).first
    row.wait_for(timeout=WAIT)
    cells = row.locator(".tabulator-cell")
    return {cells.nth(i).get_attribute("tabulator-field"): cells.nth(i).inner_text()
            for i in range(cells.count())}


def listing(folder: Path) -> list[str]:
    """Every path under a folder (to see that nothing was written)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() \
        else []
