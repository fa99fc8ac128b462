"""Reference engine, part 5: set-up, the six steps of a turn as the rulebook names them (the
score step in part 4), combat, the encounter-mode turn of the exact check, and a whole match."""

from __future__ import annotations

from sim.core.rng import py_shuffle
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.reference_effects import MAX_ACTIONS, Option
from sim.encounter.reference_moments import Moments
from sim.encounter.reference_state import (
    DICE,
    FOUGHT,
    GONE,
    LOOT,
    SHUFFLE,
    WAITING,
    Character,
    Seat,
    Striker,
)


class Encounter(Moments):
    """One match of Encounter RPCCG, played step by step."""

    def shuffle(self, seat: Seat, cards: list, purpose: int):
        """Fisher-Yates from the bottom card up, on the seat's stream of that purpose."""
        py_shuffle(cards, lambda n: self.rand(purpose, seat.index, n))

    # -- set-up --------------------------------------------------------------------------------
    def set_up(self, decks):
        """PCs and starting characteristics; decks shuffled, opening hands (and mulligans);
        the PC of highest intelligence chooses who goes first, a die among the tied."""
        for p, deck in enumerate(decks):
            seat = Seat(p, self.cards[deck.pc])
            self.seats.append(seat)
            for c in deck.chars:
                seat.characteristics.append(self.cards[c])
                seat.drawn.add(c)
            if self.rules["encounter_mode"]:
                continue
            seat.deck = [self.cards[c] for c in deck.draw]
            seat.loot = [self.cards[c] for c in deck.loot]
            self.shuffle(seat, seat.deck, SHUFFLE)
            self.shuffle(seat, seat.loot, LOOT)
            self.draw_opening_hand(seat)
            while seat.mulligans < self.rules["mulligans"] and self.player(seat).mulligan():
                seat.mulligans += 1
                self.say(p, S.EV_MULLIGAN, -1, seat.mulligans)
                seat.deck.extend(reversed(seat.hand))
                seat.hand.clear()
                self.shuffle(seat, seat.deck, SHUFFLE)
                self.draw_opening_hand(seat)
            seat.opening_quests = sum(1 for c in seat.hand if c.kind == K.QUEST)
        wits = [pc_intelligence(seat) for seat in self.seats]
        tied = [p for p, w in enumerate(wits) if w == max(wits)]
        chooser = tied[self.rand(DICE, 0, len(tied))] if len(tied) > 1 else tied[0]
        self.chooser, self.wits, self.round_played = chooser, wits, set()
        self.first = self.active = self.player(self.seats[chooser]).goes_first()
        self.say(chooser, S.EV_FIRST, -1, self.first,
                 wits[0] * 100 + wits[1] if self.n == 2 else max(wits))

    def round_chooser(self) -> Seat:
        """Who picks the first player of a round: the chooser; when it is out, the choice
        passes for good to the player still in of highest intelligence, a tie broken as at
        set-up (a die on seat A's dice stream among the tied)."""
        if not self.seats[self.chooser].out:
            return self.seats[self.chooser]
        best = max(self.wits[s.index] for s in self.in_game())
        tied = [s for s in self.in_game() if self.wits[s.index] == best]
        self.chooser = (tied[self.rand(DICE, 0, len(tied))] if len(tied) > 1
                        else tied[0]).index
        return self.seats[self.chooser]

    def draw_opening_hand(self, seat: Seat):
        for _ in range(self.rules["hand_size"]):
            self.draw(seat)

    # -- the match -------------------------------------------------------------------------
    def play(self, decks):
        """Set-up, then turns clockwise until points, a killed PC (the last player left),
        deck-out or the cap: max_rounds rounds, in each of which every player still in takes
        one turn (and max_turns turns, where set). Under choose_first = each_turn the chooser
        picks who goes first in every round (set-up picked the first round's), under once
        the turns simply go round."""
        self.set_up(decks)
        self.rounds = 1
        while not self.over:
            if self.rules["max_turns"] and self.turn >= self.rules["max_turns"]:
                self.game_over(-1, K.END_CAP)
                break
            if all(s.index in self.round_played for s in self.in_game()):
                if self.rounds >= self.rules["max_rounds"]:
                    self.game_over(-1, K.END_CAP)
                    break
                self.rounds += 1
                self.round_played = set()
                if self.rules["choose_first"] == "each_turn":
                    chooser = self.round_chooser()
                    self.active = self.player(chooser).goes_first()
                    self.say(chooser.index, S.EV_FIRST, -1, self.active, -1)
            self.take_turn()
            self.round_played.add(self.active)
            if self.turn_ends:
                self.over = self.turn_ends = False  # the active player is out
            self.active = self.to_the(self.a, 1).index

    def take_turn(self):
        """A's pool refilled, abilities back, then the six steps (or encounter mode)."""
        self.turn += 1
        pts = [seat.points for seat in self.seats] + [0] * (S.MAX_SEATS - len(self.seats))
        self.say(self.active, S.EV_TURN, -1, pts[0] + S.POINTS_BASE * pts[1],
                 pts[2] + S.POINTS_BASE * pts[3])
        if self.rules["encounter_mode"]:
            self.encounter_mode_turn()
        else:
            a = self.a
            a.pool = self.rules["pool_per_turn"]
            a.location_played = False
            self.abilities_come_back()
            self.start_of_turn()
            if not self.over:
                self.draw_step()
            if not self.over:
                self.boost_step()
            if not self.over and self.quest_step():
                if not self.over:
                    self.encounter_step()
                if not self.over:
                    self.score_step()
            if not self.over:
                self.settle_step()
            elif self.turn_ends:
                self.strikers_leave()
        self.end_turn()

    # -- 1. draw -------------------------------------------------------------------------------
    def draw_step(self):
        """A window, then discard or draw to exactly hand_size (deck_out on an empty deck)."""
        a, size = self.a, self.rules["hand_size"]
        self.start_step()
        self.window(K.S_DRAW)
        while len(a.hand) > size:
            card = a.hand.pop(self.player(a).discard())
            a.discard.append(card)
            self.say(a.index, S.EV_DISCARD, card.id)
        while len(a.hand) < size and not self.over:
            if self.draw(a) is None:
                self.say(a.index, S.EV_DECKOUT)
                if self.rules["deck_out"] == "lose_on_empty_draw":
                    self.lose(a, K.END_DECKOUT)
                break

    # -- 2. boost --------------------------------------------------------------------------
    def boost_step(self):
        """A alone plays boost cards and boost maneuvers, one at a time, until it passes."""
        a = self.a
        self.start_step()
        for _ in range(MAX_ACTIONS):
            if self.over:
                return
            plays = [Option(True, i, c, "card") for i, c in enumerate(a.hand)
                     if self.boost_playable(a, c)]
            o = self.player(a).boost(plays + self.maneuvers(a, K.S_BOOST))
            if o is None:
                return
            if o.kind == "card":
                self.play_boost_card(a, o.where)
            else:
                self.use(a, o)

    # -- 3. quest --------------------------------------------------------------------------
    def strike_budget(self, quest, b: Seat, threat: int) -> int:
        """Quest cost + opponent b's Budget - A's Sneak, floor 0 (twilight: plus A's
        threat, the same for every opponent)."""
        v = quest.quest_cost + self.seat_keyword(b, K.BUDGET) - self.seat_keyword(self.a,
                                                                                K.SNEAK)
        return max(v + threat, 0)

    def quest_step(self) -> bool:
        """A may play a quest; each opponent in turn, counterclockwise from A's right,
        spends the strike budget on strike cards (strike_budget: shared, what those before
        left plus its own Budget; each, a whole one of its own); a window. False when A
        plays no quest."""
        a = self.a
        self.start_step()
        # "Before playing a quest, each player ... may perform maneuvers that take place at
        # the start of the quest step."
        self.window(K.S_QSTART)
        if self.over:
            return False
        playable = [i for i, c in enumerate(a.hand) if c.kind == K.QUEST and self.race_ok(a, c)]
        i = self.player(a).quest(playable, self.rules["quest_mandatory"])
        if i is None:
            return False
        q = self.quest = a.hand.pop(i)
        a.quests_attempted += 1
        self.note(a.index, q, S.ST_PLAYED)
        self.note(a.index, q, S.ST_USED)
        threat = 0
        if self.rules["cost_currency"] == "twilight":
            threat, a.threat = a.threat, 0
        before = None
        for n, b in enumerate(self.opponents()):
            if n > 0 and self.rules["strike_budget"] == "shared":
                before.left = 0  # twilight: what it left is passed on, not kept
                self.budget = max(self.budget + self.seat_keyword(b, K.BUDGET), 0)
            else:
                self.budget = self.strike_budget(q, b, threat)
            before = b
            if n == 0:
                self.say(a.index, S.EV_QUEST, q.id, self.budget, b.index)
            else:
                self.say(b.index, S.EV_BUDGET, q.id, self.budget)
            for _ in range(S.CAP):
                strikes = [i for i, c in enumerate(b.hand)
                           if c.is_strike() and c.cost <= self.budget and self.race_ok(b, c)
                           and self.unique_ok(b, c)]
                i = self.player(b).strike(strikes)
                if i is None:
                    break
                if self.play_strike(b, b.hand.pop(i)):
                    return True
            if self.rules["cost_currency"] == "twilight":
                b.left = self.budget
        a.sent = len(self.strikers)
        if self.rules["cost_currency"] != "twilight":
            self.budget = 0  # leftover budget is lost (twilight: it pays B's costs)
        self.window(K.S_QUEST)
        return True

    def play_strike(self, b: Seat, card) -> bool:
        """Opponent b pays a strike card from its budget: an NPC joins the strikers, an
        action resolves and is discarded. True when that ended the game (or A's turn)."""
        self.budget -= card.cost
        self.say(b.index, S.EV_STRIKE, card.id, card.cost, self.budget)
        if card.nature == K.STRIKE:
            self.strikers.append(Striker(card, b))
            self.note(b.index, card, S.ST_PLAYED)
            self.respond()
            return False
        self.played(b, card, True)
        if card.stays:
            self.stay(b, card)  # to b's bulwark or a character of A's, not discarded
            return False
        b.discard.append(card)
        self.resolve(b, *card.abilities[0], card)
        return self.over

    # -- 4. encounter ----------------------------------------------------------------------
    def encounter_step(self):
        """A window; then the opponents in turn, counterclockwise from A's right, each send
        one of their waiting strikers (one with none waiting is passed over), A picks a
        defender, they fight."""
        a = self.a
        self.start_step()
        self.window(K.S_ENCOUNTER)
        chooser = a
        for _ in range(len(self.strikers)):
            if self.over:
                return
            chooser = self.next_chooser(chooser)
            waiting = [s for s in self.strikers if s.state == WAITING and s.owner is chooser]
            striker = self.player(chooser).striker(waiting)
            if striker is None:
                return
            # The PC may always defend; a party NPC unless it has defended (defend_limit).
            options = [ch for ch in a.party
                       if self.rules["defend_limit"] == "any" or not ch.defended]
            defender = self.player(a).defender(striker, [*options, a.pc])
            defender.defended = True
            self.fight(striker, defender)

    def next_chooser(self, last: Seat) -> Seat:
        """The first opponent to the right of the last chooser (A at first) with a striker
        waiting; when none has one, the opponent right after the last chooser."""
        order = self.opponents()
        start = 0 if last is self.a else (order.index(last) + 1) % len(order)
        turn = order[start:] + order[:start]
        for seat in turn:
            if any(s.owner is seat and s.state == WAITING for s in self.strikers):
                return seat
        return turn[0]

    def fight(self, striker: Striker, defender: Character):
        """A combat window, then higher strength wins (combat_tie); the loser takes 1 wound
        plus the winner's Damage. A surviving striker fights no more this turn."""
        a, b = self.a, striker.owner
        self.combat, self.might = (striker, defender), [0, 0]
        if not defender.is_pc:
            self.note(a.index, defender.card, S.ST_USED)
        self.note(b.index, striker.card, S.ST_USED)
        a.strikes_faced += 1
        self.start_step()
        self.window(K.S_COMBAT)
        if striker.state == WAITING:
            striker.state = FOUGHT
        if self.over or self.side_gone():
            # The match or A's turn ended, or a maneuver of the window killed (or
            # cancelled) a side: the combat ends with no winner and no wound.
            self.combat, self.might = None, [0, 0]
            return
        result = self.combat_result(striker, defender, *self.might)
        self.say(a.index, S.EV_COMBAT, striker.card.id,
                 defender.card.id * 1000 + self.stat(a, defender, "str") + self.might[0],
                 result * 1000 + striker.card.stats["str"] + self.might[1])
        if result == 1:
            self.wins += 1
            a.strikers_defeated += 1
            if not defender.is_pc:
                self.note(a.index, defender.card, S.ST_SUCCEEDED)
            self.wound_striker(striker, 1 + self.damage(defender, a))
        elif result == -1:
            self.note(b.index, striker.card, S.ST_SUCCEEDED)
            if defender.is_pc and striker.card.keyword(K.CAPTURE) > 0:
                # "If your PC is killed (or captured), you lose the game."
                self.say(a.index, S.EV_CAPTURE, striker.card.id, defender.card.id)
                self.lose(a, K.END_CAPTURED)
            else:
                self.wound(a, defender, 1 + striker.card.keyword(K.DAMAGE))
        self.combat, self.might = None, [0, 0]

    # -- 6. settle -------------------------------------------------------------------------
    def settle_step(self):
        """A window; surviving strikers leave (strikers_after); A's characters heal."""
        a = self.a
        self.start_step()
        self.window(K.S_SETTLE)
        self.strikers_leave()
        if self.rules["settle_heal"] > 0 and not self.over:
            for ch in (a.pc, *a.party):
                self.heal(ch, self.rules["settle_heal"])

    def strikers_leave(self):
        """Strikers not gone go to their owners' discard piles (strikers_after: hands)."""
        for s in self.strikers:
            if s.state != GONE:
                pile = "hand" if self.rules["strikers_after"] == "hand" else "discard"
                getattr(s.owner, pile).append(s.card)
        self.strikers = []

    def end_turn(self):
        """Cards played this turn are judged (A's way when its quest was completed, B's way
        otherwise); this turn's effects end."""
        for by, card in self.judged:
            if (by == self.active) == self.completed:
                self.note(by, card, S.ST_SUCCEEDED)
        self.judged = []
        self.quest, self.completed = None, False
        self.hex = self.ambush = self.wins = self.pc_wounds_this_turn = self.budget = 0
        for seat in self.seats:
            seat.pc.ward = seat.left = 0
            for ch in seat.party:
                ch.ward, ch.defended = 0, False

    # -- encounter mode --------------------------------------------------------------------
    def encounter_mode_turn(self):
        """The lone PC plays the fixed quest against k strikers of strengths drawn from the
        list (dice stream): intelligence 0, no Damage; then heals settle_heal."""
        a, r = self.a, self.rules
        a.quests_attempted += 1
        self.say(a.index, S.EV_QUEST, -1, r["encounter_strikers"])
        strengths = r["encounter_strengths"]
        for _ in range(r["encounter_strikers"]):
            s = strengths[self.rand(DICE, a.index, len(strengths))]
            d = self.stat(a, a.pc, "str")
            result = 1 if d > s else (-1 if d < s else 0)
            if result == 0:
                tie = r["combat_tie"]
                if tie == "intelligence":
                    result = 1 if self.stat(a, a.pc, "int") > 0 else -1
                else:
                    result = {"defender": 1, "none": 0}.get(tie, -1)
            a.strikes_faced += 1
            self.say(a.index, S.EV_COMBAT, -1, a.pc.card.id * 1000 + d, result * 1000 + s)
            if result == 1:
                self.wins += 1
                a.strikers_defeated += 1
            elif result == -1:
                self.wound(a, a.pc, 1)
                if self.over:
                    return
        obj = K.O_UNHURT if r["encounter_objective"] == "UNHURT" else K.O_DEFEAT
        if self.objective_holds(a, obj, r["encounter_arg"]):
            a.points += r["encounter_points"]
            a.quests_completed += 1
            self.say(a.index, S.EV_SCORE, -1, r["encounter_points"], a.points)
            if a.points >= r["points_to_win"]:
                self.game_over(a.index, K.END_POINTS)
                return
        else:
            self.say(a.index, S.EV_FAIL)
        if r["settle_heal"] > 0:
            self.heal(a.pc, r["settle_heal"])


def pc_intelligence(seat: Seat) -> int:
    """Printed intelligence of the PC and its starting characteristics (who goes first)."""
    return seat.pc.card.stats["int"] + sum(c.stats["int"] for c in seat.characteristics)

