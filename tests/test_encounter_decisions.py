"""Encounter: the choices the rules give a player, each made by its policy parameter. A state
is built by hand in both engines (the compiled rules as plain-Python twins, and the reference
engine) on the same streams; the scripted pick is the one the stated rule names, and a
random pick ranges over exactly the options the rule text allows, the same in both engines."""

from pathlib import Path

import numpy as np
import pytest

from sim.core.jit import pure
from sim.core.rng import py_below, py_stream_key
from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import engine as E
from sim.encounter import policy as Po
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import targets as Ta
from sim.encounter import turn as Tu
from sim.encounter import wounds as Wo
from sim.encounter.batch import load_matchup
from sim.encounter.params import PARAMS, policy_vector
from sim.encounter.reference import Table, policy_words
from sim.encounter.reference_state import Character, Seat, Striker
from sim.encounter.reference_turn import Encounter

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
BASE = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful")
ORC, GREY = BASE.decks[0], BASE.decks[1]
POLICY_STREAM = S.POLICY * 2  # + seat


def _below(key, counter, n):
    return py_below(int(key), int(counter), int(n))


def twin(fn):
    """The plain-Python twin of a compiled rule, its stream draws in plain integers."""
    return pure(fn, below=_below)


def card(name):
    return BASE.pool.lookup(name)


def name(c):
    return BASE.pool.names[c]


def build(tables=({}, {}), party=(), pc_wounds=0, strikers=(), discard=(), rules=None,
          players=2):
    """Orc (seat 0, active) against Grey (seat 1) with their starting characteristics, in
    both engines, on the streams of seed 3, match 0: A's party NPCs as (name, wounds), A's
    PC wounds, B's strikers as (name, state, wounds), A's discard pile. tables: the seats'
    policies.toml tables (style careful unless given; seats past those given careful);
    rules: rule changes. players > 2: the seats after B hold the folder's [table] decks."""
    if players != 2:
        rules = {**(rules or {}), "players": players}
    tables = (*tables, *[{}] * (players - len(tables)))
    vecs = [policy_vector({"style": "careful", **t})[0] for t in tables]
    base = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful",
                        rules=rules) if rules else BASE
    T, R, _, _, _ = base.arrays()
    M = np.stack(vecs)
    P, G, X, KY, OP = E.new_work(T.shape[0], players)
    pure(E.reset)(P, G, X)
    keys = [py_stream_key(3, 0, s) for s in range(S.N_PURPOSES * players)]
    KY[:] = np.array(keys, dtype=np.uint64)
    cs = np.zeros((players, T.shape[0], S.N_CARD_STATS), np.int64)
    L = np.zeros((500, S.LOG_COLS), np.int32)
    C = (T, R, P, G, X, cs, KY, M, L, OP)
    t = Table(base)
    g = Encounter(t.cards, t.rules, [policy_words(v) for v in vecs], 3, 0, 500)
    for p, d in enumerate((ORC, GREY) if players == 2 else base.decks):
        P[p, S.PC], P[p, S.LOC], P[p, S.SENT] = d.pc, -1, -1
        seat = Seat(p, t.cards[d.pc])
        g.seats.append(seat)
        for c in d.chars:
            pure(Ru.push)(P, p, S.CHARS, S.CHAR_N, c)
            seat.characteristics.append(t.cards[c])
    a = g.seats[0]
    P[0, S.PC_WOUNDS] = a.pc.wounds = pc_wounds
    for n, w in party:
        twin(Ef.enter_npc)(C, 0, card(n))
        P[0, S.PWOUND + P[0, S.PARTY_N] - 1] = w
        ch = Character(t.cards[card(n)], False)
        ch.wounds = w
        a.party.append(ch)
    for n, state, w in strikers:
        k = G[S.S_N]
        G[S.SCARD + k], G[S.SSTATE + k], G[S.SWOUND + k], G[S.S_N] = card(n), state, w, k + 1
        G[S.SOWNER + k] = 1
        s = Striker(t.cards[card(n)], g.seats[1])
        s.state, s.wounds = state, w
        g.strikers.append(s)
    for n in discard:
        pure(Ru.discard)(P, 0, card(n))
        a.discard.append(t.cards[card(n)])
    return C, g


