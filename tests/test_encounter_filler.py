"""Encounter: the Blank as a neutral filler. The rule: a Blank met on top of the draw deck or
the loot deck is set aside out of the game and the next card is drawn (or revealed) in its
place; the shuffle keeps the Blanks, so every other card keeps its position. Scenarios from
that rule text in both engines, and calibrations of ablation against it."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.core.jit import pure as twin
from sim.core.stats import Z95, paired_difference
from sim.encounter import codes as K
from sim.encounter import engine as E
from sim.encounter import rules as Ru
from sim.encounter import scoring as Sc
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter.pool import Pool
from sim.encounter.reference import Table
from sim.encounter.reference_state import Seat
from sim.encounter.reference_turn import Encounter
from sim.kit.game import get

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")
BASE = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful", None, {}, [])
HEX = ("Evil Eye", "Mind Fog")  # Grey's four Hex strike actions


def card(name):
    return BASE.pool.lookup(name)


BLANK = card("Blank")


def swapped(m, seat, names, filler=None):
    """The matchup with every copy of the named cards in the seat's decks swapped for the
    filler (the Blank unless named)."""
    out = card("Blank") if filler is None else filler
    gone = {m.pool.lookup(n) for n in names}
    deck = m.decks[seat]
    deck = replace(deck, draw=tuple(out if c in gone else c for c in deck.draw),
                   loot=tuple(out if c in gone else c for c in deck.loot))
    decks = list(m.decks)
    decks[seat] = deck
    return replace(m, decks=tuple(decks))


# -- scenarios: the compiled rules (as plain-Python twins) and the reference engine ----------

def kernel_seat(deck, loot=(), rules=None):
    """Seat 0 of a kernel state holding these draw and loot decks (top first)."""
    m = GAME.with_rules(BASE, rules or {})
    T, R, M, _, _ = m.arrays()
    P, G, X, KY, OP = E.new_work(T.shape[0])
    twin(E.reset)(P, G, X)
    cs = np.zeros((2, T.shape[0], S.N_CARD_STATS), np.int64)
    L = np.zeros((500, S.LOG_COLS), np.int32)
    C = (T, R, P, G, X, cs, KY, M, L, OP)
    P[0, S.PC], P[1, S.PC], P[0, S.LOC], P[1, S.LOC] = card("Orc"), card("Grey"), -1, -1
    for c in deck:
        twin(Ru.to_bottom)(P, 0, c)
    for c in loot:
        twin(Ru.loot_bottom)(P, 0, c)
    return C


def reference_seat(deck, loot=(), rules=None):
    """(match, seat 0) of the reference engine holding these decks (top first)."""
    t = Table(GAME.with_rules(BASE, rules or {}))
    g = Encounter(t.cards, t.rules, t.styles, 1, 0, 500)
    g.seats = [Seat(0, t.cards[card("Orc")]), Seat(1, t.cards[card("Grey")])]
    g.seats[0].deck = [t.cards[c] for c in deck]
    g.seats[0].loot = [t.cards[c] for c in loot]
    return g, g.seats[0]


# Draw deck, top first: a Blank, Squire, two Blanks, Goblin, Troll, a Blank, Dragon.
ORDER = ("Blank", "Squire", "Blank", "Blank", "Goblin", "Troll", "Blank", "Dragon")


def test_a_hand_drawn_past_blanks_holds_the_cards_after_them():
    deck = [card(n) for n in ORDER]
    want = [card(n) for n in ("Squire", "Goblin", "Troll")]
    C = kernel_seat(deck)
    P = C[2]
    drawn = [twin(Ru.draw_card)(C, 0) for _ in range(3)]
    assert drawn == want and list(P[0, S.HAND: S.HAND + 3]) == want
    # Three Blanks met, none in the hand; the deck left: a Blank, then Dragon.
    assert P[0, S.HAND_N] == 3 and P[0, S.ASIDE] == 3 and P[0, S.DECK_N] == 2
    assert twin(Ru.draw_card)(C, 0) == card("Dragon") and P[0, S.ASIDE] == 4
    assert twin(Ru.draw_card)(C, 0) == -1
    g, seat = reference_seat(deck)
    assert [g.draw(seat).id for _ in range(3)] == want
    assert [c.id for c in seat.hand] == want and len(seat.set_aside) == 3
    assert [c.id for c in seat.deck] == [BLANK, card("Dragon")]


def test_loot_revealed_past_blanks():
    """Two loot points revealed from a loot deck of Blank, Iron Sword, Blank, Blank, Great
    Axe, Chain Mail: both weapons are revealed and played, three Blanks set aside, Chain Mail
    left."""
    loot = [card(n) for n in ("Blank", "Iron Sword", "Blank", "Blank", "Great Axe",
                              "Chain Mail")]
    C = kernel_seat((), loot)
    P = C[2]
    twin(Sc.reveal_loot)(C, 0, 2)
    assert list(P[0, S.LOOTS: S.LOOTS + P[0, S.LOOTS_N]]) == [card("Iron Sword"),
                                                               card("Great Axe")]
    assert P[0, S.ASIDE] == 3 and P[0, S.LOOT_N] == 1
    g, seat = reference_seat((), loot)
    g.reveal_loot(seat, 2)
    assert [c.id for c in seat.loot_in_play] == [card("Iron Sword"), card("Great Axe")]
    assert len(seat.set_aside) == 3 and [c.id for c in seat.loot] == [card("Chain Mail")]


@pytest.mark.parametrize("rules, over", [({"deck_out": "lose_on_empty_draw"}, 1), ({}, 0)])
def test_a_deck_of_blanks_is_empty(rules, over):
    """The draw step finds no card in a deck of three Blanks: under lose_on_empty_draw the
    drawing player loses by deck-out; under play_on it plays on with its hand as it is."""
    deck = [BLANK] * 3
    C = kernel_seat(deck, (), rules)
    twin(Tu.draw_step)(C)
    P, G = C[2], C[3]
    assert G[S.OVER] == over and P[0, S.HAND_N] == 0 and P[0, S.ASIDE] == 3
    if over:
        assert G[S.WINNER] == 1 and G[S.END] == K.END_DECKOUT
    g, seat = reference_seat(deck, (), rules)
    g.draw_step()
    assert g.over == bool(over) and seat.hand == [] and len(seat.set_aside) == 3


def test_every_other_card_keeps_its_place():
    """Grey's Hex cards swapped for Blanks: after set-up (no mulligans), the hand and the deck
    below it, Blanks left out, are the baseline's with the Hex cards left out, match by
    match: the variant sees the same order of every other card."""
    gone = {card(n) for n in HEX}
    tb, tv = Table(BASE), Table(swapped(BASE, 1, HEX))
    for index in range(20):
        base = Encounter(tb.cards, tb.rules, tb.styles, 5, index, 0)
        var = Encounter(tv.cards, tv.rules, tv.styles, 5, index, 0)
        base.set_up(tb.decks)
        var.set_up(tv.decks)
        b = [c.id for c in base.seats[1].hand + base.seats[1].deck if c.id not in gone]
        v = [c.id for c in var.seats[1].hand + var.seats[1].deck if c.id != BLANK]
        assert v == b and BLANK not in [c.id for c in var.seats[1].hand]
        assert [c.id for c in var.seats[1].hand] == b[:8]


@pytest.mark.parametrize("policy", ["random", "careful", "aggressive"])
def test_no_blank_reaches_a_hand_or_a_zone_and_the_engines_agree(policy):
    """Half of each deck's draw cards and a quarter of its loot swapped for Blanks: no log
    row puts a Blank anywhere but aside, and the kernel and the reference engine agree."""
    m = BASE if policy == "careful" else GAME.load_matchup(
        FOLDER, "orc-warband", "grey-expedition", policy, None, {}, [])
    for seat in (0, 1):
        d = m.decks[seat]
        names = {m.pool.names[c] for c in d.draw[::2] + d.loot[::4]}
        m = swapped(m, seat, names)
    k = GAME.run_batch(m, 30, 4, 0, 30)
    r = GAME.reference_batch(m, 30, 4, 0, 30)
    assert k.same_as(r)
    rows = np.concatenate([k.log[i, : k.log_n[i]] for i in range(30)])
    blank_rows = rows[rows[:, 3] == BLANK]
    assert len(blank_rows) > 100 and (blank_rows[:, 2] == S.EV_ASIDE).all()


def test_opening_hand_quest_odds_count_the_cards_other_than_blanks():
    """The quests sweep at 6 puts Blanks in place of 6 of Grey's 12 quests: the opening 8
    come from the 34 other cards, so P(a quest among them) = 1 - C(28, 8) / C(34, 8) =
    0.8288 (not 1 - C(34, 8) / C(40, 8) = 0.7639, as if the Blanks were drawn)."""
    v = GAME.sweeps["quests"].make(BASE, 1, 6)
    assert sum(1 for c in v.matchup.decks[1].draw if c == BLANK) == 6
    rec = GAME.run_batch(v.matchup, 4000, 8)
    p = (rec.column("opening_quests_b") > 0).mean()
    assert abs(p - 0.8288) < 3 * np.sqrt(0.8288 * 0.1712 / 4000), p
    table = GAME.exact_check(v.matchup, rec.totals())
    row = table[(table.quantity == "P(a quest in the opening hand)") & (table.seat == 1)]
    assert abs(float(row.exact.iloc[0]) - 0.8288) < 1e-4


# -- calibrations: compiled kernel, win rates with 95% intervals ----------------------------

N = 12_000  # matches per arm: a 95% interval about +-1 point wide, a few seconds each


def test_blanks_added_alone_move_the_win_rate_under_one_point():
    """Four Blanks added to each draw deck and each loot deck (44 and 24 cards; the size
    rules count Blanks): the other cards come in an order as random as before, so Grey's win
    rate may move by noise only. The shuffle of 44 cards is not the shuffle of 40, so the
    arms are independent samples. Under the old Blank (drawn and held in hand) Grey's win
    rate fell 31.9 points here (77.0% to 45.1%)."""
    blanks = (BLANK,) * 4
    added = tuple(replace(d, draw=d.draw + blanks, loot=d.loot + blanks) for d in BASE.decks)
    var = GAME.with_rules(replace(BASE, decks=added),
                          {"draw_deck_size": 44, "loot_deck_size": 24})
    assert GAME.validate(var) == []
    pb = GAME.run_batch(BASE, N, 21).wins(1).mean()
    pv = GAME.run_batch(var, N, 22).wins(1).mean()
    half = Z95 * np.sqrt((pb * (1 - pb) + pv * (1 - pv)) / N)
    assert half < 0.012, half
    assert abs(pv - pb) < 0.01 and abs(pv - pb) + half < 0.025, (pb, pv, half)


def with_card(m, row, cid, name, kind):
    """The matchup's pool with one more card (its row of the card table); its index."""
    pool = m.pool
    new = len(pool)
    pool = Pool(pool.path, pool.ids + (cid,), pool.names + (name,), pool.texts + ("",),
                np.vstack([pool.table, row]), pool.sha256, pool.lines + (0,))
    return replace(m, pool=pool), new


