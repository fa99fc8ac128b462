"""Paint the Line's validator on matchups built in memory (the contract's validate) and on
the Blank filler: any number of Blanks, the deck rules otherwise as written, and sweeps that
build only legal decks or refuse with the reason."""

from __future__ import annotations

import dataclasses

import pytest

from sim.core.problems import InputError
from sim.kit.game import get
from sim.paintline import pool as T
from sim.paintline.decks import load_deck
from sim.paintline.edits import with_counts

from .conftest import FOLDER

GAME = get("paintline")
BASE = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
POOL = BASE.pool
US = FOLDER / "us-red-tide.deck"


def card(name: str) -> int:
    index = POOL.lookup(name)
    assert index is not None, name
    return index


def line_of(path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, raw in enumerate(lines, start=1) if raw.startswith(text))


def test_the_sample_matchup_is_legal():
    assert GAME.validate(BASE) == []


@pytest.mark.rule("PTL-43")
def test_a_fifth_copy_is_named_with_its_deck_file_and_line():
    deck = with_counts(BASE.decks[0], {card("Drive Shot"): 5, card("Stamina"): 19}, "us-5")
    problems = GAME.validate(BASE.with_deck(0, deck))
    assert len(problems) == 1, problems
    p = problems[0]
    assert (p.path, p.line) == (str(US), line_of(US, "4 Drive Shot"))
    assert "'Drive Shot'" in p.message and "5 copies" in p.message and "'us-5'" in p.message


@pytest.mark.rule("PTL-42")
def test_a_deck_of_the_wrong_size_is_named():
    deck = with_counts(BASE.decks[1], {card("Stamina"): 21}, "ussr-61")
    problems = GAME.validate(BASE.with_deck(1, deck))
    assert len(problems) == 1, problems
    assert "lists 61 cards" in problems[0].message and "60" in problems[0].message
    assert problems[0].path == str(FOLDER / "ussr-red-tide.deck")


@pytest.mark.rule("PTL-3", "PTL-44")
def test_a_card_of_the_other_nation_is_named():
    deck = with_counts(BASE.decks[0], {card("Order of Lenin"): 1, card("Stamina"): 19}, "x")
    (p,) = GAME.validate(BASE.with_deck(0, deck))
    assert "'Order of Lenin' is USSR" in p.message and "one nation" in p.message


@pytest.mark.parametrize(("field", "value", "words"), [
    (T.C_NBONUS, -1, "normal_bonus must not be negative"),
    (T.C_COST, 1000, "cost is too large"),
    (T.C_KIND, 9, "kind code 9"),
])
def test_an_illegal_card_value_is_named_with_its_line_in_cards_csv(field, value, words):
    pool = POOL.with_values({(card("Push"), field): value})
    problems = GAME.validate(dataclasses.replace(BASE, pool=pool))
    assert len(problems) == 1, problems
    p = problems[0]
    csv = FOLDER / "cards.csv"
    assert (p.path, p.line) == (str(csv), line_of(csv, "push,"))
    assert "'push'" in p.message and words in p.message


@pytest.mark.rule("PTL-54", "PTL-55", "PTL-56")
@pytest.mark.parametrize(("name", "nation", "words"), [
    ("Push", "US", "basic shots are neutral"),
    ("Liberty Lob", "neutral", "trick shots belong to a nation"),
    ("Fresh Grip", "US", "shot enhancements are neutral"),
])
def test_a_card_of_the_wrong_nation_for_its_kind_is_named(name, nation, words):
    """"Basic Shots are neutral shot cards", "Trick Shots are nation-specific shots" and
    "Like Basic Shots, Shot Enhancements are neutral cards": a row of cards.csv that breaks
    one is named with its line."""
    pool = POOL.with_values({(card(name), T.C_NATION): T.NATIONS.index(nation)})
    problems = GAME.validate(dataclasses.replace(BASE, pool=pool))
    csv = FOLDER / "cards.csv"
    mine = [p for p in problems if words in p.message]
    assert len(mine) == 1, problems
    assert (mine[0].path, mine[0].line) == (str(csv), line_of(csv, POOL.ids[card(name)] + ","))


