"""Payne's rulebook sentences (docs/payne-rules.md, "Rule index") of Reveal, MayLie, AutoWin,
Ban, how long effects last and the players' choices, each pinned in both engines
(tests/payne_both.py) against numbers worked out from the sentence."""


import dataclasses

import pytest

from sim.payne import pool as T

from .payne_both import (
    ALL,
    ATT,
    AUTO,
    DEF_CARD,
    DEF_MASK,
    E_,
    OFF_CARD,
    OFF_MASK,
    ROUND,
    S_,
    SIDE,
    SUCCESS,
    Side,
    W,
    both,
    ids,
    list_share,
    lit,
    lit_count,
    matchup,
    printed,
    with_choices,
)

rule = pytest.mark.rule


# Reveal and MayLie ---------------------------------------------------------------------


@rule("PAY-37", "PAY-51")
def test_a_reveal_is_answered_with_a_side_in_the_asked_state():
    """Asked an unlit side of his defender (Edgar Lund: N and S unlit), guarded prior names
    the one whose meeting arrow the asker's list lights least (S); asked a lit arrow of his
    attacker (Eliza Penrose: N, E), the one meeting the side the defense list lights least
    (E). With his sides in random order he names either unlit side, never a lit one."""
    m = matchup("prior")
    off_share, def_share = list_share(m, 0, T.OFF), list_share(m, 1, T.DEF)
    assert off_share[2] < off_share[0] and def_share[1] < def_share[0]
    sides = [Side(off="eliza-penrose", dfn="kurt-osgood"),
             Side(off="brock-danner", dfn="edgar-lund")]
    asked_def, asked_off = both(m, sides, ("reveal", 0, T.DEF), ("reveal", 1, T.OFF))[0]
    assert asked_def.answer == "S" and asked_def.know[0][T.DEF] == [-1, -1, 0, -1]
    assert asked_off.answer == "E" and asked_off.know[1][T.OFF] == [-1, 1, -1, -1]
    m = with_choices(m, 1, reveal_answer="random")
    answers = {both(m, sides, ("reveal", 0, T.DEF), seed=seed)[0][0].answer
               for seed in range(24)}
    assert answers == {"N", "S"}


@rule("PAY-38", "PAY-41", "PAY-43", "PAY-52")
def test_under_maylie_a_player_may_lie_and_the_asker_learns_nothing():
    """Without a MayLie the answer is always an unlit side (N or S of Edgar Lund). With
    one in effect, random lies at lie_rate (1/2: a uniform answer of the four sides and
    "none"), so lit sides are named too, and prior always lies (a lit side); the asker,
    who knows a MayLie is in effect, takes nothing from the answer."""
    m = matchup("prior", "random")
    for lie, policy in ((0, "random"), (1, "random"), (1, "prior")):
        mm = m if policy == "random" else matchup("prior")
        answers = []
        for seed in range(30):
            sides = [Side(off="eliza-penrose", dfn="kurt-osgood"),
                     Side(off="brock-danner", dfn="edgar-lund", lie=(0, lie))]
            (left,), _ = both(mm, sides, ("reveal", 0, T.DEF), seed=seed)
            answers.append(left.answer)
            known = left.know[0][T.DEF]
            if lie:
                assert known == [-1] * 4
            else:
                assert known.count(0) == 1 and known.count(-1) == 3
        truthful = {a in ("N", "S") for a in answers}
        assert truthful == ({True} if not lie else {True, False} if policy == "random"
                            else {False})


@rule("PAY-42", "PAY-53")
def test_maylie_lasts_its_battle_and_the_asker_holds_his_reveal():
    """B attacks first and plays Hall Pass (defensive MayLie) for his defence in battle 2:
    there A (prior) holds Pop Quiz, a Reveal worth nothing against a player who may lie;
    after battle 2 the MayLie is discarded with B's defender. Without it, A plays Pop Quiz."""
    m = matchup("prior")
    for hall_pass in (True, False):
        a = Side(off="avery-quill", dfn="kurt-osgood", hand=("pop-quiz",), deck=("blank",))
        b = Side(off="brock-danner", dfn="edgar-lund", hand=("hall-pass",) * hall_pass)
        first, second = both(m, [a, b], ("battle", 1, 0), ("battle", 0, 1))[0]
        assert first.seats[1].lie == [0, int(hall_pass)]
        assert second.seats[1].lie == [0, 0]
        assert (ids(m, "pop-quiz")[0] in second.seats[0].hand) == hall_pass
        assert second.seats[1].discards == 2 + hall_pass


# AutoWin and Ban -----------------------------------------------------------------------


