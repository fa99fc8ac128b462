"""Encounter's kept hand counts (hand.py): the instants each seat holds, by step, and the
positions of its quests equal a count of its hand after every turn of whole matches."""

from pathlib import Path

from sim.core.jit import pure as twin
from sim.encounter import codes as K
from sim.encounter import engine as E
from sim.encounter import hand as H
from sim.encounter import state as S
from sim.encounter import turn as Tu
from sim.encounter.batch import load_matchup

from .encounter_both import plain_below, twin_matches

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
# The rulebook's boost plays: characteristics, locations, NPCs but strike NPCs, bulwark and
# character actions.
BOOST_KINDS = (K.CHARACTERISTIC, K.LOCATION, K.NPC, K.ACTION)


def instants_by_step(T, hand):
    """The instant actions of a hand counted by step, from the card table's columns."""
    n = [0] * S.N_STEPS
    for c in hand:
        if T[c, K.C_KIND] == K.ACTION and T[c, K.C_NATURE] == K.INSTANT:
            n[T[c, K.C_STEP]] += 1
    return n[1:]


def test_kept_hand_counts_equal_a_recount_after_every_turn():
    """After every turn (draws, discards down, plays, instants used, quests and strikers
    played from hand, a mulligan at set-up) each seat's kept counts and quest positions
    equal its hand's, at two seats and at four."""
    turn = twin(Tu.take_turn, below=plain_below)
    seen = {"turns": 0, "held": 0, "used": 0, "mulligans": 0, "quests": 0}

    def checked_turn(C):
        T, P = C[0], C[2]
        before = [list(P[p, S.HAND_STEPS + 1:S.HAND_STEPS + S.N_STEPS]) for p in range(len(P))]
        turn(C)
        for p in range(P.shape[0]):
            if P[p, S.HAND_STEPS] == 0:
                continue
            kept = list(P[p, S.HAND_STEPS + 1:S.HAND_STEPS + S.N_STEPS])
            hand = P[p, S.HAND:S.HAND + P[p, S.HAND_N]]
            assert kept == instants_by_step(T, hand)
            quests = [i for i, c in enumerate(hand) if T[c, K.C_KIND] == K.QUEST]
            marked = [i for i in range(len(hand)) if (P[p, S.HAND_QUESTS] >> i) & 1]
            assert marked == quests
            instants = [i for i, c in enumerate(hand)
                        if T[c, K.C_KIND] == K.ACTION and T[c, K.C_NATURE] == K.INSTANT]
            assert [i for i in range(len(hand)) if (P[p, S.HAND_INSTANTS] >> i) & 1] == instants
            boosts = [i for i, c in enumerate(hand) if T[c, K.C_KIND] in BOOST_KINDS
                      and (T[c, K.C_KIND] != K.NPC or T[c, K.C_NATURE] != K.STRIKE)
                      and (T[c, K.C_KIND] != K.ACTION
                           or T[c, K.C_NATURE] in (K.BULWARK, K.CHARACTER))]
            assert [i for i in range(len(hand)) if (P[p, S.HAND_BOOSTS] >> i) & 1] == boosts
            seen["quests"] += len(quests)
            seen["held"] += sum(kept) > 0
            seen["used"] += any(b > k for b, k in zip(before[p], kept, strict=True))
        seen["turns"] += 1

    # random mulligans on a coin, careful a hand without a quest it can play
    settings = ((2, "careful", {"mulligans": 0}), (2, "random", {"mulligans": 2}),
                (4, "careful", {"mulligans": 1}))
    for P in twin_matches(checked_turn, settings):
        seen["mulligans"] += int(P[:, S.MULLS].sum())
    assert seen["turns"] > 200 and seen["held"] > 20 and seen["used"] > 5
    assert seen["mulligans"] > 5 and seen["quests"] > 200


def test_a_hand_set_by_hand_is_counted_at_its_first_read():
    """A state whose hand was filled without the rules (the counts' flag still 0) is counted
    whole at the first read; a card added through `to_hand` after it is counted too."""
    m = load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful")
    T = m.arrays()[0]
    instants = [c for c in range(T.shape[0])
                if T[c, K.C_KIND] == K.ACTION and T[c, K.C_NATURE] == K.INSTANT]
    assert instants
    c = instants[0]
    P = E.new_work(T.shape[0])[0]
    P[0, S.HAND], P[0, S.HAND_N] = c, 1
    assert twin(H.instants_in_hand)(T, P, 0, T[c, K.C_STEP]) == 1
    twin(H.to_hand)(T, P, 0, c)
    assert twin(H.instants_in_hand)(T, P, 0, T[c, K.C_STEP]) == 2
