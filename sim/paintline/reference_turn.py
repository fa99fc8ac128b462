"""The reference engine's turn in plain Python: stamina, untap, recycle, the hit and its
roll with coach saves, cards put into play, and the keywords that act when a card is hit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline.reference_shots import SEATS


class Forfeit(Exception):
    """A player could not draw (deck-out): the game ends at once."""

    def __init__(self, seat: int):
        self.seat = seat


@dataclass
class InPlay:
    """A shot card on the table: tap 0 ready (Arsenal), 1 or 2 tapped (Reserve)."""

    card: int
    tap: int = 0
    attached: int = -1


class TurnRules:
    """Turn rules of the reference game (a mixin of ReferenceGame, whose state, streams,
    log and shot rules it uses)."""

    def take_turn(self, seat: int) -> bool:
        s = self.seats[seat]
        prm = self.policies[seat]
        keys, ctr = self.keys, self.counters
        who = SEATS[seat]
        self.turns += 1
        self.say(f"-- turn {self.turns}: {who} to hit ({'serve' if self.is_serve else 'return'})")
        # 1. Ready all stamina, draw a card.
        s.ready_stamina = self.stamina_in_play(s)
        self.draw_card(seat)
        # 2. One Stamina into play.
        pos = next((i for i, c in enumerate(s.hand) if self.col(c, T.C_KIND) == T.STAMINA), -1)
        if pos >= 0 and Pol.choose_stamina(prm, len(s.power_plant), keys, ctr, seat):
            card = s.hand.pop(pos)
            self.stat(seat, card, "played")
            s.power_plant.append(card)
            s.ready_stamina += 1
            self.say(f"{who} puts {self.names[card]} into play ({len(s.power_plant)} in play)")
        # 3. Untap one step.
        for _ in range(self.rules["untap_steps"]):
            tapped = [c for c in s.table if c.tap > 0]
            w = np.array([self.worth(seat, c.card) for c in tapped] or [0.0])
            j = Pol.choose_untap(prm, w, len(tapped), keys, ctr, seat)
            if j >= 0:
                tapped[j].tap -= 1
                self.say(f"{who} untaps {self.names[tapped[j].card]} one step")
        # 4. Recycle.
        ratio = self.rules["recycle_ratio"]
        chosen = np.zeros(64, dtype=np.int64)
        k = Pol.choose_recycle(prm, self.worths(seat), len(s.hand), len(s.bag), ratio, keys,
                               ctr, seat, chosen)
        if k > 0:
            gone = sorted(int(x) for x in chosen[: k * ratio])
            self.say(f"{who} recycles {self.cards_text([s.hand[i] for i in gone])}")
            for i in reversed(gone):
                s.discard.append(s.hand.pop(i))
            for _ in range(k):
                self.draw_card(seat)
        # 5. Choose the hit from every legal option and pay for it.
        options = self.legal_hits(seat)
        feats = np.array([f for _, f in options])
        o = Pol.choose_hit(prm, feats, len(options), keys, ctr, seat)
        (src, where, card, adv), _ = options[o]
        slot = -1
        if src == "hand":
            s.ready_stamina -= self.col(card, T.C_COST)
            self.stat(seat, card, "played")
            s.hand.pop(where)
            s.table.append(InPlay(card))
            slot = len(s.table) - 1
            self.say(f"{who} plays {self.names[card]} from hand")
        elif src == "table":
            s.ready_stamina -= self.col(card, T.C_COST)
            slot = where
        # 6. Single-use enhancement, then spare cards onto the table.
        boost = self.choose_boost(seat, slot, adv) if slot >= 0 else -1
        self.play_to_table(seat, slot)
        # 7. Hit: abilities, double tap.
        attached = s.table[slot].attached if slot >= 0 else -1
        sh = self.shot(card, adv, attached, boost)
        if slot >= 0:
            self.stat(seat, card, "hit")
            if sh.active:
                self.on_hit(seat, card, slot)
            s.table[slot].tap = 2
        # 8. Roll the ball.
        need = self.need(sh)
        roll = self.roll_the_ball(seat)
        landed = self.lands(roll, sh.bonus, need, sh.crit_from)
        saved = 0
        if not landed and self.ability(s.coach, K.REROLL) >= 0 and s.coach_uses > 0:
            s.coach_uses -= 1
            self.say(f"{who} misses with {roll}; {self.names[s.coach]} rerolls")
            roll = self.roll_the_ball(seat)
            landed = self.lands(roll, sh.bonus, need, sh.crit_from)
            saved = 1
        margin = self.ability(s.coach, K.CLUTCH)
        if (not landed and margin >= 0 and s.coach_uses > 0 and roll != 1
                and need - (roll + sh.bonus) <= margin):
            s.coach_uses -= 1
            landed = True
            saved = 2
            self.say(f"{who} misses by {need - roll - sh.bonus}; {self.names[s.coach]} saves it")
        crit = landed and roll >= sh.crit_from and roll != 1
        if boost >= 0:
            s.discard.append(boost)
        value_set = "Advantage" if adv else "Normal"
        self.say(
            f"{who} hits {self.name(card)}"
            + (f" ({value_set}, +{sh.bonus}, return penalty {sh.penalty})" if card >= 0 else "")
            + f": target {self.target()} + penalty {need - self.target()} = {need}, "
            f"roll {roll} + {sh.bonus} -> {'CRITICAL' if crit else 'in' if landed else 'MISS'}"
        )
        if landed:
            if slot >= 0:
                self.stat(seat, card, "landed")
            self.step = min(self.step + 1 + sh.surge, len(self.ladder) - 1)
            self.top = max(self.top, self.step)
            self.after_crit = crit
            self.incoming_penalty = sh.penalty
            self.incoming_type = self.col(card, T.C_TYPE) if card >= 0 else T.NO_TYPE
            self.mute_cost = sh.mute if sh.active else -1
            self.is_serve = False
            self.landed += 1
            nxt = self.target()
            self.say(f"   index now {self.ladder[self.step]}; {SEATS[1 - seat]} needs "
                     f"{nxt} + {sh.penalty}")
        self.shots += 1
        self.shot_rows.append([self.game_no, self.point_no, self.turns, seat, card, adv,
                               sh.bonus, need, roll, int(landed), int(crit), self.step,
                               sh.penalty, saved, boost])
        # 9. Discard down to the hand limit.
        extra = len(s.hand) - self.rules["hand_limit"]
        if extra > 0:
            chosen = np.zeros(64, dtype=np.int64)
            Pol.choose_discards(prm, self.worths(seat), len(s.hand), extra, keys, ctr, seat,
                                chosen)
            gone = sorted(int(x) for x in chosen[:extra])
            self.say(f"{who} discards {self.cards_text([s.hand[i] for i in gone])}")
            for i in reversed(gone):
                s.discard.append(s.hand.pop(i))
        for c in s.hand:
            self.stat(seat, c, "dead_turns")
        return landed

    def play_to_table(self, seat: int, hit_slot: int) -> None:
        s = self.seats[seat]
        while True:
            if hit_slot >= 0 and s.table[hit_slot].attached < 0:
                free = hit_slot
            else:
                free = next((i for i, c in enumerate(s.table) if c.attached < 0), -1)
            cands = []
            for i, c in enumerate(s.hand):
                kind = self.col(c, T.C_KIND)
                shot = kind in (T.BASIC_SHOT, T.TRICK_SHOT)
                attach = kind == T.ENHANCEMENT and self.ability(c, K.ATTACH) >= 0
                if (shot or (attach and free >= 0)) and self.col(c, T.C_COST) <= s.ready_stamina:
                    cands.append(i)
            w = np.array([self.worth(seat, s.hand[i]) for i in cands] or [0.0])
            j = Pol.choose_play(self.policies[seat], w, len(cands), self.keys, self.counters,
                                seat)
            if j < 0:
                return
            c = s.hand.pop(cands[j])
            s.ready_stamina -= self.col(c, T.C_COST)
            self.stat(seat, c, "played")
            if self.col(c, T.C_KIND) == T.ENHANCEMENT:
                s.table[free].attached = c
                self.say(f"{SEATS[seat]} attaches {self.names[c]} to "
                         f"{self.names[s.table[free].card]}")
            else:
                s.table.append(InPlay(c))
                self.say(f"{SEATS[seat]} puts {self.names[c]} into the Arsenal")

    def on_hit(self, seat: int, card: int, slot: int) -> None:
        """Draw n and Ready n act when the card is hit, before the roll."""
        s = self.seats[seat]
        for code, arg in ((self.col(card, T.C_AB1), self.col(card, T.C_ARG1)),
                          (self.col(card, T.C_AB2), self.col(card, T.C_ARG2))):
            if code == K.DRAW:
                for _ in range(arg):
                    self.draw_card(seat)
            elif code == K.READY:
                for _ in range(arg):
                    others = [i for i, c in enumerate(s.table) if i != slot and c.tap > 0]
                    if not others:
                        break
                    best = max(others, key=lambda i: (s.table[i].tap, -i))
                    s.table[best].tap -= 1
