"""Encounter at a table of three and four, one step at a time, from the rulebook's text
(docs/rulebooks/encounter.txt, Quest Step to Encounter Step): each opponent's own
quest step and strike budget, the order of maneuver windows, who chooses the next striker;
both engines play each hand-built state and their log rows are checked against values
written here."""

import pytest

from sim.encounter import actors as Ac
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter import windows as Wi

from .test_encounter_decisions import card, name, twin
from .test_encounter_scenarios import Both

# Seats at a table of four (load_matchup's [table] decks): 0 Orc Warband, 1 Grey Expedition
# (Grey: Shadow Step, Sneak 1), 2 Orc Ambush, 3 Grey Scholars (Shadow Step); three seats
# drop the last. Orc's PC: strength 6 + Brawny 1, toughness 4 + Thick Hide 1.


def table(players, active, rules=None):
    b = Both(rules=rules, players=players)
    b.G[S.ACTIVE] = b.g.active = active
    return b


def rows(b, *events):
    """The log rows of these events as (seat, event, card name, a, b), the same in both."""
    kernel = [(int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]))
              for r in b.C[8][: b.G[S.LOG_N]] if r[2] in events]
    assert kernel == [tuple(r[1:]) for r in b.g.log if r[2] in events]
    return [(s, ev, name(c) if c >= 0 else "-", x, y) for s, ev, c, x, y in kernel]


def bulwark(b, p, *names):
    for n in names:
        twin(Ac.put_in_play)(b.C[0], b.P, p, S.BULW, S.BULW_N, card(n))
        b.g.seats[p].bulwark.append(b.g.cards[card(n)])


def out(b, p):
    b.P[p, S.OUT] = 1
    b.g.seats[p].out = True


# -- 1. "Starting on the right of the active player, each player gets one quest step to play
# cards against you." "Each time you play a strike card, subtract its strike cost from the
# quest cost. The total, if any, is the new quest cost available for playing other strike
# cards." ------------------------------------------------------------------------------------
QUEST = "Decode the Signal"  # quest cost 2


@pytest.mark.parametrize("players, active, extra_sneak, order, each, shared", [
    # A = Grey (seat 1, Sneak 1); from its right: seat 0 (Budget 1), then 3 (none), then 2
    # (Budget 2). Each: 2 + 1 - 1, 2 + 0 - 1, 2 + 2 - 1. Shared: 2 + 1 - 1 = 2, seat 0
    # spends 1 (its one Goblin), 1 is left for seat 3 (+0), which spends it, and seat 2
    # starts from 0 + its Budget 2.
    (4, 1, (), (0, 3, 2), (2, 1, 3), (2, 1, 2)),
    # Scout and Lookout Post raise A's Sneak to 3. Each: 0, 2 - 3 = -1 floored to 0, then 1.
    # Shared: 0, then 0 + 0, then 0 + 2.
    (4, 1, ("Scout", "Lookout Post"), (0, 3, 2), (0, 0, 1), (0, 0, 2)),
    # Three seats, A = Grey (seat 1): seat 0 (Budget 1) then seat 2 (Budget 2). Shared: 2,
    # seat 0 spends 1, then 1 + 2.
    (3, 1, (), (0, 2), (2, 3), (2, 3)),
    # Three seats, A = Orc Ambush (seat 2, no Sneak): seat 1 (none), then seat 0 (Budget 1).
    # Shared: 2, seat 1 spends 1 (its one Goblin), then 1 + 1.
    (3, 2, (), (1, 0), (2, 3), (2, 2)),
])
@pytest.mark.parametrize("mode", ["shared", "each"])
@pytest.mark.rule("ENC-64", "ENC-65", "ENC-70", "ENC-71", "ENC-72", "ENC-73")
def test_the_opponents_pay_strike_cards_from_the_strike_budget(players, active, extra_sneak,
                                                               order, each, shared, mode):
    """Budget: Warlord (support NPC, Budget 1) with seat 0, Warlord and Spy Ring (bulwark,
    Budget 1 each) with seat 2. The first opponent holds one Goblin (strike cost 1), the
    others two, and careful plays every strike card the budget pays for: min(held, budget)
    Goblins, each row showing the budget left. strike_budget = shared (default): a later
    opponent starts from what those before it left, plus its own Budget; each: every
    opponent a whole budget of its own, what the one before left lost."""
    budgets = shared if mode == "shared" else each
    b = table(players, active, rules={"quest_mandatory": True, "strike_budget": mode})
    b.party(0, "Warlord")
    b.party(2, "Warlord")
    bulwark(b, 2, "Spy Ring")
    b.party(active, *[n for n in extra_sneak if n == "Scout"])
    bulwark(b, active, *[n for n in extra_sneak if n == "Lookout Post"])
    b.hand(active, QUEST)
    held = {p: 1 if n == 0 else 2 for n, p in enumerate(order)}
    for p in order:
        b.hand(p, *["Goblin"] * held[p])
    q = card(QUEST)
    for p, want in zip(order, each, strict=True):  # a whole budget, as "each" opens it
        assert (twin(Tu.strike_budget)(b.C, q, p, 0)
                == b.g.strike_budget(b.g.cards[q], b.g.seats[p], 0) == want)
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    want = []
    for n, (p, budget) in enumerate(zip(order, budgets, strict=True)):
        # The quest's row names the first opponent (its seat), whose budget it gives.
        want.append((active, S.EV_QUEST, QUEST, budget, p) if n == 0
                    else (p, S.EV_BUDGET, QUEST, budget, 0))
        want += [(p, S.EV_STRIKE, "Goblin", 1, budget - k)
                 for k in range(1, min(held[p], budget) + 1)]
    assert rows(b, S.EV_QUEST, S.EV_BUDGET, S.EV_STRIKE) == want
    for p, budget in zip(order, budgets, strict=True):
        assert b.same(p)[0] == ["Goblin"] * (held[p] - min(held[p], budget))


