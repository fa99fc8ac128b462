"""Payne's prior habits as named parameters, one scenario each from their stated meaning, and
the shipped trained policy: loaded, within its bounds, and better than the scripted ones."""

import tomllib

import numpy as np
import pytest

from sim.core.jit import pure
from sim.core.rng import N_STREAMS, py_next_below, py_stream_key
from sim.core.stats import wilson
from sim.kit.folders import read_folder
from sim.payne import pool as T
from sim.payne.params import FIELDS, KIND, PRIOR, READ_BY, load_policies
from sim.payne.policy import choose_fielding
from sim.solvers.train import tuned_policies

from .payne_both import kernel_seen
from .test_payne_decisions import FOLDER, GAME, E, card, field, list_share, match, policy


def prior(**values):
    vec = policy("prior")
    for key, value in values.items():
        vec[FIELDS[key][0]] = float(value)
    return vec


def attack_window(hand, vec, known_e=None):
    """Seat 0 (offense) attacks first in the round with Quinn Ashby (only E lit, facing
    geometry: it can only attack E) and plays its hand's cards; known_e: what it knows of
    the defender's E (1 lit, 0 unlit, None: only the defense list)."""
    g = match(vec, policy("prior"))
    field(0, card(g, "quinn-ashby"), E, T.OFF, g)
    field(0, card(g, "kurt-osgood"), 7, T.DEF, g)
    field(1, card(g, "edgar-lund"), 10, T.DEF, g)
    field(1, card(g, "avery-quill"), 1, T.OFF, g)
    if known_e is not None:
        g.know[0, T.DEF, 1] = known_e
    g.seats[0].hand = [card(g, c) for c in hand]
    g.play_window(0, 1)
    return g, [g.m.pool.ids[c] for c in g.seats[0].pending[T.OFF]]


