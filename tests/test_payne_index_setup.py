"""Payne's rulebook sentences (docs/payne-rules.md, "Rule index") of cards, decks, set-up,
fielding, the coin and the score of a battle, each pinned in both engines (tests/payne_both.py)
against numbers worked out here from the sentence."""



import numpy as np
import pytest

from sim.core.problems import InputError
from sim.payne import pool as T
from sim.payne import rules as Ru
from sim.payne import state as S
from sim.payne.reference import Match

from .payne_both import (
    ALL,
    ATT,
    AUTO,
    DEF_CARD,
    DEF_MASK,
    E_,
    FOLDER,
    GAME,
    KIND,
    OFF_CARD,
    OFF_MASK,
    PTS_A,
    PTS_B,
    ROUND,
    S_,
    SIDE,
    SUCCESS,
    N,
    Side,
    both,
    ids,
    kernel_of,
    left_by_kernel,
    left_by_reference,
    lit,
    lit_count,
    log_rows,
    matchup,
    played,
)

rule = pytest.mark.rule


# Cards and decks ---------------------------------------------------------------------------


@rule("PAY-1", "PAY-2")
def test_three_kinds_of_card_and_only_characters_battle():
    """Characters are fielded and battle; boosters are played as boosters; events, and
    characters with a power, as events; nothing else is ever in play."""
    m, rec = played()
    table = m.pool.table
    kind, role = table[:, T.C_KIND], table[:, T.C_ROLE]
    power = table[:, T.C_EFF1] != T.NONE
    cs = rec.card_stats.sum(axis=0)
    fielded, as_event, as_booster, battles = cs[:, 4], cs[:, 5], cs[:, 6], cs[:, 7]
    character = kind == T.CHARACTER
    assert not fielded[~character].any() and not battles[~character].any()
    assert not as_booster[kind != T.BOOSTER].any()
    assert not as_event[(kind == T.BOOSTER) | (character & ~power)].any()
    for played_ in (as_booster[kind == T.BOOSTER], as_event[kind == T.EVENT],
                    as_event[character], fielded[character]):
        assert played_.sum() > 0  # each kind is in play in these matches
    for rows in log_rows(rec):
        for row in rows:
            if row[KIND] == S.LOG_BATTLE:
                off, dfn = row[OFF_CARD], row[DEF_CARD]
                assert character[off] and role[off] == T.OFF
                assert character[dfn] and role[dfn] == T.DEF


