"""The reference engine's turn in plain Python: untap, recycle, Stamina and cards played in
the policy's order, the hit with its roll and coach saves, and the keywords that act when a
card is hit."""

from __future__ import annotations

from dataclasses import dataclass

from sim.paintline import keywords as K
from sim.paintline import pool as T
from sim.paintline import schema as Rec
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

    def tapped_choices(self, seat: int, skip: int) -> tuple[list[int], list[tuple[int, int]]]:
        """Distinct tapped table cards but skip: their slots, and each as (card, tap)."""
        s = self.seats[seat]
        slots, keys = [], []
        for i, c in enumerate(s.table):
            if i != skip and c.tap > 0 and (c.card, c.tap, c.attached) not in keys:
                keys.append((c.card, c.tap, c.attached))
                slots.append(i)
        return slots, [(s.table[i].card, s.table[i].tap) for i in slots]

    def recycle(self, seat: int) -> None:
        """Discard ratio*k cards of hand and play (the policy's choice), draw up to k."""
        s = self.seats[seat]
        player = self.players[seat]
        who = SEATS[seat]
        units = ([("hand", i) for i in range(len(s.hand))]
                 + [("table", i) for i in range(len(s.table))]
                 + [("plant", i) for i in range(len(s.power_plant))])
        ratio = self.rules["recycle_ratio"]
        left = self.cards_left(seat)
        chosen = player.recycle(s.hand, [(c.card, c.attached) for c in s.table],
                                len(s.power_plant), left, ratio)
        k = len(chosen) // ratio
        if k == 0:
            return
        safe = left - (1 if self.rules["deck_out"] == "forfeit_when_empty" and left else 0)
        draws = player.recycle_draws(k, safe)
        gone = sorted((units[x] for x in chosen),
                      key=lambda u: ("hand", "table", "plant").index(u[0]) * 1000 + u[1],
                      reverse=True)
        names = [self.names[{"hand": lambda i: s.hand[i], "table": lambda i: s.table[i].card,
                             "plant": lambda i: s.power_plant[i]}[z](i)] for z, i in gone]
        self.say(f"{who} recycles {', '.join(names)}; draws {draws}")
        for zone, i in gone:
            if zone == "plant":
                s.discard.append(s.power_plant.pop(i))
                s.ready_stamina = min(s.ready_stamina, len(s.power_plant))
            elif zone == "table":
                c = s.table.pop(i)
                s.discard.append(c.card)
                if c.attached >= 0:
                    s.discard.append(c.attached)
            else:
                s.discard.append(s.hand.pop(i))
        for _ in range(draws):
            self.draw_card(seat)

    def recycle_keeping(self, seat: int, slot: int, reserve: int) -> int:
        """The recycle after cards are played: the card to be hit (at slot) and the spent
        stamina that paid to hit it from the Arsenal (reserve, the last of the Power Plant)
        are not offered and go back behind what is left; returns the hit's slot now."""
        s = self.seats[seat]
        kept = s.table.pop(slot) if slot >= 0 else None
        plant = s.power_plant[len(s.power_plant) - reserve:]
        del s.power_plant[len(s.power_plant) - reserve:]
        try:
            self.recycle(seat)
        finally:
            s.power_plant += plant
            if kept is not None:
                s.table.append(kept)
                slot = len(s.table) - 1
        return slot

    def play_cards(self, seat: int) -> tuple[int, int, int, int]:
        """Play cards: the hit chosen with its enhancement and paid for, more single-use
        enhancements, spare cards onto the table. Returns the hit's card, value set, slot
        (-1 for the Default Shot) and the stamina paid to hit a card in the Arsenal."""
        s = self.seats[seat]
        who = SEATS[seat]
        options = self.legal_hits(seat)
        o = self.players[seat].hit([f for _, f in options])
        (src, where, card, adv, epos, enh), _ = options[o]
        if enh >= 0:
            s.hand.pop(epos)
            s.ready_stamina -= self.col(enh, T.C_COST)
            self.stat(seat, enh, "played")
            if src == "hand" and epos < where:
                where -= 1
        slot, reserve = -1, 0
        if src == "hand":
            s.ready_stamina -= self.col(card, T.C_COST)
            self.stat(seat, card, "played")
            s.hand.pop(where)
            s.table.append(InPlay(card))
            slot = len(s.table) - 1
            self.say(f"{who} plays {self.names[card]} from hand")
        elif src == "table":
            reserve = self.col(card, T.C_COST)
            s.ready_stamina -= reserve
            slot = where
        if enh >= 0:
            if self.is_boost(enh):
                s.boosts.append(enh)
                self.say(f"{who} boosts with {self.names[enh]}")
            else:
                s.table[slot].attached = enh
                self.say(f"{who} attaches {self.names[enh]} to {self.names[card]}")
        self.offer_boosts(seat, card, adv, s.table[slot].attached if slot >= 0 else -1)
        self.play_to_table(seat)
        return card, adv, slot, reserve

    def take_turn(self, seat: int) -> bool:
        s = self.seats[seat]
        player = self.players[seat]
        who = SEATS[seat]
        self.turns += 1
        self.say(f"-- turn {self.turns}: {who} to hit ({'serve' if self.is_serve else 'return'})")
        # 1. Ready all stamina, draw a card.
        s.ready_stamina = self.stamina_in_play(s)
        self.draw_card(seat)
        # 2-6. Untap, recycle, Stamina, play cards: each once, in the policy's order.
        card, adv, slot, reserve = -1, 0, -1, 0
        for action in player.order():
            if action == "untap":
                for _ in range(self.rules["untap_steps"]):
                    slots, tapped = self.tapped_choices(seat, -1)
                    j = player.untap(tapped)
                    if j is not None:
                        s.table[slots[j]].tap -= 1
                        self.say(f"{who} untaps {self.names[s.table[slots[j]].card]} one step")
            elif action == "recycle":
                if not self.rally_mode:  # rally mode has no bag
                    slot = self.recycle_keeping(seat, slot, reserve)
            elif action == "stamina":
                pos = next((i for i, c in enumerate(s.hand)
                            if self.col(c, T.C_KIND) == T.STAMINA), -1)
                if pos >= 0 and player.put_stamina(len(s.power_plant)):
                    c = s.hand.pop(pos)
                    self.stat(seat, c, "played")
                    s.power_plant.append(c)
                    s.ready_stamina += 1
                    self.say(f"{who} puts {self.names[c]} into play "
                             f"({len(s.power_plant)} in play)")
            else:
                card, adv, slot, reserve = self.play_cards(seat)
        # 7. Hit: abilities, double tap.
        attached = s.table[slot].attached if slot >= 0 else -1
        sh = self.shot(card, adv, attached, s.boosts)
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
        at_stake = 0 if self.is_serve and self.rules["serve_miss"] == "replay" else 1
        if (not landed and self.ability(s.coach, K.REROLL) >= 0 and s.coach_uses > 0
                and player.reroll(at_stake == 1)):
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
        s.discard += s.boosts
        s.boosts = []
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
                               sh.penalty, saved, sh.attached, len(sh.boosts),
                               *(*sh.boosts, *[-1] * Rec.LOG_BOOSTS)[: Rec.LOG_BOOSTS]])
        # 9. Discard down to the hand limit.
        extra = len(s.hand) - self.rules["hand_limit"]
        if extra > 0:
            gone = sorted(player.discards(s.hand, self.stamina_in_play(s), extra))
            self.say(f"{who} discards {self.cards_text([s.hand[i] for i in gone])}")
            for i in reversed(gone):
                s.discard.append(s.hand.pop(i))
        for c in s.hand:
            self.stat(seat, c, "dead_turns")
        return landed

    def play_to_table(self, seat: int) -> None:
        """Spare shot cards into the Arsenal, Attach enhancements onto shot cards of the
        policy's choice, one distinct option at a time."""
        s = self.seats[seat]
        while True:
            cands, pairs = [], []
            for i in self.distinct(s.hand):
                c = s.hand[i]
                kind = self.col(c, T.C_KIND)
                if self.col(c, T.C_COST) > s.ready_stamina:
                    continue
                if kind in (T.BASIC_SHOT, T.TRICK_SHOT):
                    cands.append((i, -1))
                    pairs.append((c, -1))
                elif kind == T.ENHANCEMENT and self.ability(c, K.ATTACH) >= 0:
                    free = []
                    for j, t in enumerate(s.table):
                        if t.attached < 0 and (t.card, t.tap) not in free:
                            free.append((t.card, t.tap))
                            cands.append((i, j))
                            pairs.append((c, t.card))
            j = self.players[seat].play(pairs)
            if j is None:
                return
            i, target = cands[j]
            c = s.hand.pop(i)
            s.ready_stamina -= self.col(c, T.C_COST)
            self.stat(seat, c, "played")
            if target >= 0:
                s.table[target].attached = c
                self.say(f"{SEATS[seat]} attaches {self.names[c]} to "
                         f"{self.names[s.table[target].card]}")
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
                    slots, tapped = self.tapped_choices(seat, slot)
                    if not slots:
                        break
                    j = self.players[seat].ready(tapped)
                    s.table[slots[j]].tap -= 1
