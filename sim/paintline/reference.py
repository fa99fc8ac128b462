"""The rules again in plain, readable Python over the same random streams: the kernel's
referee, and the source of a human-readable turn-by-turn log of any game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.core.rng import DICE, N_STREAMS, POLICY, SHUFFLE, py_below, py_shuffle, py_stream_key
from sim.kit.records import BatchRecords, reference_records
from sim.paintline import keywords as K
from sim.paintline import pool as T
from sim.paintline import schema as Rec
from sim.paintline.batch import Matchup
from sim.paintline.reference_players import Player
from sim.paintline.reference_shots import SEATS, ShotRules
from sim.paintline.reference_turn import Forfeit, InPlay, TurnRules

UNLIMITED_STAMINA = 999  # rally mode
TYPES = ("Default", "Lob", "Spin", "Drive")


@dataclass
class Seat:
    bag: list[int] = field(default_factory=list)  # undrawn, next card first
    hand: list[int] = field(default_factory=list)
    table: list[InPlay] = field(default_factory=list)
    power_plant: list[int] = field(default_factory=list)
    ready_stamina: int = 0
    discard: list[int] = field(default_factory=list)
    boosts: list[int] = field(default_factory=list)  # single-use enhancements on this shot
    set_aside: list[int] = field(default_factory=list)  # Blanks met by a draw: out of the game
    coach: int = -1
    coach_uses: int = 0
    score: int = 0
    games_won: int = 0
    mulligans: int = 0


class ReferenceGame(ShotRules, TurnRules):
    """One match of Paint the Line, played step by step in plain Python."""

    def __init__(self, matchup: Matchup, seed: int, match_index: int, log_rows: bool = True):
        self.m = matchup
        self.cards = matchup.pool.table
        self.rows = self.cards.tolist()  # plain ints: a numpy element read is slow
        # Each card's keywords with their arguments, the first of two alike winning.
        self.keywords = [{row[T.C_AB2]: row[T.C_ARG2], row[T.C_AB1]: row[T.C_ARG1]}
                         for row in self.rows]
        self.names = matchup.pool.names
        r = matchup.rules.values
        self.rules = r
        self.rally_mode = bool(r["rally_mode"])
        self.ladder = list(r["escalation"])
        self.keys = [py_stream_key(seed, match_index, s) for s in range(N_STREAMS)]
        self.counters = [0] * N_STREAMS
        self.players = [Player(matchup.policies[seat], self.cards,
                               lambda n, seat=seat: self.random_below(seat, POLICY, n))
                        for seat in range(2)]
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
        return self.rows[card][column]

    def random_below(self, seat: int, purpose: int, n: int) -> int:
        s = purpose * 2 + seat
        v = py_below(self.keys[s], self.counters[s], n)
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
        return self.keywords[card].get(code, -1)

    # --- set-up ----------------------------------------------------------------------

    def shuffle(self, seat: int) -> None:
        py_shuffle(self.seats[seat].bag, lambda n: self.random_below(seat, SHUFFLE, n))

    def roll_for_first_serve(self) -> int:
        while True:
            a, b = self.roll_the_ball(0), self.roll_the_ball(1)
            self.say(f"Roll for first serve: A {a}, B {b}")
            if a != b:
                return 0 if a > b else 1

    def is_blank(self, card: int) -> bool:
        return self.col(card, T.C_KIND) == T.BLANK

    def cards_left(self, seat: int) -> int:
        """Cards a player can still draw: a Blank in the bag is never drawn, so it does not
        count (a bag of nothing but Blanks is empty)."""
        return sum(not self.is_blank(c) for c in self.seats[seat].bag)

    def take_top_card(self, seat: int) -> int:
        """The top card of the bag; every Blank above it is set aside out of the game first,
        the bag's order otherwise untouched."""
        s = self.seats[seat]
        while self.is_blank(s.bag[0]):
            s.set_aside.append(s.bag.pop(0))
            self.say(f"{SEATS[seat]} sets aside a Blank")
        return s.bag.pop(0)

    def draw_opening_hand(self, seat: int) -> None:
        s = self.seats[seat]
        for _ in range(min(self.rules["opening_hand"], self.cards_left(seat))):
            s.hand.append(self.take_top_card(seat))

    def set_up_game(self) -> None:
        for seat, s in enumerate(self.seats):
            deck = self.m.decks[seat]
            s.bag = [] if self.rally_mode else [int(c) for c in deck.bag()]
            s.hand, s.table, s.power_plant, s.discard, s.boosts = [], [], [], [], []
            s.set_aside = []
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
            for _ in range(0 if self.rally_mode else self.rules["mulligans"]):
                stamina = sum(self.col(c, T.C_KIND) == T.STAMINA for c in s.hand)
                if not self.players[seat].mulligan(stamina):
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
        if self.cards_left(seat) == 0:
            self.say(f"{SEATS[seat]} must draw from an empty bag and forfeits")
            raise Forfeit(seat)
        card = self.take_top_card(seat)
        s.hand.append(card)
        self.seen[seat, card] = True
        self.say(f"{SEATS[seat]} draws {self.names[card]}")
        if self.rules["deck_out"] == "forfeit_when_empty" and self.cards_left(seat) == 0:
            self.say(f"{SEATS[seat]}'s bag is empty: forfeit")
            raise Forfeit(seat)

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
                self.stat(seat, card, "matches_in_deck")
                if self.seen[seat, card]:
                    self.stat(seat, card, "matches_drawn")
                    self.stat(seat, card, "wins_drawn", won)
                else:
                    self.stat(seat, card, "wins_not_drawn", won)
        self.say(f"Match to {SEATS[winner]}")


def replay(matchup: Matchup, seed: int, match_index: int) -> ReferenceGame:
    """Play one match with the reference engine; .text holds the turn-by-turn log."""
    game = ReferenceGame(matchup, seed, match_index)
    game.play_match()
    return game


def reference_batch(matchup: Matchup, n: int, seed: int, first_match: int = 0,
                    n_log: int = 0) -> BatchRecords:
    """The same records as sim.paintline.batch.run_batch, from the reference engine."""
    def play(index: int, log_rows: int):
        g = replay(matchup, seed, index)
        return (g.record, {Rec.LENGTH: g.rally_len, Rec.TOP_STEP: g.rally_top}, g.card_stats,
                g.shot_rows if log_rows else [])

    return reference_records(Rec.SCHEMA, n, len(matchup.pool), first_match, n_log, play,
                             {Rec.TOP_STEP: len(matchup.rules.values["escalation"])})
