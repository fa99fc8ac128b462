"""Payne's player decisions, one scenario each from the rule text: the side order of a Reveal's
answer, the order of a card's two effects, and what prior does with what a Reveal told it."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from sim.core.rng import N_STREAMS, py_stream_key
from sim.kit.game import get
from sim.payne import answers as A
from sim.payne import pool as T
from sim.payne.params import CHOICE_FIELDS, load_policies
from sim.payne.reference import Match

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "payne"
GAME = get("payne")
POLICIES = load_policies(FOLDER / "policies.toml")
N, E, S, W = 1, 2, 4, 8


def policy(name, **choices):
    vec = POLICIES[name].copy()
    for key, word in choices.items():
        slot, words = CHOICE_FIELDS[key]
        vec[slot] = words.index(word)
    return vec


def match(p0, p1, seed=1, table=None):
    """Offense (seat 0) against defense (seat 1), a fresh match with these policy vectors."""
    m = GAME.load_matchup(FOLDER, "offense", "defense", "prior", None, {}, [])
    m = dataclasses.replace(m, policies=(p0, p1))
    if table is not None:
        m = dataclasses.replace(m, pool=m.pool.with_table(table))
    g = Match(m, seed, 0)
    g.round = 2
    g.know[:] = -1
    return g


def card(g, cid):
    return g.m.pool.lookup(cid)


def field(seat, c, mask, role, g):
    if role == T.OFF:
        g.seats[seat].off, g.seats[seat].off_mask, g.seats[seat].off_belief = c, mask, mask
    else:
        g.seats[seat].dfn, g.seats[seat].dfn_mask, g.seats[seat].dfn_belief = c, mask, mask


def list_share(g, seat, role):
    """Share of a deck list's characters of a role with each arrow lit (from cards.csv)."""
    table = g.m.pool.table
    total, share = 0, np.zeros(4)
    for c, n in g.m.decks[seat].counts:
        if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == role:
            total += n
            share += n * np.array([(table[c, T.C_ARROWS] >> s) & 1 for s in range(4)])
    return share / total


def answer_of(g):
    return [line for line in g.text if "Reveal:" in line][-1].rsplit(": ", 1)[1]


# --- the side order of a Reveal's answer ------------------------------------------------


def test_guarded_defender_names_the_unlit_side_the_attacker_can_least_use():
    """Pop Quiz: the defender names an unlit side (the first in his order). Guarded, he
    orders his sides by how often the asker's unseen attackers light the arrow meeting them,
    least first: with N and S unlit, facing geometry, the offense list lights S least."""
    g = match(policy("prior"), policy("prior"))
    share = list_share(g, 0, T.OFF)
    assert share[2] < share[0]  # the offense list lights S less often than N
    field(1, card(g, "edgar-lund"), E | W, T.DEF, g)
    g.reveal(0, T.DEF)
    assert answer_of(g) == "S" and g.know[0, T.DEF, 2] == 0


def test_random_answer_order_names_either_unlit_side():
    seen = set()
    for seed in range(30):
        g = match(policy("prior"), policy("prior", reveal_answer="random"), seed)
        field(1, card(g, "edgar-lund"), E | W, T.DEF, g)
        g.reveal(0, T.DEF)
        seen.add(answer_of(g))
    assert seen == {"N", "S"}


def test_guarded_attacker_names_the_lit_arrow_he_is_least_likely_to_attack_with():
    """Delia Frost: the attacker names a lit arrow. Guarded, he orders his arrows by the odds
    that the side each meets is lit on the defender (the odds he attacks by), least first:
    with N and E lit against the defense list (N lit on 69% of its defenders, E on 41%) he
    attacks N, and names E."""
    g = match(policy("prior"), policy("prior"))
    share = list_share(g, 1, T.DEF)
    assert share[1] < share[0]
    field(0, card(g, "eliza-penrose"), N | E, T.OFF, g)
    g.reveal(1, T.OFF)
    assert answer_of(g) == "E" and g.know[1, T.OFF, 1] == 1


# --- the order of a card's two effects ----------------------------------------------------


