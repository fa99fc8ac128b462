"""Encounter scenario tests: a state built by hand, one rule applied (plain-Python twins of
the compiled rules), the outcome the rulebook gives checked with numbers written here."""

from pathlib import Path

import numpy as np
import pytest

from sim.core.jit import pure as twin
from sim.encounter import actors as Ac
from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import engine as E
from sim.encounter import rules as Ru
from sim.encounter import scoring as Sc
from sim.encounter import state as S
from sim.encounter import stats as St
from sim.encounter import turn as Tu
from sim.encounter import wounds as Wo
from sim.encounter.batch import load_matchup, with_rules
from sim.encounter.exact import combat_outcome

from .encounter_both import plain_below, twin_matches

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
BASE = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful")


def ctx(rules=None, policy="careful"):
    """Orc (A, active) against Grey (B): PCs and starting characteristics, nothing else."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", policy)
    if rules:
        m = with_rules(m, rules)
    T, R, M, D, _ = m.arrays()
    P, G, X, KY, OP = E.new_work(T.shape[0])
    twin(E.reset)(P, G, X)
    G[S.QUEST], G[S.C_STRIKER], G[S.C_DEF] = -1, -1, -2
    cs = np.zeros((2, T.shape[0], S.N_CARD_STATS), np.int64)
    L = np.zeros((500, S.LOG_COLS), np.int32)
    C = (T, R, P, G, X, cs, KY, M, L, OP)
    for p in range(2):
        P[p, S.PC], P[p, S.LOC] = D[p, E.D_PC], -1
        for j in (E.D_CH1, E.D_CH2):
            twin(Ru.push)(P, p, S.CHARS, S.CHAR_N, D[p, j])
    return m, C


def card(name):
    return BASE.pool.lookup(name)


def add_party(C, p, name):
    twin(Ef.enter_npc)(C, p, card(name))


def add_striker(C, name):
    G = C[3]
    k = G[S.S_N]
    G[S.SCARD + k] = card(name)
    G[S.S_N] = k + 1
    return k


def test_pc_stats_add_characteristics():
    _, C = ctx()
    # Orc 2/2/6/4 with Brawny (+1 str) and Thick Hide (+1 tough).
    assert twin(Ru.stat)(C, 0, -1, K.C_STR) == 7
    assert twin(Ru.stat)(C, 0, -1, K.C_TOUGH) == 5
    # Grey 3/6/2/3 with Keen Mind (+1 int) and Shadow Step (+1 dex, Sneak 1).
    assert twin(Ru.stat)(C, 1, -1, K.C_INT) == 7
    assert twin(Ru.player_kw)(C, 1, K.SNEAK) == 1


@pytest.mark.parametrize("tie, expect", [("intelligence", -1), ("striker", -1),
                                         ("defender", 1), ("none", 0)])
def test_combat_tie_options(tie, expect):
    _, C = ctx({"combat_tie": tie})
    k = add_striker(C, "Dragon")  # strength 7, intelligence 2: equal to the Orc on both
    assert twin(Ru.combat_winner)(C, k, -1, 0, 0) == expect


def test_intelligence_breaks_a_strength_tie():
    _, C = ctx()
    k = add_striker(C, "Troll")  # strength 6, intelligence 0
    C[3][S.AMBUSH] = 1  # Orc 7 - 1 = 6: equal strength, intelligence 2 > 0
    assert twin(Ru.combat_winner)(C, k, -1, 0, 0) == 1


# The combat rule, written out: the Orc PC defends at strength 7, intelligence 2, against a
# striker of strength 3..9 and intelligence 0, 2 or 5. Higher strength wins; at equal
# strength combat_tie decides: intelligence (higher wins, still equal the striker),
# striker, defender or none. 1 the defender wins, -1 the striker, 0 nobody.
GRID_TIES = {"intelligence": {0: 1, 2: -1, 5: -1}, "striker": {0: -1, 2: -1, 5: -1},
             "defender": {0: 1, 2: 1, 5: 1}, "none": {0: 0, 2: 0, 5: 0}}
GRID_STRENGTHS = {3: 1, 4: 1, 5: 1, 6: 1, 8: -1, 9: -1}


@pytest.mark.parametrize("tie", list(GRID_TIES))
@pytest.mark.rule("ENC-9", "ENC-10", "ENC-81")
def test_combat_grid_matches_the_exact_rule(tie):
    """Every strength and intelligence of the grid, in the kernel's rule, the reference
    engine's and the exact module's, against the table above; the loser takes 1 wound
    plus the winner's Damage."""
    import copy

    from sim.encounter.reference_state import Striker

    from .test_encounter_decisions import build

    for s in range(3, 10):
        for i in (0, 2, 5):
            want = GRID_TIES[tie][i] if s == 7 else GRID_STRENGTHS[s]
            C, g = build(rules={"combat_tie": tie})
            T = C[0].copy()
            T[card("Troll"), K.C_STR], T[card("Troll"), K.C_INT] = s, i
            C[3][S.SCARD], C[3][S.S_N] = card("Troll"), 1
            assert twin(Ru.combat_winner)((T, *C[1:]), 0, -1, 0, 0) == want, (tie, s, i)
            troll = copy.copy(g.cards[card("Troll")])
            troll.stats = {**troll.stats, "str": s, "int": i}
            assert g.combat_result(Striker(troll), g.seats[0].pc, 0, 0) == want
            assert combat_outcome(7, s, 2, i, tie) == (want, 0 if want == 0 else 1)
            # Damage 2 on the defender, 1 on the striker: the loser takes 1 + the winner's.
            assert combat_outcome(7, s, 2, i, tie, 2, 1) == (want, {1: 3, -1: 2, 0: 0}[want])