@rule("PAY-39")
def test_an_auto_win_wins_the_battle_without_a_side():
    """Snow Day (offensive AutoWin, and Ban 3 on its player: the catch): the attacker wins
    though his arrows would not; a defender's AutoWin (Vera Thorne as an event) wins the
    defender a battle the arrows give the attacker; the two in one battle cancel (the
    arrows decide, auto_win_clash cancel)."""
    m = matchup("prior", "plain")
    cases = [  # attacker's hand, defender, defender's AutoWin, winner, log auto
        (("snow-day",), "xena-brooks", 0, 0, 1),
        ((), "wade-ellison", 1, 1, 2),
        (("snow-day",), "wade-ellison", 1, 0, 0),
        ((), "xena-brooks", 0, 1, 0),
    ]
    for hand, dfn, auto, winner, how in cases:
        (left,), _ = both(m, [Side(off="avery-quill", dfn="kurt-osgood", hand=hand),
                              Side(off="brock-danner", dfn=dfn, auto=(0, auto))],
                          ("battle", 0, 0))
        (row,) = left.log
        assert row[AUTO] == how and (row[SIDE] == -1) == (how > 0)
        assert [s.score for s in left.seats] == [1 - winner, winner]
        assert left.autowins == int(how > 0)
        assert left.seats[0].ban_next == (3 if hand else 0)


@rule("PAY-39", "PAY-25")
def test_a_defensive_auto_win_played_in_battle_1_wins_the_defence_in_battle_2():
    """A attacks first and plays Vera Thorne as a defensive event (AutoWin) for his
    defence: his attack on Xena Brooks (E) with N fails, then B's attack on Wade Ellison
    (N) with N, which the arrows would give B, is A's by the AutoWin."""
    m = matchup("prior", "plain")
    a = Side(off="avery-quill", dfn="wade-ellison", hand=("vera-thorne", "petra-quist"))
    b = Side(off="pia-langford", dfn="xena-brooks")
    first, second = both(m, [a, b], ("battle", 0, 0), ("battle", 1, 1))[0]
    assert first.log[0][AUTO] == 0 and first.seats[0].auto == [0, 1]
    row = second.log[1]
    assert (row[AUTO], row[SIDE], row[SUCCESS]) == (2, -1, 0)
    assert lit(row[OFF_MASK], 0) and lit(row[DEF_MASK], 0)  # N on N: the arrows said B
    assert [s.score for s in second.seats] == [1, 1] and second.seats[0].auto == [0, 0]


@rule("PAY-40")
def test_a_ban_forbids_events_boosters_or_both_the_next_round():
    """Snow Day (Ban 3) binds its player, Detention (Ban -1) the opponent, in the next round:
    there A plays nothing, B (prior) his Laptop but not his Pop Quiz. A ban of 1 forbids
    events (a character played as one too), 2 boosters, 3 both, each for that round."""
    m = matchup("prior", attack_draw=4)
    deck = ("avery-quill", "kurt-osgood", "laptop", "pop-quiz") + ("pia-langford",) * 8
    a = Side(off="opal-wren", dfn="oscar-bell", hand=("snow-day", "detention"), deck=deck)
    b = Side(off="brock-danner", dfn="yuri-galt",
             hand=("quinn-ashby", "xena-brooks", "laptop", "pop-quiz"), deck=("blank",))
    battle, nxt = both(m, [a, b], ("battle", 0, 0), ("round",))[0]
    assert [s.ban_next for s in battle.seats] == [3, 1]
    assert sorted(battle.seats[0].hand) == sorted(ids(m, *deck[:4]))  # for the next round
    assert [s.ban_now for s in nxt.seats] == [3, 1] and [s.ban_next for s in nxt.seats] == [0, 0]
    assert sorted(nxt.seats[0].hand) == sorted(ids(m, "laptop", "pop-quiz", *deck[4:8]))
    assert nxt.seats[1].hand == ids(m, "pop-quiz")
    m = matchup("prior")
    cards = ("laptop", "pop-quiz", "dorian-vale")
    for ban, kept in ((0, ()), (1, ("pop-quiz", "dorian-vale")), (2, ("laptop",)),
                      (3, cards)):
        hand = ("avery-quill", "pia-langford", "kurt-osgood", *cards)
        (left,), _ = both(m, [Side(hand=hand, ban_next=ban, deck=("blank",)),
                              Side(hand=("quinn-ashby", "xena-brooks"), deck=("blank",))],
                          ("round",))
        assert sorted(c for c in left.seats[0].hand if c in ids(m, *cards)) == \
            sorted(ids(m, *kept)), ban


@rule("PAY-29")
def test_an_arrow_change_lasts_for_its_battle_only():
    """A's Laptop lights an arrow of his attacker in round 2; that character is discarded
    with the battle, and round 3's battlers fight with their printed arrows."""
    m = matchup("prior")
    a = Side(hand=("avery-quill", "kurt-osgood", "laptop"),
             deck=("pia-langford", "oscar-bell") * 4)
    b = Side(hand=("brock-danner", "xena-brooks"), deck=("quinn-ashby", "petra-quist") * 4)
    round2, round3 = both(m, [a, b], ("round",), ("round",))[0]
    table = m.pool.table
    changed = [r for r in round2.log if r[ATT] == 0]
    assert lit_count(changed[0][OFF_MASK]) == 2  # Avery Quill and the Laptop's arrow
    later = [r for r in round3.log if r[ROUND] == 3]
    assert len(later) == 2
    for row in later:
        assert row[OFF_MASK] == table[row[OFF_CARD], T.C_ARROWS]
        assert row[DEF_MASK] == table[row[DEF_CARD], T.C_ARROWS]


