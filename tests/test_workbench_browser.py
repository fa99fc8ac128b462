"""The workbench in a real browser: Debian's Chromium driven by Playwright against `cardlab
serve` on 127.0.0.1, each scenario as a designer would play it, its numbers checked against
the command line's."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.browser import (
    CHROMIUM,
    WAIT,
    card_cell,
    chromium,
    edit_card,
    edit_copies,
    listing,
    open_page,
    play,
    served,
    set_number,
    shown,
    tab,
    table_row,
    wait_status,
)
from tests.conftest import cardlab  # the command line in this process: every path given is absolute

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} "
                                "(.ci/run installs Debian's chromium package)")
SHOTS = os.environ.get("CARDLAB_SHOTS")  # also write the screenshots here (docs/)


def shot(page, tmp: Path, name: str) -> None:
    """A screenshot of the view into the test's folder (and CARDLAB_SHOTS when set)."""
    page.screenshot(path=str(tmp / f"{name}.png"), full_page=True)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp / f"{name}.png", Path(SHOTS) / f"workbench-{name}.png")


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def site(tmp_path_factory, browser):
    tmp = tmp_path_factory.mktemp("workbench")
    with served(tmp) as (url, folder, results):
        yield url, folder, results, browser, tmp


def test_one_card_changed_plays_the_same_numbers_as_the_command_line(site):
    url, folder, results, browser, tmp = site
    page = open_page(browser, url)
    shot(page, tmp, "pick-and-cards")
    edit_card(page, "High Lob", "normal_bonus", "5")
    page.locator(".edits").filter(has_text="high-lob.normal_bonus = 5").wait_for(timeout=WAIT)
    start = time.perf_counter()
    page.get_by_role("button", name="Play").click()
    page.locator(".rates-table").wait_for(timeout=WAIT)
    print(f"\nfirst result of a 2,000-match what-if {time.perf_counter() - start:.1f} s after "
          "Play")
    wait_status(page, "Played 2,000 matches")
    shot(page, tmp, "results")
    row = table_row(page, "rates-table", "us-red-tide wins")
    # The command line on the same folder, seed and card value (`simulate --set`).
    out = cardlab("simulate", "--folder", str(folder), "--set", "high-lob.normal_bonus=5", "-n",
              "2000", "--seed", "1", "--results", str(tmp / "cli"))
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if "us-red-tide wins" in x
                and "serving" not in x and "receiving" not in x)
    rate, lo, hi = re.findall(r"\d\.\d{4}", line)[-3:]
    assert (row["variant"], row["variant_lo"], row["variant_hi"]) == (rate, lo, hi)
    base = cardlab("simulate", "--folder", str(folder), "-n", "2000", "--seed", "1", "--results",
               str(tmp / "cli"))
    line = next(x for x in base.stdout.splitlines() if "us-red-tide wins" in x
                and "serving" not in x and "receiving" not in x)
    assert row["baseline"] == re.findall(r"\d\.\d{4}", line)[-3]
    # The paired change is the two runs' difference, with its interval.
    change = table_row(page, "change-table", "deck A wins")
    assert float(change["delta"]) == pytest.approx(float(rate) - float(row["baseline"]),
                                                   abs=2e-4)
    assert float(change["lo"]) <= float(change["delta"]) <= float(change["hi"])
    # The runs are ordinary run folders whose manifests record the edit.
    variant = [json.loads(p.read_text()) for p in results.glob("*-variant-*/manifest.json")]
    assert variant[-1]["workbench"]["cards"] == {"high-lob.normal_bonus": "5"}
    tab(page, "Runs")
    page.get_by_role("button", name="Diff").click()
    diffed = table_row(page, "diff-table", "deck A wins")
    assert float(diffed["run_b"]) == pytest.approx(float(rate), abs=1e-4)
    assert float(diffed["delta"]) == pytest.approx(float(change["delta"]), abs=1e-4)
    shot(page, tmp, "runs")


