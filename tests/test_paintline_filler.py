"""Paint the Line's Blank as a neutral filler: a draw that meets a Blank sets it aside and
takes the next card. Scenarios from that rule on bags in a known order (kernel and reference
engine), then calibrations with numbers: the filler alone, and cards with no effect."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.core.rng import N_STREAMS, py_stream_key
from sim.core.stats import paired_difference
from sim.kit.game import get
from sim.paintline import deal as Dl
from sim.paintline import pool as T
from sim.paintline import schema as Rec
from sim.paintline import state as S
from sim.paintline.decks import Deck
from sim.paintline.reference import ReferenceGame
from sim.paintline.reference_turn import Forfeit

from .conftest import FOLDER

GAME = get("paintline")
BASE = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
POOL = BASE.pool
RULES = BASE.rules


def card(name: str) -> int:
    index = POOL.lookup(name)
    assert index is not None, name
    return index


BLANK = card("Blank")
PUSH, DRIVE, CHOP, TOPSPIN = card("Push"), card("Drive Shot"), card("Chop"), card("Topspin")
MOON, HIGH, STAMINA, FLAT = card("Moon Ball"), card("High Lob"), card("Stamina"), card("Flat Hit")
# A bag in a known order, top first: eight cards and eight Blanks, five of them among the
# first twelve places, three after the Stamina.
ORDER = [BLANK, PUSH, BLANK, BLANK, DRIVE, CHOP, BLANK, TOPSPIN, MOON, HIGH, BLANK, STAMINA,
         BLANK, FLAT, BLANK, BLANK]
# By the rule, the opening hand is the first seven cards that are not Blanks; the next draw
# takes Flat Hit; after it only Blanks are left, so the bag is empty.
OPENING = [PUSH, DRIVE, CHOP, TOPSPIN, MOON, HIGH, STAMINA]


def with_counts(deck: Deck, changes: dict[int, int], name: str) -> Deck:
    counts = {**dict(deck.counts), **changes}
    return Deck(deck.path, name, tuple((c, n) for c, n in counts.items() if n > 0), deck.coach,
                deck.nation)


def with_deck(m, seat: int, deck: Deck):
    decks = list(m.decks)
    decks[seat] = deck
    return dataclasses.replace(m, decks=tuple(decks))


# Scenarios: a bag in a known order -------------------------------------------------------


def kernel_bag(order, rules=RULES):
    """Seat 0 with `order` gathered into its bag, unshuffled (gather_cards is the set-up
    rule that puts every card back; the shuffle is left out so the order is known)."""
    P, G, H = S.new_state()
    P[:, S.COACH] = -1
    G[S.FORFEIT] = -1
    Dl.gather_cards(POOL.table, P, 0, np.array(order, dtype=np.int64))
    return P, G, rules.vector


def kernel_hand(P):
    return [int(c) for c in P[0, S.HAND:S.HAND + P[0, S.HAND_N]]]


def test_kernel_draws_skip_blanks_and_deck_out_counts_only_cards():
    P, G, R = kernel_bag(ORDER)
    assert Dl.bag_left(P, 0) == 8  # sixteen in the bag, eight of them Blanks
    Dl.draw_opening_hand(POOL.table, P, R, 0)
    assert kernel_hand(P) == OPENING
    assert Dl.bag_left(P, 0) == 1 and Dl.safe_draws(P, R, 0) == 1
    seen = np.zeros((2, len(POOL)), dtype=np.int8)
    assert Dl.draw_card(POOL.table, P, G, R, 0, seen)
    assert kernel_hand(P)[-1] == FLAT and seen[0, FLAT] == 1 and seen[0, BLANK] == 0
    assert Dl.bag_left(P, 0) == 0 and Dl.safe_draws(P, R, 0) == 0
    assert not Dl.draw_card(POOL.table, P, G, R, 0, seen)  # two Blanks left: an empty bag
    assert G[S.FORFEIT] == 0 and BLANK not in kernel_hand(P)


def test_kernel_forfeit_when_empty_counts_a_bag_of_blanks_as_empty():
    when_empty = RULES.replace(deck_out="forfeit_when_empty")
    P, G, R = kernel_bag([DRIVE, BLANK, BLANK], when_empty)
    assert Dl.safe_draws(P, R, 0) == 0  # the only card would empty the bag
    seen = np.zeros((2, len(POOL)), dtype=np.int8)
    assert not Dl.draw_card(POOL.table, P, G, R, 0, seen)
    assert kernel_hand(P) == [DRIVE] and G[S.FORFEIT] == 0


def test_kernel_mulligan_leaves_the_set_aside_blanks_out():
    P, G, R = kernel_bag(ORDER)
    Dl.draw_opening_hand(POOL.table, P, R, 0)
    keys = np.array([py_stream_key(1, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    Dl.take_mulligan(P, 0, keys, np.zeros(N_STREAMS, dtype=np.int64))
    # The five Blanks met stay out; the hand, Flat Hit and the three unmet Blanks are
    # shuffled together.
    assert P[0, S.BAG_LEN] - P[0, S.BAG_TOP] == 11 and Dl.bag_left(P, 0) == 8
    Dl.draw_opening_hand(POOL.table, P, R, 0)
    assert BLANK not in kernel_hand(P) and len(kernel_hand(P)) == 7
    assert sorted(kernel_hand(P) + [int(c) for c in P[0, S.BAG + P[0, S.BAG_TOP]:
                                                        S.BAG + P[0, S.BAG_LEN]]
                                    if c != BLANK]) == sorted(OPENING + [FLAT])


def test_reference_draws_skip_blanks_and_deck_out_counts_only_cards():
    g = ReferenceGame(BASE, 1, 0)
    g.seats[0].bag = list(ORDER)
    g.draw_opening_hand(0)
    assert g.seats[0].hand == OPENING and g.cards_left(0) == 1
    g.draw_card(0)
    assert g.seats[0].hand[-1] == FLAT and g.seats[0].bag == [BLANK, BLANK]
    with pytest.raises(Forfeit):
        g.draw_card(0)
    assert "A sets aside a Blank" in g.text and not any("draws Blank" in t for t in g.text)


def test_no_blank_reaches_a_hand_and_kernel_matches_reference():
    """Decks with 20 and 30 Blanks (in place of Stamina and of shot cards) on every
    decision-making policy: the kernel's card statistics never see a Blank drawn, played or
    left in a hand, the reference log never draws or keeps one, and both engines give the
    same records, deck-outs included."""
    us, ussr = BASE.decks
    a = with_counts(us, {STAMINA: 10, BLANK: 20, DRIVE: 0, PUSH: 0, TOPSPIN: 0}, "us-blank")
    b = with_counts(ussr, {STAMINA: 4, BLANK: 30, DRIVE: 0, PUSH: 0, CHOP: 0, FLAT: 0,
                           card("Deep Lob"): 0}, "ussr-blank")
    assert sum(n for _, n in a.counts) == sum(n for _, n in b.counts) == 60
    for policy, rules in (("random", {}), ("balanced", {"deck_out": "forfeit_when_empty"}),
                          ("greedy", {"match_games": 3})):
        m = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", policy, policy, rules, [])
        m = dataclasses.replace(m, decks=(a, b))
        assert GAME.validate(m) == []
        kernel = GAME.run_batch(m, 16, 3, n_log=2)
        assert kernel.same_as(GAME.reference_batch(m, 16, 3, n_log=2))
        for stat in (Rec.CS_DRAWN, Rec.CS_PLAYED, Rec.CS_HIT, Rec.CS_DEAD):
            assert kernel.card_stats[:, BLANK, stat].sum() == 0
        assert kernel.card_stats[:, BLANK, Rec.CS_IN_DECK].tolist() == [16, 16]
        text = GAME.replay(m, 3, 0).text
        assert not any("draws Blank" in t or ("keeps" in t and "Blank" in t) for t in text)
    long = GAME.run_batch(dataclasses.replace(BASE, decks=(a, b)), 2000, 4)
    assert long.card_stats[:, BLANK, Rec.CS_DRAWN].sum() == 0
    assert long.column("deckouts").sum() > 0  # the thin bags do run out


# Calibrations -----------------------------------------------------------------------------


def test_the_filler_alone_changes_no_match_where_only_the_bag_counts():
    """For a seat on the `default` policy the hand never matters, only how many cards are
    left to draw: 29 cards with 30 Blanks (its Stamina, Drive Shots, Pushes and Topspins
    swapped for them) must play every match exactly as the 29 cards alone, deck-outs
    included (its bag runs out in many of them). With the old Blank, drawn like a card,
    the 59-card bag outlasted the 29-card one and the matches differed."""
    cut = {STAMINA: 0, DRIVE: 0, PUSH: 0, TOPSPIN: 0}
    m = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "default", "default", {}, [])
    us = m.decks[0]
    blanks = with_deck(m, 0, with_counts(us, {**cut, BLANK: 30}, "us-30-blanks"))
    thin = with_deck(m, 0, with_counts(us, cut, "us-30-cards"))
    assert GAME.validate(blanks) == []
    a, b = GAME.run_batch(thin, 2_000, 6), GAME.run_batch(blanks, 2_000, 6)
    assert a.column("deckouts").sum() > 200
    assert np.array_equal(a.matches, b.matches)


def test_the_filler_alone_moves_the_win_rate_by_less_than_a_point():
    """A legal deck with 12 Blanks (the US deck's Drive Shots, Pushes, Topspins and High
    Lobs swapped for them) against the same deck without the Blanks (48 cards, built in
    memory), both on greedy: the Blanks are set aside by every draw and count for nothing
    at deck-out, so the two play the same game in law and the win rates must agree. The
    shuffles differ in length, so the pairing is by seed and dice only: n = 24,000
    matches a side gives a 95% interval about +-0.6 points wide; measured -0.13 points
    (-0.73 .. +0.47). With the old Blank, drawn like a card, the deck with Blanks won 7.0
    points more (+6.3 .. +7.7 at n = 20,000): a drawn Blank padded the bag against
    deck-out, which ends 23% of the 48-card deck's matches."""
    cut = {DRIVE: 0, PUSH: 0, TOPSPIN: 0, HIGH: 0}
    us = BASE.decks[0]
    blanks = with_deck(BASE, 0, with_counts(us, {**cut, BLANK: 12}, "us-12-blanks"))
    thin = with_deck(BASE, 0, with_counts(us, cut, "us-48-cards"))
    assert GAME.validate(blanks) == []
    n = 24_000
    d = paired_difference(GAME.run_batch(thin, n, 1).wins(0),
                          GAME.run_batch(blanks, n, 1).wins(0))
    assert d["lo"] <= 0 <= d["hi"], d
    assert -0.0125 < d["lo"] and d["hi"] < 0.0125, d


