"""Encounter scenarios written from the rule text (RULES-encounter.md): Revive, character
actions, a Wound by the active player, the deck-out loss and unique cards. Each state is
built by hand in both engines (compiled rules as plain-Python twins, and the reference
engine), one step is played in each, and what the rule text says must follow is checked in
both with numbers written here."""

import pytest

from sim.encounter import codes as K
from sim.encounter import effects as Ef
from sim.encounter import rules as Ru
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter import windows as Wi
from sim.encounter.reference_state import GONE, WAITING

from .test_encounter_decisions import build, card, name, twin


class Both:
    """One hand-built state in both engines, with the same edits and the same readings."""

    def __init__(self, tables=({}, {}), rules=None, **kw):
        self.C, self.g = build(tables, rules=rules, **kw)
        self.P, self.G = self.C[2], self.C[3]

    def hand(self, p, *names):
        for n in names:
            twin(Ru.push)(self.P, p, S.HAND, S.HAND_N, card(n))
            self.g.seats[p].hand.append(self.g.cards[card(n)])

    def deck(self, p, *names):
        for n in names:
            twin(Ru.to_bottom)(self.P, p, card(n))
            self.g.seats[p].deck.append(self.g.cards[card(n)])

    def discard(self, p, *names):
        for n in names:
            twin(Ru.discard)(self.P, p, card(n))
            self.g.seats[p].discard.append(self.g.cards[card(n)])

    def party(self, p, *names):
        for n in names:
            twin(Ef.enter_npc)(self.C, p, card(n))
            self.g.enter_npc(self.g.seats[p], self.g.cards[card(n)])

    def pool(self, p, n):
        self.P[p, S.POOL] = self.g.seats[p].pool = n

    def strikers(self, *names, owner=1):
        from sim.encounter.reference_state import Striker
        for n in names:
            k = self.G[S.S_N]
            self.G[S.SCARD + k], self.G[S.SOWNER + k], self.G[S.S_N] = card(n), owner, k + 1
            self.g.strikers.append(Striker(self.g.cards[card(n)], self.g.seats[owner]))

    def step(self, kernel_step, reference_step):
        """Play one step (or rule) in each engine."""
        kernel_step(self.C)
        reference_step(self.g)

    def read(self, p):
        """Both engines' zones of seat p, as names: each engine's (hand, discard, party with
        wounds, pool)."""
        P, seat = self.P, self.g.seats[p]
        kernel = ([name(c) for c in P[p, S.HAND: S.HAND + P[p, S.HAND_N]]],
                  [name(c) for c in P[p, S.DISC: S.DISC + P[p, S.DISC_N]]],
                  [(name(P[p, S.PARTY + k]), int(P[p, S.PWOUND + k]))
                   for k in range(P[p, S.PARTY_N])], int(P[p, S.POOL]))
        reference = ([name(c.id) for c in seat.hand], [name(c.id) for c in seat.discard],
                     [(name(ch.card.id), ch.wounds) for ch in seat.party], seat.pool)
        return kernel, reference

    def same(self, p):
        kernel, reference = self.read(p)
        assert kernel == reference
        return kernel

    def end(self):
        """(over, winner, end reason) in both engines."""
        G, g = self.G, self.g
        kernel = (bool(G[S.OVER]), int(G[S.WINNER]), int(G[S.END]))
        assert kernel == (g.over, g.winner, g.end) or not kernel[0] and not g.over
        return kernel[0], (kernel[1], kernel[2]) if kernel[0] else None

    def striker_states(self):
        kernel = [int(self.G[S.SSTATE + k]) for k in range(self.G[S.S_N])]
        assert kernel == [s.state for s in self.g.strikers]
        return kernel


def boost(b):
    b.step(twin(Tu.boost_step), lambda g: g.boost_step())


# -- Revive ---------------------------------------------------------------------------------
@pytest.mark.rule("ENC-17", "ENC-23", "ENC-45")
def test_revive_returns_the_costliest_party_or_support_npc_it_may():
    """Revive n: a party or support NPC of cost <= n returns from your discard pile. The
    Orc plays Second Chance (Revive 3, cost 1) at its boost step with Orc Grunt (1), Goblin
    (a strike NPC), Bodyguard (3), Dragon (strike, 4) and Knight Errant (3) in its pile:
    costliest, the first of equals, brings Bodyguard back into the party; the instant goes
    to the pile, the pool pays 1. Strike NPCs never return."""
    b = Both()
    b.discard(0, "Orc Grunt", "Goblin", "Bodyguard", "Dragon", "Knight Errant")
    b.hand(0, "Second Chance")
    b.pool(0, 3)
    boost(b)
    hand, pile, party, pool = b.same(0)
    assert hand == [] and party == [("Bodyguard", 0)] and pool == 2
    assert pile == ["Orc Grunt", "Goblin", "Dragon", "Knight Errant", "Second Chance"]


