"""Reference engine, part 4: the score step, a quest's objectives read, its points,
reward and loot reveal."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.reference_effects import Effects
from sim.encounter.reference_state import Seat


class Scoring(Effects):
    """The score step of a turn."""

    # -- 5. score --------------------------------------------------------------------------
    def score_step(self):
        """A window; if every objective holds A scores the quest (winning at once on reaching
        points_to_win), resolves its reward and reveals its loot; else the quest goes under
        A's draw deck."""
        a, q = self.a, self.quest
        self.start_step()
        self.window(K.S_SCORE)
        if self.over or q is None:
            return
        ok = True
        for obj, arg in q.objectives:
            holds = self.objective_holds(a, obj, arg)
            self.say(a.index, S.EV_OBJECTIVE, q.id, obj * 1000 + arg, int(holds))
            ok = ok and holds
        if not ok:
            a.deck.append(q)
            self.say(a.index, S.EV_FAIL, q.id)
            return
        self.completed = True
        a.points += q.quest_points
        a.quests_completed += 1
        self.note(a.index, q, S.ST_SUCCEEDED)
        self.say(a.index, S.EV_SCORE, q.id, q.quest_points, a.points)
        if a.points >= self.rules["points_to_win"]:
            self.game_over(a.index, K.END_POINTS)
            return
        for kw, arg in q.abilities:
            if kw != 0:
                self.resolve(a, kw, arg, q)
        self.reveal_loot(a, q.loot_points)

    def reveal_loot(self, a: Seat, n: int):
        """Reveal n loot cards, play those the policy wants and may play (unique, play_loot
        paid like any card) while A is in the game, the rest under the loot deck in reveal
        order."""
        revealed = []
        for _ in range(n):
            c = self.top_card(a, a.loot, 1)
            if c is None:
                break
            a.drawn.add(c.id)
            self.note(a.index, c, S.ST_USED)
            self.say(a.index, S.EV_REVEAL, c.id)
            revealed.append(c)
        for c in revealed:
            cost = c.cost if self.rules["play_loot"] == "paid" else 0
            if (not self.over and c.kind == K.LOOT and self.unique_ok(a, c)
                    and self.can_pay(a, cost, False) and self.player(a).takes_loot()):
                self.pay(a, cost)
                a.loot_in_play.append(c)
                self.note(a.index, c, S.ST_PLAYED)
                self.note(a.index, c, S.ST_SUCCEEDED)
                self.say(a.index, S.EV_LOOT, c.id)
                self.check_toughness(a)  # a negative toughness may kill the PC
            else:
                a.loot.append(c)