def ref_name(x):
    """A reference pick as a card name ("PC" for a PC, "none" for None)."""
    if x is None:
        return "none"
    c = x.card if hasattr(x, "card") else x
    return "PC" if c.kind == K.PC else name(c.id)


def party_name(C, p, who):
    return "PC" if who == -1 else ("none" if who < -1 else name(C[2][p, S.PARTY + who]))


def striker_name(C, k):
    return "none" if k < 0 else name(C[3][S.SCARD + k])


def both(C, g, seat, kernel, reference, counter=0):
    """(kernel pick, reference pick) as names, with the seat's policy stream at `counter`."""
    C[3][S.CTR + POLICY_STREAM + seat] = counter
    g.counters[POLICY_STREAM + seat] = counter
    return kernel(C), reference(g)


def random_picks(C, g, seat, kernel, reference):
    """The set of picks over 64 positions of the seat's policy stream; the engines agree at
    each."""
    out = set()
    for counter in range(64):
        k, r = both(C, g, seat, kernel, reference, counter)
        assert k == r, (counter, k, r)
        out.add(k)
    return out


STRIKERS = (("Goblin", 0, 0), ("Dragon", 0, 0), ("Troll", 0, 0), ("Bandit", 2, 0))


@pytest.mark.rule("ENC-106")
def test_cancel_discards_a_waiting_striker_of_strike_cost_at_most_n():
    """Cancel 3: Goblin (cost 1, str 4) and Troll (3, 6) may go; Dragon costs 4, Bandit is
    gone. strongest: Troll."""
    def kernel(C):
        return striker_name(C, twin(Ta.cancel_target)(C, 0, 3))

    def reference(g):
        return ref_name(g.player(g.seats[0]).cancel(g.cancel_options(3)))

    C, g = build(strikers=STRIKERS)
    assert both(C, g, 0, kernel, reference) == ("Troll", "Troll")
    C, g = build(({"cancel": "random"}, {}), strikers=STRIKERS)
    assert random_picks(C, g, 0, kernel, reference) == {"Goblin", "Troll"}


@pytest.mark.rule("ENC-107")
def test_the_active_players_wound_hits_a_striker_not_gone():
    """Wound 1 against Goblin (tough 1), Dragon (7/3), Troll (6/3) and a gone Bandit: kill
    takes the strongest it kills, Goblin; random any of the three still there."""
    def kernel(C):
        return striker_name(C, twin(Ta.striker_target)(C, 0, 1))

    def reference(g):
        return ref_name(g.player(g.seats[0]).wound_striker(g.striker_options(), 1))

    C, g = build(strikers=STRIKERS)
    assert both(C, g, 0, kernel, reference) == ("Goblin", "Goblin")
    C, g = build(({"wound_striker": "random"}, {}), strikers=STRIKERS)
    assert random_picks(C, g, 0, kernel, reference) == {"Goblin", "Dragon", "Troll"}


PARTY = (("Hired Blade", 0), ("Squire", 0), ("Mercenary", 0))


@pytest.mark.rule("ENC-13", "ENC-107")
def test_the_striking_players_wound_hits_a_party_character():
    """B's Wound on A's party: the Orc PC (tough 4+1), Hired Blade (2), Squire (1),
    Mercenary (1). weakest: the least toughness left, the first of equals: Squire."""
    def kernel(C):
        return party_name(C, 0, twin(Ta.party_target)(C, 1, 0))

    def reference(g):
        return ref_name(g.player(g.seats[1]).wound_party(g.seats[0]))

    C, g = build(party=PARTY)
    assert both(C, g, 1, kernel, reference) == ("Squire", "Squire")
    C, g = build(({}, {"wound_party": "random"}), party=PARTY)
    assert random_picks(C, g, 1, kernel, reference) == {"PC", "Hired Blade", "Squire",
                                                        "Mercenary"}