def test_ward_prevents_wounds_and_a_killed_pc_loses():
    _, C = ctx()
    P, G = C[2], C[3]
    P[0, S.PC_WOUNDS] = 3  # toughness 5: 2 left
    P[0, S.PC_WARD] = 1
    twin(Wo.wound)(C, 0, -1, 2)
    assert P[0, S.PC_WOUNDS] == 4 and G[S.OVER] == 0
    twin(Wo.wound)(C, 0, -1, 1)
    assert G[S.OVER] == 1 and G[S.WINNER] == 1 and G[S.END] == K.END_KILLED


def test_defender_win_wounds_the_striker_and_counts_for_defeat():
    _, C = ctx()
    G = C[3]
    k = add_striker(C, "Goblin")  # strength 4, toughness 1
    twin(Tu.combat)(C, k, -1)
    assert G[S.SSTATE + k] == 2 and G[S.WINS] == 1
    assert twin(Ru.objective_holds)(C, 0, K.O_DEFEAT, 1)
    assert not twin(Ru.objective_holds)(C, 0, K.O_DEFEAT, 2)


def test_objectives_read_now():
    _, C = ctx()
    P, G = C[2], C[3]
    f = twin(Ru.objective_holds)
    assert f(C, 0, K.O_STR, 7) and not f(C, 0, K.O_STR, 8)
    assert f(C, 0, K.O_UNHURT, 0)
    G[S.PCW_TURN] = 2
    assert not f(C, 0, K.O_UNHURT, 1) and f(C, 0, K.O_UNHURT, 2)
    assert not f(C, 0, K.O_PARTY, 1)
    add_party(C, 0, "Orc Grunt")
    assert f(C, 0, K.O_PARTY, 1)
    # Rome Arena: urban, +1 strength to each party character
    twin(St.place_location)(C[0], P, 0, card("Rome Arena"))
    assert f(C, 0, K.O_PLACE, 2) and not f(C, 0, K.O_PLACE, 1)
    assert f(C, 0, K.O_STR, 8)
    G[S.HEX] = 2  # Hex: the active PC's intelligence and dexterity fall
    assert twin(Ru.stat)(C, 0, -1, K.C_INT) == 0