@rule("PAY-3", "PAY-4")
def test_sixty_cards_six_of_a_name_and_copies_by_rarity():
    """The validator holds each deck to 60 cards (deck_size: fewer, the same for both) and
    a name to 6 copies, 3 common, 2 uncommon, 1 rare or super rare; both engines play the
    whole deck: drawing 7, then 6 a round (attack_draw 6), a deck of n cards runs out in
    round (n - 7) // 6 + 1, and under deck_out = lose the match ends there."""
    from sim.payne.edits import with_deck

    m = matchup()
    at = {cid: i for i, cid in enumerate(m.pool.ids)}
    counts = dict(m.decks[0].counts)
    assert GAME.validate(m) == []

    def problems(**changes):
        new = {**counts, **{at[k.replace("_", "-")]: v for k, v in changes.items()}}
        return " ".join(p.message for p in GAME.validate(with_deck(m, 0, new)))

    assert "59 cards, must be exactly 60" in problems(detention=1)
    assert "61 cards, must be exactly 60" in problems(detention=3)
    assert "7 copies of the name, at most 6" in problems(avery_quill=7, detention=0, laptop=1)
    assert "4 common copies of the name, at most 3" in problems(avery_quill=4, detention=1)
    assert "4 common copies" in problems(laptop=4, detention=1)  # a booster: 3 at most
    assert "3 uncommon copies of the name, at most 2" in problems(kira_vance_uncommon=3,
                                                                  detention=1)
    assert "2 rare/super_rare copies of the name, at most 1" in problems(kira_vance=2,
                                                                        detention=1)
    assert problems() == ""  # Kira Vance: 1 rare and 2 uncommon copies of one name
    # the copies of a name, over its versions: Abel Crane's two uncommon printings
    assert "3 uncommon copies of the name, at most 2" in problems(
        abel_crane=2, abel_crane_uncommon=1, detention=0, laptop=2)
    assert problems(abel_crane=1, abel_crane_uncommon=1, detention=0) == ""

    def cut(deck, n):  # the first n cards of a list
        out, left = {}, n
        for c, k in deck.counts:
            out[c], left = min(k, left), left - min(k, left)
        return out

    rules = {"deck_out": "lose", "attack_draw": 6, "points_to_win": 999}
    for size in (60, 40):
        m2 = matchup(**rules)
        if size < 60:
            m2 = with_deck(with_deck(m2, 0, cut(m2.decks[0], size)), 1, cut(m2.decks[1], size))
            assert "must be exactly 60" in " ".join(p.message for p in GAME.validate(m2))
            m2 = GAME.with_rules(m2, {"deck_size": size})  # both decks: fewer by agreement
            with pytest.raises(InputError, match="must be exactly 40"):
                GAME.with_rules(with_deck(m2, 0, counts), {})
        rec = GAME.run_batch(m2, 20, 3)
        assert rec.same_as(GAME.reference_batch(m2, 20, 3))
        assert (rec.column("end") == S.END_DECK_OUT).all()
        assert (rec.column("rounds") == (size - 7) // 6 + 1).all()


@rule("PAY-3")
def test_deck_files_of_an_agreed_size_are_read_under_it(tmp_path):
    """"Exactly deck_size cards", fewer by agreement: deck files of 40 cards load under
    `--rules deck_size=40` (the run's rules judge them as they are read), are refused
    without it, and the shipped 60-card lists are refused under it."""
    lists = {}
    for name in ("offense", "defense"):
        left, lines = 40, []
        for line in (FOLDER / f"{name}.deck").read_text().splitlines():
            parts = line.split(maxsplit=1)
            if len(parts) == 2 and parts[0].isdigit() and left > 0:
                k = min(int(parts[0]), left)
                lines.append(f"{k} {parts[1]}")
                left -= k
        lists[name] = tmp_path / f"{name}40.deck"
        lists[name].write_text("\n".join(lines) + "\n")
    m = GAME.load_matchup(FOLDER, lists["offense"], lists["defense"], "plain", "plain",
                          {"deck_size": 40}, [])
    assert [sum(n for _, n in d.counts) for d in m.decks] == [40, 40]
    assert GAME.validate(m) == []
    with pytest.raises(InputError, match="offense40.deck:.*40 cards, must be exactly 60"):
        GAME.load_matchup(FOLDER, lists["offense"], lists["defense"], "plain", "plain", {}, [])
    with pytest.raises(InputError, match="offense.deck:.*60 cards, must be exactly 40"):
        GAME.load_matchup(FOLDER, "offense", "defense", "plain", "plain", {"deck_size": 40}, [])
    # A card edit is judged the same way: Eliza Penrose with three lit arrows is rare, one
    # copy of the name at most, and the offense list's line of its two copies is named.
    text = (FOLDER / "offense.deck").read_text().splitlines()
    line = next(i for i, t in enumerate(text, 1) if t.split()[-1:] == ["eliza-penrose"])
    assert text[line - 1].split()[0] == "2"
    with pytest.raises(InputError, match=f"offense.deck:{line}: .*Eliza Penrose.*at most 1"):
        GAME.load_matchup(FOLDER, "offense", "defense", "plain", "plain", {},
                          ["eliza-penrose.sides=3"])


@rule("PAY-5", "PAY-6", "PAY-7")
def test_rarity_follows_the_lit_arrows():
    """The card table's rule (no engine reads rarity): for each role and number of lit
    arrows the one rarity a character may have; offensive ones rarer with more lit arrows,
    defensive ones with fewer; boosters and events only common."""
    def row(kind, role=0, arrows=0, rarity=T.COMMON, effect=T.NONE, arg=0):
        return [kind, role, arrows, rarity, effect, arg, T.NONE, 0, 0]

    masks = [0, N, N | E_, N | E_ | S_, ALL]  # 0 .. 4 lit
    allowed = {}
    for role in (T.OFF, T.DEF):
        for n, mask in enumerate(masks):
            ok = [r for r in range(4) if not T.card_problems(row(T.CHARACTER, role, mask, r))]
            assert len(ok) == 1, (role, n, ok)
            allowed[role, n] = ok[0]
    off = [allowed[T.OFF, n] for n in range(5)]
    dfn = [allowed[T.DEF, n] for n in range(5)]
    assert off == sorted(off) and off[4] > off[0]  # the more lit, the rarer
    assert dfn == sorted(dfn, reverse=True) and dfn[0] > dfn[4]  # the fewer lit, the rarer
    for kind in (T.BOOSTER, T.EVENT):
        assert not T.card_problems(row(kind, effect=T.REVEAL))
        for rarity in (T.UNCOMMON, T.RARE, T.SUPER_RARE):
            assert T.card_problems(row(kind, rarity=rarity, effect=T.REVEAL))
    m = matchup()
    table = m.pool.table
    for c in range(len(table)):
        if table[c, T.C_KIND] == T.CHARACTER:
            n = lit_count(table[c, T.C_ARROWS])
            assert table[c, T.C_RARITY] == allowed[int(table[c, T.C_ROLE]), n]
        else:
            assert table[c, T.C_RARITY] == T.COMMON


# Set-up ------------------------------------------------------------------------------------


def both_set_up(m, deck, seed):
    """Seat A's set-up from this deck list in both engines: (hand, deck left, redraws)."""
    g = Match(m, seed, 0)
    g.seats[0].deck = cards = ids(m, *deck)
    k = kernel_of(g)
    Ru.set_up(k["table"], k["R"], k["P"], 0, np.array(cards, dtype=np.int64), k["keys"],
              k["ctr"], k["drawn"])
    g.set_up(0)
    kernel, reference = left_by_kernel(k), left_by_reference(g)
    assert kernel == reference
    a = reference.seats[0]
    return a.hand, a.deck, a.redraws


@rule("PAY-8", "PAY-10")
def test_seven_cards_redrawn_until_both_roles():
    """Seven cards are drawn. A hand without a character of each role goes back and the
    deck is drawn again: one attacker among 12 cards misses a hand of 7 with chance
    q = C(11, 7) / C(12, 7) = 5/12, so the redraws are geometric with mean q / (1 - q)."""
    from collections import Counter

    m = matchup()
    mixed = ("avery-quill",) * 5 + ("kurt-osgood",) * 5  # any 7 of these hold both roles
    for seed in range(10):
        hand, left, redraws = both_set_up(m, mixed, seed)
        assert (len(hand), len(left), redraws) == (7, 3, 0)
    one = ("avery-quill",) + ("kurt-osgood",) * 11
    avery, kurt = ids(m, "avery-quill", "kurt-osgood")
    redraws = []
    for seed in range(80):
        hand, left, r = both_set_up(m, one, seed)
        assert len(hand) == 7 and avery in hand and kurt in hand
        assert Counter(hand + left) == Counter(ids(m, *one))  # shuffled back, not lost
        redraws.append(r)
    q = 5 / 12
    mean, sd = q / (1 - q), q ** 0.5 / (1 - q)
    assert abs(np.mean(redraws) - mean) < 4 * sd / len(redraws) ** 0.5
    assert max(redraws) > 0


# Rounds and battles ------------------------------------------------------------------------


@rule("PAY-2", "PAY-9")
def test_each_fields_one_character_of_each_role_face_down():
    """Each player puts one offensive and one defensive character from his hand into play;
    they lie face down: what a player knew of the last battlers is gone, and each player
    has seen the opposing battlers only once flipped, nothing of the hand."""
    m = matchup("plain")
    hand_a = ("avery-quill", "pia-langford", "kurt-osgood", "laptop")
    hand_b = ("brock-danner", "xena-brooks", "oscar-bell", "pop-quiz")
    (left,), _ = both(m, [Side(hand=hand_a), Side(hand=hand_b)], ("round",), know=1)
    battles = [r for r in left.log if r[KIND] == S.LOG_BATTLE]
    assert len(battles) == 2
    offs = {r[ATT]: r[OFF_CARD] for r in battles}  # each seat's battlers
    dfns = {1 - r[ATT]: r[DEF_CARD] for r in battles}
    assert offs[0] in ids(m, "avery-quill", "pia-langford") and [offs[1]] == ids(m, "brock-danner")
    assert [dfns[0]] == ids(m, "kurt-osgood") and dfns[1] in ids(m, "xena-brooks", "oscar-bell")
    for p, hand in enumerate((hand_a, hand_b)):
        kept = sorted(ids(m, *hand))
        kept.remove(offs[p])
        kept.remove(dfns[p])
        drawn = ids(m, *Side().deck[:2])
        assert sorted(left.seats[p].hand) == sorted(kept + drawn)  # the attacker drew 2
        assert left.seats[p].discards == 2
        seen = {c: n for c, n in enumerate(left.seen[p]) if n}
        assert seen == {offs[1 - p]: 1, dfns[1 - p]: 1}
    assert left.know == [[[-1] * 4] * 2] * 2


def rounds_of(rows):
    """A match's log rows by round, in play order."""
    out: dict[int, list] = {}
    for row in rows:
        out.setdefault(row[ROUND], []).append(row)
    return list(out.values())


@rule("PAY-11", "PAY-20", "PAY-23")
def test_a_coin_each_round_picks_who_attacks_first_then_the_other_attacks():
    """Each round a coin picks the first attacker, then the other player attacks. A fair
    coin flipped again each round: each seat attacks first in about half the rounds, and
    in about half the pairs of consecutive rounds the first attacker changes (neither kept
    nor taken in turns)."""
    m, rec = played("plain", decks=("offense", "defense"), n=200)
    firsts, pairs, changes = [], 0, 0
    for i, rows in enumerate(log_rows(rec)):
        first = {}  # round -> its first attacker
        for rnd in rounds_of(rows):
            battles = [r for r in rnd if r[KIND] == S.LOG_BATTLE]
            if not battles:
                continue
            first[battles[0][ROUND]] = battles[0][ATT]
            if len(battles) == 2:
                assert battles[1][ATT] == 1 - battles[0][ATT]
        assert first[1] == rec.column("first_attacker")[i]  # round 1 always fields
        firsts += first.values()
        for r, att in first.items():
            if r + 1 in first:
                pairs += 1
                changes += first[r + 1] != att

    def fair(k, n):  # k heads of n flips of a fair coin, within 4 standard deviations
        return abs(k - n / 2) < 4 * (n / 4) ** 0.5

    k = rec.column("first_attacker")
    assert fair(sum(firsts), len(firsts)) and fair(k.sum(), len(k))
    assert pairs > 500 and fair(changes, pairs)


@rule("PAY-16", "PAY-17", "PAY-18", "PAY-21")
def test_every_battle_scores_as_the_rulebook_says():
    """In every battle both engines played: the attack succeeds exactly when the
    attacker's arrow and the defender's side where it lies (the same side, the cards facing
    their owners) are both lit after the cards played; success is the attacker's point, else
    the defender's, one point a battle; an AutoWin decides without a side. Some battles
    end otherwise than their printed arrows would have: the cards played counted."""
    m, rec = played()
    table = m.pool.table
    by_print = 0
    for rows in log_rows(rec):
        score = [0, 0]
        for row in rows:
            if row[KIND] == S.LOG_BATTLE:
                att, side = row[ATT], row[SIDE]
                if row[AUTO] == 0:
                    assert 0 <= side < 4
                    assert row[SUCCESS] == lit(row[OFF_MASK], side) & lit(row[DEF_MASK], side)
                    by_print += row[SUCCESS] != lit(table[row[OFF_CARD], T.C_ARROWS], side) \
                        & lit(table[row[DEF_CARD], T.C_ARROWS], side)
                else:
                    assert side == -1 and row[SUCCESS] == (row[AUTO] == 1)
                score[att if row[SUCCESS] else 1 - att] += 1
            else:
                score = [row[PTS_A], row[PTS_B]]  # an unfielded round: its own rule
            assert [row[PTS_A], row[PTS_B]] == score
    assert by_print > 0