@pytest.mark.rule("ENC-17")
def test_revive_needs_an_npc_it_may_return():
    """Only strike NPCs, an NPC costing more than n, and a unique NPC with a copy in play
    (Knight Errant): Second Chance has nothing to act on, so it stays in hand."""
    b = Both()
    b.party(0, "Knight Errant")
    b.discard(0, "Goblin", "Dragon", "Knight Errant")
    b.hand(0, "Second Chance")
    b.pool(0, 3)
    boost(b)
    hand, pile, party, pool = b.same(0)
    assert hand == ["Second Chance"] and party == [("Knight Errant", 0)] and pool == 3


# -- character actions ----------------------------------------------------------------------
@pytest.mark.rule("ENC-11", "ENC-12", "ENC-16", "ENC-81", "ENC-82")
def test_a_character_action_adds_to_its_bearer_and_leaves_with_it():
    """Plate Armor (+1 toughness, a character action that attaches to a party NPC) played
    by the engine onto Hired Blade (str 3, tough 2), the one party NPC, whatever the random
    gear choice draws. Troll (str 6,
    Damage 1) beats it: 1 wound + Damage 1 = 2, which its toughness 3 survives (it would
    not without the armour). Goblin (str 4) then beats it: 1 more wound kills it, and the
    NPC goes to the discard pile with what it bears, the NPC first."""
    b = Both(({"gear": "random"}, {}))
    b.party(0, "Hired Blade")
    b.hand(0, "Plate Armor")
    b.pool(0, 3)
    b.step(lambda C: twin(Ef.play_from_hand)(C, 0, 0),
           lambda g: g.play_boost_card(g.seats[0], 0))
    a = b.g.seats[0]
    blade = a.party[0]
    assert twin(Ru.stat)(b.C, 0, 0, K.C_TOUGH) == b.g.stat(a, blade, "tough") == 3
    assert twin(Ru.stat)(b.C, 0, -1, K.C_TOUGH) == b.g.stat(a, a.pc, "tough") == 5
    b.strikers("Troll", "Goblin")
    b.step(lambda C: twin(Tu.combat)(C, 0, 0), lambda g: g.fight(g.strikers[0], blade))
    assert b.same(0)[2] == [("Hired Blade", 2)]
    b.step(lambda C: twin(Tu.combat)(C, 1, 0), lambda g: g.fight(g.strikers[1], blade))
    hand, pile, party, _ = b.same(0)
    assert party == [] and pile == ["Hired Blade", "Plate Armor"]
    assert b.P[0, S.PARTY_WOUNDS_ALL] == a.party_wounds == 3


@pytest.mark.rule("ENC-42", "ENC-88")
def test_a_character_action_on_the_pc_counts_for_its_stats_and_objectives():
    """Sharp Blade (+1 strength) goes on the PC (gear pc): the Orc's strength 6 + Brawny 1
    + 1 = 8, so Smash the Gate (STR 8) now holds."""
    b = Both()
    b.hand(0, "Sharp Blade")
    b.pool(0, 3)
    a = b.g.seats[0]
    assert not twin(Ru.objective_holds)(b.C, 0, K.O_STR, 8)
    boost(b)
    assert b.same(0)[3] == 2
    assert twin(Ru.stat)(b.C, 0, -1, K.C_STR) == b.g.stat(a, a.pc, "str") == 8
    assert twin(Ru.objective_holds)(b.C, 0, K.O_STR, 8)
    assert b.g.objective_holds(a, K.O_STR, 8)


# -- a Wound by the active player -------------------------------------------------------------
@pytest.mark.parametrize("wounded, states, b_pile", [
    ("Goblin", [GONE, WAITING, WAITING], ["Goblin"]),
    ("none", [WAITING, WAITING, WAITING], [])])