def test_strike_budget_adds_budget_and_removes_sneak():
    _, C = ctx()
    G = C[3]
    G[S.ACTIVE] = 1  # Grey quests (Sneak 1 from Shadow Step)
    # The Orc (seat 0) is the opponent whose budget it is; no twilight threat.
    assert twin(Tu.strike_budget)(C, card("Decode the Signal"), 0, 0) == 1  # 2 - 1
    twin(Ac.put_in_play)(C[0], C[2], 0, S.SUP, S.SUP_N, card("Warlord"))  # Budget 1, Orc
    assert twin(Tu.strike_budget)(C, card("Decode the Signal"), 0, 0) == 2


def test_unique_cards_per_table_by_default_and_per_player():
    # "If there is already a unique card in play, you cannot play another version of the
    # same card": by default no seat may play it while any seat has it in play.
    _, C = ctx()
    add_party(C, 1, "Knight Errant")
    assert not twin(Ru.unique_ok)(C, 1, card("Knight Errant"))
    assert not twin(Ru.unique_ok)(C, 0, card("Knight Errant"))
    _, C = ctx({"unique_scope": "player"})
    add_party(C, 1, "Knight Errant")
    assert not twin(Ru.unique_ok)(C, 1, card("Knight Errant"))
    assert twin(Ru.unique_ok)(C, 0, card("Knight Errant"))


def test_revive_returns_an_npc_of_cost_at_most_n():
    _, C = ctx()
    P = C[2]
    for name in ("Orc Berserker", "Goblin"):  # a party NPC (cost 3) and a strike NPC
        twin(Ru.discard)(P, 0, card(name))
    twin(Ef.resolve)(C, 0, K.REVIVE, 2, -1)
    assert P[0, S.PARTY_N] == 0
    twin(Ef.resolve)(C, 0, K.REVIVE, 3, -1)
    assert P[0, S.PARTY + 0] == card("Orc Berserker") and P[0, S.DISC_N] == 1


def test_cancel_discards_the_strongest_striker_it_may():
    _, C = ctx()
    G = C[3]
    add_striker(C, "Goblin")
    add_striker(C, "Dragon")  # strike cost 4
    add_striker(C, "Troll")  # strike cost 3
    twin(Ef.resolve)(C, 0, K.CANCEL, 3, -1)
    assert list(G[S.SSTATE: S.SSTATE + 3]) == [0, 0, 2]


def test_loot_play_and_unique_loot_goes_under():
    _, C = ctx()
    P = C[2]
    for name in ("Vorpal Blade", "Vorpal Blade", "Iron Sword"):
        twin(Ru.loot_bottom)(P, 0, card(name))
    twin(Sc.reveal_loot)(C, 0, 2)
    assert P[0, S.LOOTS_N] == 1 and P[0, S.LOOTS] == card("Vorpal Blade")
    # The second (unique) Vorpal Blade could not be played: under the loot deck.
    assert P[0, S.LOOT_N] == 2
    assert P[0, S.LOOTD + (P[0, S.LOOT_HEAD] + 1) % S.CAP] == card("Vorpal Blade")
    assert twin(Ru.damage_of)(C, 0, -1) == 1


def test_deck_out_options():
    _, C = ctx({"deck_out": "lose_on_empty_draw"})
    twin(Tu.draw_step)(C)
    assert C[3][S.OVER] == 1 and C[3][S.WINNER] == 1 and C[3][S.END] == K.END_DECKOUT
    _, C = ctx()
    twin(Tu.draw_step)(C)
    assert C[3][S.OVER] == 0


def test_turn_cap_is_a_draw():
    m = with_rules(BASE, {"max_turns": 3})
    from sim.encounter.batch import run_batch
    rec = run_batch(m, 50, 1)
    assert (rec.column("turns") <= 3).all()
    capped = rec.column("end") == K.END_CAP
    assert (rec.column("winner")[capped] == -1).all() and capped.sum() > 40


