"""A seat's view of its characters (Power.with_view): its policy fields them and names
sides as the view holds their arrows, the battles use the card table's arrows."""

import numpy as np

from sim.kit.folders import read_folder
from sim.kit.game import get

from .conftest import ROOT

N = 3000


def matchup():
    g = get("payne")
    info = read_folder(ROOT / "decks" / "payne")
    m = g.load_matchup(info.path, *info.decks, "prior", "prior", {}, [])
    return g, m, [d.name for d in m.decks].index("defense")


def stats(g, m, seat, card):
    rec = g.run_batch(m, N, 2)
    c = list(m.pool.ids).index(card)
    return dict(zip(g.schema_of(m).all_card_stats, rec.card_stats[seat, c].tolist(),
                    strict=True))


def test_a_view_equal_to_the_table_plays_every_match_as_before():
    g, m, seat = matchup()
    before = g.run_batch(m, N, 2)
    after = g.run_batch(g.power.with_view(m, seat, {("cyrus-webb", "sides"): int(
        g.power.cards(m).set_index("id").at["cyrus-webb", "sides"])}), N, 2)
    assert np.array_equal(before.matches, after.matches)
    assert np.array_equal(before.card_stats, after.card_stats)


def test_the_policy_reads_the_view_and_the_battle_the_table():
    # Cyrus Webb made a defender with every side lit (no side helps it: every attack on it
    # succeeds), seen by its own seat as one with no side lit (every side helps). prior
    # fields the defender that it expects to stop most attacks, so it fields him far more
    # often than the weak card it truly is; but in battle he stops few attacks (only those
    # whose side the attacker's own arrow does not light, or that an effect turns), where
    # the truly strong card stops most.
    g, m, seat = matchup()
    weak = g.power.with_values(m, {("cyrus-webb", "sides"): 0})
    strong = {("cyrus-webb", "sides"): 4}
    plain = stats(g, weak, seat, "cyrus-webb")
    viewed = stats(g, g.power.with_view(weak, seat, strong), seat, "cyrus-webb")
    true = stats(g, g.power.with_values(m, strong), seat, "cyrus-webb")
    assert viewed["fielded"] > 2 * max(plain["fielded"], 1)
    held = viewed["battles_won"] / viewed["battles"]
    assert held < 0.2 and true["battles_won"] / true["battles"] > held + 0.5


def test_an_arrow_change_is_chosen_by_the_view_of_the_opposing_characters():
    # docs/payne-rules.md: prior decides "from its own view". Lighting one arrow of his own
    # attacker (Arrow Advantage +1, no arrow lit), prior lights the arrow that meets the side
    # the opponent's unseen defenders light most often (facing: the same side). Seat 0's
    # view reads every defender of the opposing deck with W alone lit, so he lights W,
    # whatever the defenders' printed arrows say.
    from sim.core.rng import N_STREAMS
    from sim.payne import pool as T
    from sim.payne import rules as Ru
    from sim.payne import state as S

    from .payne_both import kernel_seen

    g, m, defense = matchup()
    seat = 1 - defense
    table, views, R, prms = (np.array(a) for a in m.arrays()[:4])
    in_deck = np.array(m.arrays()[6])
    theirs = [c for c in range(len(table)) if in_deck[defense, c] > 0
              and table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == T.DEF]
    printed = [sum(int(in_deck[defense, c]) * (int(table[c, T.C_ARROWS]) >> s & 1)
                   for c in theirs) for s in range(4)]
    assert max(range(4), key=printed.__getitem__) != 3  # the print alone would not give W
    views[seat, theirs, T.C_ARROWS] = 8
    attacker = next(c for c in range(len(table)) if in_deck[seat, c] > 0
                    and table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == T.OFF)
    P = np.zeros((2, S.PLAYER_SIZE), dtype=np.int64)
    P[:, S.OFF] = P[:, S.DEF] = -1
    P[seat, S.OFF] = attacker  # his arrows now: none lit
    KN = np.full((2, 2, 4), -1, dtype=np.int64)
    seen = kernel_seen(views, in_deck, np.zeros((2, len(table)), dtype=np.int64))
    Ru.arrow_change(table, views, R, prms, P, KN, seat, T.OFF, 1, False, seen,
                    np.zeros(N_STREAMS, dtype=np.uint64), np.zeros(N_STREAMS, dtype=np.int64),
                    np.zeros(8),
                    np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64))
    assert P[seat, S.OFF_MASK] == 8