def test_a_card_with_no_effect_is_worth_nothing():
    """What "no effect" means in Paint the Line: every card a player draws costs the draw
    that brought it and stands in the bag between its player and deck-out, so a card that
    does nothing when played still has an effect for any policy that reads its hand. A
    card has no effect only for a seat whose hand never matters: the `default` policy
    (the Default Shot every shot; it plays no card, puts no Stamina into play, never
    recycles or mulligans) in games that end before its bag does (no game of the sample
    decks between two default seats reaches deck-out: 49 turns a match, so some 25 draws
    from at least 55 cards).
    There, taking any card out with the ablation experiment's own variants must leave
    every match as it was: each worth 0 with an interval inside +-1 point (here exactly
    0: a Blank that took a random number, moved another card or counted at deck-out
    would show)."""
    m = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "default", "default", {}, [])
    n = 2_000
    base = GAME.run_batch(m, n, 5)
    assert base.column("deckouts").sum() == 0
    arms = [v for v in GAME.ablations(m) if v.seat == 0]
    assert len(arms) == 17
    for v in arms:
        d = paired_difference(GAME.run_batch(v.matchup, n, 5).wins(0), base.wins(0))
        assert d["lo"] <= 0 <= d["hi"] and -0.01 < d["lo"] and d["hi"] < 0.01, (v.item, d)