@pytest.mark.parametrize("points, over, loot_left, pc_wounds", [(26, 1, 2, 1), (25, 0, 1, 0)])
def test_reaching_points_to_win_wins_before_the_reward_and_the_loot(points, over, loot_left,
                                                                    pc_wounds):
    _, C = ctx()
    P, G = C[2], C[3]
    for name in ("Iron Sword", "Great Axe"):
        twin(Ru.loot_bottom)(P, 0, card(name))
    # Survey the Rings: PLACE 3, 4 points, 1 loot, reward Heal 1.
    twin(St.place_location)(C[0], P, 0, card("Rings of Saturn"))
    P[0, S.POINTS], P[0, S.PC_WOUNDS] = points, 1
    G[S.QUEST] = card("Survey the Rings")
    twin(Sc.score_step)(C)
    assert P[0, S.POINTS] == points + 4 and G[S.OVER] == over
    assert P[0, S.LOOT_N] == loot_left and P[0, S.PC_WOUNDS] == pc_wounds


@pytest.mark.parametrize("currency, hand_left, threat", [("discard", 1, 0), ("twilight", 2, 1)])
def test_paid_loot_is_paid_in_the_cost_currency(currency, hand_left, threat):
    _, C = ctx({"play_loot": "paid", "cost_currency": currency})
    P = C[2]
    twin(Ru.loot_bottom)(P, 0, card("Iron Sword"))  # cost 1
    for name in ("Blank", "Squire"):
        twin(Ru.push)(P, 0, S.HAND, S.HAND_N, card(name))
    twin(Sc.reveal_loot)(C, 0, 1)
    assert P[0, S.LOOTS_N] == 1 and P[0, S.HAND_N] == hand_left and P[0, S.THREAT] == threat
    if currency == "discard":  # the Blank goes, the Squire stays
        assert P[0, S.DISC] == card("Blank") and P[0, S.HAND] == card("Squire")


def test_a_pc_deals_its_own_damage():
    _, C = ctx()
    T = C[0].copy()
    orc = C[2][0, S.PC]
    T[orc, K.C_AB1], T[orc, K.C_ARG1] = K.DAMAGE, 2
    assert twin(Ru.damage_of)((T, *C[1:]), 0, -1) == 2


def test_kept_stat_sums_equal_a_recount_after_every_turn():
    """What each seat's cards in play add to its characters' stats, Budget and Sneak is
    kept as cards enter or leave play (stats.py); after every turn of whole matches (plays,
    loot, party NPCs killed, locations replaced) it equals the sums counted again from the
    zones, at two seats and at four."""
    turn, count = twin(Tu.take_turn, below=plain_below), twin(St.count_stats)
    seen = {"turns": 0, "left play": 0}

    def checked_turn(C):
        T, P = C[0], C[2]
        before = [(P[p, S.LOC], P[p, S.PARTY_N]) for p in range(P.shape[0])]
        turn(C)
        for p in range(P.shape[0]):
            if P[p, S.STATS_OK] == 0:
                continue
            kept = P[p].copy()
            count(T, P, p)
            ends = (S.PC_SUM, S.SNEAK_SUM + 1, S.PARTY_SUM, S.PARTY_SUM + 4 * P[p, S.PARTY_N])
            for lo, hi in (ends[:2], ends[2:]):
                assert list(kept[lo:hi]) == list(P[p, lo:hi])
            loc, party = before[p]
            seen["left play"] += (loc >= 0 and P[p, S.LOC] != loc) + (P[p, S.PARTY_N] < party)
        seen["turns"] += 1

    # random also puts gear and strike cards that stay on party NPCs; at four seats the
    # folder's [table] decks fill seats C and D
    for _ in twin_matches(checked_turn, ((2, "careful", {}), (2, "random", {}),
                                         (4, "careful", {}))):
        pass
    assert seen["turns"] > 200 and seen["left play"] > 0