@pytest.mark.parametrize("order,answer", [("print", "none"), ("reveal_first", "W")])
def test_reveal_answers_the_character_as_it_is_when_it_resolves(order, answer):
    """The truthful answer is the first side in the asked state *now*. A defender with only W
    unlit: lighting one arrow first leaves nothing unlit ("none"); the Reveal first names W."""
    g0 = match(policy("prior"), policy("prior"))
    jasper = card(g0, "jasper-reed")
    table = g0.m.pool.table.copy()
    table[jasper, T.C_EFF2] = T.REVEAL
    g = match(policy("prior", effect_order=order), policy("prior"), table=table)
    field(0, jasper, S | W, T.OFF, g)  # played as an event; any attacker will do
    field(1, card(g, "kurt-osgood"), N | E | S, T.DEF, g)
    g.play_card(0, jasper)
    assert answer_of(g) == answer
    assert g.seats[1].dfn_mask == N | E | S | W  # the light landed on W either way


def test_effect_order_by_policy():
    m = GAME.load_matchup(FOLDER, "offense", "defense", "prior", None, {}, [])
    table = m.pool.table.copy()
    c = m.pool.lookup("jasper-reed")
    table[c, T.C_EFF2] = T.REVEAL
    keys = np.array([py_stream_key(3, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    ctr = np.zeros(N_STREAMS, dtype=np.int64)
    assert A.effect_first(table, policy("prior"), c, keys, ctr, 0) == 1
    assert A.effect_first(table, policy("plain"), c, keys, ctr, 0) == 0
    firsts = {int(A.effect_first(table, policy("random"), c, keys, ctr, 0)) for _ in range(40)}
    assert firsts == {0, 1}
    one = m.pool.lookup("laptop")  # one effect: nothing to order, no coin drawn
    before = ctr.copy()
    assert A.effect_first(table, policy("random"), one, keys, ctr, 0) == 0
    assert np.array_equal(ctr, before)


# --- prior uses what it learns about the opposing attacker --------------------------------


def defender_window(hand, seed=1):
    """Seat 1 (defense, prior) attacks first in the round and plays defensive cards for the
    coming battle: seat 0 will attack with Quinn Ashby (E lit only) against Kurt Osgood (NES.)."""
    g = match(policy("prior"), policy("prior"), seed)
    field(0, card(g, "quinn-ashby"), E, T.OFF, g)
    field(1, card(g, "kurt-osgood"), N | E | S, T.DEF, g)
    g.seats[1].hand = [card(g, c) for c in hand]
    g.play_window(1, 3)  # battle 1 of the round: offensive and defensive cards
    return g


def test_prior_unlights_the_side_facing_the_arrow_a_reveal_named():
    """Delia Frost's Reveal names the attacker's lit arrow, E; the Raincoat then unlights one
    of the defender's arrows, and prior unlights the one that arrow meets, E, so the attack
    (on the only side Quinn Ashby's arrow lights) fails. Without the Reveal the offense list
    lights N most often and prior unlights N: the attack on E succeeds."""
    told = defender_window(["delia-frost", "raincoat", "petra-quist", "oscar-bell"])
    assert told.seats[1].dfn_mask == N | S
    told.battle(0, 1)
    assert told.seats[0].attack_wins == 0 and told.seats[1].score == 1
    blind = defender_window(["raincoat", "petra-quist", "oscar-bell"])
    assert blind.seats[1].dfn_mask == E | S
    blind.battle(0, 1)
    assert blind.seats[0].attack_wins == 1


def test_prior_holds_a_defensive_reveal_it_could_not_use():
    """The attacker names the side attacked; the defender can act on a lit arrow he learns
    only by a defensive arrow change played after it, so without one Delia Frost stays."""
    g = defender_window(["delia-frost", "petra-quist", "oscar-bell", "avery-quill"])
    assert card(g, "delia-frost") in g.seats[1].hand and not g.seats[1].pending[T.DEF]
    g = defender_window(["delia-frost", "fire-drill", "petra-quist", "oscar-bell"])
    assert g.seats[1].pending[T.DEF] == [card(g, "delia-frost"), card(g, "fire-drill")]



def test_policy_choices_are_checked_and_default_to_the_kinds_rule(tmp_path):
    from sim.core.problems import InputError
    from sim.payne.params import complete, defaults

    path = tmp_path / "policies.toml"
    path.write_text('[a]\nkind = "prior"\n\n[b]\nkind = "plain"\nreveal_answer = "sly"\n')
    with pytest.raises(InputError) as err:
        load_policies(path)
    (problem,) = err.value.problems
    assert problem.line == 6 and "reveal_answer" in problem.message and "guarded" in problem.message
    path.write_text('[a]\nkind = "prior"\n')
    assert np.array_equal(load_policies(path)["a"], POLICIES["prior"])
    # a manifest written with the first three slots only: the kind's rule fills the rest
    assert np.array_equal(complete(POLICIES["random"][:3]), defaults(0))
