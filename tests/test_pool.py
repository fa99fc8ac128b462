"""Tests for the Paint the Line card pool, rule options and deck lists, and `cardlab check`."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.core.problems import InputError, Problem
from sim.paintline.decks import load_deck, load_folder
from sim.paintline.options import R_CRIT_TARGET, R_LADDER, R_LADDER_LEN, RULE_DEFAULTS, load_rules
from sim.paintline.pool import (
    C_ABONUS,
    C_COST,
    C_KIND,
    C_NATION,
    C_NBONUS,
    C_NPEN,
    COACH,
    N_CARD_COLUMNS,
    NATIONS,
    STAMINA,
    load_pool,
)

from .conftest import cardlab

REPO = Path(__file__).parents[1]
SAMPLE = REPO / "decks" / "paintline"
DECKS = ("us-red-tide", "ussr-red-tide")


# Helpers ------------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A private copy of the sample folder that a test may edit."""
    return Path(shutil.copytree(SAMPLE, tmp_path / "paintline"))


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of `old` in a text file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not unique in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, prefix: str) -> int:
    """The 1-based number of the one line of a file that starts with `prefix`."""
    hits = [
        i
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if line.startswith(prefix)
    ]
    assert len(hits) == 1, f"{prefix!r} starts {len(hits)} lines of {path}"
    return hits[0]