@pytest.mark.parametrize("card, field, text, message", [
    ("High Lob", "cost", "-1", "cost must not be negative"),
    ("Drive Shot", "normal_bonus", "lots", "must be an integer"),
])
def test_a_bad_value_is_shown_in_place_and_nothing_runs(site, card, field, text, message):
    url, folder, results, browser, tmp = site
    page = open_page(browser, url)
    before = listing(results)
    edit_card(page, card, field, text)
    page.locator(".cards-table .tabulator-row").filter(has_text=card).filter(
        has_text=message).wait_for(timeout=WAIT)
    assert message in card_cell(page, card, "problem")
    assert message in wait_status(page, "Not valid")
    page.get_by_role("button", name="Play").click()
    wait_status(page, "Not valid")
    time.sleep(1)
    assert page.locator(".rates-table").count() == 0
    assert listing(results) == before
    shot(page, tmp, "bad-value")


def test_cancel_stops_a_long_run_and_the_page_stays_usable(site):
    url, folder, results, browser, tmp = site
    page = open_page(browser, url)
    set_number(page, "matches", 400_000)
    page.get_by_role("button", name="Play").click()
    wait_status(page, "playing the baseline")
    page.get_by_role("button", name="Cancel").click()
    said = wait_status(page, "cancelled")
    assert "resume" in said
    runs = [json.loads(p.read_text()) for p in results.glob("*/manifest.json")]
    stopped = [m for m in runs if m["matches"] == 400_000]
    assert stopped and all(m["status"] == "interrupted" for m in stopped)
    assert all(m["matches_done"] < 400_000 for m in stopped)
    play(page, 500)


def test_save_writes_the_diff_and_a_patched_folder_the_validator_accepts(site):
    url, folder, results, browser, tmp = site
    shipped = (folder / "cards.csv").read_text()
    page = open_page(browser, url)
    edit_card(page, "Moon Ball", "cost", "2")
    page.locator(".edits").filter(has_text="moon-ball.cost = 2").wait_for(timeout=WAIT)
    tab(page, "Decks")
    # One Drive Shot fewer is 59 cards: the validator says so; one Push more makes 60 again.
    edit_copies(page, "Drive Shot", 3)
    assert "must be exactly 60" in wait_status(page, "Not valid")
    edit_copies(page, "Push", 4)
    page.locator(".edits").filter(has_text="Push x4").wait_for(timeout=WAIT)
    wait_status(page, "Edits valid")
    shot(page, tmp, "decks")
    tab(page, "Save")
    page.get_by_role("button", name="Save", exact=True).click()
    said = wait_status(page, "Saved to")
    shot(page, tmp, "save")
    saved = Path(said.split("Saved to ", 1)[1].split(";")[0].strip())
    diff = (saved / "cards.diff").read_text()
    assert re.search(r"^-moon-ball,.*$", diff, re.M) and re.search(r"^\+moon-ball,", diff, re.M)
    assert "-4 Drive Shot" in diff and "+3 Drive Shot" in diff and "+4 Push" in diff
    check = cardlab("check", str(saved / "folder"))
    assert check.returncode == 0, check.stderr
    assert (folder / "cards.csv").read_text() == shipped  # never without confirmation
    # With the box ticked, the shipped folder changes only after the red button.
    page.locator(".overwrite input").check()
    page.get_by_role("button", name="Save", exact=True).click()
    wait_status(page, "Press the red button")
    assert (folder / "cards.csv").read_text() == shipped
    page.get_by_role("button", name=re.compile("Yes, overwrite")).click()
    wait_status(page, "overwritten")
    assert (folder / "cards.csv").read_text() != shipped
    page.locator(".edits").filter(has_text="No edits").wait_for(timeout=WAIT)
    (folder / "cards.csv").write_text(shipped)


def test_two_tabs_edit_different_cards_and_each_sees_only_its_own(site):
    url, folder, results, browser, tmp = site
    one, two = open_page(browser, url), open_page(browser, url)
    edit_card(one, "Push", "normal_bonus", "4")
    edit_card(two, "Chop", "normal_penalty", "0")
    one.locator(".edits").filter(has_text="push.normal_bonus = 4").wait_for(timeout=WAIT)
    two.locator(".edits").filter(has_text="chop.normal_penalty = 0").wait_for(timeout=WAIT)
    assert "chop" not in shown(one, "edits")
    assert "push" not in shown(two, "edits")
    assert card_cell(two, "Push", "normal_bonus") != "4"
    for page in (one, two):
        set_number(page, "matches", 300)
        page.get_by_role("button", name="Play").click()
    for page in (one, two):
        wait_status(page, "Played 300 matches")
    recorded = [json.loads(p.read_text())["workbench"]["cards"]
                for p in results.glob("*-variant-*/manifest.json")]
    assert {"push.normal_bonus": "4"} in recorded and {"chop.normal_penalty": "0"} in recorded


