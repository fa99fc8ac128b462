"""Payne's deck lists: .deck files read and checked against the pool and the deck rules; a
whole game folder read at once; the validator behind `cardlab check`."""

from __future__ import annotations

from sim.core.datafiles import FolderFiles
from sim.core.problems import Problem
from sim.kit.decklists import Deck, deck_reader, listing_problems, whole_deck
from sim.payne.options import Rules, load_rules
from sim.payne.params import load_policies
from sim.payne.pool import (
    BLANK,
    C_KIND,
    C_RARITY,
    C_ROLE,
    CHARACTER,
    COMMON,
    DEF,
    MAX_PER_NAME,
    OFF,
    RARE,
    RARITIES,
    ROLES,
    SUPER_RARE,
    UNCOMMON,
    Pool,
    load_pool,
)  # fmt: skip


def deck_problems(deck: Deck, pool: Pool, rules: Rules, first: dict[int, int]) -> list[Problem]:
    """Every deck rule: size, copies per name by rarity, a character of each role."""
    table = pool.table

    def by_rarity(name) -> list[Problem]:
        out = []
        for group, cap in ((COMMON,), 3), ((UNCOMMON,), 2), ((RARE, SUPER_RARE), 1):
            k = sum(n for c, n in name.entries if table[c, C_RARITY] in group)
            if k > cap:
                kinds = "/".join(RARITIES[g] for g in group)
                out.append(Problem(deck.path, name.line, f"{name.label}: {k} {kinds} copies "
                                   f"of the name, at most {cap}"))
        return out

    out = listing_problems(deck, pool, rules, first, lambda c: table[c, C_KIND] != BLANK,
                           MAX_PER_NAME, by_rarity)
    for role in (OFF, DEF):
        if not any(table[c, C_KIND] == CHARACTER and table[c, C_ROLE] == role
                   for c, _ in deck.counts):
            out.append(whole_deck(deck, first, f"the deck needs a {ROLES[role]} character"))
    return out


load_deck = deck_reader(deck_problems)


FILES = FolderFiles(load_pool, load_rules,
                    load_deck, load_policies,
                    lambda deck, pool: f"{sum(n for _, n in deck.counts)} cards")
load_folder = FILES.read
check_paths = FILES.check_paths