@pytest.mark.rule("ENC-12", "ENC-15", "ENC-54", "ENC-76")
def test_the_active_players_wound_kills_a_waiting_striker(wounded, states, b_pile):
    """Wound n: n wounds to an opposing character. In the encounter window the Orc (A)
    plays Sniper Shot (Wound 1, cost 1) on Grey's strikers Goblin (tough 1), Troll (tough
    3) and Dragon (tough 3): kill takes the one it kills, the Goblin, which is killed at
    once and goes to Grey's discard pile before it fights. With no pool to pay, no shot."""
    b = Both()
    b.strikers("Goblin", "Troll", "Dragon")
    b.hand(0, "Sniper Shot")
    b.pool(0, 1 if wounded != "none" else 0)
    b.step(lambda C: twin(Wi.window)(C, K.S_ENCOUNTER), lambda g: g.window(K.S_ENCOUNTER))
    assert b.striker_states() == states
    assert b.same(1)[1] == b_pile
    assert b.same(0)[1] == (["Sniper Shot"] if wounded != "none" else [])


def test_the_active_players_wound_on_a_tough_striker_leaves_it_fighting():
    """Wound 1 on Troll (tough 3), the only striker: it takes 1 wound and fights on."""
    b = Both()
    b.strikers("Troll")
    b.hand(0, "Sniper Shot")
    b.pool(0, 1)
    b.step(lambda C: twin(Wi.window)(C, K.S_ENCOUNTER), lambda g: g.window(K.S_ENCOUNTER))
    assert b.striker_states() == [WAITING]
    assert int(b.G[S.SWOUND]) == b.g.strikers[0].wounds == 1


# -- deck-out --------------------------------------------------------------------------------
@pytest.mark.parametrize("deck_out, over", [("lose_on_empty_draw", (1, K.END_DECKOUT)),
                                            ("play_on", None)])
@pytest.mark.rule("ENC-40")
def test_drawing_from_an_empty_deck(deck_out, over):
    """The draw step draws to hand_size 8; the Orc holds 5 and its deck 2. It draws both;
    the third draw meets the empty deck: under lose_on_empty_draw the Orc loses at once
    (Grey wins, end deck_out); under play_on it plays on with 7 cards."""
    b = Both(rules={"deck_out": deck_out})
    b.hand(0, "Squire", "Squire", "Squire", "Squire", "Squire")
    b.deck(0, "Goblin", "Troll")
    b.step(twin(Tu.draw_step), lambda g: g.draw_step())
    assert b.end() == ((True, over) if over else (False, None))
    assert len(b.same(0)[0]) == 7


def test_a_draw_keyword_draws_what_is_left_without_losing():
    """Draw 2 with one card left under lose_on_empty_draw: the card is drawn, no loss."""
    b = Both(rules={"deck_out": "lose_on_empty_draw"})
    b.deck(0, "Goblin")
    b.step(lambda C: twin(Ef.resolve)(C, 0, K.DRAW, 2, card("Insight")),
           lambda g: g.resolve(g.seats[0], K.DRAW, 2, g.cards[card("Insight")]))
    assert b.end() == (False, None)
    assert b.same(0)[0] == ["Goblin"]


def test_a_deck_out_loss_in_whole_matches_goes_to_the_player_who_could_not_draw():
    """Decks of every other draw card (20) under lose_on_empty_draw: matches end by
    deck-out, and the winner is always the other player than the one whose deck ran out
    (the log's deck-out row), in both engines."""
    from dataclasses import replace

    from sim.encounter.batch import run_batch, with_rules
    from sim.encounter.reference import reference_batch

    from .test_encounter_decisions import BASE

    m = with_rules(BASE, {"deck_out": "lose_on_empty_draw"})
    m = replace(m, decks=tuple(replace(d, draw=d.draw[::2]) for d in m.decks))
    k = run_batch(m, 20, 3, 0, 20)
    assert k.same_as(reference_batch(m, 20, 3, 0, 20))
    ends = k.column("end")
    assert (ends == K.END_DECKOUT).sum() >= 10
    for i in range(20):
        if ends[i] != K.END_DECKOUT:
            continue
        rows = k.log[i, : k.log_n[i]]
        out = [int(r[1]) for r in rows if r[2] == S.EV_DECKOUT]
        assert out and k.column("winner")[i] == 1 - out[-1]


# -- unique cards ----------------------------------------------------------------------------
@pytest.mark.parametrize("scope, played", [("player", True), ("table", False)])
@pytest.mark.rule("ENC-48")
def test_a_unique_card_in_play_on_the_other_side(scope, played):
    """Unique cards: one copy in play, per player (unique_scope = player) or at the table.
    Grey has Knight Errant in its party; the Orc holds one. Per player the Orc may play
    it (careful does: a party NPC of strength 4); at the table it may not."""
    b = Both(rules={"unique_scope": scope})
    b.party(1, "Knight Errant")
    b.hand(0, "Knight Errant")
    b.pool(0, 3)
    boost(b)
    hand, _, party, pool = b.same(0)
    assert (party == [("Knight Errant", 0)]) == played and (hand == []) == played
    assert pool == (0 if played else 3)


