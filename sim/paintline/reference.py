"""The rules again in plain, readable Python over the same random streams: the kernel's
referee, and the source of a human-readable turn-by-turn log of any game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim import records as Rec
from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline.batch import Matchup
from sim.records import BatchRecords
from sim.rng import DICE, N_STREAMS, SHUFFLE, py_below, py_stream_key

SEATS = ("A", "B")
UNLIMITED_STAMINA = 999  # rally mode
TYPES = ("Default", "Lob", "Spin", "Drive")


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


@dataclass
class Seat:
    bag: list[int] = field(default_factory=list)  # undrawn, next card first
    hand: list[int] = field(default_factory=list)
    table: list[InPlay] = field(default_factory=list)
    power_plant: list[int] = field(default_factory=list)
    ready_stamina: int = 0
    discard: list[int] = field(default_factory=list)
    coach: int = -1
    coach_uses: int = 0
    score: int = 0
    games_won: int = 0
    mulligans: int = 0


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


class ReferenceGame:
    """One match of Paint the Line, played step by step in plain Python."""

    def __init__(self, matchup: Matchup, seed: int, game_index: int, log_rows: bool = True):
        self.m = matchup
        self.cards = matchup.pool.table
        self.names = matchup.pool.names
        r = matchup.rules.values
        self.rules = r
        self.rally_mode = bool(r["rally_mode"])
        self.ladder = list(r["escalation"])
        self.policies = matchup.policies
        self.keys = np.array([py_stream_key(seed, game_index, s) for s in range(N_STREAMS)],
                             dtype=np.uint64)
        self.counters = np.zeros(N_STREAMS, dtype=np.int64)
        self.seats = [Seat(), Seat()]
        self.text: list[str] = []
        self.shot_rows: list[list[int]] = []
        n_cards = len(self.names)
        self.card_stats = np.zeros((2, n_cards, len(Rec.CARD_STATS)), dtype=np.int64)
        self.seen = np.zeros((2, n_cards), dtype=bool)
        self.rally_len = np.zeros((2, Rec.RALLY_BINS), dtype=np.int32)
        self.rally_top = np.zeros((2, len(self.ladder)), dtype=np.int32)
        self.record = np.zeros(Rec.N_MATCH, dtype=np.int32)

    # --- helpers ---------------------------------------------------------------------

    def say(self, line: str) -> None:
        self.text.append(line)

    def name(self, card: int) -> str:
        return "Default Shot" if card < 0 else self.names[card]

    def col(self, card: int, column: int) -> int:
        return int(self.cards[card, column])

    def random_below(self, seat: int, purpose: int, n: int) -> int:
        s = purpose * 2 + seat
        v = py_below(int(self.keys[s]), int(self.counters[s]), n)
        self.counters[s] += 1
        return v

    def roll_the_ball(self, seat: int) -> int:
        return self.random_below(seat, DICE, 20) + 1

    def stat(self, seat: int, card: int, name: str, add: int = 1) -> None:
        self.card_stats[seat, card, list(Rec.CARD_STATS).index(name)] += add

    def ability(self, card: int, code: int) -> int:
        """Argument of the keyword on the card, -1 when absent."""
        if card < 0:
            return -1
        for ab, arg in ((T.C_AB1, T.C_ARG1), (T.C_AB2, T.C_ARG2)):
            if self.col(card, ab) == code:
                return self.col(card, arg)
        return -1

    # --- set-up ----------------------------------------------------------------------

    def shuffle(self, seat: int) -> None:
        bag = self.seats[seat].bag
        for i in range(len(bag) - 1, 0, -1):
            j = self.random_below(seat, SHUFFLE, i + 1)
            bag[i], bag[j] = bag[j], bag[i]

    def roll_for_first_serve(self) -> int:
        while True:
            a, b = self.roll_the_ball(0), self.roll_the_ball(1)
            self.say(f"Roll for first serve: A {a}, B {b}")
            if a != b:
                return 0 if a > b else 1

    def draw_opening_hand(self, seat: int) -> None:
        s = self.seats[seat]
        n = min(self.rules["opening_hand"], len(s.bag))
        s.hand += s.bag[:n]
        del s.bag[:n]

    def set_up_game(self) -> None:
        for seat, s in enumerate(self.seats):
            deck = self.m.decks[seat]
            s.bag = [] if self.rally_mode else [int(c) for c in deck.bag()]
            s.hand, s.table, s.power_plant, s.discard = [], [], [], []
            s.ready_stamina = 0
            self.shuffle(seat)
            self.draw_opening_hand(seat)
            s.score = 0
            s.coach_uses = self.coach_uses(s.coach)
        if self.rally_mode:
            for seat, s in enumerate(self.seats):
                s.table = [InPlay(c) for c in self.m.arsenals[seat]]
                s.ready_stamina = UNLIMITED_STAMINA
                self.say(f"{SEATS[seat]} starts every rally with "
                         f"{self.cards_text(self.m.arsenals[seat])}")
        for seat, s in enumerate(self.seats):
            prm = self.policies[seat]
            for _ in range(0 if self.rally_mode else self.rules["mulligans"]):
                stamina = sum(self.col(c, T.C_KIND) == T.STAMINA for c in s.hand)
                if not Pol.choose_mulligan(prm, stamina, self.keys, self.counters, seat):
                    break
                self.say(f"{SEATS[seat]} mulligans {self.cards_text(s.hand)}")
                s.bag = s.hand[::-1] + s.bag
                s.hand = []
                self.shuffle(seat)
                self.draw_opening_hand(seat)
                s.mulligans += 1
            for c in s.hand:
                self.seen[seat, c] = True
            self.say(f"{SEATS[seat]} keeps {self.cards_text(s.hand)}")

    def coach_uses(self, coach: int) -> int:
        if coach < 0:
            return 0
        if self.ability(coach, K.CLUTCH) >= 0:
            return 1
        return max(self.ability(coach, K.REROLL), 0)

    def stamina_in_play(self, s: Seat) -> int:
        return UNLIMITED_STAMINA if self.rally_mode else len(s.power_plant)

    def cards_text(self, cards) -> str:
        return ", ".join(self.names[c] for c in cards) or "nothing"

    # --- drawing ---------------------------------------------------------------------

    def draw_card(self, seat: int) -> None:
        if self.rally_mode:
            return  # no deck, no draws
        s = self.seats[seat]
        if not s.bag:
            self.say(f"{SEATS[seat]} must draw from an empty bag and forfeits")
            raise Forfeit(seat)
        card = s.bag.pop(0)
        s.hand.append(card)
        self.seen[seat, card] = True
        self.say(f"{SEATS[seat]} draws {self.names[card]}")
        if self.rules["deck_out"] == "forfeit_when_empty" and not s.bag:
            self.say(f"{SEATS[seat]}'s bag is empty: forfeit")
            raise Forfeit(seat)

    # --- the shot --------------------------------------------------------------------

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

    # --- the turn --------------------------------------------------------------------

    def worths(self, seat: int) -> np.ndarray:
        s = self.seats[seat]
        out = np.zeros(max(len(s.hand), 1))
        Pol.hand_worths(self.policies[seat], self.cards, np.array(s.hand, dtype=np.int32),
                        len(s.hand), self.stamina_in_play(s), out)
        return out

    def worth(self, seat: int, card: int) -> float:
        return Pol.card_worth(self.policies[seat], self.cards, card, False)

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

    # --- points, games, the match ----------------------------------------------------

    def reset_after_point(self) -> None:
        for s in self.seats:
            for c in s.table:
                c.tap = 0
            s.ready_stamina = self.stamina_in_play(s)
        self.step = self.top = 0
        self.after_crit = False
        self.incoming_penalty = 0
        self.incoming_type = T.NO_TYPE
        self.mute_cost = -1
        self.is_serve = True
        self.landed = 0

    def game_winner(self) -> int:
        a, b = self.seats[0].score, self.seats[1].score
        for seat, (me, other) in enumerate(((a, b), (b, a))):
            if me >= self.rules["points_to_win"] and me - other >= self.rules["win_by"]:
                return seat
        return -1

    def play_game(self) -> int:
        while True:
            server = self.server
            to_hit = server
            self.point_no += 1
            while True:
                try:
                    landed = self.take_turn(to_hit)
                except Forfeit as f:
                    self.record[Rec.CUT_LEN] = self.landed
                    self.record[Rec.CUT_SERVER] = server
                    self.forfeit = f.seat
                    return 1 - f.seat
                if landed:
                    to_hit = 1 - to_hit
                    continue
                if self.is_serve and self.rules["serve_miss"] == "replay":
                    self.say(f"{SEATS[to_hit]} missed the serve: serve again")
                    continue
                winner = 1 - to_hit
                self.seats[winner].score += 1
                self.points += 1
                self.rally_len[server, min(self.landed, Rec.RALLY_BINS - 1)] += 1
                self.rally_top[server, self.top] += 1
                self.say(f"Point to {SEATS[winner]}: {self.seats[0].score}-"
                         f"{self.seats[1].score}")
                break
            self.reset_after_point()
            self.server = 1 - self.server
            w = self.game_winner()
            if w >= 0:
                return w

    def play_match(self) -> None:
        rec = self.record
        rec[Rec.CUT_LEN] = rec[Rec.CUT_SERVER] = -1
        for seat in range(2):
            self.seats[seat].coach = -1 if self.rally_mode else int(self.m.decks[seat].coach)
        self.turns = self.points = self.shots = self.point_no = 0
        deckouts = 0
        end = 0
        first = self.roll_for_first_serve()
        need = self.rules["match_games"] // 2 + 1
        winner = -1
        for g in range(self.rules["match_games"]):
            self.game_no = g
            self.say(f"== game {g + 1}")
            self.set_up_game()
            self.reset_after_point()
            self.forfeit = -1
            self.server = first if g % 2 == 0 else 1 - first
            w = self.play_game()
            rec[Rec.SCORE_A] += self.seats[0].score
            rec[Rec.SCORE_B] += self.seats[1].score
            self.seats[w].games_won += 1
            end = 1 if self.forfeit >= 0 else 0
            deckouts += end
            self.say(f"Game {g + 1} to {SEATS[w]}")
            if self.seats[w].games_won >= need:
                winner = w
                break
        rec[Rec.WINNER] = winner
        rec[Rec.GAMES_A] = self.seats[0].games_won
        rec[Rec.GAMES_B] = self.seats[1].games_won
        rec[Rec.POINTS] = self.points
        rec[Rec.TURNS] = self.turns
        rec[Rec.SHOTS] = self.shots
        rec[Rec.END] = end
        rec[Rec.DECKOUTS] = deckouts
        rec[Rec.FIRST_SERVER] = first
        rec[Rec.MULL_A] = self.seats[0].mulligans
        rec[Rec.MULL_B] = self.seats[1].mulligans
        for seat in range(2):
            won = int(winner == seat)
            for card, _ in self.m.decks[seat].counts:
                self.stat(seat, card, "games_in_deck")
                if self.seen[seat, card]:
                    self.stat(seat, card, "games_drawn")
                    self.stat(seat, card, "wins_drawn", won)
                else:
                    self.stat(seat, card, "wins_not_drawn", won)
        self.say(f"Match to {SEATS[winner]}")


def replay(matchup: Matchup, seed: int, game_index: int) -> ReferenceGame:
    """Play one match with the reference engine; .text holds the turn-by-turn log."""
    game = ReferenceGame(matchup, seed, game_index)
    game.play_match()
    return game


def reference_batch(matchup: Matchup, n: int, seed: int, first_game: int = 0,
                    n_log: int = 0) -> BatchRecords:
    """The same records as sim.paintline.batch.run_batch, from the reference engine."""
    rec = BatchRecords.allocate(n, len(matchup.rules.values["escalation"]),
                                len(matchup.pool), n_log, first_game)
    for i in range(n):
        g = replay(matchup, seed, first_game + i)
        rec.matches[i] = g.record
        rec.rally_len[i] = g.rally_len
        rec.rally_top[i] = g.rally_top
        rec.card_stats += g.card_stats
        if i < rec.log.shape[0]:
            rows = np.array(g.shot_rows, dtype=np.int32).reshape(-1, Rec.N_LOG)[: Rec.LOG_ROWS]
            rec.log[i, : len(rows)] = rows
            rec.log_n[i] = len(rows)
    return rec