def last_entry_line(path: Path) -> int:
    """The line number of the last non-blank, non-comment line of a deck list."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return max(i for i, raw in enumerate(lines, start=1) if raw.split("#", 1)[0].strip())


def problems_from(load, *args, **kwargs) -> list[Problem]:
    """Call a loader that must fail and return its problems."""
    with pytest.raises(InputError) as info:
        load(*args, **kwargs)
    problems = info.value.problems
    assert problems, "InputError raised without problems"
    assert str(info.value) == "\n".join(str(p) for p in problems)
    return problems


def only_problem(load, *args, **kwargs) -> Problem:
    problems = problems_from(load, *args, **kwargs)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def assert_problem(problem: Problem, path: Path, line: int, *words: str) -> None:
    """The problem names the file and the line, and its message holds every word."""
    assert problem.path == str(path)
    assert problem.line == line
    assert str(problem).startswith(f"{path}:{line}: ")
    for word in words:
        assert word in problem.message, f"{word!r} not in {problem.message!r}"


def sample_pool():
    return load_pool(SAMPLE / "cards.csv")


# Round trip of the sample folder -------------------------------------------------------


def test_sample_folder_round_trip():
    folder = load_folder(SAMPLE)
    pool = folder.pool
    assert len(pool) == 36
    assert len(pool.ids) == len(pool.names) == len(pool.texts) == 36
    assert len(set(pool.ids)) == 36
    assert len({n.lower() for n in pool.names}) == 36
    assert all(re.fullmatch(r"[a-z0-9-]+", cid) for cid in pool.ids)
    assert pool.table.shape == (36, N_CARD_COLUMNS)
    assert pool.table.dtype == np.int64
    assert not pool.table.flags.writeable
    with pytest.raises(ValueError):
        pool.table[0, C_COST] = 9
    assert (pool.table >= 0).all()
    assert pool.sha256 == hashlib.sha256((SAMPLE / "cards.csv").read_bytes()).hexdigest()
    # Every id and name maps back to its own row.
    for i, (cid, name) in enumerate(zip(pool.ids, pool.names, strict=True)):
        assert pool.lookup(cid) == i
        assert pool.lookup(name) == i
    # The two values the README says come from the rulebook: Drive Shot's, and Order of
    # Lenin's +8, which the healthy-field patch keeps with advantage (+6 on Normal values).
    drive = pool.lookup("Drive Shot")
    assert pool.table[drive, C_NPEN] == 1
    assert NATIONS[pool.table[drive, C_NATION]] == "neutral"
    lenin = pool.lookup("Order of Lenin")
    assert (pool.table[lenin, C_NBONUS], pool.table[lenin, C_ABONUS]) == (6, 8)
    assert NATIONS[pool.table[lenin, C_NATION]] == "USSR"
    first = load_pool(REPO / "tests" / "data" / "paintline-cards.csv")
    assert first.table[first.lookup("Order of Lenin"), C_NBONUS] == 8
    # The two sample decks and the two more of the field (game.toml [field]).
    assert sorted(folder.decks) == sorted([*DECKS, "us-lob-control", "ussr-blitz",
                                           *(f"{d}-top" for d in (*DECKS, "us-lob-control",
                                                                  "ussr-blitz"))])
    for deck in folder.decks.values():
        cards, bag = deck.cards(), deck.bag()
        assert cards.shape == (60,)
        assert bag.shape == (59,)
        assert pool.table[deck.coach, C_KIND] == COACH
        assert (cards == deck.coach).sum() == 1
        assert deck.coach not in bag
        assert sorted(bag.tolist() + [deck.coach]) == sorted(cards.tolist())
        assert ((cards >= 0) & (cards < len(pool))).all()


def test_lookup_by_id_and_name_case_insensitive():
    pool = sample_pool()
    i = pool.names.index("Drive Shot")
    assert pool.ids[i] == "drive-shot"
    keys = ("drive-shot", "DRIVE-SHOT", "Drive Shot", "drive shot", "DRIVE SHOT", " Drive Shot ")
    for key in keys:
        assert pool.lookup(key) == i, key
    assert pool.lookup("Comrade's Return") == pool.ids.index("comrades-return")
    assert pool.lookup("Drive Shoot") is None
    assert pool.lookup("") is None


def test_both_sample_decks_are_legal():
    pool = sample_pool()
    us = load_deck(SAMPLE / "us-red-tide.deck", pool)
    ussr = load_deck(SAMPLE / "ussr-red-tide.deck", pool)
    assert (us.name, NATIONS[us.nation], pool.names[us.coach]) == (
        "us-red-tide",
        "US",
        "Tycho Brahe",
    )
    assert (ussr.name, NATIONS[ussr.nation], pool.names[ussr.coach]) == (
        "ussr-red-tide",
        "USSR",
        "Oksana Svedlovigoba",
    )
    for deck in (us, ussr):
        assert sum(n for _, n in deck.counts) == 60
        assert dict(deck.counts)[pool.lookup("Stamina")] == 20


def test_deck_may_list_cards_by_id(tmp_path):
    pool = sample_pool()
    text = (SAMPLE / "us-red-tide.deck").read_text(encoding="utf-8")
    by_id = "".join(
        f"{line.split(' ', 1)[0]} {pool.ids[pool.lookup(line.split(' ', 1)[1])]}\n"
        for line in text.splitlines()
        if line.split("#", 1)[0].strip()
    )
    path = tmp_path / "by-id.deck"
    path.write_text(by_id, encoding="utf-8")
    assert load_deck(path, pool).counts == load_deck(SAMPLE / "us-red-tide.deck", pool).counts


def test_rules_defaults_and_replace():
    defaults = load_rules()
    sample = load_rules(SAMPLE / "rules.toml")
    assert defaults.values == RULE_DEFAULTS
    assert sample.values == RULE_DEFAULTS
    assert np.array_equal(defaults.vector, sample.vector)
    assert defaults.vector.dtype == np.int64
    assert not defaults.vector.flags.writeable
    assert defaults.vector[R_CRIT_TARGET] == 20
    ladder = RULE_DEFAULTS["escalation"]
    assert defaults.vector[R_LADDER_LEN] == len(ladder)
    assert defaults.vector[R_LADDER : R_LADDER + len(ladder)].tolist() == ladder

    changed = sample.replace(crit_target=19, escalation=[5, 10, 15])
    assert changed.values["crit_target"] == 19
    assert changed.vector[R_CRIT_TARGET] == 19
    assert changed.vector[R_LADDER_LEN] == 3
    assert changed.vector[R_LADDER : R_LADDER + 3].tolist() == [5, 10, 15]
    assert sample.values["crit_target"] == 20  # the original is untouched
    assert sample.vector[R_CRIT_TARGET] == 20

    for bad, word in (
        ({"crit_target": "19"}, "crit_target"),
        ({"crit_target": True}, "crit_target"),
        ({"escalation": [6, 6, 8]}, "escalation"),
        ({"escalation": []}, "escalation"),
        ({"match_games": 2}, "match_games"),
        ({"serve_miss": "sometimes"}, "serve_miss"),
        ({"crit_targt": 19}, "crit_targt"),  # an unknown option is not silently ignored
    ):
        problem = only_problem(sample.replace, **bad)
        assert problem.path == "--rules"
        assert word in problem.message


# cards.csv -------------------------------------------------------------------------


def test_unknown_ability_in_cards_csv(folder):
    cards = folder / "cards.csv"
    edit(
        cards,
        "liberty-lob,Liberty Lob,US,trick_shot,2,lob,4,1,4,2,Ignore,",
        "liberty-lob,Liberty Lob,US,trick_shot,2,lob,4,1,4,2,Ignor,",
    )
    problem = only_problem(load_pool, cards)
    assert_problem(
        problem,
        cards,
        line_of(cards, "liberty-lob,"),
        "'liberty-lob'",
        "unknown ability 'Ignor'",
        "did you mean",
        "did you mean 'Ignore'",
    )


def test_unknown_shot_type_in_cards_csv(folder):
    cards = folder / "cards.csv"
    edit(cards, "push,Push,neutral,basic_shot,0,spin,", "push,Push,neutral,basic_shot,0,spinn,")
    problem = only_problem(load_pool, cards)
    assert_problem(
        problem, cards, line_of(cards, "push,"), "'push'", "unknown shot type 'spinn'", "spin"
    )


def test_wrong_column_count_in_cards_csv(folder):
    cards = folder / "cards.csv"
    edit(
        cards,
        "chop,Chop,neutral,basic_shot,1,spin,1,1,2,1,,0,,0,",
        "chop,Chop,neutral,basic_shot,1,spin,1,1,2,1,,0,",
    )
    problem = only_problem(load_pool, cards)
    assert_problem(problem, cards, line_of(cards, "chop,"), "'chop'", "13 columns", "15")


def test_non_integer_value_in_cards_csv(folder):
    cards = folder / "cards.csv"
    edit(cards, "topspin,Topspin,neutral,basic_shot,2,", "topspin,Topspin,neutral,basic_shot,two,")
    problem = only_problem(load_pool, cards)
    assert_problem(
        problem, cards, line_of(cards, "topspin,"), "'topspin'", "cost must be an integer", "'two'"
    )


def test_negative_value_in_cards_csv(folder):
    cards = folder / "cards.csv"
    edit(
        cards,
        "deep-lob,Deep Lob,neutral,basic_shot,4,lob,5,1,3,",
        "deep-lob,Deep Lob,neutral,basic_shot,4,lob,5,1,-3,",
    )
    problem = only_problem(load_pool, cards)
    assert_problem(
        problem,
        cards,
        line_of(cards, "deep-lob,"),
        "'deep-lob'",
        "advantage_bonus must not be negative",
        "-3",
    )


def test_duplicate_card_ids(folder):
    cards = folder / "cards.csv"
    moon_line = line_of(cards, "moon-ball,")
    push_line = line_of(cards, "push,")
    edit(cards, "moon-ball,Moon Ball,", "push,Moon Ball,")
    problem = only_problem(load_pool, cards)
    assert_problem(
        problem, cards, moon_line, "'push'", "duplicate id", f"first on line {push_line}"
    )


def test_every_problem_in_cards_csv_is_reported(folder):
    cards = folder / "cards.csv"
    edit(cards, "push,Push,neutral,basic_shot,0,", "push,Push,neutral,basic_shot,x,")
    edit(cards, "chop,Chop,neutral,basic_shot,", "chop,Chop,neutral,basic_shoot,")
    edit(
        cards,
        "moon-ball,Moon Ball,neutral,basic_shot,1,lob,3,0,3,1,,0,,0,",
        "moon-ball,Moon Ball,neutral,basic_shot,1,lob,3,0,3,1,,0,",
    )
    edit(
        cards,
        "eagle-eye,Eagle Eye,US,trick_shot,3,spin,5,2,4,3,Crit,",
        "eagle-eye,Eagle Eye,Usa,trick_shot,3,spin,5,-2,4,3,Crit,",
    )
    problems = problems_from(load_pool, cards)
    expected = [
        (line_of(cards, "push,"), "'push'", "cost must be an integer"),
        (line_of(cards, "chop,"), "'chop'", "unknown kind 'basic_shoot'"),
        (line_of(cards, "moon-ball,"), "'moon-ball'", "13 columns"),
        (line_of(cards, "eagle-eye,"), "'eagle-eye'", "unknown nation 'Usa'"),
        (line_of(cards, "eagle-eye,"), "'eagle-eye'", "normal_penalty must not be negative"),
    ]
    assert len(problems) == len(expected), "\n".join(map(str, problems))
    for problem, (line, *words) in zip(problems, expected, strict=True):
        assert_problem(problem, cards, line, *words)


def test_folder_reports_problems_from_every_file(folder):
    edit(folder / "rules.toml", "crit_target = 20", "crit_target = 0")
    edit(folder / "us-red-tide.deck", "4 Drive Shot", "4 Drive Shoot")
    edit(folder / "ussr-red-tide.deck", "20 Stamina", "21 Stamina")
    problems = problems_from(load_folder, folder)
    assert sorted(Path(p.path).name for p in problems) == [
        "rules.toml",
        "us-red-tide.deck",
        "ussr-red-tide.deck",
    ]


# Deck lists ------------------------------------------------------------------------


def test_unknown_card_in_deck_suggests_closest(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "4 Drive Shot", "4 Drive Shoot")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(
        problem,
        deck,
        line_of(deck, "4 Drive Shoot"),
        "unknown card 'Drive Shoot'",
        "did you mean 'Drive Shot'",
    )


@pytest.mark.parametrize("stamina, total", [(21, 61), (19, 59)])
def test_deck_must_have_60_cards(folder, stamina, total):
    deck = folder / "us-red-tide.deck"
    edit(deck, "20 Stamina", f"{stamina} Stamina")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(problem, deck, last_entry_line(deck), f"deck lists {total} cards", "60")


def test_more_than_four_copies(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "4 Drive Shot", "5 Drive Shot")
    edit(deck, "20 Stamina", "19 Stamina")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(problem, deck, line_of(deck, "5 Drive Shot"), "'Drive Shot'", "5 copies")


def test_copies_add_up_across_lines(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "20 Stamina", "19 Stamina")
    with deck.open("a", encoding="utf-8") as out:
        out.write("1 drive-shot  # a fifth copy, listed by id\n")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(problem, deck, last_entry_line(deck), "'Drive Shot'", "5 copies")


def test_thirty_stamina_is_fine_when_the_total_is_60(tmp_path):
    pool = sample_pool()
    deck = tmp_path / "stamina-heavy.deck"
    deck.write_text(
        "1 Tycho Brahe\n30 Stamina\n4 Drive Shot\n4 Push\n4 Chop\n4 Topspin\n"
        "4 Moon Ball\n4 High Lob\n4 Power Smash\n1 Short Serve\n",
        encoding="utf-8",
    )
    loaded = load_deck(deck, pool)
    assert dict(loaded.counts)[pool.lookup("Stamina")] == 30
    assert pool.table[pool.lookup("Stamina"), C_KIND] == STAMINA
    assert loaded.cards().shape == (60,)
    # 31 Stamina is still fine on copies; only the total is then wrong.
    edit(deck, "30 Stamina", "31 Stamina")
    problem = only_problem(load_deck, deck, pool)
    assert_problem(problem, deck, last_entry_line(deck), "deck lists 61 cards")


def test_cards_from_two_nations(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "20 Stamina", "19 Stamina")
    edit(deck, "1 Second Wind", "1 Second Wind\n1 Order of Lenin")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(
        problem,
        deck,
        line_of(deck, "1 Order of Lenin"),
        "'Order of Lenin'",
        "USSR",
        "US",
        "'Tycho Brahe'",
        "one nation",
    )


def test_more_than_one_coach(folder):
    cards = folder / "cards.csv"
    with cards.open("a", encoding="utf-8") as out:
        out.write("ben-franklin,Ben Franklin,US,coach,0,,0,0,0,0,Reroll,1,,0,A second US coach.\n")
    deck = folder / "us-red-tide.deck"
    edit(deck, "20 Stamina", "19 Stamina\n1 Ben Franklin")
    problem = only_problem(load_deck, deck, load_pool(cards))
    assert_problem(
        problem,
        deck,
        line_of(deck, "1 Ben Franklin"),
        "'Ben Franklin'",
        "at most one coach",
        f"'Tycho Brahe' on line {line_of(deck, '1 Tycho')}",
    )


def test_coach_listed_twice(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "1 Tycho Brahe", "2 Tycho Brahe")
    edit(deck, "20 Stamina", "19 Stamina")
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(
        problem, deck, line_of(deck, "2 Tycho Brahe"), "'Tycho Brahe'", "at most one coach"
    )
    other_cards = set(sample_pool().names) - {"Tycho Brahe"}
    assert not any(name in problem.message for name in other_cards), problem.message


def test_malformed_deck_lines(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "2 Chop", "two Chop")
    edit(deck, "3 Topspin", "\u00b3 Topspin")  # a superscript digit is not a count
    problems = problems_from(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(problems[0], deck, line_of(deck, "two Chop"), "COUNT Card Name", "two Chop")
    assert_problem(problems[1], deck, line_of(deck, "\u00b3 Topspin"), "COUNT Card Name")


# rules.toml ------------------------------------------------------------------------


def test_unknown_rule_option(folder):
    rules = folder / "rules.toml"
    edit(rules, "crit_target = 20", "crit_target = 20\ncrit_targt = 19")
    problem = only_problem(load_rules, rules)
    assert_problem(
        problem,
        rules,
        line_of(rules, "crit_targt"),
        "unknown rule option",
        "'crit_targt'",
        "crit_target",
    )


@pytest.mark.parametrize(
    "old, new, key, words",
    [
        ("crit_target = 20", 'crit_target = "20"', "crit_target", ("must be an integer",)),
        ("mulligans = 1", "mulligans = true", "mulligans", ("must be an integer",)),
        ('tie_rule = "hitter"', "tie_rule = 1", "tie_rule", ("must be one of", "hitter")),
        ("escalation = [6, 8, 10", 'escalation = ["6", 8, 10', "escalation", ("list of integers",)),
    ],
)
def test_rule_option_with_wrong_type(folder, old, new, key, words):
    rules = folder / "rules.toml"
    edit(rules, old, new)
    problem = only_problem(load_rules, rules)
    assert_problem(problem, rules, line_of(rules, f"{key} ="), f"'{key}'", *words)


def test_escalation_must_strictly_increase(folder):
    rules = folder / "rules.toml"
    edit(rules, "escalation = [6, 8, 10, 12,", "escalation = [6, 8, 8, 12,")
    problem = only_problem(load_rules, rules)
    assert_problem(
        problem, rules, line_of(rules, "escalation ="), "'escalation'", "strictly increasing"
    )


# Unreadable files ------------------------------------------------------------------


def test_missing_files(folder, tmp_path):
    (folder / "cards.csv").unlink()
    problem = only_problem(load_folder, folder)
    assert_problem(problem, folder / "cards.csv", 0, "file not found")
    missing = tmp_path / "nowhere.deck"
    problem = only_problem(load_deck, missing, sample_pool())
    assert_problem(problem, missing, 0, "file not found")
    problem = only_problem(load_rules, tmp_path / "nowhere.toml")
    assert_problem(problem, tmp_path / "nowhere.toml", 0, "file not found")


def test_non_utf8_files(folder):
    deck = folder / "us-red-tide.deck"
    data = b"1 Tycho Brahe\n20 Stamina\n" + "1 Caf\u00e9\n".encode("latin-1")
    deck.write_bytes(data)
    problem = only_problem(load_deck, deck, load_pool(folder / "cards.csv"))
    assert_problem(problem, deck, 0, "not UTF-8", f"byte {data.index(0xE9)}")
    cards = folder / "cards.csv"
    cards.write_bytes(cards.read_text(encoding="utf-8").encode("utf-16"))
    problems = problems_from(load_folder, folder)
    assert len(problems) == 1
    assert_problem(problems[0], cards, 0, "not UTF-8")


# The command line ------------------------------------------------------------------


def test_cli_check_sample_folder():
    result = cardlab("check", "decks/paintline")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for name in DECKS:
        assert re.search(rf"{name}\.deck: legal \(60 cards", result.stdout), result.stdout
    assert "36 cards" in result.stdout


def test_cli_check_reports_every_deck_problem(folder):
    deck = folder / "us-red-tide.deck"
    edit(deck, "4 Drive Shot", "5 Drive Shot")  # a fifth copy, and 61 cards
    edit(deck, "3 Liberty Lob", "3 Liberty Lobb")  # misspelt
    result = cardlab("check", str(deck))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith(f"{deck}:")]
    assert len(errors) == 3, result.stderr
    assert errors[0].startswith(f"{deck}:{line_of(deck, '5 Drive Shot')}: ")
    assert "'Drive Shot'" in errors[0] and "5 copies" in errors[0]
    assert errors[1].startswith(f"{deck}:{line_of(deck, '3 Liberty Lobb')}: ")
    assert "'Liberty Lobb'" in errors[1] and "did you mean 'Liberty Lob'" in errors[1]
    assert errors[2].startswith(f"{deck}:{last_entry_line(deck)}: ")
    assert "61 cards" in errors[2]
    assert "3 problem(s) found" in result.stderr
    assert "legal" not in result.stdout
