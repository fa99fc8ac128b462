"""`--set CARD.FIELD=VALUE`, read once by the card table (sim/kit/cards.py) for every game:
the card by id or name, the field among the card's whole numbers or the game's own setters,
each problem told at once with exit 2, and an edited card checked as a cards.csv line is."""

from __future__ import annotations

import pytest

from sim.core.problems import InputError
from sim.kit import game as registry
from sim.kit.folders import read_folder

from .conftest import ROOT, cardlab

GAMES = registry.names()


def pool_of(name):
    g, info = registry.get(name), read_folder(ROOT / "decks" / name)
    return g.load_matchup(info.path, *info.decks, info.policy, info.policy, {}, []).pool


@pytest.mark.parametrize("name", GAMES)
def test_a_set_changes_that_cell_alone_and_reads_back(name):
    pool = pool_of(name)
    # A number the card already has (a field it uses), one higher.
    card, field, slot = next((c, f, s) for c, k in enumerate(pool.kinds) if k != "blank"
                             for f, s in pool.numbers.items() if pool.table[c, s] > 0)
    now = int(pool.table[card, slot])
    edited = pool.with_sets([f"{pool.names[card]}.{field}={now + 1}"])
    assert edited.value_of(f"{pool.ids[card]}.{field}") == now + 1
    changed = (edited.table != pool.table).nonzero()
    assert list(zip(*changed, strict=True)) == [(card, slot)]
    assert pool.with_sets([]) is pool


@pytest.mark.parametrize("name", GAMES)
def test_every_problem_of_a_set_is_told_at_once(name):
    pool = pool_of(name)
    card = pool.names[next(c for c, k in enumerate(pool.kinds) if k != "blank")]
    field = next(iter(pool.numbers))
    with pytest.raises(InputError) as err:
        pool.with_sets([f"{card[:-1]}.{field}=1", f"{card}.speed=1", f"{card}.{field}=x",
                        f"{card}.{field}"])
    said = [p.message for p in err.value.problems]
    assert len(said) == 4 and all(p.path == "--set" for p in err.value.problems)
    assert f"did you mean {card!r}" in said[0]
    assert "unknown field 'speed'" in said[1] and field in said[1]
    assert "whole number" in said[2] and "CARD.FIELD=VALUE" in said[3]


def test_an_edited_card_is_checked_as_its_line_would_be(tmp_path):
    """A negative cost is refused by the row check of cards.csv, before anything plays."""
    out = cardlab("simulate", "--folder", "paintline", "--set", "Push.cost=-1", "-n", "10",
                  "--results", str(tmp_path))
    assert out.returncode == 2 and "cost must not be negative" in out.stderr
    assert not list(tmp_path.iterdir())  # nothing written


def test_payne_sets_sides_through_its_own_setter_and_rarity_follows():
    """Payne's own fields: sides (how many help the role) and arrows, rarity from the lit
    arrows by the rulebook's table (offensive: 4 lit is super rare)."""
    pool = pool_of("payne")
    card = next(c for c in range(len(pool)) if pool.kinds[c] == "character"
                and pool.table[c, 1] == 0)  # an offensive character
    edited = pool.with_sets([f"{pool.ids[card]}.sides=4"])
    assert edited.table[card].tolist() != pool.table[card].tolist()
    from sim.payne import pool as T

    assert edited.table[card, T.C_ARROWS] == 0b1111
    assert T.RARITIES[edited.table[card, T.C_RARITY]] == "super_rare"
