"""Payne's deck lists: .deck files read and checked against the pool and the deck rules; a
whole game folder read at once; the validator behind `cardlab check`."""

from __future__ import annotations

from sim.core.datafiles import FolderFiles
from sim.core.problems import Problem
from sim.kit.decklists import Deck, deck_reader
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
    out = []
    table, where = pool.table, deck.path
    size = rules.values["deck_size"]
    total = sum(n for _, n in deck.counts)
    last = max(first.values(), default=0)
    if total != size:
        out.append(Problem(where, last, f"deck lists {total} cards, must be exactly {size} "
                           "(rule option deck_size)"))
    by_name: dict[str, list[tuple[int, int]]] = {}
    for card, n in deck.counts:
        if table[card, C_KIND] != BLANK:
            by_name.setdefault(pool.names[card].lower(), []).append((card, n))
    for entries in by_name.values():
        card0 = entries[-1][0]
        label = f"card {pool.ids[card0]!r} ({pool.names[card0]})"
        line = max(first[c] for c, _ in entries)
        if sum(n for _, n in entries) > MAX_PER_NAME:
            out.append(Problem(where, line, f"{label}: {sum(n for _, n in entries)} copies of "
                               f"the name, at most {MAX_PER_NAME}"))
        for group, cap in ((COMMON,), 3), ((UNCOMMON,), 2), ((RARE, SUPER_RARE), 1):
            k = sum(n for c, n in entries if table[c, C_RARITY] in group)
            if k > cap:
                kinds = "/".join(RARITIES[g] for g in group)
                out.append(Problem(where, line, f"{label}: {k} {kinds} copies of the name, "
                                   f"at most {cap}"))
    for role in (OFF, DEF):
        if not any(table[c, C_KIND] == CHARACTER and table[c, C_ROLE] == role
                   for c, _ in deck.counts):
            out.append(Problem(where, last, f"the deck needs a {ROLES[role]} character"))
    return out


load_deck = deck_reader(deck_problems)


FILES = FolderFiles(load_pool, load_rules,
                    load_deck, load_policies,
                    lambda deck, pool: f"{sum(n for _, n in deck.counts)} cards")
load_folder = FILES.read
check_paths = FILES.check_paths
