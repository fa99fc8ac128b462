"""High Card's deck lists: .deck files read and checked against the pool and the deck rules;
a whole game folder read at once; the validator behind `cardlab check`."""

from __future__ import annotations

from sim.core.datafiles import FolderFiles
from sim.core.problems import Problem
from sim.highcard.options import Rules, load_rules
from sim.highcard.params import load_policies
from sim.highcard.pool import C_KIND, C_VALUE, MAX_COPIES, NUMBER, Pool, load_pool
from sim.kit.decklists import Deck, deck_reader, listing_problems, whole_deck


def deck_problems(deck: Deck, pool: Pool, rules: Rules, first: dict[int, int]) -> list[Problem]:
    """Every deck rule: its size, copies of a number card, the value cap, a number card."""
    table = pool.table
    out = listing_problems(deck, pool, rules, first, lambda c: table[c, C_KIND] == NUMBER,
                           MAX_COPIES)
    value = sum(int(table[c, C_VALUE]) * n for c, n in deck.counts)
    if value > (cap := rules.values["value_cap"]):
        out.append(whole_deck(deck, first, f"the number cards add up to {value}, at most {cap} "
                              "(rule option value_cap)"))
    if not any(table[c, C_KIND] == NUMBER for c, _ in deck.counts):
        out.append(whole_deck(deck, first, "the deck needs a number card"))
    return out


load_deck = deck_reader(deck_problems)


def say_deck(deck: Deck, pool: Pool) -> str:
    value = sum(int(pool.table[c, C_VALUE]) * n for c, n in deck.counts)
    return f"{sum(n for _, n in deck.counts)} cards worth {value}"


FILES = FolderFiles(load_pool, load_rules, load_deck, load_policies, say_deck)
load_folder = FILES.read
check_paths = FILES.check_paths