def test_two_tabs_and_a_command_line_resume_one_run_one_writes(site):
    url, folder, results, browser, tmp = site
    from sim.runner.run import simulate
    from sim.web.desk import Choice, Desk

    desk = Desk(folder, results)
    m = desk.matchup(folder, Choice(list(desk.info.decks), "greedy", "greedy"))
    n, size = 200_000, 10_000

    def stop(done, _total, _n):
        if done >= 2 * size:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(desk.game, m, n, 5, results, "r1", chunk_size=size, workers=1,
                 backend="serial", progress=stop)
    simulate(desk.game, m, n, 5, tmp / "whole", "r1", chunk_size=50_000, workers=1,
             backend="serial")
    one, two = open_page(browser, url), open_page(browser, url)
    for page in (one, two):
        tab(page, "Runs")
        page.get_by_role("button", name="Look for interrupted runs").click()
        page.locator(".resume-pick select").select_option("r1")
    one.get_by_role("button", name="Resume").click()
    wait_status(one, "resuming r1")
    two.get_by_role("button", name="Resume").click()
    said = wait_status(two, "busy")
    assert "r1" in said
    line = cardlab("simulate", "--resume", "r1", "--results", str(results))
    assert line.returncode == 2 and "busy" in line.stderr and "Traceback" not in line.stderr
    wait_status(one, "Resumed and finished r1", timeout=300_000)
    from analysis.load import load_run

    pd.testing.assert_frame_equal(load_run(results / "r1").matches,
                                  load_run(tmp / "whole" / "r1").matches)
    assert not list((results / "r1" / "chunks").glob(".*tmp*"))


def test_the_verdicts_and_the_field_of_the_variant_are_shown(site):
    url, folder, results, browser, tmp = site
    page = open_page(browser, url)
    play(page, 500)
    set_number(page, "verdict-start", 200)
    set_number(page, "verdict-max", 400)
    page.get_by_role("button", name="Card verdicts of the variant").click()
    wait_status(page, "Verdicts done")
    verdicts = pd.read_parquet(next(results.glob("*-variant-*/verdicts.parquet")))
    shown = table_row(page, "verdict-table", verdicts.label.iloc[0])
    assert shown["verdict"] == verdicts.verdict.iloc[0]
    set_number(page, "field-matches", 100)
    page.get_by_role("button", name="The field: matrix and Nash mix").click()
    wait_status(page, "Field played")
    page.locator(".field-table").wait_for(timeout=WAIT)
    page.locator("img").last.wait_for(timeout=WAIT)
    shot(page, tmp, "verdicts-and-field")


@pytest.mark.parametrize("game", ["payne", "encounter"])
def test_every_game_plays_in_the_workbench(tmp_path, browser, game):
    with served(tmp_path, game) as (url, folder, results):
        page = open_page(browser, url)
        if game == "encounter":  # a table of three: the rule option, then seat C's deck
            assert not page.locator(".bk-input-group").filter(has_text="Deck C").is_visible()
            page.locator(".rule-options .card-button").first.click()
            set_number(page, "rule-players", 3)
            page.locator(".bk-input-group").filter(has_text="Deck C").wait_for(timeout=WAIT)
        play(page, 400)
        assert page.locator(".rates-table .tabulator-row").count() >= 2
        if game == "encounter":
            seats = [json.loads(p.read_text())["decks"] for p in results.glob("*/manifest.json")]
            assert [len(d) for d in seats] == [3, 3]
            table_row(page, "rates-table", "orc-ambush")  # seat C's deck has its own rows
            shot(page, tmp_path, "encounter")