def test_a_card_with_no_effect_is_worth_nothing():
    """What "no effect" means here: every card drawn takes a hand slot until it leaves, so a
    card the policy never plays is a dead card, not nothing, wherever hand slots bind. They
    do not when the opening hand holds the whole draw deck (hand_size 24, decks cut to 24):
    then a card no rule ever lets its owner play changes nothing. Paper Tiger, a strike NPC
    of strike cost 99 (no strike budget reaches it), four copies in Grey's deck in place of
    its last four cards: its ablation worth (baseline minus variant, paired on the same
    seeds) is exactly 0 for every policy, match by match. The filler may not reorder the
    other cards (hand order breaks the policies' ties)."""
    row = np.zeros(K.N_COLS, dtype=np.int64)
    row[K.C_KIND], row[K.C_NATURE], row[K.C_COST] = K.NPC, K.STRIKE, 99
    row[K.C_STR], row[K.C_TOUGH] = 1, 1
    for policy in ("random", "careful", "aggressive"):
        m = GAME.with_rules(GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition",
                                              policy, None, {}, []),
                            {"draw_deck_size": 24, "hand_size": 24})
        m, tiger = with_card(m, row, "paper-tiger", "Paper Tiger", "npc")
        orc, grey = m.decks
        grey = replace(grey, draw=grey.draw[:20] + (tiger,) * 4)
        m = replace(m, decks=(replace(orc, draw=orc.draw[:24]), grey))
        assert GAME.validate(m) == []
        (v,) = [v for v in GAME.ablations(m) if v.card == "paper-tiger"]
        base, var = GAME.run_batch(m, 4000, 41), GAME.run_batch(v.matchup, 4000, 41)
        d = paired_difference(var.wins(1), base.wins(1))
        assert d["lo"] <= 0 <= d["hi"] and -0.01 <= d["lo"] and d["hi"] <= 0.01, d
        assert (var.matches[:, :4] == base.matches[:, :4]).all()  # winner, end, first, turns