@pytest.mark.rule("PTL-60")
def test_a_coach_with_no_flag_is_legal_in_any_deck():
    """"Cards that have no flag are neutral cards and can be used in any deck": the rulebook
    gives a coach no nation of its own, so a neutral coach is a legal card in either deck."""
    pool = POOL.with_values({(card("Tycho Brahe"), T.C_NATION): T.NEUTRAL})
    ussr = with_counts(BASE.decks[1], {card("Tycho Brahe"): 1,
                                       card("Oksana Svedlovigoba"): 0}, "ussr-tycho")
    m = dataclasses.replace(BASE, pool=pool).with_deck(1, ussr)
    assert GAME.validate(m) == []


@pytest.mark.rule("PTL-42")
def test_any_number_of_blanks_is_legal_and_counts_toward_60(tmp_path):
    deck = tmp_path / "blanks.deck"
    deck.write_text("1 Tycho Brahe\n20 Stamina\n4 Drive Shot\n35 Blank\n", encoding="utf-8")
    loaded = load_deck(deck, POOL)
    assert dict(loaded.counts)[card("Blank")] == 35
    deck.write_text("1 Tycho Brahe\n20 Stamina\n4 Drive Shot\n36 Blank\n", encoding="utf-8")
    with pytest.raises(InputError, match="deck lists 61 cards"):
        load_deck(deck, POOL)
    deck.write_text("1 Tycho Brahe\n20 Stamina\n5 Drive Shot\n34 Blank\n", encoding="utf-8")
    with pytest.raises(InputError, match="'Drive Shot': 5 copies"):
        load_deck(deck, POOL)


def test_every_ablation_and_sweep_point_is_legal():
    for v in GAME.ablations(BASE):
        assert GAME.validate(v.matchup) == [], v.item
    for seat in (0, 1):
        for value in GAME.sweeps["stamina"].values:
            assert GAME.validate(GAME.sweeps["stamina"].make(BASE, seat, value, {}).matchup) == []
        for value in GAME.sweeps["mix"].values:
            assert GAME.validate(GAME.sweeps["mix"].make(BASE, seat, value, {}).matchup) == []
    for name in ("Drive Shot", "Power Smash", "Stamina"):
        for value in GAME.sweeps["copies"].values:
            v = GAME.sweeps["copies"].make(BASE, 0, value, {"card": name})
            assert GAME.validate(v.matchup) == []


@pytest.mark.parametrize(("sweep", "value", "options", "words"), [
    ("copies", 5, {"card": "Drive Shot"}, "5 copies"),
    ("copies", 2, {"card": "Order of Lenin"}, "one nation"),
    ("copies", 1, {"card": "Blank"}, "blank itself"),
    ("stamina", 60, {}, "no other card is left"),
])
def test_a_sweep_point_that_cannot_stay_legal_is_refused(sweep, value, options, words):
    try:
        v = GAME.sweeps[sweep].make(BASE, 0, value, options)
    except InputError as err:  # a point the sweep cannot build at all
        said = str(err)
    else:  # a point it builds is the validator's to refuse (a sweep never plays it)
        said = " ".join(p.message for p in GAME.validate(v.matchup))
    assert words in said


def test_a_sweep_plays_only_the_points_the_validator_accepts(tmp_path):
    """Five copies of a card break the rulebook's limit of four: that point is listed with
    the validator's reason and never played; the legal point is."""
    from sim.experiments.designs import sweep

    df = sweep(GAME, BASE, 0, "copies", [2, 5], 40, 3, results=tmp_path, run_id="cp",
               options={"card": "Drive Shot"})
    assert df.value.tolist() == [2] and df.n.tolist() == [40]
    (reason,) = df.attrs["skipped"].reason
    assert "5 copies" in reason and "at most 4" in reason


def test_the_copies_sweep_makes_room_from_blanks_then_stamina():
    """More copies than the deck lists: the Blank fillers give way first, then Stamina (never
    the card swept), the deck staying at 60; a sweep of Stamina past what the rest can give
    is refused."""
    us = dict(BASE.decks[0].counts)
    stamina, lob = BASE.pool.lookup("Stamina"), BASE.pool.lookup("Liberty Lob")
    v = GAME.sweeps["copies"].make(BASE, 0, us.get(lob, 0) + 2, {"card": "Liberty Lob"})
    after = dict(v.matchup.decks[0].counts)
    assert after[lob] == us.get(lob, 0) + 2 and after[stamina] == us[stamina] - 2
    assert sum(after.values()) == 60
    with pytest.raises(InputError, match="not enough blanks or stamina"):
        GAME.sweeps["copies"].make(BASE, 0, 61, {"card": "Stamina"})