# -- 2. "Beginning with the active player and moving counterclockwise around the table,
# perform any encounter step maneuvers ... After all players have consecutively passed";
# combat: "skipping any player that does not have a character in the current combat". ----
@pytest.mark.parametrize("players, gone, two, want", [
    (4, None, 0, [0, 3, 2, 1, 0]),
    (4, None, 1, [0, 3, 2, 1, 1]),  # after three passes, seat 1 still plays its second
    (4, 3, 1, [0, 2, 1, 1]),  # seat 3 is out: never offered a maneuver
    (3, None, 2, [0, 2, 1, 2]),
])
@pytest.mark.rule("ENC-18", "ENC-20", "ENC-75", "ENC-76")
def test_an_encounter_window_goes_counterclockwise_until_all_pass_in_a_row(players, gone,
                                                                          two, want):
    """A = Orc (seat 0); Troll (toughness 3) waits, sent by seat 1. Every seat holds Sniper
    Shot (Wound 1, encounter step, cost 1, which careful always plays: A on the Troll, an
    opponent on A's side), seat `two` a second, and 2 in its pool. Order of the shots: A,
    then the seats to its right in turn, around again, until every player still in has
    passed in a row."""
    b = table(players, 0)
    b.strikers("Troll")
    if gone is not None:
        out(b, gone)
    for p in range(players):
        b.hand(p, *["Sniper Shot"] * (2 if p == two else 1))
        b.pool(p, 2)
    b.step(lambda C: twin(Wi.window)(C, K.S_ENCOUNTER), lambda g: g.window(K.S_ENCOUNTER))
    shots = rows(b, S.EV_MANEUVER)
    assert [s for s, _, c, _, _ in shots] == want
    assert {c for _, _, c, _, _ in shots} == {"Sniper Shot"}
    if gone is not None:
        assert b.same(gone)[0] == ["Sniper Shot"]


@pytest.mark.parametrize("players, owner", [(3, 1), (4, 2), (4, 3)])
@pytest.mark.rule("ENC-20", "ENC-79", "ENC-80")
def test_a_combat_window_is_the_active_players_and_the_strikers_owners(players, owner):
    """A's PC (Orc, strength 7) against Dragon (strength 7, intelligence 2 = the PC's: the
    striker wins the tie). Every seat holds Berserk (Might 1, cost 0), A two. A plays one
    (8 against 7), the striker's owner answers (8 against 8, the striker's), A its second
    (9 against 8); then both pass. No other opponent, though its Berserk would help the
    striker, is offered the window."""
    b = table(players, 0)
    b.strikers("Dragon", owner=owner)
    for p in range(players):
        b.hand(p, *["Berserk"] * (2 if p == 0 else 1))
    b.step(lambda C: twin(Tu.combat)(C, 0, -1),
           lambda g: g.fight(g.strikers[0], g.seats[0].pc))
    assert [(s, c) for s, _, c, _, _ in rows(b, S.EV_MANEUVER)] == [
        (0, "Berserk"), (owner, "Berserk"), (0, "Berserk")]
    for p in range(1, players):
        assert b.same(p)[0] == ([] if p == owner else ["Berserk"])


# -- 3. "the opponent to the right of the active player chooses one of his or her striking
# NPCs ... Next, the opponent to the right of the one who chose the encounter previously
# chooses one of his or her own striking NPCs" -------------------------------------------
@pytest.mark.parametrize("players, active, sent, want", [
    # seats 3, 2, 1 from A's right; 3 sent two: it chooses again after 1, not after itself.
    (4, 0, {3: ("Goblin", "Bandit"), 2: ("Wolf Pack",), 1: ("Thug",)}, [3, 2, 1, 3]),
    # seat 2 sent none and is passed over.
    (4, 0, {3: ("Goblin",), 1: ("Bandit", "Thug")}, [3, 1, 1]),
    # three seats, A = Orc Ambush (seat 2): seat 1, then seat 0, then around to seat 1.
    (3, 2, {1: ("Goblin", "Bandit"), 0: ("Wolf Pack",)}, [1, 0, 1]),
])
@pytest.mark.rule("ENC-74", "ENC-77", "ENC-83", "ENC-84")
def test_the_next_striker_is_chosen_by_the_opponent_right_of_the_last_chooser(
        players, active, sent, want):
    """A is an Orc (strength 7) and its PC defends against every striker (strength 4 or 5);
    the owner of each striker encountered, in log order."""
    b = table(players, active)
    owner = {}
    for p, names in sent.items():
        b.strikers(*names, owner=p)
        owner.update({n: p for n in names})
    b.step(twin(Tu.encounter_step), lambda g: g.encounter_step())
    fought = [c for _, _, c, _, _ in rows(b, S.EV_COMBAT)]
    assert [owner[c] for c in fought] == want
    assert b.end() == (False, None)
