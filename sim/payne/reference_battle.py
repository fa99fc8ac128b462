"""Payne's battle in plain Python for the reference engine: arrow changes (open and blind),
Reveal and MayLie, cards played in a window, fielding, the battle and the unfielded round."""

from __future__ import annotations

from sim.core.rng import SHUFFLE
from sim.payne import options as O
from sim.payne import pool as T
from sim.payne.reference_players import View, lit, meet
from sim.payne.state import END_DECK_OUT, END_POINTS

SEATS = ("A", "B")
ROLE_WORDS = ("offensive", "defensive")


def legal_play(table, c: int, allow: int, ban: int) -> bool:
    """A booster, an event or a character with a power, of a role the window allows (bit 1
    offensive, bit 2 defensive), not of a kind a Ban forbids this round (bit 1 events,
    characters played as events included; bit 2 boosters)."""
    kind = table[c, T.C_KIND]
    if kind == T.BLANK or (kind == T.CHARACTER and table[c, T.C_EFF1] == T.NONE):
        return False
    if not (allow >> int(table[c, T.C_ROLE])) & 1:
        return False
    return not ban & (2 if kind == T.BOOSTER else 1)


class BattleRules:
    """Battle rules of the reference match (a mixin of Match, whose state, streams, log and
    policies it uses)."""

    def view(self, p: int) -> View:
        """What seat p sees: his hand and battlers as he knows them, the opponent's list,
        the cards of his he has seen, what he knows of the opposing battlers."""
        seat = self.seats[p]
        return View(self.table, self.R["geometry"], list(seat.hand), seat.off_belief,
                    seat.dfn_belief, self.in_deck[1 - p], self.seen[p], self.know[p],
                    sum(self.seats[1 - p].lie) > 0)

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
        order = self.players[p].change_order(self.view(p), "opp" if blind else "own", role,
                                             n > 0)
        seat = self.seats[owner]
        old = getattr(seat, f"{attr}_mask")
        new, flipped = self.change_arrows(old, int(self.table[card, T.C_ARROWS]), n, order)
        setattr(seat, f"{attr}_mask", new)
        target = 1 if n > 0 else 0
        if not blind:  # he sees the sides he flipped, each now in the target state
            belief = getattr(seat, f"{attr}_belief")
            setattr(seat, f"{attr}_belief", belief | (old ^ new) if target else
                    belief & ~(old ^ new))
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
        view = self.view(q)
        order = self.players[q].answer_order(view, need == 1)
        answer = None
        if may_lie:
            answer = self.players[q].lie(view, need == 1,
                                         getattr(self.seats[q], f"{attr}_belief"), order)
        if answer is None:  # the truth: the first side of his order in the asked state now
            mask = getattr(self.seats[q], f"{attr}_mask")
            answer = next((s for s in order if lit(mask, s) == need), -1)
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
        effects = [(table[c, T.C_EFF1], table[c, T.C_ARG1]),
                   (table[c, T.C_EFF2], table[c, T.C_ARG2])]
        if self.players[p].first_effect(self.view(p), c) == 1:
            effects.reverse()  # the player applies the printed second effect first
            self.say(f"  {SEATS[p]} applies {T.KEYWORD_NAMES[int(effects[0][0])]} first")
        for eff, arg in effects:
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
        view = self.view(p)
        view.playable = [legal_play(self.table, c, allow, seat.ban_now) for c in seat.hand]
        for c in self.players[p].plays(view):
            seat.hand.remove(c)
            self.play_card(p, c)

    def battle(self, att: int, k: int) -> None:
        dfn = 1 - att
        A, D = self.seats[att], self.seats[dfn]
        if not self.R["battle_mode"]:
            if self.R["defense_timing"] == "defender_window":
                self.play_window(dfn, 2)
            own_turn = self.R["defense_timing"] == "own_turn"
            self.play_window(att, 1 | (2 if own_turn and k == 0 else 0))
        clash = O.CHOICES["auto_win_clash"].index(self.R["auto_win_clash"])
        auto = clash if A.auto[T.OFF] and D.auto[T.DEF] else (1 if A.auto[T.OFF] else
                                                              (2 if D.auto[T.DEF] else 0))
        side = -1
        if auto == 0:
            side = self.players[att].side(self.view(att))
            success = lit(A.off_mask, meet(self.R["geometry"], side)) & lit(D.dfn_mask, side)
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
            i_off, i_def = self.players[p].field(self.view(p))
            c_off, c_def = seat.hand[i_off], seat.hand[i_def]
            for i in sorted((i_off, i_def), reverse=True):
                del seat.hand[i]
        seat.off, seat.dfn = int(c_off), int(c_def)
        seat.off_mask = seat.off_belief = int(self.table[c_off, T.C_ARROWS])
        seat.dfn_mask = seat.dfn_belief = int(self.table[c_def, T.C_ARROWS])
        self.cs[p, c_off, 4] += 1
        self.cs[p, c_def, 4] += 1