def test_shipped_prior_names_every_habit_at_the_value_it_always_played_by():
    text = (FOLDER / "policies.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)["prior"]
    assert set(READ_BY[PRIOR]) <= set(table)
    assert table["value_autowin"] == 10 and table["keep_role"] == 2 and table["play_above"] == 0


@pytest.mark.parametrize("keep,played", [(2, ["dorian-vale"]), (3, [])])
def test_keep_role_holds_a_character_unless_that_many_of_its_role_are_in_hand(keep, played):
    """Dorian Vale (ArrowAdvantage 1) with one other offensive character in hand: two of the
    role in hand, so keep_role 2 plays it as an event and keep_role 3 keeps it to field."""
    _, out = attack_window(["dorian-vale", "avery-quill", "petra-quist"], prior(keep_role=keep))
    assert out == played


@pytest.mark.parametrize("values,played", [({}, ["detention"]),
                                           ({"value_ban": -1.0}, []),
                                           ({"play_above": 1.0}, [])])
def test_a_card_is_played_when_its_value_exceeds_play_above(values, played):
    """Detention (Ban -1 on the opponent) is worth value_ban: 1 > 0 by default; not played
    when a Ban on the opponent is worth -1, nor when the bar is 1 (not exceeded)."""
    _, out = attack_window(["detention"], prior(**values))
    assert out == played


@pytest.mark.parametrize("known_e,bar,played", [(1, 1.0, True), (1, 0.9, False),
                                                (0, 0.9, True), (0, 0.0, True)])
@pytest.mark.parametrize("cid,key", [("snow-day", "autowin_below"), ("laptop", "change_below")])
def test_a_card_for_the_battle_is_spent_only_when_the_battle_is_in_doubt(known_e, bar, played,
                                                                         cid, key):
    """Quinn Ashby attacks E. Known lit E: prior's chance is 1, so a bar of 0.9 keeps Snow
    Day (AutoWin) or the Laptop (lights an arrow) for later; known unlit E: chance 0, at most
    any bar, so the card is played."""
    _, out = attack_window([cid], prior(**{key: bar}), known_e)
    assert (out == [cid]) == played


@pytest.mark.parametrize("hold,played", [(True, False), (False, True)])
def test_hold_reveals_keeps_a_defensive_reveal_with_no_arrow_change_after_it(hold, played):
    g = match(policy("prior"), prior(hold_reveals=hold))
    field(0, card(g, "quinn-ashby"), E, T.OFF, g)
    field(1, card(g, "kurt-osgood"), 7, T.DEF, g)
    field(1, card(g, "pia-langford"), 1, T.OFF, g)
    g.seats[1].hand = [card(g, c) for c in ("delia-frost", "petra-quist", "oscar-bell")]
    g.play_window(1, 3)
    assert (card(g, "delia-frost") in g.seats[1].pending[T.DEF]) == played


@pytest.mark.parametrize("weight,fielded", [(0.0, "opal-wren"), (0.2, "brock-danner")])
def test_field_power_off_keeps_a_strong_power_out_of_the_field(weight, fielded):
    """Opal Wren lights all four arrows, so it scores the defense list's likeliest lit side
    (N); Brock Danner lights only E, lit less often. Opal's power (AutoWin, and Ban 1 on
    itself: 10 - 1 = 9) at 0.2 a unit takes 1.8 off its score, below Brock's."""
    m = GAME.load_matchup(FOLDER, "offense", "defense", "prior", "prior", {}, [])
    table, ids = m.pool.table, m.pool.ids
    hand = np.array([m.pool.lookup(c) for c in ("brock-danner", "opal-wren", "oscar-bell")])
    keys = np.array([py_stream_key(5, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    share = list_share(match(policy("prior"), policy("prior")), 1, T.DEF)
    assert share[0] > share[1]
    views, in_deck = m.arrays()[1], m.arrays()[6]
    nothing_seen = kernel_seen(views, in_deck, np.zeros((2, len(ids)), dtype=np.int64))
    i_off, _ = pure(choose_fielding, next_below=py_next_below)(
        table, 0, prior(field_power_off=weight), hand, 3, in_deck[1], nothing_seen[0], keys,
        np.zeros(N_STREAMS, dtype=np.int64), 0, np.zeros(4))
    assert ids[hand[i_off]] == fielded


@pytest.mark.parametrize("line,bad", [
    ('[r]\nkind = "random"\nkeep_role = 3\n', "read only by kind prior"),
    ('[p]\nkind = "prior"\nkeep_role = 2.5\n', "whole number in 1..5"),
    ('[p]\nkind = "prior"\nhold_reveals = 1\n', "true or false"),
    ('[p]\nkind = "prior"\nautowin_below = 1.5\n', "number in 0..1"),
    ('[p]\nkind = "prior"\nplay_rate = 0.2\n', "read only by kind random"),
])
def test_a_bad_habit_is_named_with_its_line(tmp_path, line, bad):
    from sim.core.problems import InputError

    path = tmp_path / "policies.toml"
    path.write_text("# a policy\n" + line)
    with pytest.raises(InputError) as err:
        load_policies(path)
    (problem,) = err.value.problems
    assert problem.line == 4 and bad in problem.message and problem.path == str(path)


def test_the_trained_policy_ships_as_train_wrote_it_and_is_prior_with_other_habits():
    info = read_folder(FOLDER)
    assert info.trained == "trained" and "trained" in tuned_policies(FOLDER)
    pols = load_policies(FOLDER / "policies.toml")  # every value checked against its bounds
    vec, base = pols["trained"], pols["prior"]
    assert vec[KIND] == PRIOR
    moved = {name for name, (slot, *_) in FIELDS.items() if vec[slot] != base[slot]}
    assert moved and moved <= set(READ_BY[PRIOR])


@pytest.mark.parametrize("against", ["plain", "prior"])
def test_trained_beats_the_scripted_policies_on_seeds_it_never_saw(against):
    """4,000 matches a seat, both seats; the held-out figures are 0.64 against plain and 0.55
    against prior (40,000 matches), so the interval clears 0.5 by a wide margin."""
    wins = []
    for seat in (0, 1):
        pa, pb = ("trained", against) if seat == 0 else (against, "trained")
        m = GAME.load_matchup(FOLDER, "offense", "defense", pa, pb, {}, [])
        wins.append(GAME.run_batch(m, 4000, 2026).wins(seat))
    w = np.concatenate(wins)
    lo, _ = wilson(w.sum(), len(w))
    assert len(w) == 8000 and lo > 0.5
