"""The reference engine's shot arithmetic in plain Python: what a hit rolls with, its
odds over the d20 as a policy sees them, and the legal hits and boosts of a turn."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T

SEATS = ("A", "B")


@dataclass
class Shot:
    """What a hit rolls with."""

    card: int = -1
    advantage: int = 0
    bonus: int = 0
    penalty: int = 0
    crit_from: int = 20
    surge: int = 0
    ignore: bool = False
    mute: int = -1
    boost: int = -1
    active: bool = False


class ShotRules:
    """Shot rules of the reference game (a mixin of ReferenceGame, whose state it reads:
    cards, rules, ladder, step, after_crit, is_serve, incoming_type, incoming_penalty,
    mute_cost, seats and policies)."""

    def beats(self, shot_type: int, incoming: int) -> bool:
        if shot_type == T.NO_TYPE:
            return False
        if incoming == T.NO_TYPE:
            return True
        return (shot_type, incoming) in ((T.LOB, T.SPIN), (T.SPIN, T.DRIVE), (T.DRIVE, T.LOB))

    def has_advantage(self, card: int) -> bool:
        t = self.col(card, T.C_TYPE)
        return t != T.NO_TYPE and (self.is_serve or self.beats(t, self.incoming_type))

    def target(self) -> int:
        return self.rules["crit_target"] if self.after_crit else self.ladder[self.step]

    def values(self, card: int, advantage: int) -> tuple[int, int]:
        if advantage:
            return self.col(card, T.C_ABONUS), self.col(card, T.C_APEN)
        return self.col(card, T.C_NBONUS), self.col(card, T.C_NPEN)

    def shot(self, card: int, advantage: int, attached: int, boost: int) -> Shot:
        sh = Shot(card=card, advantage=advantage, boost=boost)
        if card < 0:
            return sh
        for c in (card, attached, boost):
            if c >= 0:
                b, p = self.values(c, advantage)
                sh.bonus += b
                sh.penalty += p
        cost = self.col(card, T.C_COST)
        tie_hitter = self.rules["tie_rule"] == "hitter"
        sh.active = self.mute_cost < 0 or cost > self.mute_cost or (
            cost == self.mute_cost and tie_hitter)
        if sh.active:
            if self.ability(card, K.MUTE) >= 0:
                sh.mute = cost
            if self.ability(card, K.IGNORE) >= 0:
                sh.ignore = True
            if (n := self.ability(card, K.CRIT)) >= 0:
                sh.crit_from = max(20 - n, 2)
            if (n := self.ability(card, K.SURGE)) >= 0:
                sh.surge += n
        return sh

    def need(self, sh: Shot) -> int:
        return self.target() + (0 if sh.ignore else self.incoming_penalty)

    @staticmethod
    def chance(bonus: int, need: int, crit_from: int) -> float:
        lo = max(min(need - bonus, crit_from), 2)
        return 0.0 if lo > 20 else (21 - lo) / 20.0

    def features(self, sh: Shot, cost: int) -> list[float]:
        p_hit = self.chance(sh.bonus, self.need(sh), sh.crit_from)
        p_crit = min((21 - sh.crit_from) / 20.0, p_hit)
        nxt = min(self.step + 1 + sh.surge, len(self.ladder) - 1)
        miss_c = 1.0 - self.chance(0, self.rules["crit_target"] + sh.penalty, 20)
        miss = 1.0 - self.chance(0, self.ladder[nxt] + sh.penalty, 20)
        return [p_hit, sh.penalty, p_crit * miss_c + (p_hit - p_crit) * miss, cost]

    @staticmethod
    def lands(roll: int, bonus: int, need: int, crit_from: int) -> bool:
        return roll != 1 and (roll >= crit_from or roll + bonus >= need)

    def worths(self, seat: int) -> np.ndarray:
        s = self.seats[seat]
        out = np.zeros(max(len(s.hand), 1))
        Pol.hand_worths(self.policies[seat], self.cards, np.array(s.hand, dtype=np.int32),
                        len(s.hand), self.stamina_in_play(s), out)
        return out

    def worth(self, seat: int, card: int) -> float:
        return Pol.card_worth(self.policies[seat], self.cards, card, False)

    def legal_hits(self, seat: int):
        """The Default Shot, ready table cards and shot cards in hand it can pay for."""
        s = self.seats[seat]
        options = [(("default", -1, -1, 0), self.features(Shot(), 0))]
        candidates = [("table", i, c.card, c.attached) for i, c in enumerate(s.table)
                      if c.tap == 0]
        candidates += [("hand", i, c, -1) for i, c in enumerate(s.hand)
                       if self.col(c, T.C_KIND) in (T.BASIC_SHOT, T.TRICK_SHOT)]
        for src, where, card, attached in candidates:
            cost = self.col(card, T.C_COST)
            if cost > s.ready_stamina:
                continue
            if not self.is_serve and self.ability(card, K.SERVE) >= 0:
                continue
            sets = (0, 1) if self.has_advantage(card) else (0,)
            for adv in sets:
                sh = self.shot(card, adv, attached, -1)
                options.append(((src, where, card, adv), self.features(sh, cost)))
        return options

    def choose_boost(self, seat: int, slot: int, adv: int) -> int:
        s = self.seats[seat]
        card, attached = s.table[slot].card, s.table[slot].attached
        base_feats = np.array([self.features(self.shot(card, adv, attached, -1), 0)])
        base = Pol.hit_score(self.policies[seat], base_feats, 0)
        cands, feats = [], []
        for i, e in enumerate(s.hand):
            if self.col(e, T.C_KIND) != T.ENHANCEMENT or self.ability(e, K.ATTACH) >= 0:
                continue
            cost = self.col(e, T.C_COST)
            if cost > s.ready_stamina:
                continue
            cands.append(i)
            feats.append(self.features(self.shot(card, adv, attached, e), cost))
        arr = np.array(feats or [[0.0] * Pol.N_FEATURES])
        b = Pol.choose_boost(self.policies[seat], arr, len(cands), base, self.keys,
                             self.counters, seat)
        if b < 0:
            return -1
        e = s.hand.pop(cands[b])
        s.ready_stamina -= self.col(e, T.C_COST)
        self.stat(seat, e, "played")
        self.say(f"{SEATS[seat]} boosts with {self.names[e]}")
        return e
