"""Payne's rules again in plain, readable Python over the same random streams: the kernel's
referee, and the source of a readable battle-by-battle log of any match."""

from __future__ import annotations

import functools
import types
from dataclasses import dataclass, field

import numba
import numpy as np

from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne.batch import Matchup
from sim.payne.schema import SCHEMA
from sim.payne.state import END_DECK_OUT, END_POINTS, END_ROUND_CAP, END_SETUP, meet
from sim.records import BatchRecords
from sim.rng import DICE, N_STREAMS, SHUFFLE, py_below, py_stream_key

SEATS = ("A", "B")
ROLE_WORDS = ("offensive", "defensive")


def py_next_below(keys, ctr, p, purpose, n):
    """Next number uniform on 0..n-1 from player p's stream of a purpose (plain Python)."""
    s = purpose * 2 + p
    v = py_below(int(keys[s]), int(ctr[s]), n)
    ctr[s] += 1
    return v


@functools.cache
def twin(dispatcher):
    """The plain-Python twin of a compiled policy function, drawing through py_next_below."""
    py = dispatcher.py_func
    env = dict(py.__globals__)
    for name in py.__code__.co_names:
        value = env.get(name)
        if name == "next_below":
            env[name] = py_next_below
        elif isinstance(value, numba.core.registry.CPUDispatcher):
            env[name] = twin(value)
    return types.FunctionType(py.__code__, env, py.__name__, py.__defaults__, py.__closure__)


def lit(mask: int, side: int) -> int:
    return (mask >> side) & 1


@dataclass
class Seat:
    deck: list[int]  # undrawn cards, the next one first
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    score: int = 0
    off: int = -1  # the fielded characters (-1: none) with their arrows now and as known
    dfn: int = -1
    off_mask: int = 0
    dfn_mask: int = 0
    off_belief: int = 0
    dfn_belief: int = 0
    ban_now: int = 0
    ban_next: int = 0
    lie: list[int] = field(default_factory=lambda: [0, 0])  # MayLie in effect, by role
    auto: list[int] = field(default_factory=lambda: [0, 0])  # AutoWin, by role
    pending: list[list[int]] = field(default_factory=lambda: [[], []])  # played, by role
    unfielded: int = 0
    redraws: int = 0
    attacks: int = 0
    attack_wins: int = 0
    setup_failed: bool = False
    decked: bool = False
    round_points: int = 0