def test_a_card_the_policy_never_plays_still_costs_its_draw():
    """The other side of "no effect": a Dud (an enhancement of cost 0 with no values and no
    ability, which greedy never plays) in place of 4 Stamina costs greedy the draws it
    takes, so taking the Duds out (Blanks, set aside) helps: the ablation worth is below 0.
    Measured: -0.88 points (-1.53 .. -0.24) at n = 12,000. The old Blank, drawn like the
    Dud, gave exactly 0: it measured a card against a dead draw, not against no card."""
    table = np.vstack([POOL.table, np.zeros((1, T.N_CARD_COLUMNS), dtype=np.int64)])
    table[-1, T.C_KIND] = T.ENHANCEMENT
    table.setflags(write=False)
    pool = T.Pool(POOL.path, POOL.ids + ("dud",), POOL.names + ("Dud",), POOL.texts + ("",),
                  table, "dud")
    dud = len(POOL)
    m = dataclasses.replace(BASE, pool=pool)
    duds = with_deck(m, 0, with_counts(m.decks[0], {STAMINA: 16, dud: 4}, "us-duds"))
    out = with_deck(m, 0, with_counts(m.decks[0], {STAMINA: 16, BLANK: 4}, "us-no-duds"))
    n = 12_000
    base = GAME.run_batch(duds, n, 2)
    assert base.card_stats[0, dud, Rec.CS_PLAYED] == 0 and base.card_stats[0, dud,
                                                                           Rec.CS_DRAWN] > 0
    d = paired_difference(GAME.run_batch(out, n, 2).wins(0), base.wins(0))
    assert d["hi"] < 0 and d["lo"] > -0.03, d


def test_taking_a_card_out_keeps_every_other_card_in_its_place():
    """Ablation and the copies sweep swap a card's copies for Blanks where the copies lie in
    the deck's list, so the shuffle puts every other card where it puts it in the deck itself
    (the rules doc's "every other card keeps the place the shuffle gave it")."""
    for seat in (0, 1):
        base = list(BASE.decks[seat].bag())
        for v in (v for v in GAME.ablations(BASE) if v.seat == seat):
            x = POOL.lookup(v.card)
            assert list(v.matchup.decks[seat].bag()) == [BLANK if c == x else c
                                                        for c in base], v.item
    # Order of Lenin, three copies in the middle of USSR Red Tide's list: kept to one, its
    # first copy stays and the other two are Blanks in their places.
    lenin = card("Order of Lenin")
    base = list(BASE.decks[1].bag())
    at = [i for i, c in enumerate(base) if c == lenin]
    want = [BLANK if i in at[1:] else c for i, c in enumerate(base)]
    v = GAME.sweeps["copies"].make(BASE, 1, 1, {"card": "Order of Lenin"})
    assert list(v.matchup.decks[1].bag()) == want
