"""`cardlab climb` on High Card, whose rules make the answer known: under `high` each player
plays the highest card of the hand and the higher card scores, so with the value cap lifted
a deck of higher cards is the stronger one, and the climb must reach decks that add up to
more than any deck of the field; every style keeps its own line; the same seed gives the
same climb; the command prints it and exits 0, and 2 on a bad deck."""

import re

import pandas as pd

from .conftest import ROOT, cardlab

HIGHCARD = ROOT / "decks" / "highcard"
VALUE = pd.read_csv(HIGHCARD / "cards.csv").set_index("id").value.to_dict()


def worth(counts: dict[str, int]) -> int:
    return sum(VALUE[c] * n for c, n in counts.items())


def test_the_climb_reaches_decks_of_higher_cards_style_by_style(tmp_path):
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.climb import climb
    from sim.solvers.deckbuild import Search

    # Every shipped deck adds up to exactly the cap of 100 (the folder's README); 4 copies
    # each of Nine down to Five, the most a deck of 20 may hold, add up to 140.
    fld = Field(get("highcard"), HIGHCARD, ["steady", "peaks", "tall"], "high",
                {"value_cap": 140})
    search = Search(rounds=3, mutants=6, start=40, elite=2, confirm=400)
    a = climb(fld, 3, search, 200, 5, tmp_path, "a")
    assert a["found"], "no deck beat the field's Nash mix"
    for name, f in a["found"].items():
        assert worth(f["counts"]) > 100, (name, f)
        assert sum(f["counts"].values()) == 20
    # Each round searched every style from that style's own deck: three rows a round, and
    # a deck found in a style's line descends from that style alone.
    rounds = a["rounds"]
    assert (rounds.groupby("round").style.apply(sorted).map(tuple)
            == ("peaks", "steady", "tall")).all()
    assert (rounds.parent == rounds["style"]).all()
    # The deck the grown field's Nash mix weighs most holds more than the cap the field
    # was built to.
    decks = a["decks"].set_index("deck")
    top = decks.nash.idxmax()
    counts = {**a["found"], **{n: {"counts": c} for n, c in a["tops"].items()}}
    assert top in counts and worth(counts[top]["counts"]) > 100
    b = climb(fld, 3, search, 200, 5, tmp_path, "b")
    pd.testing.assert_frame_equal(a["rounds"], b["rounds"])
    assert (tmp_path / "a" / "decks.parquet").read_bytes() == \
        (tmp_path / "b" / "decks.parquet").read_bytes()


def test_the_climb_command_prints_each_round_and_exits_2_on_a_bad_deck(tmp_path):
    common = ["--folder", "highcard", "--policy", "high", "--rules", "value_cap=140",
              "--results", str(tmp_path), "-q"]
    ran = cardlab("climb", *common, "-k", "1", "--search-rounds", "1", "--mutants", "3",
                  "-n", "50", "--confirm", "100", "--decks", "steady,peaks,tall")
    assert ran.returncode == 0, ran.stderr
    assert "each style's strongest deck" in ran.stdout and "the Nash mix holds" in ran.stdout
    # The grown field is judged by its three styles, not by asking its Nash mix to hold all
    # but one of its decks (several of them one style's).
    assert re.search(r"the Nash mix holds [0-3] of the 3 styles", ran.stdout), ran.stdout
    assert "healthy field (at least" not in ran.stdout
    bad = cardlab("climb", *common, "--decks", "steady,nope")
    assert bad.returncode == 2 and "nope" in bad.stderr


def test_a_style_whose_search_finds_nothing_new_keeps_its_deck_once(tmp_path):
    """One short search a style on Paint the Line: most styles find no deck better than
    their own. No deck's cards appear twice in the grown field, and every style is there
    once: its strongest deck added, or named as the deck of the field that holds its cards."""
    from sim.experiments.meta import Field
    from sim.kit.game import get
    from sim.solvers.climb import climb
    from sim.solvers.deckbuild import Search

    names = ["us-red-tide-top", "ussr-red-tide-top", "us-lob-control-top", "ussr-blitz-top"]
    fld = Field(get("paintline"), ROOT / "decks" / "paintline", names, "greedy")
    out = climb(fld, 1, Search(1, 3, 100, 2, 100), 100, 1, tmp_path, "c")
    b = fld.game.building
    counts = {**{n: b.counts(fld.pair(i, i), 0) for i, n in enumerate(names)},
              **{n: f["counts"] for n, f in out["found"].items()}, **out["tops"]}
    assert list(counts) == out["field"]
    cards = [tuple(sorted((c, x) for c, x in v.items() if x)) for v in counts.values()]
    assert len(set(cards)) == len(cards)
    assert out["kept"], "every style found a new deck: the test no longer shows a repeat"
    assert set(out["kept"].values()) <= set(out["field"])
    assert sorted([*out["kept"], *(f"{n}".removesuffix("-top") for n in out["tops"])]) == \
        sorted(names)