@pytest.mark.rule("ENC-48")
def test_a_second_copy_of_a_unique_card_stays_in_hand():
    """The Orc holds two Knight Errants and pool 6: it plays one; the other may not enter
    play while the first is there."""
    b = Both()
    b.hand(0, "Knight Errant", "Knight Errant")
    b.pool(0, 6)
    boost(b)
    hand, _, party, pool = b.same(0)
    assert hand == ["Knight Errant"] and party == [("Knight Errant", 0)] and pool == 3


@pytest.mark.rule("ENC-48")
def test_a_unique_striker_is_sent_once():
    """Grey answers Slay the Dragon (quest cost 8) holding two Dragons (unique, strike cost
    4): the budget pays for both, but a Dragon already striking is a copy in play, so the
    second stays in hand."""
    b = Both(({"cost_ratio": 2.0}, {}))
    b.hand(0, "Slay the Dragon")
    b.hand(1, "Dragon", "Dragon")
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    assert b.striker_states() == [WAITING]
    assert b.same(1)[0] == ["Dragon"]


# -- the strike budget at a table of three --------------------------------------------------
@pytest.mark.parametrize("budget, strikers", [("shared", 1), ("each", 2)])
@pytest.mark.rule("ENC-71")
def test_opponents_spend_one_quest_cost_in_turn(budget, strikers):
    """"Each time you play a strike card, subtract its strike cost from the quest cost. The
    total, if any, is the new quest cost available for playing other strike cards." Three
    players: the Orc (A) quests on Arena Champion (quest cost 5, no Budget or Sneak in
    play). The first opponent counterclockwise (seat C) sends a Troll (strike cost 3): 2
    is left, so seat B's Cultist (3) cannot follow under one shared budget; with a whole
    budget each (strike_budget = each), B sends it too."""
    eager = {"cost_ratio": 3.0}
    b = Both(({}, eager, eager), rules={"strike_budget": budget}, players=3)
    b.hand(0, "Arena Champion")
    b.hand(2, "Troll")
    b.hand(1, "Cultist")
    b.step(twin(Tu.quest_step), lambda g: g.quest_step())
    assert len(b.striker_states()) == strikers
    assert b.same(2)[0] == []
    assert b.same(1)[0] == (["Cultist"] if budget == "shared" else [])
    assert int(b.G[S.BUDGET]) == 0 and b.g.budget == 0  # what is left is lost (pool)


# -- who chooses when the chooser is out --------------------------------------------------
@pytest.mark.rule("ENC-32")
def test_a_chooser_who_is_out_passes_the_choice_and_a_tie_takes_a_die():
    """The rulebook names the chooser once ("The player whose PC has the highest total
    intelligence decides which player goes first each turn"; a tie at set-up is a die). At a
    table of three, when the chooser is out, the choice passes for good to the player
    still in of highest intelligence, and a tie between them is broken as at set-up: by a
    die, not by seat order. Seat A (the chooser) is out; B and C are tied at 4. Over many
    rolls each of the two gets the choice; once passed, it stays."""
    from sim.encounter import engine as E

    picks = []
    for _ in range(40):
        b = Both(players=3)
        b.P[0, S.OUT], b.g.seats[0].out = 1, True
        b.P[:3, S.WITS] = 9, 4, 4
        b.g.wits = [9, 4, 4]
        b.G[S.CHOOSER], b.g.chooser = 0, 0
        # a fresh die each time: the stream's counter moved on by the rolls before
        b.G[S.CTR + S.DICE * 3] = b.g.counters[S.DICE * 3] = len(picks)
        kernel = twin(E.round_chooser)(b.C)
        assert kernel == b.g.round_chooser().index
        assert b.G[S.CHOOSER] == b.g.chooser == kernel  # passed for good
        assert twin(E.round_chooser)(b.C) == kernel  # no second roll
        picks.append(kernel)
    assert set(picks) == {1, 2}
    # Untied, the highest intelligence still in takes it without a roll.
    b = Both(players=3)
    b.P[0, S.OUT], b.g.seats[0].out = 1, True
    b.P[:3, S.WITS], b.g.wits = (9, 3, 5), [9, 3, 5]
    before = int(b.G[S.CTR + S.DICE * 3])
    assert twin(E.round_chooser)(b.C) == b.g.round_chooser().index == 2
    assert int(b.G[S.CTR + S.DICE * 3]) == before