class Match:
    """One match played by the rules in plain Python, with a readable log."""

    def __init__(self, m: Matchup, seed: int, index: int, log_rows: int = -1):
        self.m, self.table = m, m.pool.table
        self.R = m.rules.values
        self.geometry = T.CHOICES["geometry"].index(self.R["geometry"])
        self.keys = np.array([py_stream_key(seed, index, s) for s in range(N_STREAMS)],
                             dtype=np.uint64)
        self.ctr = np.zeros(N_STREAMS, dtype=np.int64)
        self.prms = m.policies
        arrays = m.arrays()
        self.in_deck = arrays[5]
        self.battlers = [[[c for c in d.cards() if self.table[c, T.C_KIND] == T.CHARACTER
                           and self.table[c, T.C_ROLE] == role] for role in (T.OFF, T.DEF)]
                         for d in m.decks]
        n = len(m.pool)
        self.seen = np.zeros((2, n), dtype=np.int64)  # opponent's cards each seat has seen
        self.know = np.zeros((2, 2, 4), dtype=np.int64)  # what each knows of the battlers
        self.drawn = np.zeros((2, n), dtype=np.int64)
        self.cs = np.zeros((2, n, len(SCHEMA.all_card_stats)), dtype=np.int64)
        self.hist = np.zeros((2, 3), dtype=np.int64)
        self.seats = [Seat(list(d.cards())) for d in m.decks]
        self.round = 0
        self.first = -1
        self.over, self.winner, self.end = False, -1, END_POINTS
        self.autowins = 0
        self.rounds_by_points = [0, 0, 0]
        self.round1_attacks = [-1, -1]
        self.text: list[str] = []
        self.log: list[tuple[int, ...]] = []
        self.log_rows = log_rows

    # --- words and streams ---------------------------------------------------------

    def name(self, c: int) -> str:
        return self.m.pool.names[c]

    def say(self, line: str) -> None:
        self.text.append(line)

    def rand(self, p: int, purpose: int, n: int) -> int:
        return py_next_below(self.keys, self.ctr, p, purpose, n)

    def log_row(self, *values: int) -> None:
        if len(self.log) < self.log_rows:
            self.log.append(tuple(int(v) for v in values))

    # --- set-up --------------------------------------------------------------------

    def shuffle(self, p: int) -> None:
        deck = self.seats[p].deck
        for i in range(len(deck) - 1, 0, -1):
            j = self.rand(p, SHUFFLE, i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    def has_both_roles(self, p: int) -> bool:
        roles = {int(self.table[c, T.C_ROLE]) for c in self.seats[p].hand
                 if self.table[c, T.C_KIND] == T.CHARACTER}
        return roles == {T.OFF, T.DEF}

    def draw_opening_hand(self, p: int) -> None:
        seat = self.seats[p]
        k = min(self.R["opening_hand"], len(seat.deck))
        seat.hand, seat.deck = seat.deck[:k], seat.deck[k:]

    def set_up(self, p: int) -> None:
        """Shuffle and draw; a hand without both roles goes back and is redrawn."""
        seat = self.seats[p]
        self.shuffle(p)
        self.draw_opening_hand(p)
        while not self.has_both_roles(p):
            if seat.redraws >= self.R["setup_redraw_cap"]:
                seat.setup_failed = True
                break
            seat.deck = seat.hand + seat.deck
            seat.hand = []
            self.shuffle(p)
            self.draw_opening_hand(p)
            seat.redraws += 1
        for c in seat.hand:
            self.drawn[p, c] = 1
        self.say(f"{SEATS[p]} opens with {len(seat.hand)} cards after {seat.redraws} redraws")

    def draw(self, p: int, n: int) -> None:
        seat = self.seats[p]
        for _ in range(n):
            if not seat.deck:
                if self.R["deck_out"] == "lose":
                    seat.decked = True
                return
            c = seat.deck.pop(0)
            seat.hand.append(c)
            self.drawn[p, c] = 1

    # --- effects -------------------------------------------------------------------

    def change_arrows(self, mask: int, printed: int, n: int, order) -> tuple[int, list[int]]:
        """|n| units; each flips the first named side not in the target state whose flip
        keeps at most max_changed arrows unlike the print; a unit with no such side is lost."""
        target = 1 if n > 0 else 0
        flipped = [0, 0, 0, 0]
        for _ in range(abs(n)):
            for s in order:
                new = mask ^ (1 << s)
                if lit(mask, s) != target and bin(new ^ printed).count("1") \
                        <= self.R["max_changed"]:
                    mask, flipped[s] = new, 1
                    break
        return mask, flipped

    def character(self, p: int, role: int) -> tuple[int, str]:
        """(card, attribute prefix) of seat p's character of a role."""
        return (self.seats[p].off, "off") if role == T.OFF else (self.seats[p].dfn, "dfn")

    def arrow_change(self, p: int, role: int, n: int, blind: bool) -> None:
        owner = 1 - p if blind else p
        card, attr = self.character(owner, role)
        if card < 0:
            return
        if blind:
            which = Pol.OPP_DEF if role == T.DEF else Pol.OPP_OFF
        else:
            which = Pol.OWN_OFF if role == T.OFF else Pol.OWN_DEF
        me, w, tmp = self.seats[p], np.zeros(4), np.zeros(4)
        order = np.zeros(4, dtype=np.int64)
        twin(Pol.change_weights)(self.table, self.geometry, which, me.off_belief, me.dfn_belief,
                                 self.in_deck[1 - p], self.seen[p], self.know[p], w, tmp)
        twin(Pol.order_sides)(self.prms[p], w, n > 0, order, self.keys, self.ctr, p)
        seat = self.seats[owner]
        old = getattr(seat, f"{attr}_mask")
        new, flipped = self.change_arrows(old, int(self.table[card, T.C_ARROWS]), n,
                                          [int(s) for s in order])
        setattr(seat, f"{attr}_mask", new)
        target = 1 if n > 0 else 0
        if not blind:
            setattr(seat, f"{attr}_belief", getattr(seat, f"{attr}_belief") ^ old ^ new)
        elif self.R["blind_feedback"] == "silent":
            for s in order[: min(abs(n), 4)]:
                self.know[p, role, s] = target
        else:
            for s in range(4):
                if flipped[s]:
                    self.know[p, role, s] = target
        self.say(f"  {SEATS[p]} {'lights' if n > 0 else 'unlights'} {abs(n)} of "
                 f"{SEATS[owner]}'s {self.name(card)} ({'blind, ' if blind else ''}order "
                 f"{''.join(T.SIDES[s] for s in order)}): {T.arrows_text(old)} -> "
                 f"{T.arrows_text(new)}")

    def reveal(self, p: int, role: int) -> None:
        q = 1 - p
        card, attr = self.character(q, role)
        need = 1 if role == T.OFF else 0
        may_lie = sum(self.seats[q].lie) > 0
        order = np.zeros(4, dtype=np.int64)
        twin(Pol.reveal_order)(order, self.keys, self.ctr, q)
        answer = Pol.TRUTH
        if may_lie:
            answer = twin(Pol.lie_answer)(self.prms[q], need, getattr(self.seats[q],
                                          f"{attr}_belief"), order, self.keys, self.ctr, q)
        if answer == Pol.TRUTH:
            mask = getattr(self.seats[q], f"{attr}_mask")
            answer = next((int(s) for s in order if lit(mask, s) == need), -1)
        if not may_lie and card >= 0:
            if answer >= 0:
                self.know[p, role, answer] = need
            else:
                self.know[p, role, :] = 1 - need
        word = T.SIDES[answer] if answer >= 0 else "none"
        self.say(f"  Reveal: {SEATS[q]} names {'a lit' if need else 'an unlit'} side of "
                 f"{ROLE_WORDS[role]} character: {word}{' (may lie)' if may_lie else ''}")

    def play_card(self, p: int, c: int) -> None:
        seat, table = self.seats[p], self.table
        role = int(table[c, T.C_ROLE])
        self.seen[1 - p, c] += 1
        kind = int(table[c, T.C_KIND])
        self.cs[p, c, 6 if kind == T.BOOSTER else 5] += 1
        seat.pending[role].append(c)
        as_what = "booster" if kind == T.BOOSTER else "event"
        self.say(f"  {SEATS[p]} plays {self.name(c)} as {ROLE_WORDS[role]} {as_what}")
        for eff, arg in ((table[c, T.C_EFF1], table[c, T.C_ARG1]),
                         (table[c, T.C_EFF2], table[c, T.C_ARG2])):
            eff, arg = int(eff), int(arg)
            if eff == T.ARROW_ADVANTAGE:
                self.arrow_change(p, role, arg, blind=False)
            elif eff == T.ARROW_DISADVANTAGE:
                self.arrow_change(p, 1 - role, arg, blind=True)
            elif eff == T.REVEAL:
                self.reveal(p, 1 - role)
            elif eff == T.AUTO_WIN:
                seat.auto[role] = 1
            elif eff == T.BAN:
                self.seats[p if arg > 0 else 1 - p].ban_next |= abs(arg)
            elif eff == T.MAY_LIE:
                seat.lie[role] += 1

    def play_window(self, p: int, allow: int) -> None:
        seat = self.seats[p]
        out = np.zeros(64, dtype=np.int64)
        n = twin(Pol.choose_plays)(self.table, self.prms[p], np.array(seat.hand, dtype=np.int64),
                                   len(seat.hand), allow, seat.ban_now,
                                   sum(self.seats[1 - p].lie) > 0, out, self.keys, self.ctr, p)
        for c in out[:n]:
            seat.hand.remove(int(c))
            self.play_card(p, int(c))

    # --- battles and rounds --------------------------------------------------------

    def battle(self, att: int, k: int) -> None:
        dfn = 1 - att
        A, D = self.seats[att], self.seats[dfn]
        if not self.R["battle_mode"]:
            if self.R["defense_timing"] == "defender_window":
                self.play_window(dfn, 2)
            own_turn = self.R["defense_timing"] == "own_turn"
            self.play_window(att, 1 | (2 if own_turn and k == 0 else 0))
        clash = T.CHOICES["auto_win_clash"].index(self.R["auto_win_clash"])
        auto = clash if A.auto[T.OFF] and D.auto[T.DEF] else (1 if A.auto[T.OFF] else
                                                              (2 if D.auto[T.DEF] else 0))
        side = -1
        if auto == 0:
            odds = np.zeros(4)
            twin(Pol.side_odds)(self.table, self.in_deck[dfn], self.seen[att], self.know[att],
                                odds)
            side = int(twin(Pol.choose_side)(self.geometry, self.prms[att], A.off_belief, odds,
                                             self.keys, self.ctr, att))
            success = lit(A.off_mask, meet.py_func(self.geometry, side)) & lit(D.dfn_mask, side)
        else:
            success = 1 if auto == 1 else 0
            self.autowins += 1
        if self.round == 1:
            self.round1_attacks[att] = success
        self.seen[dfn, A.off] += 1
        self.seen[att, D.dfn] += 1
        w = att if success else dfn
        self.seats[w].score += 1
        self.seats[w].round_points += 1
        A.attacks += 1
        A.attack_wins += success
        self.cs[att, A.off, 7] += 1
        self.cs[dfn, D.dfn, 7] += 1
        self.cs[w, A.off if w == att else D.dfn, 8] += 1
        how = (f"side {T.SIDES[side]}" if auto == 0 else
               f"AutoWin of {'attacker' if auto == 1 else 'defender'}")
        self.say(f"  {SEATS[att]}'s {self.name(A.off)} [{T.arrows_text(A.off_mask)}] attacks "
                 f"{SEATS[dfn]}'s {self.name(D.dfn)} [{T.arrows_text(D.dfn_mask)}], {how}: "
                 f"{'succeeds' if success else 'fails'}; score {self.seats[0].score}-"
                 f"{self.seats[1].score}")
        self.log_row(self.round, 0, att, A.off, D.dfn, side, A.off_mask, D.dfn_mask, auto,
                     success, self.seats[0].score, self.seats[1].score)
        A.discard += [A.off] + A.pending[T.OFF]
        D.discard += [D.dfn] + D.pending[T.DEF]
        A.off, D.dfn = -1, -1
        A.pending[T.OFF], D.pending[T.DEF] = [], []
        A.auto[T.OFF] = D.auto[T.DEF] = 0
        A.lie[T.OFF] = D.lie[T.DEF] = 0
        if self.seats[w].score >= self.R["points_to_win"]:
            self.over, self.winner, self.end = True, w, END_POINTS
            return
        if not self.R["battle_mode"]:
            self.draw(att, self.R["attack_draw"])
            if A.decked:
                self.over, self.winner, self.end = True, dfn, END_DECK_OUT

    def unfielded_round(self, can: list[bool]) -> None:
        pts = self.R["unfielded_points"]
        for p in range(2):
            self.seats[p].unfielded += not can[p]
        if sum(can) == 1:
            self.seats[0 if can[0] else 1].score += pts
        elif self.R["both_unfielded"] == "both_score":
            for seat in self.seats:
                seat.score += pts
        self.say(f"  cannot field: {' and '.join(SEATS[p] for p in range(2) if not can[p])}; "
                 f"score {self.seats[0].score}-{self.seats[1].score}")
        self.log_row(self.round, 1, -1, -1, -1, -1, can[0], can[1], 0, -1,
                     self.seats[0].score, self.seats[1].score)
        if self.R["unfielded_draw"]:
            self.draw(0, self.R["attack_draw"])
            self.draw(1, self.R["attack_draw"])
        reach = [s.score >= self.R["points_to_win"] for s in self.seats]
        decked = [s.decked for s in self.seats]
        if any(reach):
            self.over, self.end = True, END_POINTS
            a, b = self.seats[0].score, self.seats[1].score
            self.winner = (0 if a > b else 1 if b > a else -1) if all(reach) \
                else (0 if reach[0] else 1)
        elif any(decked):
            self.over, self.end = True, END_DECK_OUT
            self.winner = -1 if all(decked) else (1 if decked[0] else 0)

    def field(self, p: int) -> None:
        seat = self.seats[p]
        if self.R["battle_mode"]:
            offs, defs = self.battlers[p]
            c_off = offs[self.rand(p, SHUFFLE, len(offs))]
            c_def = defs[self.rand(p, SHUFFLE, len(defs))]
        else:
            i_off, i_def = twin(Pol.choose_fielding)(
                self.table, self.geometry, self.prms[p], np.array(seat.hand, dtype=np.int64),
                len(seat.hand), self.in_deck[1 - p], self.seen[p], self.keys, self.ctr, p,
                np.zeros(4))
            c_off, c_def = seat.hand[i_off], seat.hand[i_def]
            for i in sorted((i_off, i_def), reverse=True):
                del seat.hand[i]
        seat.off, seat.dfn = int(c_off), int(c_def)
        seat.off_mask = seat.off_belief = int(self.table[c_off, T.C_ARROWS])
        seat.dfn_mask = seat.dfn_belief = int(self.table[c_def, T.C_ARROWS])
        self.cs[p, c_off, 4] += 1
        self.cs[p, c_def, 4] += 1

    def play_round(self) -> None:
        self.round += 1
        self.say(f"Round {self.round}")
        for seat in self.seats:
            seat.ban_now, seat.ban_next, seat.round_points = seat.ban_next, 0, 0
        if not self.R["battle_mode"] and self.round >= 2:
            can = [self.has_both_roles(0), self.has_both_roles(1)]
            if not all(can):
                self.unfielded_round(can)
                return
        for p in range(2):
            self.field(p)
        self.know[:] = -1
        first = self.rand(0, DICE, 2)  # the coin comes from seat 0's dice stream
        if self.round == 1:
            self.first = first
        self.say(f"  coin: {SEATS[first]} attacks first")
        for k in range(2):
            self.battle(first if k == 0 else 1 - first, k)
            if self.over:
                return
        pts = [s.round_points for s in self.seats]
        self.rounds_by_points[pts[0]] += 1
        self.hist[0, pts[0]] += 1
        self.hist[1, pts[1]] += 1

    def play(self) -> Match:
        if not self.R["battle_mode"]:
            for p in range(2):
                self.set_up(p)
        failed = [s.setup_failed for s in self.seats]
        if any(failed):
            self.over, self.end = True, END_SETUP
            self.winner = -1 if all(failed) else (1 if failed[0] else 0)
        while not self.over:
            if self.round >= self.R["max_rounds"]:
                self.end, self.winner = END_ROUND_CAP, -1
                break
            self.play_round()
        a, b = self.seats
        self.say(f"Winner: {SEATS[self.winner] if self.winner >= 0 else 'none (draw)'}, "
                 f"{a.score}-{b.score}, end {SCHEMA.end_reasons[self.end]}")
        return self

    def record(self) -> np.ndarray:
        a, b = self.seats
        return np.array([self.winner, a.score, b.score, self.round, self.end, self.first,
                         a.unfielded, b.unfielded, a.redraws, b.redraws, a.attacks, b.attacks,
                         a.attack_wins, b.attack_wins, self.autowins, *self.rounds_by_points,
                         *self.round1_attacks],
                        dtype=np.int32)

    def finish_card_stats(self) -> None:
        for p in range(2):
            won = int(self.winner == p)
            for c in np.flatnonzero(self.in_deck[p]):
                self.cs[p, c, 0] += 1
                if self.drawn[p, c]:
                    self.cs[p, c, 1] += 1
                    self.cs[p, c, 2] += won
                else:
                    self.cs[p, c, 3] += won


def reference_batch(matchup: Matchup, n: int, seed: int, first_match: int = 0,
                    n_log: int = 0) -> BatchRecords:
    """The same records as the kernel's run_batch, from the plain-Python rules."""
    rec = BatchRecords.allocate(SCHEMA, n, len(matchup.pool), n_log, first_match)
    for i in range(n):
        game = Match(matchup, seed, first_match + i, SCHEMA.log_rows if i < n_log else 0).play()
        game.finish_card_stats()
        rec.matches[i] = game.record()
        rec.hists["round_points"][i] = game.hist
        rec.card_stats += game.cs
        if i < n_log:
            rec.log_n[i] = len(game.log)
            if game.log:
                rec.log[i, : len(game.log)] = np.array(game.log, dtype=np.int32)
    return rec


@dataclass
class Replay:
    """One match replayed by the reference engine: its readable log and its record."""

    text: list[str]
    record: np.ndarray


def replay(matchup: Matchup, seed: int, match_index: int) -> Replay:
    game = Match(matchup, seed, match_index).play()
    return Replay(game.text, game.record())
