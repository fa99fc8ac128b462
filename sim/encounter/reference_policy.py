"""Reference engine, part 2: the players, written from the "Decisions" section of
docs/encounter-rules.md; the rules hand each decision its options in the documented order."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.reference_state import POLICY, WAITING, Card, Character, Match, Seat

STAT_OF = {K.O_STR: "str", K.O_INT: "int", K.O_DEX: "dex"}


def first_best(options: list, score) -> object | None:
    """The option of the highest score, the first of equals; None when there is none."""
    chosen, top = None, None
    for o in options:
        s = score(o)
        if top is None or s > top:
            chosen, top = o, s
    return chosen


class Player:
    """One seat's decisions under its policy words (policies.toml, weights in thousandths).
    It reads the public state, its own hand and pool; never the other hand or a deck."""

    def __init__(self, g: Match, seat: Seat):
        self.g, self.seat = g, seat
        self.words = g.styles[seat.index]
        self.style = self.words["style"]

    # -- how a choice is drawn -----------------------------------------------------------------
    def draw(self, n: int) -> int:
        """One number uniform over n options on this seat's policy stream."""
        return self.g.rand(POLICY, self.seat.index, n)

    def uniform(self, options: list, with_pass: bool = False):
        """random: one of the options, or None for the pass listed last."""
        j = self.draw(len(options) + int(with_pass))
        return options[j] if j < len(options) else None

    def target(self, word: str, options: list, score):
        """A keyword's target: uniform when its word is random, else the best by `score`."""
        if not options:
            return None
        if self.words[word] == "random":
            return options[self.draw(len(options))]
        return first_best(options, score)

    def best_above_zero(self, options: list, score):
        """The first option of the highest score when that score is above 0, else None."""
        scored = [(score(o), o) for o in options]
        top = max((s for s, _ in scored), default=0)
        if top <= 0:
            return None
        return next(o for s, o in scored if s == top)

    @property
    def is_random(self) -> bool:
        return self.style == "random"

    def survivors_return(self) -> bool:
        return self.g.rules["strikers_after"] == "hand"

    def repeatable(self) -> bool:
        """ability_limit = unlimited: an ability may be used again and again."""
        return self.g.rules["ability_limit"] == "unlimited"

    # -- 1-3: set-up and the hand --------------------------------------------------------------
    def goes_first(self) -> int:
        """The seat that goes first, when this seat chooses."""
        how = self.words["first"]
        if how == "random":
            # A draw over the players still in, in seat order.
            return self.g.in_game()[self.draw(len(self.g.in_game()))].index
        after = self.g.to_the(self.seat, 1).index  # the player to its left
        if how == "behind":
            others = [s.points for s in self.g.in_game() if s is not self.seat]
            return self.seat.index if self.seat.points < max(others) else after
        return self.seat.index if how == "first" else after

    def may_play(self, card: Card) -> bool:
        return card.requires in (0, self.seat.pc.card.race)

    def mulligan(self) -> bool:
        if self.is_random:
            return self.draw(2) == 1
        return not any(c.kind == K.QUEST and self.may_play(c) for c in self.seat.hand)

    def discard(self) -> int:
        """The hand position to discard: the last card of the lowest keep value."""
        hand = self.seat.hand
        if self.is_random:
            return self.draw(len(hand))

        def keep(c: Card) -> int:
            if not self.may_play(c):
                return 0
            return 3 if c.kind == K.QUEST else 2
        low = min(keep(c) for c in hand)
        return [i for i, c in enumerate(hand) if keep(c) == low][-1]

    # -- 4: boost ------------------------------------------------------------------------------
    def boost(self, options: list):
        """The boost option to play (from the Option list), None to pass."""
        if self.is_random:
            return self.uniform(options, with_pass=True)
        return self.best_above_zero(options, self.boost_score)

    def boost_score(self, o) -> int:
        if o.from_hand and self.reserve_forbids(o.card.cost):
            return -1
        if o.kind == "card":
            return self.card_score(o.card)
        kw = o.keyword[0]
        if kw == K.HEAL:
            hurt = any(ch.wounds > 0 for ch in self.characters(self.seat))
            return 500 if hurt else -1
        if kw == K.DRAW:
            if self.repeatable() and not o.from_hand and not self.seat.deck:
                return -1
            return self.words["draw_value"]
        if kw == K.REVIVE:
            return 400
        return -1

    def reserve_forbids(self, cost: int) -> bool:
        n = self.words["reserve"]
        if n <= 0 or cost <= 0 or self.g.rules["cost_currency"] != "pool":
            return False
        kept = sum(c.cost for c in self.seat.hand if c.kind == K.ACTION
                   and c.nature == K.INSTANT and c.step != K.S_BOOST)
        return self.seat.pool - cost < min(n, kept)

    def modifier_worth(self, card: Card, reach: int) -> int:
        s = card.stats
        return (s["str"] * 1000 + (s["int"] + s["dex"]) * self.words["mind_value"]) * reach

    def card_score(self, card: Card) -> int:
        w, seat = self.words, self.seat
        widespread = card.kind == K.LOCATION or (card.kind == K.ACTION
                                                  and card.nature == K.BULWARK)
        reach = 1 + len(seat.party) if widespread else 1
        worth = self.modifier_worth(card, reach) + card.stats["tough"] * w["tough_value"]
        if self.survivors_return():
            worth += card.keyword(K.DAMAGE) * 500
        worth += (card.keyword(K.SNEAK) * w["sneak_value"]
                  + card.keyword(K.BUDGET) * w["budget_value"]
                  + card.keyword(K.HEAL) * w["heal_value"]
                  + card.keyword(K.DRAW) * w["draw_value"])
        # Might on a card that stays in play is an ability, used each combat as often as
        # paid.
        worth += card.keyword(K.MIGHT) * w["might_value"] * self.uses(
            card.ability_cost, self.g.rules["pool_per_turn"])
        if card.kind == K.LOCATION and seat.location is not None:
            if seat.location.terrain == card.terrain:
                return -1
            worth -= self.modifier_worth(seat.location, reach)
        bonus = 100000 if self.meets_an_unmet_objective(card) else 0
        return bonus + worth // (card.cost + 1)

    def meets_an_unmet_objective(self, card: Card) -> bool:
        g, seat = self.g, self.seat
        for quest in seat.hand:
            if quest.kind != K.QUEST:
                continue
            for obj, n in quest.objectives:
                if g.objective_holds(seat, obj, n):
                    continue
                if obj in STAT_OF:
                    gives_pc = card.kind != K.NPC or card.nature == K.SUPPORT
                    short = n - g.stat(seat, seat.pc, STAT_OF[obj])
                    if gives_pc and card.stats[STAT_OF[obj]] >= short:
                        return True
                elif obj == K.O_PARTY:
                    if card.kind == K.NPC and card.nature == K.PARTY and len(seat.party) + 1 >= n:
                        return True
                elif obj == K.O_PLACE:
                    if card.kind == K.LOCATION and card.terrain == n:
                        return True
        return False

    # -- 5: quest ------------------------------------------------------------------------------
    def quest(self, playable: list[int], mandatory: bool) -> int | None:
        """The hand position of the quest to play (from the playable ones), None for none."""
        if not playable:
            return None
        if self.is_random:
            return self.uniform(playable, with_pass=not mandatory)
        g, seat = self.g, self.seat
        hand = seat.hand
        fine = [i for i in playable if self.passes_defeat_check(hand[i])]
        if self.style == "careful":
            limit = self.words["cost_ratio"] * g.party_strength(seat)
            fine = [i for i in fine if hand[i].quest_cost * 1000 <= limit and all(
                g.objective_holds(seat, obj, n) for obj, n in hand[i].objectives
                if obj not in (K.O_UNHURT, K.O_DEFEAT))]
        if fine:
            return first_best(fine, lambda i: hand[i].quest_points)
        # cycle_quests: a full hand draws nothing, so a hand of quests it will not play
        # would stay stuck; the cheapest goes under the deck when it fails.
        if mandatory or (self.words["cycle_quests"] and len(hand) >= g.rules["hand_size"]):
            return first_best(playable, lambda i: -hand[i].quest_cost)
        return None

    def passes_defeat_check(self, q: Card) -> bool:
        if not self.words["defeat_check"]:
            return True
        sent = self.seat.sent
        return not any(obj == K.O_DEFEAT and 0 <= sent < n for obj, n in q.objectives)

    # -- 6: strike -----------------------------------------------------------------------------
    def strike(self, cards: list[int]) -> int | None:
        """The hand position of the strike card to play next, None to stop."""
        if self.is_random:
            return self.uniform(cards, with_pass=True)
        return self.best_above_zero(cards, lambda i: self.strike_score(self.seat.hand[i]))

    def strike_score(self, card: Card) -> int:
        careful = self.style == "careful"
        if card.kind == K.NPC:
            if self.denied(card):
                return -1
            power = card.stats["str"] * 1000
            return power * 2 // (2 * card.cost + 1) if careful else 1000000 + power
        kw, n = card.abilities[0]
        if card.stays == "bulwark":
            w = self.words
            power = (self.modifier_worth(card, 1 + len(self.seat.party))
                     + card.keyword(K.BUDGET) * w["budget_value"]
                     + card.keyword(K.SNEAK) * w["sneak_value"])
        elif card.stays == "character":
            power = -self.modifier_worth(card, 1)  # what it takes from one of A's characters
        else:
            power = n * (self.words["hex_value"] if kw == K.HEX else 1000)
        return power * 2 // (2 * card.cost + 1) if careful else power

    def denied(self, card: Card) -> bool:
        """deny_defeat: against a DEFEAT quest, no striker A's strongest character beats."""
        g = self.g
        if not self.words["deny_defeat"] or not any(
                obj == K.O_DEFEAT for obj, _ in g.quest.objectives):
            return False
        strongest = max(g.stat(g.a, ch, "str") for ch in self.characters(g.a))
        return card.stats["str"] <= strongest

    # -- 7: maneuvers in a window ----------------------------------------------------------
    def maneuver(self, options: list):
        if self.is_random:
            return self.uniform(options, with_pass=True)
        def uses(o) -> int:  # how many uses a Might in play counts for
            if o.from_hand or o.keyword[0] != K.MIGHT:
                return 1
            return self.uses(o.card.ability_cost, self.seat.pool)

        return self.best_above_zero(options, lambda o: self.maneuver_score(*o.keyword, uses(o)))

    def uses(self, cost: int, pool: int) -> int:
        """How many uses in a row of an in-play ability of this cost the policy plans for,
        with `pool` to pay them: one, unless abilities are repeatable, where a pool
        (cost_currency = pool) pays as many as it holds costs; at least one, at most
        `repeat`."""
        most = max(1, self.words["repeat"])
        if not self.repeatable():
            return 1
        if cost == 0:
            return most
        if self.g.rules["cost_currency"] != "pool":
            return 1
        return max(1, min(most, pool // cost))

    def maneuver_score(self, kw: int, n: int, uses: int = 1) -> int:
        if kw in (K.CANCEL, K.WOUND, K.ESCAPE):
            return 80
        if kw not in (K.MIGHT, K.WARD) or self.g.combat is None:
            return -1
        g = self.g
        striker, defender = g.combat
        mine = 1 if self.seat is g.a else -1  # a result of 1 is the defender's win
        now = mine * g.combat_result(striker, defender, *g.might)
        if now == 1:
            return -1
        if kw == K.MIGHT:
            more = list(g.might)
            more[0 if mine == 1 else 1] += n * uses
            return 100 if mine * g.combat_result(striker, defender, *more) == 1 else -1
        if now == 0:
            return -1
        if mine == 1:
            hit = 1 + striker.card.keyword(K.DAMAGE) - (defender.ward if self.repeatable() else 0)
            return 50 if g.toughness_left(g.a, defender) <= hit else -1
        if not self.survivors_return():
            return -1
        hit = 1 - (striker.ward if self.repeatable() else 0)
        return 50 if striker.card.stats["tough"] - striker.wounds <= hit else -1

    # -- 8-10: the encounter and the loot --------------------------------------------------
    def striker(self, waiting: list):
        """The striker to send next; None when none waits (random draws all the same)."""
        if self.is_random:
            j = self.draw(len(waiting))
            return waiting[j] if waiting else None
        return first_best(waiting, lambda s: s.card.stats["str"])

    def defender(self, striker, options: list[Character]) -> Character:
        """Options: the party NPCs that may defend, then the PC (last)."""
        if self.is_random:
            return options[self.draw(len(options))]
        g, a = self.g, self.seat

        def weakest(chars):
            return first_best(chars, lambda ch: -g.stat(a, ch, "str"))
        winners = [ch for ch in options if g.combat_result(striker, ch, 0, 0) == 1]
        npcs = [ch for ch in options if not ch.is_pc]
        return weakest(winners) or weakest(npcs) or a.pc

    def takes_loot(self) -> bool:
        return self.draw(2) == 1 if self.is_random else True

    # -- 11: targets -------------------------------------------------------------------------
    @staticmethod
    def characters(seat: Seat) -> list[Character]:
        return [seat.pc, *seat.party]

    def cancel(self, strikers: list):
        return self.target("cancel", strikers, lambda s: s.card.stats["str"])

    def wound_striker(self, strikers: list, n: int):
        def score(s):
            dies = s.card.stats["tough"] - s.wounds <= n
            counts = s.state == WAITING or self.survivors_return()
            return s.card.stats["str"] + (100 if dies and counts else 0)
        return self.target("wound_striker", strikers, score)

    def wound_party(self, a: Seat) -> Character:
        return self.target("wound_party", self.characters(a),
                           lambda ch: -self.g.toughness_left(a, ch))

    def revive(self, positions: list[int]) -> int | None:
        pile = self.seat.discard
        return self.target("revive", positions, lambda i: pile[i].cost)

    def ward(self, strikers_not_gone: list):
        """A: one of its party characters; B: one of its strikers not gone (or None)."""
        g = self.g
        mine = self.seat is g.a
        if self.words["ward"] == "random":
            return self.target("ward", self.characters(self.seat) if mine else
                               strikers_not_gone, None)
        if g.combat is None:
            return self.seat.pc if mine else None
        striker, defender = g.combat
        if not mine:
            return striker
        # Its defender; none once the defender is killed in the window.
        return defender if defender.is_pc or defender in self.seat.party else None

    def stays_on(self, a: Seat) -> Character:
        """The character of A's that this opponent's strike card with stays = character goes
        on: pc, strongest (the PC first of equals) or random."""
        if self.words["stays_on"] == "pc":
            return a.pc
        return self.target("stays_on", self.characters(a), lambda ch: self.g.stat(a, ch, "str"))

    def heal(self) -> Character | None:
        hurt = [ch for ch in self.characters(self.seat) if ch.wounds > 0]
        if self.words["heal"] == "pc_first" and self.seat.pc.wounds > 0:
            return self.seat.pc
        return self.target("heal", hurt, lambda ch: ch.wounds)

    def gear(self, card: Card) -> Character:
        """The character a character action goes on, among those its `attach` allows."""
        seat = self.seat
        allowed = {"": self.characters(seat), "pc": [seat.pc], "party": seat.party}[card.attach]
        if self.words["gear"] == "random":
            return self.target("gear", allowed, None)
        return seat.party[0] if card.attach == "party" else seat.pc
