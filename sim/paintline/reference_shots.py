"""The reference engine's shot arithmetic in plain Python: what a hit rolls with, its
odds over the d20 as a policy sees them, and the legal hits and boosts of a turn."""

from __future__ import annotations

from dataclasses import dataclass

from sim.paintline import keywords as K
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
    attached: int = -1  # the enhancement attached to the card
    boosts: tuple[int, ...] = ()  # the single-use enhancements boosting it
    active: bool = False


class ShotRules:
    """Shot rules of the reference game (a mixin of ReferenceGame, whose state it reads:
    cards, rules, ladder, step, after_crit, is_serve, incoming_type, incoming_penalty,
    mute_cost, seats and players)."""

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

    def shot(self, card: int, advantage: int, attached: int, boosts=()) -> Shot:
        sh = Shot(card=card, advantage=advantage, attached=attached, boosts=tuple(boosts))
        for c in (card, attached, *boosts):
            if c >= 0:
                b, p = self.values(c, advantage)
                sh.bonus += b
                sh.penalty += p
        if card < 0:
            return sh
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

    def is_boost(self, card: int) -> bool:
        return self.col(card, T.C_KIND) == T.ENHANCEMENT and self.ability(card, K.ATTACH) < 0

    @staticmethod
    def distinct(hand: list[int]) -> list[int]:
        """Hand positions holding a card no earlier position holds."""
        return [i for i, c in enumerate(hand) if c not in hand[:i]]

    def legal_hits(self, seat: int):
        """Every distinct hit: the Default Shot, ready table cards and shot cards in hand it
        can pay for, in each value set open to it, each alone or with one enhancement."""
        s = self.seats[seat]
        boosts = self.rules["boosts_per_shot"] > 0
        options = [(("default", -1, -1, 0, -1, -1), self.features(Shot(), 0))]
        if boosts and self.rules["boost_default_shot"]:
            for j in self.distinct(s.hand):
                e = s.hand[j]
                if self.is_boost(e) and self.col(e, T.C_COST) <= s.ready_stamina:
                    options.append((("default", -1, -1, 0, j, e),
                                    self.features(self.shot(-1, 0, -1, [e]),
                                                  self.col(e, T.C_COST))))
        candidates = []
        seen = []
        for i, c in enumerate(s.table):
            if c.tap == 0 and (c.card, c.attached) not in seen:
                seen.append((c.card, c.attached))
                candidates.append(("table", i, c.card, c.attached))
        candidates += [("hand", i, s.hand[i], -1) for i in self.distinct(s.hand)
                       if self.col(s.hand[i], T.C_KIND) in (T.BASIC_SHOT, T.TRICK_SHOT)]
        for src, where, card, attached in candidates:
            cost = self.col(card, T.C_COST)
            if cost > s.ready_stamina:
                continue
            if not self.is_serve and self.ability(card, K.SERVE) >= 0:
                continue
            sets = (0, 1) if self.has_advantage(card) else (0,)
            for adv in sets:
                options.append(((src, where, card, adv, -1, -1),
                                self.features(self.shot(card, adv, attached), cost)))
                for j in self.distinct(s.hand):
                    e = s.hand[j]
                    if self.col(e, T.C_KIND) != T.ENHANCEMENT:
                        continue
                    boost = self.is_boost(e)
                    if (boost and not boosts) or (not boost and attached >= 0):
                        continue
                    total = cost + self.col(e, T.C_COST)
                    if total > s.ready_stamina:
                        continue
                    sh = (self.shot(card, adv, attached, [e]) if boost
                          else self.shot(card, adv, e))
                    options.append(((src, where, card, adv, j, e), self.features(sh, total)))
        return options

    def offer_boosts(self, seat: int, card: int, adv: int, attached: int) -> None:
        """Further single-use enhancements, one at a time while the policy takes them."""
        s = self.seats[seat]
        if card < 0 and not self.rules["boost_default_shot"]:
            return
        while len(s.boosts) < self.rules["boosts_per_shot"]:
            now = self.features(self.shot(card, adv, attached, s.boosts), 0)
            cands, feats = [], []
            for i in self.distinct(s.hand):
                e = s.hand[i]
                cost = self.col(e, T.C_COST)
                if not self.is_boost(e) or cost > s.ready_stamina:
                    continue
                cands.append(i)
                feats.append(self.features(self.shot(card, adv, attached, [*s.boosts, e]),
                                           cost))
            b = self.players[seat].boost(now, feats)
            if b is None:
                return
            e = s.hand.pop(cands[b])
            s.ready_stamina -= self.col(e, T.C_COST)
            s.boosts.append(e)
            self.stat(seat, e, "played")
            self.say(f"{SEATS[seat]} boosts with {self.names[e]}")