@pytest.mark.rule("ENC-104")
def test_revive_returns_a_party_or_support_npc_of_cost_at_most_n():
    """Revive 3 from a discard pile of Squire (1), Goblin (a strike NPC), Knight Errant (3),
    Sage (support, 1), Bodyguard (3), Dragon (strike): costliest, the first of equals,
    Knight Errant; random any of the four party and support NPCs."""
    pile = ("Squire", "Goblin", "Knight Errant", "Sage", "Bodyguard", "Dragon")

    def kernel(C):
        i = twin(Ta.revive_target)(C, 0, 3)
        return "none" if i < 0 else name(C[2][0, S.DISC + i])

    def reference(g):
        a = g.seats[0]
        i = g.player(a).revive(g.revive_options(a, 3))
        return "none" if i is None else name(a.discard[i].id)

    C, g = build(discard=pile)
    assert both(C, g, 0, kernel, reference) == ("Knight Errant", "Knight Errant")
    C, g = build(({"revive": "random"}, {}), discard=pile)
    assert random_picks(C, g, 0, kernel, reference) == {"Squire", "Knight Errant", "Sage",
                                                        "Bodyguard"}


@pytest.mark.rule("ENC-108")
def test_ward_goes_on_your_character():
    """Squire defends against Troll: A's Ward goes on one of A's party characters
    (combatant: Squire), B's on one of its strikers not gone (combatant: Troll)."""
    def in_combat(tables):
        C, g = build(tables, party=PARTY, strikers=STRIKERS)
        C[3][S.C_STRIKER], C[3][S.C_DEF] = 2, 1
        g.combat = (g.strikers[2], g.seats[0].party[1])
        return C, g

    def kernel(p):
        def pick(C):
            who = twin(Ta.ward_target)(C, p)
            return party_name(C, 0, who) if p == 0 else striker_name(C, who)
        return pick

    def reference(p):
        return lambda g: ref_name(g.player(g.seats[p]).ward(g.striker_options()))

    C, g = in_combat(({}, {}))
    assert both(C, g, 0, kernel(0), reference(0)) == ("Squire", "Squire")
    assert both(C, g, 1, kernel(1), reference(1)) == ("Troll", "Troll")
    C, g = in_combat(({"ward": "random"}, {"ward": "random"}))
    assert random_picks(C, g, 0, kernel(0), reference(0)) == {"PC", "Hired Blade", "Squire",
                                                              "Mercenary"}
    assert random_picks(C, g, 1, kernel(1), reference(1)) == {"Goblin", "Dragon", "Troll"}


@pytest.mark.parametrize("how, want", [("most_wounded", {"Hired Blade"}), ("pc_first", {"PC"}),
                                       ("random", {"PC", "Hired Blade", "Mercenary"})])
@pytest.mark.rule("ENC-14", "ENC-109")
def test_heal_removes_wounds_from_a_wounded_character(how, want):
    """The PC has 1 wound, Hired Blade 2, Mercenary 1, Squire none: most_wounded heals
    Hired Blade, pc_first the PC, random any wounded one (never the unhurt Squire)."""
    def kernel(C):
        return party_name(C, 0, twin(Ta.heal_target)(C, 0))

    def reference(g):
        return ref_name(g.player(g.seats[0]).heal())

    party = (("Hired Blade", 2), ("Squire", 0), ("Mercenary", 1))
    C, g = build(({"heal": how}, {}), party=party, pc_wounds=1)
    assert random_picks(C, g, 0, kernel, reference) == want
    C, g = build(({"heal": how}, {}), party=(("Squire", 0),))
    assert both(C, g, 0, kernel, reference) == ("none", "none")


