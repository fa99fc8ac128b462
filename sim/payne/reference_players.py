"""Payne's players for the reference engine, written from "Decisions, step by step" in
docs/payne-rules.md: random, plain and prior, each deciding from its own view only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.payne import pool as T
from sim.payne.params import CHOICE_FIELDS, FIELDS, KIND, KINDS

SIDES = range(4)
CHANCE_GRID = 1 << 20  # chance(r) compares one draw below 2^20 with r * 2^20


def lit(mask: int, side: int) -> int:
    return (int(mask) >> side) & 1


def meet(geometry: str, side: int) -> int:
    """The attacker's arrow that lies on the defender's side (facing: the same one)."""
    return side if geometry == "facing" else (side + 2) % 4


@dataclass
class View:
    """What one player may look at when he decides."""

    table: np.ndarray  # the card pool
    geometry: str
    hand: list[int]  # his hand, in the order drawn
    own_off: int  # his battlers' arrows as he knows them
    own_def: int
    opp_list: np.ndarray  # copies of each card in the opponent's deck list
    seen: np.ndarray  # copies of each opponent's card he has seen
    know: np.ndarray  # [role, side]: 1 lit, 0 unlit, -1 not known, of the opposing battlers
    opp_may_lie: bool
    playable: list[bool] | None = None  # per hand position, in a play window

    def role(self, c: int) -> int:
        return int(self.table[c, T.C_ROLE])

    def is_character(self, c: int, role: int) -> bool:
        return self.table[c, T.C_KIND] == T.CHARACTER and self.role(c) == role

    def effects(self, c: int) -> list[tuple[int, int]]:
        return [(int(self.table[c, T.C_EFF1]), int(self.table[c, T.C_ARG1])),
                (int(self.table[c, T.C_EFF2]), int(self.table[c, T.C_ARG2]))]

    def has(self, c: int, *keywords: int) -> bool:
        return any(eff in keywords for eff, _ in self.effects(c))


class Player:
    """A policy's decisions; `draw(k)` gives a whole number below k from his policy stream."""

    def __init__(self, vec: np.ndarray, draw: Callable[[int], int]):
        self.v = {name: float(vec[slot]) for name, (slot, *_) in FIELDS.items()}
        self.choice = {name: words[int(vec[slot])] for name, (slot, words)
                       in CHOICE_FIELDS.items()}
        self.draw = draw

    # --- the draws every policy makes the same way ---------------------------------

    def chance(self, rate: float) -> bool:
        return self.draw(CHANCE_GRID) < int(rate * CHANCE_GRID)

    def random_order(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.draw(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def by_lot(self, scored: list[tuple[int, float]]) -> int:
        """The item of highest score; ties by lot, walking the list in its order."""
        pick, best, ties = -1, 0.0, 0
        for item, score in scored:
            if ties == 0 or score > best:
                pick, best, ties = item, score, 1
            elif score == best:
                ties += 1
                if self.draw(ties) == 0:
                    pick = item
        return pick

    # --- decisions any kind makes by the policy's choices --------------------------

    def first_effect(self, view: View, c: int) -> int:
        """0: the printed first effect first; 1: the printed second one first."""
        (eff1, _), (eff2, _) = view.effects(c)
        if eff2 == T.NONE:
            return 0
        rule = self.choice["effect_order"]
        if rule == "random":
            return self.draw(2)
        if rule == "reveal_first":
            return int(eff2 == T.REVEAL and eff1 != T.REVEAL)
        return 0

    def answer_order(self, view: View, asked_lit: bool) -> list[int]:
        """The order of his sides for a Reveal asked of him (the truth: the first in the
        asked state); guarded: least use to the asker first."""
        if self.choice["reveal_answer"] == "random":
            return self.random_order(list(SIDES))
        if asked_lit:  # his attacker's arrow a: the odds of the side it meets
            p = defender_odds(view)
            weight = [p[meet(view.geometry, a)] for a in SIDES]
        else:  # his defender's side s: the odds that the asker's arrow meeting it is lit
            q = attacker_odds(view)
            weight = [q[meet(view.geometry, s)] for s in SIDES]
        return sorted(SIDES, key=lambda s: weight[s])

    def field(self, view: View) -> tuple[int, int]:
        """Hand positions of the offensive and the defensive character to field: one of
        each role, uniformly."""
        picks = []
        for role in (T.OFF, T.DEF):
            spots = [i for i, c in enumerate(view.hand) if view.is_character(c, role)]
            picks.append(spots[self.draw(len(spots))])
        return picks[0], picks[1]

    def plays(self, view: View) -> list[int]:
        return []

    def lie(self, view: View, asked_lit: bool, belief: int, order: list[int]) -> int | None:
        """Under his MayLie: the answer to give (a side, -1 for 'none'), or None: the truth."""
        return None

    def change_order(self, view: View, owner: str, role: int, lighting: bool) -> list[int]:
        raise NotImplementedError(f"{type(self).__name__} plays no card")

    def side(self, view: View) -> int:
        return self.draw(4)


class Random(Player):
    """Uniform at each decision."""

    def plays(self, view: View) -> list[int]:
        taken = [c for c, ok in zip(view.hand, view.playable, strict=True)
                 if ok and self.chance(self.v["play_rate"])]
        return self.random_order(taken)

    def lie(self, view, asked_lit, belief, order):
        if self.chance(self.v["lie_rate"]):
            return self.draw(5) - 1
        return None

    def change_order(self, view, owner, role, lighting):
        return self.random_order(list(SIDES))


class Plain(Player):
    """Fields uniformly, plays nothing, attacks a side its own meeting arrow lights."""

    def side(self, view: View) -> int:
        lights = [s for s in SIDES if lit(view.own_off, meet(view.geometry, s))]
        if not lights:
            return self.draw(4)
        return lights[self.draw(len(lights))]


def unseen_share(view: View, role: int) -> list[float]:
    """Per side, the share of the opponent's unseen characters of a role with it lit."""
    total, lit_copies = 0, [0, 0, 0, 0]
    for c in range(len(view.table)):
        copies = int(view.opp_list[c] - view.seen[c])
        if view.is_character(c, role) and copies > 0:
            total += copies
            for s in SIDES:
                lit_copies[s] += copies * lit(view.table[c, T.C_ARROWS], s)
    return [n / total if total else 0.0 for n in lit_copies]


def known_or_share(view: View, role: int) -> list[float]:
    share = unseen_share(view, role)
    return [float(view.know[role, s]) if view.know[role, s] >= 0 else share[s] for s in SIDES]


def defender_odds(view: View) -> list[float]:
    """p(s): the opposing defender's side s is lit."""
    return known_or_share(view, T.DEF)


def attacker_odds(view: View) -> list[float]:
    """q(a): the opposing attacker's arrow a is lit."""
    return known_or_share(view, T.OFF)


class Prior(Player):
    """Scores sides by what it knows of the opposing battlers, else the unseen copies."""

    def value(self, view: View, c: int, opp_may_lie: bool) -> float:
        v, total = self.v, 0.0
        for eff, arg in view.effects(c):
            if eff in (T.ARROW_ADVANTAGE, T.ARROW_DISADVANTAGE):
                total += v["value_arrow"] * (arg if view.role(c) == T.OFF else -arg)
            elif eff == T.REVEAL:
                total += 0.0 if opp_may_lie else v["value_reveal"]
            elif eff == T.AUTO_WIN:
                total += v["value_autowin"]
            elif eff == T.BAN:
                total += v["value_ban"] if arg < 0 else -v["value_ban"]
            elif eff == T.MAY_LIE:
                total += v["value_lie"]
        return total

    def power(self, view: View, c: int) -> float:
        if view.table[c, T.C_EFF1] == T.NONE:
            return 0.0
        return max(self.value(view, c, False), 0.0)

    def defence_cost(self, view: View, mask: int) -> float:
        """Expected lit meetings of a defender against the opponent's unseen attackers."""
        cost = 0.0
        for c in range(len(view.table)):
            copies = int(view.opp_list[c] - view.seen[c])
            if not view.is_character(c, T.OFF) or copies <= 0:
                continue
            lights = [s for s in SIDES
                      if lit(view.table[c, T.C_ARROWS], meet(view.geometry, s))]
            if lights:
                cost += copies * sum(lit(mask, s) for s in lights) / len(lights)
        return cost

    def field(self, view: View) -> tuple[int, int]:
        share = unseen_share(view, T.DEF)  # nothing is known of the battlers yet
        attackers, defenders = [], []
        for i, c in enumerate(view.hand):
            mask = int(view.table[c, T.C_ARROWS])
            if view.is_character(c, T.OFF):
                lights = [s for s in SIDES if lit(mask, meet(view.geometry, s))]
                best = max((share[s] for s in lights), default=-1.0)
                attackers.append((i, best + self.v["field_breadth"] * len(lights) / 4
                                  - self.v["field_power_off"] * self.power(view, c)))
            elif view.is_character(c, T.DEF):
                defenders.append((i, -self.defence_cost(view, mask)
                                  - self.v["field_power_def"] * self.power(view, c)))
        return self.by_lot(attackers), self.by_lot(defenders)

    def chances(self, view: View) -> dict[int, float]:
        """Its chance of winning its attack and its defence, before any card."""
        p, q, g = defender_odds(view), attacker_odds(view), view.geometry
        attack = max((p[s] for s in SIDES if lit(view.own_off, meet(g, s))), default=0.0)
        threat = max((q[meet(g, s)] for s in SIDES if lit(view.own_def, s)), default=0.0)
        return {T.OFF: attack, T.DEF: 1.0 - threat}

    def plays(self, view: View) -> list[int]:
        v, chance = self.v, self.chances(view)
        in_hand = {role: sum(view.is_character(c, role) for c in view.hand)
                   for role in (T.OFF, T.DEF)}
        taken = []
        for reveals in (True, False):
            for c, ok in zip(view.hand, view.playable, strict=True):
                if not ok or view.has(c, T.REVEAL) != reveals:
                    continue
                if self.value(view, c, view.opp_may_lie) <= v["play_above"]:
                    continue
                role = view.role(c)
                if view.has(c, T.AUTO_WIN):
                    if chance[role] > v["autowin_below"]:
                        continue
                elif changes_arrows(view, c) and chance[role] > v["change_below"]:
                    continue
                if view.table[c, T.C_KIND] == T.CHARACTER:
                    if in_hand[role] < v["keep_role"]:
                        continue
                    in_hand[role] -= 1
                taken.append(c)
        if v["hold_reveals"]:
            taken = [c for i, c in enumerate(taken) if not held_reveal(view, taken, i)]
        return taken

    def change_order(self, view, owner, role, lighting):
        g = view.geometry
        if owner == "own" and role == T.OFF:
            p = defender_odds(view)
            weight = [p[meet(g, a)] for a in SIDES]
        elif owner == "opp" and role == T.DEF:
            p = defender_odds(view)
            weight = [2 * lit(view.own_off, meet(g, s)) + 1.0 - p[s] for s in SIDES]
        elif owner == "own":
            q = attacker_odds(view)
            weight = [-q[meet(g, s)] for s in SIDES]
        else:
            q = attacker_odds(view)
            weight = [-(2 * lit(view.own_def, meet(g, a)) + q[a]) for a in SIDES]
        return sorted(SIDES, key=lambda s: -weight[s] if lighting else weight[s])

    def lie(self, view, asked_lit, belief, order):
        return next((s for s in order if lit(belief, s) != asked_lit), -1)

    def side(self, view: View) -> int:
        p, g = defender_odds(view), view.geometry
        lights = [s for s in SIDES if lit(view.own_off, meet(g, s))] or list(SIDES)
        return self.by_lot([(s, p[s]) for s in lights])


def changes_arrows(view: View, c: int) -> bool:
    return view.has(c, T.ARROW_ADVANTAGE, T.ARROW_DISADVANTAGE)


def held_reveal(view: View, taken: list[int], i: int) -> bool:
    """A defensive Reveal is of use only to a defensive arrow change after it."""
    c = taken[i]
    if view.role(c) != T.DEF or not view.has(c, T.REVEAL):
        return False
    return not any(view.role(d) == T.DEF and changes_arrows(view, d)
                   and not view.has(d, T.REVEAL) for d in taken[i + 1:])


PLAYERS = {"random": Random, "plain": Plain, "prior": Prior}


def make_player(vec: np.ndarray, draw: Callable[[int], int]) -> Player:
    return PLAYERS[KINDS[int(vec[KIND])]](vec, draw)
