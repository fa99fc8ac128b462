"""Paint the Line's decisions (docs/rules.md, "Decisions") on hand-built cases, each answer
worked out here from the words of the docs and asked of both engines' players; and every
ordered pair of policies played by both engines, so that a decision either engine makes
differently shows as a different record."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.paintline import order as Ord
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline.batch import load_matchup, run_batch
from sim.paintline.params import FIELDS, load_policies
from sim.paintline.reference import reference_batch
from sim.paintline.reference_players import ORDERS, Player

from .conftest import FOLDER

# The card numbers the scenarios are worked out from (tests/data/README.md).
POOL = T.load_pool(Path(__file__).parent / "data" / "paintline-cards.csv")
TABLE = POOL.table
POLICIES = load_policies(FOLDER / "policies.toml")
NAMES = list(tomllib.loads((FOLDER / "policies.toml").read_text(encoding="utf-8")))
ENGINES = ("kernel", "reference")


def card(name: str) -> int:
    return POOL.lookup(name)


STAMINA, PUSH, FLAT, DRIVE = card("Stamina"), card("Push"), card("Flat Hit"), card("Drive Shot")
GRIP, SMASH, CHOP, LOB = card("Fresh Grip"), card("Power Smash"), card("Chop"), card("High Lob")
PADDLE = card("Sandpaper Paddle")
# Worths by the docs: 10 + the four values for a shot card, 5 + them for an enhancement.
WORTH = {PUSH: 13, FLAT: 13, DRIVE: 16, GRIP: 9, SMASH: 26, CHOP: 15, LOB: 14, PADDLE: 8}


def policy(name="greedy", **settings) -> np.ndarray:
    vec = POLICIES[name].copy()
    for key, value in settings.items():
        vec[FIELDS[key][0]] = value
    return vec


def no_draw(n):
    raise AssertionError("a deterministic policy drew a random number")


class Kernel:
    """The compiled policy's decisions, asked the way the kernel's turn asks them."""

    def __init__(self, vec):
        self.prm = vec
        self.keys = np.zeros(6, dtype=np.uint64)
        self.ctr = np.zeros(6, dtype=np.int64)

    def hand_worths(self, hand, plant):
        out = np.zeros(max(len(hand), 1))
        Pol.hand_worths(self.prm, TABLE, np.array(hand, dtype=np.int32), len(hand), plant, out)
        return out

    def recycle(self, hand, table, plant, bag, ratio):
        w = list(self.hand_worths(hand, plant)[: len(hand)])
        w += [Pol.play_worth(self.prm, TABLE, c, a) for c, a in table]
        w += [Pol.power_plant_worth(self.prm, i) for i in range(plant)]
        out = np.zeros(64, dtype=np.int64)
        n = len(w)
        k = Pol.choose_recycle(self.prm, np.array(w or [0.0]), n, len(hand), bag, ratio,
                               self.keys, self.ctr, 0, out)
        return sorted(int(x) for x in out[: k * ratio])

    def untap(self, tapped):
        w = np.array([Pol.untap_worth(self.prm, TABLE, c, t) for c, t in tapped] or [0.0])
        j = Pol.choose_untap(self.prm, w, len(tapped), self.keys, self.ctr, 0)
        return None if j < 0 else j

    def hit(self, feats):
        return Pol.choose_hit(self.prm, np.array(feats, dtype=np.float64), len(feats),
                              self.keys, self.ctr, 0)

    def boost(self, now, feats):
        base = Pol.hit_score(self.prm, np.array([now], dtype=np.float64), 0)
        arr = np.array(feats or [[0.0] * 4], dtype=np.float64)
        j = Pol.choose_boost(self.prm, arr, len(feats), base, self.keys, self.ctr, 0)
        return None if j < 0 else j

    def play(self, options):
        w = [Pol.card_worth(self.prm, TABLE, c, False)
             + (0.001 * Pol.card_worth(self.prm, TABLE, t, False) if t >= 0 else 0.0)
             for c, t in options]
        j = Pol.choose_play(self.prm, np.array(w or [0.0]), len(options), self.keys, self.ctr, 0)
        return None if j < 0 else j

    def discards(self, hand, plant, m):
        out = np.zeros(64, dtype=np.int64)
        Pol.choose_discards(self.prm, self.hand_worths(hand, plant), len(hand), m, self.keys,
                            self.ctr, 0, out)
        return sorted(int(x) for x in out[:m])

    def mulligan(self, stamina):
        return bool(Pol.choose_mulligan(self.prm, stamina, self.keys, self.ctr, 0))

    def put_stamina(self, in_play):
        return bool(Pol.choose_stamina(self.prm, in_play, self.keys, self.ctr, 0))

    def reroll(self, at_stake):
        return bool(Pol.choose_reroll(self.prm, int(at_stake), self.keys, self.ctr, 0))


class Reference(Player):
    def __init__(self, vec):
        super().__init__(vec, TABLE, no_draw)

    def recycle(self, *args):
        return sorted(super().recycle(*args))

    def discards(self, *args):
        return sorted(super().discards(*args))


def player(engine, vec):
    return Kernel(vec) if engine == "kernel" else Reference(vec)


def test_card_worths_follow_the_docs():
    me = Reference(policy())
    assert {c: me.worth(c) for c in WORTH} == WORTH


@pytest.mark.rule("PTL-49")
@pytest.mark.parametrize("engine", ENGINES)
def test_recycle_takes_the_lowest_worth_units(engine):
    """Hand of 8 over recycle_above 6, ratio 2: k = max(1, (8 - 6) // 2) = 1, so two units
    go: Fresh Grip (9), then Push (13) over the Flat Hit in play (13 + cost 0): on a tie
    the earlier unit, and hand cards come before play."""
    hand = [STAMINA, STAMINA, PUSH, DRIVE, GRIP, SMASH, CHOP, LOB]
    me = player(engine, policy())
    assert me.recycle(hand, [(FLAT, -1)], 2, 40, 2) == [2, 4]
    # Ten cards: k = (10 - 6) // 2 = 2, four units.
    assert me.recycle([*hand, SMASH, SMASH], [(FLAT, -1)], 2, 40, 2) == [2, 4, 7, 10]
    # With stamina_cap 1 and 2 in play, the hand's Stamina and the second Power Plant
    # Stamina are worth -1: the two hand ones go first (earliest on the tie).
    me = player(engine, policy(stamina_cap=1))
    assert me.recycle(hand, [(FLAT, -1)], 2, 40, 2) == [0, 1]
    assert me.recycle(hand, [(FLAT, -1)], 2, 40, 3) == [0, 1, 10]
    # A shot card in play is worth its worth plus its cost plus its attachment's worth:
    # Chop in play is 15 + 1 = 16, tied with the Drive Shot in hand (the hand's goes); a
    # Flat Hit (13) goes before the High Lob (14), but not with Fresh Grip attached (22).
    me = player(engine, policy())
    hand = [DRIVE, SMASH, DRIVE, SMASH, DRIVE, SMASH, LOB]
    assert me.recycle(hand, [(CHOP, -1)], 0, 40, 2) == [0, 6]
    assert me.recycle(hand, [(FLAT, -1)], 0, 40, 2) == [6, 7]
    assert me.recycle(hand, [(FLAT, GRIP)], 0, 40, 2) == [0, 6]


@pytest.mark.rule("PTL-49")
@pytest.mark.parametrize("engine", ENGINES)
def test_recycle_only_above_the_hand_and_bag_thresholds(engine):
    hand = [PUSH, DRIVE, GRIP, SMASH, CHOP, LOB, PUSH]  # 7 cards, recycle_above 6
    me = player(engine, policy())
    assert me.recycle(hand, [], 0, 16, 2) != []
    assert me.recycle(hand, [], 0, 15, 2) == []  # bag_reserve 15: more than 15 left needed
    assert me.recycle(hand[:6], [], 0, 40, 2) == []  # hand not above recycle_above
    assert player(engine, policy("default")).recycle(hand, [], 0, 40, 2) == []


@pytest.mark.rule("PTL-48")
@pytest.mark.parametrize("engine", ENGINES)
def test_untap_worth_per_step(engine):
    """Power Smash double tapped: 26 / 2 = 13 a step; Drive Shot single tapped: 16."""
    me = player(engine, policy())
    assert me.untap([(SMASH, 2), (DRIVE, 1)]) == 1
    assert me.untap([(SMASH, 1), (DRIVE, 1)]) == 0
    assert me.untap([(DRIVE, 1), (SMASH, 2), (CHOP, 2)]) == 0
    assert me.untap([]) is None
    assert player(engine, policy("default")).untap([(DRIVE, 1)]) is None


@pytest.mark.rule("PTL-50")
@pytest.mark.parametrize("engine", ENGINES)
def test_hit_scores_and_ties(engine):
    """Score = hit x P + pen x penalty + look x P(miss next) - cost x stamina."""
    greedy = player(engine, policy())  # hit 1, pen 0.001, cost 0.0001
    same = [[0.5, 0, 0, 0], [0.5, 0, 0, 0]]
    assert greedy.hit(same) == 0  # ties go to the first listed
    assert greedy.hit([[0.5, 0, 0, 0], [0.5, 1, 0, 0]]) == 1  # the penalty breaks it
    assert greedy.hit([[0.5, 0, 0, 0], [0.5, 0, 0, 1], [0.55, 0, 0, 3]]) == 2
    assert greedy.hit([[0.5, 0, 0, 0], [0.5, 0, 0, 1]]) == 0  # the cost counts against
    pressure = player(engine, policy("pressure"))  # pen 0.1
    assert pressure.hit([[0.6, 0, 0, 0], [0.5, 2, 0, 0]]) == 1
    look = player(engine, policy("lookahead"))
    assert look.hit([[0.9, 0, 0.1, 0], [0.4, 0, 0.3, 0]]) == 1
    assert player(engine, policy("default")).hit([[0.1, 0, 0, 0], [0.9, 0, 0, 0]]) == 0


@pytest.mark.rule("PTL-52")
@pytest.mark.parametrize("engine", ENGINES)
def test_more_boosts_only_when_the_score_rises(engine):
    greedy = player(engine, policy())
    now = [0.5, 1, 0, 0]
    assert greedy.boost(now, [[0.5, 1, 0, 0]]) is None  # equal is not higher
    assert greedy.boost(now, [[0.6, 1, 0, 1], [0.7, 1, 0, 1]]) == 1
    assert greedy.boost(now, [[0.6, 1, 0, 1], [0.6, 1, 0, 1]]) == 0
    assert greedy.boost(now, []) is None
    assert player(engine, policy(enhance=False)).boost(now, [[0.9, 1, 0, 0]]) is None


@pytest.mark.rule("PTL-51")
@pytest.mark.parametrize("engine", ENGINES)
def test_spare_cards_by_worth_attach_onto_the_best_card(engine):
    me = player(engine, policy())
    # Push (13) beats Sandpaper Paddle (8 + a thousandth of its shot card).
    assert me.play([(PADDLE, FLAT), (PUSH, -1), (PADDLE, SMASH)]) == 1
    # Between targets, the Power Smash (26) beats the Flat Hit (13).
    assert me.play([(PADDLE, FLAT), (PADDLE, SMASH)]) == 1
    assert me.play([(PADDLE, SMASH), (PADDLE, FLAT)]) == 0
    assert me.play([]) is None
    assert player(engine, policy(build=False)).play([(PUSH, -1)]) is None


@pytest.mark.rule("PTL-53")
@pytest.mark.parametrize("engine", ENGINES)
def test_discards_surplus_stamina_first(engine):
    """7 in play, stamina_cap 8: the first Stamina in hand is still wanted (100), the
    later ones are surplus (-1) and go first; then the lowest worth."""
    hand = [STAMINA, PUSH, STAMINA, SMASH, STAMINA, GRIP]
    me = player(engine, policy())
    assert me.discards(hand, 7, 2) == [2, 4]
    assert me.discards(hand, 7, 3) == [2, 4, 5]
    assert me.discards(hand, 0, 2) == [1, 5]  # every Stamina wanted: Fresh Grip, Push


@pytest.mark.rule("PTL-46")
@pytest.mark.parametrize("engine", ENGINES)
def test_mulligan_stamina_and_reroll_thresholds(engine):
    me = player(engine, policy())  # mulligan_below 2, mulligan_above 5, stamina_cap 8
    assert [me.mulligan(s) for s in range(8)] == [True, True, False, False, False, False,
                                                  True, True]
    assert [me.put_stamina(n) for n in (0, 7, 8, 9)] == [True, True, False, False]
    assert me.reroll(True) and not me.reroll(False)
    lazy = player(engine, policy("default"))
    assert not lazy.mulligan(0) and not lazy.put_stamina(0)
    assert lazy.reroll(True)  # a policy that plays no card still rerolls


def test_orders_numbered_as_the_docs_say():
    """0 is untap, recycle, Stamina, play; 23 its reverse; both engines read one number."""
    words = ("untap", "recycle", "stamina", "play")
    assert ORDERS[0] == words and ORDERS[23] == words[::-1] and len(set(ORDERS)) == 24
    for code, row in enumerate(Ord.PERMS):
        assert tuple(words[a] for a in row) == ORDERS[code]
        assert Ord.parse_order(" ".join(ORDERS[code])) == code


def test_random_draws_as_the_docs_say():
    """A random policy's partial shuffle swaps place a with a + (a draw below n - a); its
    untap draws below n + 1 with 0 meaning no."""
    draws = []

    def below(n):
        draws.append(n)
        return n - 1  # always the last place left

    me = Player(policy("random"), TABLE, below)
    assert me.partial_shuffle(5, 3) == [4, 0, 1] and draws == [5, 4, 3]
    draws.clear()
    assert me.untap([(DRIVE, 1), (SMASH, 2)]) == 1 and draws == [3]
    draws.clear()
    assert me.recycle([PUSH] * 5, [], 0, 0, 2) == [4, 0, 1, 2] and draws == [3, 5, 4, 3, 2]
    draws.clear()
    assert me.recycle_draws(2, 1) == 1 and draws == [2]


@pytest.mark.parametrize("first", NAMES)
def test_kernel_equals_reference_for_each_policy_against_every_other(first):
    """A few matches of every ordered pair of the folder's policies (the contract test plays
    more): both engines make their own decisions, so they must agree."""
    for j, second in enumerate(NAMES):
        m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", first, second)
        seed = 31 + NAMES.index(first) * len(NAMES) + j
        kernel = run_batch(m, 3, seed, n_log=3)
        assert kernel.same_as(reference_batch(m, 3, seed, n_log=3)), (first, second)