@pytest.mark.rule("ENC-16", "ENC-103")
def test_a_character_action_goes_on_a_party_character_and_leaves_with_it():
    """Sharp Blade (+1 strength) played with Squire in the party: pc puts it on the PC
    (Orc 6 + Brawny 1 + 1 = 8); random on the PC or Squire. On Squire it gives Squire 3, and
    when Squire is killed both go to the discard pile, Squire first."""
    blade = card("Sharp Blade")

    def kernel(C):
        return party_name(C, 0, twin(Ta.gear_target)(C, 0, blade))

    def reference(g):
        return ref_name(g.player(g.seats[0]).gear(g.cards[blade]))

    C, g = build(party=(("Squire", 0),))
    assert both(C, g, 0, kernel, reference) == ("PC", "PC")
    C, g = build(({"gear": "random"}, {}), party=(("Squire", 0),))
    assert random_picks(C, g, 0, kernel, reference) == {"PC", "Squire"}
    # Played onto Squire (the random pick at the counter that gives Squire).
    counter = next(t for t in range(64) if both(C, g, 0, kernel, reference, t)[0] == "Squire")
    C[3][S.CTR + POLICY_STREAM] = g.counters[POLICY_STREAM] = counter
    P = C[2]
    pure(Ru.push)(P, 0, S.HAND, S.HAND_N, blade)
    P[0, S.POOL] = 3
    twin(Ef.play_from_hand)(C, 0, 0)
    a = g.seats[0]
    a.hand.append(g.cards[blade])
    a.pool = 3
    g.play_boost_card(a, 0)
    squire = a.party[0]
    assert twin(Ru.stat)(C, 0, 0, K.C_STR) == g.stat(a, squire, "str") == 3
    assert twin(Ru.stat)(C, 0, -1, K.C_STR) == g.stat(a, a.pc, "str") == 7
    twin(Wo.wound)(C, 0, 0, 1)
    g.wound(a, squire, 1)
    assert list(P[0, S.DISC: S.DISC + P[0, S.DISC_N]]) == [card("Squire"), blade]
    assert [c.id for c in a.discard] == [card("Squire"), blade] and a.gear == []


@pytest.mark.parametrize("how, firsts", [("first", {1}), ("second", {0}), ("random", {0, 1})])
@pytest.mark.rule("ENC-94")
def test_the_player_of_higher_intelligence_chooses_who_goes_first(how, firsts):
    """Grey (intelligence 6 + Keen Mind 1) chooses over the Orc (2): first puts Grey's seat
    first, second the Orc's, random either."""
    def kernel(C):
        return int(twin(Po.choose_first)(C, 1))

    def reference(g):
        return g.player(g.seats[1]).goes_first()

    C, g = build(({}, {"first": how}))
    assert random_picks(C, g, 1, kernel, reference) == firsts


@pytest.mark.parametrize("check, sent, want", [
    (True, -1, "Arena Champion"), (True, 0, "Warband Muster"), (True, 1, "Arena Champion"),
    (False, 0, "Arena Champion")])
@pytest.mark.rule("ENC-97")
def test_defeat_quests_wait_for_strikers(check, sent, want):
    """careful holds Arena Champion (STR 7 and DEFEAT 1, 5 points) and Warband Muster
    (PARTY 2, 4 points) with two Orc Grunts: both objectives it can read hold, so it takes
    the most points, unless defeat_check is on and Grey sent no striker against its last
    quest (DEFEAT 1 needs one striker to beat: the count is kept on the questing seat)."""
    C, g = build(({"defeat_check": check}, {}), party=(("Orc Grunt", 0), ("Orc Grunt", 0)))
    P = C[2]
    for n in ("Arena Champion", "Warband Muster"):
        pure(Ru.push)(P, 0, S.HAND, S.HAND_N, card(n))
        g.seats[0].hand.append(g.cards[card(n)])
    P[0, S.SENT] = g.seats[0].sent = sent
    i = twin(Po.quest_pick)(C, 0, False)
    assert name(P[0, S.HAND + i]) == want
    a = g.seats[0]
    assert name(a.hand[g.player(a).quest([0, 1], False)].id) == want


@pytest.mark.parametrize("others, cycle, want", [
    (6, True, "Warband Muster"), (5, True, "none"), (6, False, "none")])
@pytest.mark.rule("ENC-97")
def test_a_full_hand_of_quests_careful_will_not_play_sends_the_cheapest(others, cycle,
                                                                       want):
    """careful (no party: Smash the Gate's STR 8 and Warband Muster's PARTY 2 unmet) plays
    no quest. But its hand is refilled only up to hand_size (8) at the draw step, so with
    a full hand it would never draw again: under cycle_quests it plays its cheapest quest
    (Warband Muster, cost 4, against Smash the Gate's 6), which goes under its deck when it
    fails. A hand with room, or cycle_quests off: none."""
    C, g = build(({"cycle_quests": cycle}, {}))
    P = C[2]
    hand = ["Smash the Gate", "Warband Muster"] + ["Rally Cry", "Shield Up", "Troll"] * 2
    for n in hand[:2 + others]:
        pure(Ru.push)(P, 0, S.HAND, S.HAND_N, card(n))
        g.seats[0].hand.append(g.cards[card(n)])
    i = twin(Po.quest_pick)(C, 0, False)
    assert (name(P[0, S.HAND + i]) if i >= 0 else "none") == want
    a = g.seats[0]
    r = g.player(a).quest([0, 1], False)
    assert (name(a.hand[r].id) if r is not None else "none") == want