def test_a_card_that_leaves_the_hand_at_once_is_worth_almost_nothing():
    """Under the standard rules the nearest thing to no effect is a card that leaves the
    hand at once, free, bringing the next card, as the filler does: Free Insight (an instant
    of the boost step, cost 0, Draw 1), which careful always plays in its first boost step;
    the cards drawn and the deck left are those of the Blank in its place. What is left of
    it is when the next card comes: at the boost step instead of the draw step (its owner
    may have spent its pool on something else by then). Four copies in place of Grey's Hex
    cards: ablation worth within +-1 point (95% interval). Under the old Blank the variant
    held four dead cards and the worth came out at +32.6 points (+31.7 .. +33.5)."""
    row = np.zeros(K.N_COLS, dtype=np.int64)
    row[K.C_KIND], row[K.C_NATURE], row[K.C_STEP] = K.ACTION, K.INSTANT, K.S_BOOST
    row[K.C_AB1], row[K.C_ARG1] = K.DRAW, 1
    m, new = with_card(BASE, row, "free-insight", "Free Insight", "action")
    m = swapped(m, 1, HEX, new)
    assert GAME.validate(m) == []
    (v,) = [v for v in GAME.ablations(m) if v.card == "free-insight"]
    assert v.seat == 1 and v.copies == 4
    base = GAME.run_batch(m, N, 31).wins(1)
    var = GAME.run_batch(v.matchup, N, 31).wins(1)
    d = paired_difference(var, base)  # base - variant: the card's worth
    assert -0.01 <= d["lo"] and d["hi"] <= 0.01, d