@rule("PAY-47")
@pytest.mark.parametrize("order", ["print", "reveal_first"])
def test_the_player_orders_a_cards_two_effects(order):
    """Jasper Reed given a Reveal after its blind light: the defender (Kurt Osgood, W unlit
    only) answers as his card is when the Reveal resolves. In printed order W is lit first
    and he has no unlit side ("none": all four known lit); a Reveal first names W."""
    m0 = matchup("prior")
    table = m0.pool.table.copy()
    table[m0.pool.lookup("jasper-reed"), T.C_EFF2] = T.REVEAL
    m = with_choices(dataclasses.replace(m0, pool=m0.pool.with_table(table)), 0,
                     effect_order=order)
    sides = [Side(off="jasper-reed", off_mask=S_ | W, dfn="oscar-bell"),
             Side(off="brock-danner", dfn="kurt-osgood")]
    (left,), text = both(m, sides, ("card", 0, "jasper-reed"))
    assert left.seats[1].dfn_mask == ALL
    said = [t for t in text if "Reveal:" in t][0].rsplit(": ", 1)[1]
    if order == "print":
        assert said == "none" and left.know[0][T.DEF] == [1, 1, 1, 1]
    else:
        assert said == "W" and left.know[0][T.DEF] != [1, 1, 1, 1]


@rule("PAY-44")
def test_prior_fields_its_likeliest_attacker_and_safest_defender():
    """prior fields the offensive character whose lit arrow meets the side the defense
    list lights most (Avery Quill: N; Brock Danner: E only), and the defensive character
    the offense list's attackers meet lit least (Vera Thorne, no arrow lit)."""
    m = matchup("prior", "plain")
    share = list_share(m, 1, T.DEF)
    assert share[0] > share[1]
    a = Side(hand=("brock-danner", "avery-quill", "kurt-osgood", "vera-thorne"))
    b = Side(hand=("quinn-ashby", "xena-brooks"))
    for seed in range(4):
        (left,), _ = both(m, [a, b], ("round",), seed=seed)
        mine = {r[ATT]: r for r in left.log}
        assert mine[0][OFF_CARD] == ids(m, "avery-quill")[0]
        assert mine[1][DEF_CARD] == ids(m, "vera-thorne")[0]


@rule("PAY-48", "PAY-15")
def test_the_side_attacked_is_the_attackers_choice():
    """Tessa Moreau (N and S lit) attacks: plain names N or S (the sides its lit arrows lie
    on), each in some battles; random any of the four."""
    for policy, expected in (("plain", {0, 2}), ("random", {0, 1, 2, 3})):
        m = matchup(policy)
        sides = {both(m, [Side(off="tessa-moreau", dfn="kurt-osgood"),
                          Side(off="brock-danner", dfn="xena-brooks")], ("battle", 0, 0),
                      seed=seed)[0][0].log[0][SIDE] for seed in range(30)}
        assert sides == expected


@rule("PAY-33", "PAY-34", "PAY-50")
def test_an_arrow_disadvantage_changes_the_opposing_battler_blind():
    """Fire Drill (B's, ArrowDisadvantage -1) unlights one lit arrow of A's attacker, Jasper
    Reed as an event (A's, +1) lights one of B's defender: the card's player chooses, blind
    (silent: he takes the first side he named as changed), and the changed card's owner,
    told only that one arrow changed, keeps his picture of it."""
    m = matchup("prior")
    a = Side(off="eliza-penrose", dfn="kurt-osgood")
    b = Side(off="brock-danner", dfn="xena-brooks")
    drill, jasper = both(m, [a, b], ("card", 1, "fire-drill"), ("card", 0, "jasper-reed"))[0]
    A = drill.seats[0]
    assert lit_count(A.off_mask) == 1 and A.off_mask & printed(m, "eliza-penrose") == A.off_mask
    assert A.off_belief == printed(m, "eliza-penrose")
    assert sorted(drill.know[1][T.OFF]) == [-1, -1, -1, 0]
    B = jasper.seats[1]
    assert lit_count(B.dfn_mask) == 2 and B.dfn_mask & E_
    assert B.dfn_belief == printed(m, "xena-brooks")
    assert sorted(jasper.know[0][T.DEF]) == [-1, -1, -1, 1]
    assert drill.seats[1].dfn_mask == printed(m, "xena-brooks")  # his own: untouched
