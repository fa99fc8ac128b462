"""Encounter as its rulebook reads (docs/rulebooks/encounter.txt): who goes first
each turn, abilities used as many times as you like, strike cards that stay. Expected values
come from the rule text; both engines play each scenario."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.encounter import actors as Ac
from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import policy as Po
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter.params import policy_vector
from sim.encounter.reference import Table
from sim.kit.game import get

from .test_encounter_decisions import build, card, random_picks, twin
from .test_encounter_scenarios import Both, boost

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")
GREY = 1  # Grey (intelligence 6 + Keen Mind 1) chooses over the Orc (2 + 0)


def matchup(first_b="behind", rules=None, policy="careful"):
    """Orc Warband (seat 0, careful) against Grey Expedition (seat 1, the chooser), Grey's
    `first` as given."""
    m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", policy, None,
                          rules or {}, [])
    grey = policy_vector({"style": policy, "first": first_b})[0]
    return replace(m, policies=(m.policies[0], grey))


def rounds(log):
    """From a whole match's log: each EV_FIRST row as (turn, chooser, first seat), and each
    turn's (turn, active seat, points of seat 0, points of seat 1) at its start."""
    firsts = [(t, s, a) for t, s, ev, _, a, _ in log if ev == S.EV_FIRST]
    # EV_TURN's a holds seat A's points plus seat B's times POINTS_BASE (state.py).
    turns = [(t, s, a % S.POINTS_BASE, a // S.POINTS_BASE) for t, s, ev, _, a, _ in log
             if ev == S.EV_TURN]
    return firsts, turns


# -- 1. Who goes first: "decides which player goes first each turn" -----------------------
@pytest.mark.parametrize("points, first", [((0, 0), 0), ((5, 0), GREY), ((5, 5), 0),
                                           ((0, 4), 0)])
@pytest.mark.rule("ENC-94")
def test_behind_goes_first_only_while_it_has_fewer_points(points, first):
    """first = behind: the chooser puts itself first while it has fewer points than the
    other player, else the other player; no draw from its stream."""
    def kernel(C):
        return int(twin(Po.choose_first)(C, GREY))

    def reference(g):
        return g.player(g.seats[GREY]).goes_first()

    C, g = build(({}, {"first": "behind"}))
    for p in (0, 1):
        C[2][p, S.POINTS] = g.seats[p].points = points[p]
    assert random_picks(C, g, GREY, kernel, reference) == {first}


@pytest.mark.parametrize("how", ["behind", "random"])
@pytest.mark.rule("ENC-32", "ENC-37")
def test_the_chooser_decides_who_goes_first_in_every_round(how):
    """choose_first = each_turn: a round is both players' turns; at its start the chooser
    (Grey, always) names who goes first, that seat takes the round's first turn and the
    other its second. behind: Grey first exactly when it has fewer points at the round's
    start. Both engines write the same log."""
    m = matchup(how)
    t = Table(m)
    kernel = GAME.run_batch(m, 6, 4, n_log=6)
    assert kernel.same_as(GAME.reference_batch(m, 6, 4, n_log=6))
    seen_both_orders = set()
    for i in range(6):
        g = t.play(4, i, 100000)
        n = int(kernel.log_n[i])
        assert [tuple(r) for r in kernel.log[i, :n]] == [tuple(r) for r in g.log[:n]]
        firsts, turns = rounds(g.log)
        assert [t for t, _, _ in firsts] == list(range(0, len(turns), 2))
        assert {s for _, s, _ in firsts} == {GREY}
        for (start, _, first), (t1, seat1, p0, p1) in zip(firsts, turns[::2], strict=True):
            assert t1 == start + 1 and seat1 == first
            if how == "behind":
                assert first == (GREY if p1 < p0 else 0)
            if t1 < len(turns):
                assert turns[t1][1] == 1 - first  # the round's second turn
            seen_both_orders.add(first)
    assert seen_both_orders == {0, 1}


def test_once_alternates_turns_after_one_choice():
    """choose_first = once: one choice at set-up, then the turns alternate."""
    m = matchup("behind", {"choose_first": "once"})
    g = Table(m).play(4, 0, 100000)
    firsts, turns = rounds(g.log)
    assert [(t, s) for t, s, _ in firsts] == [(0, GREY)]
    seats = [s for _, s, _, _ in turns]
    assert seats == [firsts[0][2], 1 - firsts[0][2]] * (len(seats) // 2) + seats[
        len(seats) // 2 * 2:]
    assert all(a != b for a, b in zip(seats, seats[1:], strict=False))


def test_first_or_second_every_round_is_the_alternation_of_once():
    """A chooser that always picks itself (or always the other) alternates the turns under
    each_turn as under once: the matches are the same, only the log names each round's
    choice."""
    for how in ("first", "second"):
        each = GAME.run_batch(matchup(how), 60, 8)
        once = GAME.run_batch(matchup(how, {"choose_first": "once"}), 60, 8)
        assert np.array_equal(each.matches, once.matches)
        assert np.array_equal(each.card_stats, once.card_stats)


@pytest.mark.parametrize("how", ["behind", "random"])
def test_the_encounter_mode_chain_follows_the_choice_of_every_round(how):
    """Encounter mode's Markov chain splits each round by the chooser's pick (behind: by
    the quests completed so far, all worth the same points), and the simulation agrees.
    Each seat's turns draw from its own dice stream, so the order of turns within a round
    only decides who ends the match first: under behind, Grey (behind) takes its turn first
    and may fall before the Orc scores its last quest, so more matches end by a killed PC
    than under once, with the same winners; a fair coin every round gives once's chances."""
    from sim.encounter.exact import encounter_chain, exact_check

    rules = {"encounter_mode": True, "encounter_strengths": [2, 8], "points_to_win": 15,
             "encounter_objective": "DEFEAT", "encounter_arg": 1}
    m = matchup(how, rules)
    each = encounter_chain(m)
    once = encounter_chain(GAME.with_rules(m, {"choose_first": "once"}))
    assert each["win_a"] + each["win_b"] + each["draw"] == pytest.approx(1.0)
    assert each["win_b"] == pytest.approx(once["win_b"])
    if how == "behind":
        assert each["killed"] - once["killed"] > 0.03
    else:
        assert each["killed"] == pytest.approx(once["killed"])
    table = exact_check(m, GAME.run_batch(m, 20000, 2).totals())
    assert (table.z.abs() < 4).all(), table


# -- 2. "You may use each ability as many times as you like (even repeatedly during the same
# step), as long as you meet the requirements for it and pay its costs." ------------------
def costed(b, name_, cost):
    """The card's ability costs `cost` in both engines."""
    c = card(name_)
    T = b.C[0].copy()
    T[c, K.C_ABCOST] = cost
    b.C = (T, *b.C[1:])
    b.g.cards[c].ability_cost = cost


def uses(b, name_):
    """Uses of the card's ability in each engine's log (they must agree)."""
    kernel = sum(1 for r in b.C[8][: b.G[S.LOG_N]] if r[2] == S.EV_MANEUVER
                 and r[3] == card(name_))
    assert kernel == sum(1 for r in b.g.log if r[2] == S.EV_MANEUVER and r[3] == card(name_))
    return kernel


@pytest.mark.parametrize("limit, cost, pool, used, wounds", [
    ("unlimited", 0, 3, 3, 0), ("turn", 0, 3, 1, 2), ("step", 0, 3, 1, 2),
    ("unlimited", 1, 2, 2, 1), ("turn", 1, 2, 1, 2), ("unlimited", 2, 3, 1, 2)])
@pytest.mark.rule("ENC-14", "ENC-25", "ENC-27", "ENC-45")
def test_a_heal_ability_is_used_as_often_as_it_heals_and_is_paid(limit, cost, pool, used,
                                                                  wounds):
    """The Orc's PC has 3 wounds and Medic (support, Heal 1 at the boost step) in play.
    unlimited: careful heals at every use while a wound is left, each use paying the
    ability's cost from the pool; turn and step: one use in the boost step."""
    b = Both(rules={"ability_limit": limit}, pc_wounds=3)
    costed(b, "Medic", cost)
    twin(Ef.enter_npc)(b.C, 0, card("Medic"))
    b.g.enter_npc(b.g.seats[0], b.g.cards[card("Medic")])
    b.pool(0, pool)
    boost(b)
    assert uses(b, "Medic") == used
    assert int(b.P[0, S.PC_WOUNDS]) == b.g.seats[0].pc.wounds == wounds
    assert b.same(0)[3] == pool - used * cost


@pytest.mark.parametrize("limit, used, over", [("unlimited", 2, False), ("turn", 1, True)])
@pytest.mark.rule("ENC-1", "ENC-15", "ENC-27", "ENC-28", "ENC-80")
def test_a_ward_ability_is_used_until_the_kill_is_prevented(limit, used, over):
    """The Orc's PC (strength 6 + Brawny 1, toughness 4 + Thick Hide 1 + Mirror Shield 1,
    5 wounds: 1 left) defends against Dragon (strength 7, intelligence 2 against the PC's
    2: the striker wins the tie; Damage 1, so 2 wounds). Mirror Shield's Ward 1: unlimited,
    used twice (each use prevents one of the two wounds), then no more; the PC lives.
    turn: once, and the PC is killed."""
    b = Both(rules={"ability_limit": limit}, pc_wounds=5)
    shield = card("Mirror Shield")
    twin(Ac.put_in_play)(b.C[0], b.P, 0, S.LOOTS, S.LOOTS_N, shield)
    b.g.seats[0].loot_in_play.append(b.g.cards[shield])
    b.strikers("Dragon")
    assert twin(Ru.stat)(b.C, 0, -1, K.C_STR) == 7
    b.step(lambda C: twin(Tu.combat)(C, 0, -1),
           lambda g: g.fight(g.strikers[0], g.seats[0].pc))
    assert uses(b, "Mirror Shield") == used
    assert b.end() == ((True, (1, K.END_KILLED)) if over else (False, None))


@pytest.mark.parametrize("currency", ["pool", "discard", "twilight"])
@pytest.mark.rule("ENC-27")
def test_paid_abilities_in_whole_matches(currency):
    """Medic, Ward Stone and Mirror Shield cost 1 a use: the engines agree for random and
    careful players under every cost currency, and the costs change the records."""
    pool = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", "random", "careful",
                             {"cost_currency": currency}, []).pool
    table = pool.table.copy()
    for n in ("Medic", "Ward Stone", "Mirror Shield"):
        table[pool.lookup(n), K.C_ABCOST] = 1
    for a, b_ in (("random", "careful"), ("careful", "random")):
        m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", a, b_,
                              {"cost_currency": currency}, [])
        paid = replace(m, pool=pool.with_table(table))
        kernel = GAME.run_batch(paid, 30, 6, 0, 2)
        assert kernel.same_as(GAME.reference_batch(paid, 30, 6, 0, 2)), (currency, a)
        assert not kernel.same_as(GAME.run_batch(m, 30, 6, 0, 2))