@pytest.mark.rule("ENC-64", "ENC-66", "ENC-67", "ENC-70", "ENC-72", "ENC-98")
def test_the_strikers_sent_against_a_quest_are_counted():
    """Grey, holding Goblin, Troll and Dragon, answers Raid the Caravan (cost 4) by cost:
    careful sends Goblin and Troll (1 + 3); two strikers sent."""
    C, g = build()
    P = C[2]
    b = g.seats[1]
    for n in ("Raid the Caravan",):
        pure(Ru.push)(P, 0, S.HAND, S.HAND_N, card(n))
        g.seats[0].hand.append(g.cards[card(n)])
    for n in ("Goblin", "Troll", "Dragon"):
        pure(Ru.push)(P, 1, S.HAND, S.HAND_N, card(n))
        b.hand.append(g.cards[card(n)])
    assert twin(Tu.quest_step)(C) and g.quest_step()
    assert P[0, S.SENT] == g.seats[0].sent == C[3][S.S_N] == len(g.strikers) == 2


@pytest.mark.rule("ENC-96")
def test_heal_value_makes_a_healer_worth_playing():
    """Medic (support NPC, cost 2, Heal 1, no stat): worth 0 to careful without heal_value;
    with heal_value 1 (a strength point per wound healed a turn), 1000 // (2 + 1) = 333."""
    medic = card("Medic")
    for value, want in ((0, 0), (1, 333)):
        C, g = build(({"heal_value": value}, {}))
        assert twin(Po.boost_score)(C, 0, Po.OPT_HAND, medic, 0, 0) == want
        assert g.player(g.seats[0]).card_score(g.cards[medic]) == want


def swap(deck, changes):
    """A deck with every copy of each card of `changes` replaced by its new card."""
    from dataclasses import replace

    table = {card(a): card(b) for a, b in changes.items()}
    return replace(deck, draw=tuple(table.get(c, c) for c in deck.draw))


@pytest.mark.parametrize("policy", ["random", "careful", "aggressive", "careful-random"])
def test_engines_agree_on_every_target(policy):
    """Decks that bring every choice: Sniper Shot (Wound), Second Chance (Revive), Banish
    (Cancel), Ward and Heal cards, and character actions (Sharp Blade, Plate Armor, Lucky
    Charm); careful-random: careful with every target and who goes first at random."""
    from dataclasses import replace

    from sim.encounter.batch import run_batch
    from sim.encounter.reference import reference_batch

    orc = swap(ORC, {"Pitfall": "Sniper Shot", "Battle Fury": "Sharp Blade",
                     "Rome Arena": "Second Chance"})
    grey = swap(GREY, {"Archive": "Plate Armor", "Drone": "Sniper Shot",
                       "Psionic": "Lucky Charm"})
    if policy == "careful-random":
        table = {"style": "careful", **{n: "random" for n, spec in PARAMS.items()
                                        if spec[1] and n != "style"}}
        vec = policy_vector(table)[0]
        m = replace(BASE, policies=(vec, vec), policy_names=(policy, policy))
    else:
        m = load_matchup(FOLDER, "orc-warband", "grey-expedition", policy)
    m = replace(m, decks=(orc, grey))
    k = run_batch(m, 60, 5, 0, 10)
    r = reference_batch(m, 60, 5, 0, 10)
    assert k.same_as(r)
    played = k.card_stats[:, :, S.ST_PLAYED].sum(axis=0)
    for n in ("Sniper Shot", "Sharp Blade", "Plate Armor", "Lucky Charm", "Banish"):
        assert played[card(n)] > 0, n
