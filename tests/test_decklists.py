"""The deck-list reader every game shares, written from the format of the folder READMEs:
`COUNT Card` lines by id or by name, `#` comments, `[section]` headers where a deck has
parts; every problem named with its file and line; the rules every list of card counts
keeps (deck_size, copies per name)."""

from __future__ import annotations

from sim.core.problems import Problem
from sim.kit.decklists import Deck, listing_problems, read_deck_list, tally, whole_deck
from sim.kit.game import get


def pool():
    from sim.kit.folders import default_folder

    return get("payne").load_matchup(default_folder("payne"), "offense", "defense").pool


def test_lines_comments_ids_names_and_tabs(tmp_path):
    deck = tmp_path / "a.deck"
    deck.write_text("# a comment line\n2 laptop   # Laptop by id\n\n1\tStudy Hall\n"
                    "1 laptop\n", encoding="utf-8")
    p = pool()
    entries, problems = read_deck_list(deck, p)
    assert problems == []
    assert [(e.line, e.count, p.ids[e.card]) for e in entries] == [
        (2, 2, "laptop"), (4, 1, "study-hall"), (5, 1, "laptop")]
    counts, first = tally(entries)
    assert [(p.ids[c], n) for c, n in counts] == [("laptop", 3), ("study-hall", 1)]
    assert first[p.lookup("laptop")] == 2


def test_every_problem_is_named_at_its_line(tmp_path):
    deck = tmp_path / "b.deck"
    deck.write_text("two laptop\n0 laptop\n3 Laptpo\n2 Kira Vance\n", encoding="utf-8")
    entries, problems = read_deck_list(deck, pool())
    said = {p.line: p.message for p in problems}
    assert all(p.path == str(deck) for p in problems)
    assert "expected 'COUNT Card Name'" in said[1]
    assert "count must be at least 1" in said[2]
    assert "unknown card 'Laptpo'" in said[3] and "did you mean 'Laptop'" in said[3]
    # Two versions share the name: the message names the ids to use instead.
    assert "kira-vance" in said[4] and "kira-vance-uncommon" in said[4]
    # An unknown card still counts toward the deck's size, as -1.
    assert [(e.line, e.card) for e in entries] == [(3, -1), (4, -1)]


def test_sections_where_a_deck_has_parts(tmp_path):
    deck = tmp_path / "c.deck"
    deck.write_text("1 laptop\n[draw]\n2 laptop\n[lot]\n1 laptop\n", encoding="utf-8")
    entries, problems = read_deck_list(deck, pool(), ("draw", "loot"))
    said = {p.line: p.message for p in problems}
    assert "outside a section" in said[1]
    assert "unknown section [lot]" in said[4] and "did you mean 'loot'" in said[4]
    # A card under an unknown section belongs to no part: named, and left out.
    assert "outside a section" in said[5]
    assert [(e.line, e.section) for e in entries] == [(3, "draw")]


class Rules:
    values = {"deck_size": 5}


def test_a_listing_keeps_its_size_and_copies_per_name():
    p = pool()
    laptop, hall = p.lookup("laptop"), p.lookup("study-hall")
    deck = Deck("x.deck", "x", [(laptop, 3), (hall, 1)])
    first = {laptop: 2, hall: 7}
    seen = []

    def per_name(name):  # a game's own limit, asked of every counted name in list order
        seen.append((name.line, name.copies))
        return [Problem(deck.path, name.line, "own")] if name.copies == 3 else []

    out = listing_problems(deck, p, Rules(), first, lambda c: True, 2, per_name)
    # 4 cards where deck_size says 5, named on the list's last line; 3 Laptops, at most 2,
    # and the game's own word on that name right after it
    assert [(q.line, q.message) for q in out] == [
        (7, "deck lists 4 cards, must be exactly 5 (rule option deck_size)"),
        (2, "card 'laptop' (Laptop): 3 copies of the name, at most 2"), (2, "own")]
    assert seen == [(2, 3), (7, 1)]
    # cards left uncounted have no limit
    out = listing_problems(deck, p, Rules(), first, lambda c: c == hall, 2)
    assert len(out) == 1
    assert whole_deck(deck, first, "no").line == 7