# -- 3. "Some strike cards play to characters or your bulwark. Other strike cards are
# actually instant actions, which are discarded after resolving." -----------------------
@pytest.mark.rule("ENC-51", "ENC-64", "ENC-69")
def test_a_strike_card_that_stays_goes_to_its_owners_bulwark_and_raises_later_budgets():
    """Grey answers the Orc's Warband Muster (quest cost 4) with War Camp (strike action,
    cost 2, stays = bulwark, Budget 1): it is not discarded but stays in Grey's bulwark,
    2 of the budget spent; from then on Budget 1 adds 1 to the strike budget of each of
    the Orc's quests (4 + 1 = 5)."""
    b = Both(rules={"quest_mandatory": True})
    b.hand(0, "Warband Muster")
    b.hand(1, "War Camp")
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    hand, pile, _, _ = b.same(1)
    assert hand == [] and pile == []
    camp = card("War Camp")
    assert list(b.P[1, S.BULW: S.BULW + b.P[1, S.BULW_N]]) == [camp]
    assert [c.id for c in b.g.seats[1].bulwark] == [camp]
    assert int(b.G[S.BUDGET]) == b.g.budget == 0  # 4 - 2, the rest lost
    q = card("Warband Muster")
    assert (twin(Tu.strike_budget)(b.C, q, 1, 0)
            == b.g.strike_budget(b.g.cards[q], b.g.seats[1], 0) == 5)  # Grey's budget, no threat


@pytest.mark.parametrize("pair", [("random", "random"), ("careful", "aggressive"),
                                  ("aggressive", "careful"), ("trained", "random")])
@pytest.mark.rule("ENC-69")
def test_the_engines_agree_on_a_deck_with_strike_cards_that_stay(pair):
    """Orc Raiders (Orc Warband with War Camp for Pitfall) against Grey: both engines play
    the same matches, and they differ from Orc Warband's."""
    raiders = GAME.load_matchup(FOLDER, "orc-raiders", "grey-expedition", *pair, {}, [])
    kernel = GAME.run_batch(raiders, 30, 9, 0, 2)
    assert kernel.same_as(GAME.reference_batch(raiders, 30, 9, 0, 2))
    stayed = kernel.card_stats[0, card("War Camp"), S.ST_PLAYED]
    assert stayed > 0
    warband = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", *pair, {}, [])
    assert not np.array_equal(kernel.matches, GAME.run_batch(warband, 30, 9).matches)


@pytest.mark.parametrize("cid, edit, words", [
    ("war-camp", (",Budget,1,,,,bulwark,", ",Budget,1,,,,,"),
     "needs a placement: stays = bulwark"),
    ("war-camp", (",Budget,1,,,,bulwark,", ",Budget,1,,,,on-top,"),
     "unknown placement 'on-top'"),
    ("orc-grunt", ("orc-grunt,Orc Grunt,npc,party,0,,orc,1,,0,0,3,1,,,,,,,,,,,,,,,",
      "orc-grunt,Orc Grunt,npc,party,0,,orc,1,,0,0,3,1,,,,,,,,,,,,,,bulwark,"),
     "only a strike action stays"),
    ("hamstring", (",-1,,,,,,,,,,,,,,,character,", ",-1,,,,,,,,,,Draw,1,,,,character,"),
     "stays on a character carries no keyword"),
    ("hamstring", ("hamstring,Hamstring,action,strike,0,", "hamstring,Hamstring,action,strike,1,"),
     "stays on a character is not unique"),
    ("hamstring", (",-1,,,,,,,,,,,,,,,character,", ",,,,,,,,,,,,,,,,character,"),
     "needs an effect while it stays"),
])
def test_a_strike_card_that_stays_needs_its_placement(tmp_path, cid, edit, words):
    """cards.csv: a strike action with a lasting effect and no placement, an unknown
    placement, a placement on a card that is not a strike action, a card on a character
    with a keyword, unique or without an effect: `cardlab check` and `simulate` name the
    file, the line and the card, and exit 2."""
    import shutil

    from .conftest import cardlab

    dst = tmp_path / "encounter"
    shutil.copytree(FOLDER, dst)
    cards = dst / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert edit[0] in text
    cards.write_text(text.replace(*edit, 1), encoding="utf-8")
    out = cardlab("check", str(dst))
    line = next(i for i, ln in enumerate(cards.read_text().splitlines(), 1)
                if ln.startswith(cid + ","))
    assert out.returncode == 2 and f"cards.csv:{line}: card {cid!r}" in out.stderr, out.stderr
    assert words in out.stderr and "Traceback" not in out.stderr
    sim = cardlab("simulate", "--folder", str(dst), "-n", "10", "--results", str(tmp_path))
    assert sim.returncode == 2 and words in sim.stderr
