"""Reference engine, part 1: cards, characters, seats and the match as plain objects, with the
rules that only read or move them (stats, keywords in play, wounds, zones, objectives)."""

from __future__ import annotations

from sim.core.rng import py_below, py_stream_key
from sim.encounter import codes as K
from sim.encounter import state as S

# The counter-based streams of a match: purpose * seats + seat, as the records' contract
# fixes (purpose * 2 + seat for two players).
SHUFFLE, DICE, POLICY, LOOT = 0, 1, 2, 3
STAT_COLUMN = {"dex": K.C_DEX, "int": K.C_INT, "str": K.C_STR, "tough": K.C_TOUGH}
WAITING, FOUGHT, GONE = 0, 1, 2  # a striker's state this turn


class Card:
    """One row of the card table under its field names."""

    def __init__(self, index: int, row):
        v = [int(x) for x in row]
        self.id = index
        self.kind, self.nature, self.race, self.requires = (
            v[K.C_KIND], v[K.C_NATURE], v[K.C_RACE], v[K.C_REQUIRES])
        self.unique = v[K.C_UNIQUE] != 0
        self.cost, self.step, self.terrain = v[K.C_COST], v[K.C_STEP], v[K.C_TERRAIN]
        self.stats = {name: v[col] for name, col in STAT_COLUMN.items()}
        self.quest_cost, self.quest_points, self.loot_points = (
            v[K.C_QCOST], v[K.C_QPOINTS], v[K.C_LPOINTS])
        self.objectives = [(v[c], v[c + 1]) for c in (K.C_OBJ1, K.C_OBJ2) if v[c] != 0]
        self.abilities = [(v[K.C_AB1], v[K.C_ARG1]), (v[K.C_AB2], v[K.C_ARG2])]  # two slots
        self.ability_cost = v[K.C_ABCOST]  # paid on each use of an in-play ability
        self.stays = K.STAYS[v[K.C_STAYS]]  # a strike action's placement, "" discarded
        self.attach = K.ATTACH[v[K.C_ATTACH]]  # a character action's bearers, "" any

    def keyword(self, kw: int) -> int:
        """The argument this card gives a keyword (0 without it)."""
        return sum(arg for k, arg in self.abilities if k == kw)

    def is_strike(self) -> bool:
        return self.nature in (K.STRIKE, K.STRIKE_ACTION)


class Character:
    """A party character: the PC or a party NPC, with its wounds and this turn's ward."""

    def __init__(self, card: Card, is_pc: bool):
        self.card, self.is_pc = card, is_pc
        self.wounds = 0
        self.ward = 0
        self.defended = False


class Striker:
    """A strike NPC an opponent (its owner) played against this turn's quest."""

    def __init__(self, card: Card, owner: Seat | None = None):
        self.card, self.wounds, self.ward, self.state = card, 0, 0, WAITING
        self.owner = owner


class Seat:
    """One player: the PC, every zone, the pool and the counts the records keep."""

    def __init__(self, index: int, pc: Card):
        self.index = index
        self.pc = Character(pc, True)
        self.deck: list[Card] = []  # top first
        self.loot: list[Card] = []
        self.set_aside: list[Card] = []  # Blanks out of the game, met on top of a deck
        self.hand: list[Card] = []
        self.discard: list[Card] = []
        self.party: list[Character] = []
        self.supports: list[Card] = []
        self.characteristics: list[Card] = []
        self.bulwark: list[Card] = []
        self.loot_in_play: list[Card] = []
        self.gear: list[tuple[Card, Character]] = []  # character actions and their bearers
        self.borne: list[tuple[Card, Character, Seat]] = []  # strike cards on them, owners
        self.location: Card | None = None
        self.location_played = False
        self.pool = self.points = self.threat = 0
        self.quests_attempted = self.quests_completed = 0
        self.pc_wounds = self.party_wounds = 0
        self.strikes_faced = self.strikers_defeated = 0
        self.death_turn = -1
        self.death_round = -1  # the round it was killed in
        self.sent = -1  # strike NPCs sent against this seat's last quest (-1: none faced)
        self.left = 0  # twilight: the strike budget it has left this turn as an opponent
        self.out = False  # its PC was killed (or its deck ran out) at a table of more
        self.mulligans = self.opening_quests = 0
        self.drawn: set[int] = {pc.id}
        self.uses: dict[int, int] = {}  # in-play abilities used, by card

    def ability_cards(self) -> list[Card]:
        """Cards in play that may carry abilities, in the order their options are listed."""
        return [*self.characteristics, *self.supports, *self.loot_in_play, *self.bulwark,
                *(ch.card for ch in self.party), *(c for c, _ in self.gear)]

    def cards_in_play(self) -> list[Card]:
        out = [self.pc.card, *self.ability_cards()]
        return out if self.location is None else [*out, self.location]


class Match:
    """A match's state and the rules that decide nothing."""

    def __init__(self, cards: list[Card], rules: dict, styles, seed: int, index: int,
                 log_rows: int):
        self.cards, self.rules, self.styles = cards, rules, styles
        self.n = rules["players"]
        self.keys = [py_stream_key(seed, index, s) for s in range(4 * self.n)]
        self.counters = [0] * len(self.keys)
        self.log_rows = log_rows
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self.notes: list[tuple[int, int, int]] = []  # (seat, card, statistic)
        self.seats: list[Seat] = []
        self.turn = self.active = self.first = self.chooser = 0
        self.rounds = 0  # the round being played, from 1 once set-up is done
        self.over, self.winner, self.end = False, 0, 0
        self.turn_ends = False  # the active player is out: its turn ends, the game goes on
        self.quest: Card | None = None
        self.budget = self.hex = self.ambush = self.wins = self.pc_wounds_this_turn = 0
        self.completed = False
        self.strikers: list[Striker] = []
        self.combat: tuple[Striker, Character] | None = None
        self.might = [0, 0]  # this combat's Might: [A's defender, B's striker]
        self.judged: list[tuple[int, Card]] = []  # "other" cards played this turn, by seat

    # -- streams, log, statistics -----------------------------------------------------------
    def rand(self, purpose: int, seat: int, n: int) -> int:
        """Next number in 0..n-1 from the seat's stream of that purpose."""
        s = purpose * self.n + seat
        v = py_below(self.keys[s], self.counters[s], n)
        self.counters[s] += 1
        return v

    def say(self, seat: int, event: int, card: int = -1, a: int = 0, b: int = 0):
        if len(self.log) < self.log_rows:
            self.log.append((self.turn, seat, event, card, a, b))

    def note(self, seat: int, card: Card, statistic: int):
        self.notes.append((seat, card.id, statistic))

    # -- who is who ----------------------------------------------------------------------------
    @property
    def a(self) -> Seat:
        return self.seats[self.active]

    def in_game(self) -> list[Seat]:
        return [s for s in self.seats if not s.out]

    def to_the(self, seat: Seat, step: int) -> Seat:
        """The next seat still in the game: step 1 to the left (clockwise), -1 right."""
        i = seat.index
        while True:
            i = (i + step) % self.n
            if not self.seats[i].out or i == seat.index:
                return self.seats[i]

    def opponents(self) -> list[Seat]:
        """The active player's opponents still in, counterclockwise from its right."""
        out, s = [], self.to_the(self.a, -1)
        while s is not self.a:
            out.append(s)
            s = self.to_the(s, -1)
        return out

    # -- stats and static keywords -------------------------------------------------------------
    def stat(self, seat: Seat, ch: Character, name: str) -> int:
        """A party character's current stat: its card, what it bears (the PC: characteristics,
        support NPCs, loot, character actions), bulwark and location (toughness too), this
        turn's Hex and Ambush on the active player; floor 0."""
        v = ch.card.stats[name]
        if ch.is_pc:
            for c in (*seat.characteristics, *seat.supports, *seat.loot_in_play):
                v += c.stats[name]
        v += sum(c.stats[name] for c, bearer in seat.gear if bearer is ch)
        v += sum(c.stats[name] for c, bearer, _ in seat.borne if bearer is ch)
        for c in seat.bulwark:
            v += c.stats[name]
        if seat.location is not None:
            v += seat.location.stats[name]
        if seat.index == self.active:
            if ch.is_pc and name in ("int", "dex"):
                v -= self.hex
            if name == "str":
                v -= self.ambush
        return max(v, 0)

    def toughness_left(self, seat: Seat, ch: Character) -> int:
        return self.stat(seat, ch, "tough") - ch.wounds

    def damage(self, ch: Character, seat: Seat) -> int:
        """Damage a party character deals on winning: its card's and what it bears."""
        v = ch.card.keyword(K.DAMAGE)
        if ch.is_pc:
            for c in (*seat.characteristics, *seat.supports, *seat.loot_in_play):
                v += c.keyword(K.DAMAGE)
        return v + sum(c.keyword(K.DAMAGE) for c, bearer in seat.gear if bearer is ch)

    def seat_keyword(self, seat: Seat, kw: int) -> int:
        """A player-wide static keyword (Budget, Sneak) over the seat's cards in play."""
        return sum(c.keyword(kw) for c in seat.cards_in_play())

    def copies_in_play(self, seat: Seat, card: Card) -> int:
        n = sum(1 for c in seat.cards_in_play() if c is card)
        return n + sum(1 for s in self.strikers if s.card is card and s.state != GONE
                       and s.owner is seat)

    def unique_ok(self, seat: Seat, card: Card) -> bool:
        """A unique card enters play only while no copy is in play (unique_scope)."""
        if not card.unique:
            return True
        if self.copies_in_play(seat, card) > 0:
            return False
        return self.rules["unique_scope"] == "player" or all(
            self.copies_in_play(other, card) == 0 for other in self.in_game()
            if other is not seat)

    def race_ok(self, seat: Seat, card: Card) -> bool:
        return card.requires == 0 or card.requires == seat.pc.card.race

    def party_strength(self, seat: Seat) -> int:
        return sum(self.stat(seat, ch, "str") for ch in (seat.pc, *seat.party))

    # -- zones -------------------------------------------------------------------------------
    def draw(self, seat: Seat) -> Card | None:
        """Top card of the draw deck into the hand; None when no card is left. A Blank met
        on top is set aside out of the game and the next card drawn in its place."""
        card = self.top_card(seat, seat.deck, 0)
        if card is None:
            return None
        seat.hand.append(card)
        seat.drawn.add(card.id)
        self.say(seat.index, S.EV_DRAW, card.id)
        return card

    def top_card(self, seat: Seat, deck: list[Card], loot: int) -> Card | None:
        """The top card that is not a Blank, taken off the deck (draw deck: loot 0, loot
        deck: 1); the Blanks above it go to the seat's set-aside pile."""
        while deck:
            card = deck.pop(0)
            if card.kind != K.BLANK:
                return card
            seat.set_aside.append(card)
            self.say(seat.index, S.EV_ASIDE, card.id, loot)
        return None

    def enter_npc(self, seat: Seat, card: Card):
        if card.nature == K.PARTY:
            seat.party.append(Character(card, False))
        else:
            seat.supports.append(card)

    def game_over(self, winner: int, end: int):
        if not self.over:
            self.over, self.winner, self.end = True, winner, end
            self.say(winner, S.EV_END, -1, end)

    def lose(self, seat: Seat, end: int):
        """The seat loses: with two players the other wins; at a larger table it is out,
        the last player left wins, and else its turn ends there."""
        if self.n == 2:
            self.game_over(1 - seat.index, end)
            return
        seat.out = True
        left = self.in_game()
        if len(left) == 1:
            self.game_over(left[0].index, end)
        elif not self.over:
            self.over = self.turn_ends = True

    # -- wounds ------------------------------------------------------------------------------
    def wound(self, seat: Seat, ch: Character, n: int):
        """n wounds less the character's ward; at 0 toughness left it is killed at once (a
        PC's owner loses, a party NPC goes to the discard pile)."""
        stop = min(ch.ward, n)
        n -= stop
        ch.ward -= stop
        ch.wounds += n
        if ch.is_pc:
            seat.pc_wounds += n
            if seat.index == self.active:
                self.pc_wounds_this_turn += n
        else:
            seat.party_wounds += n
        self.say(seat.index, S.EV_WOUND, ch.card.id, n, stop)
        if n > 0 and self.toughness_left(seat, ch) <= 0:
            self.kill(seat, ch)

    def kill(self, seat: Seat, ch: Character):
        """The character is killed at once: a PC's owner loses, a party NPC goes to the
        discard pile with what it bears."""
        self.say(seat.index, S.EV_KILL, ch.card.id)
        if ch.is_pc:
            seat.death_turn, seat.death_round = self.turn, self.rounds
            self.lose(seat, K.END_KILLED)
            return
        # The NPC, then what it bears, in the order they were played.
        seat.party.remove(ch)
        seat.discard.append(ch.card)
        seat.discard += [c for c, bearer in seat.gear if bearer is ch]
        seat.gear = [(c, bearer) for c, bearer in seat.gear if bearer is not ch]
        for c, bearer, owner in seat.borne:  # an opponent's strike card: its pile
            if bearer is ch:
                owner.discard.append(c)
        seat.borne = [t for t in seat.borne if t[1] is not ch]

    def check_toughness(self, seat: Seat):
        """"When a character's toughness is reduced to 0, that character is immediately
        killed", whether a wound did it or a card entering or leaving play (a negative
        toughness, a location replaced): the PC first, then the party NPCs in order."""
        if self.toughness_left(seat, seat.pc) <= 0:
            self.kill(seat, seat.pc)
            return
        for ch in list(seat.party):
            if self.toughness_left(seat, ch) <= 0:
                self.kill(seat, ch)

    def wound_striker(self, s: Striker, n: int):
        stop = min(s.ward, n)
        n -= stop
        s.ward -= stop
        s.wounds += n
        self.say(s.owner.index, S.EV_WOUND, s.card.id, n, stop)
        if n > 0 and s.card.stats["tough"] - s.wounds <= 0:
            self.say(s.owner.index, S.EV_KILL, s.card.id)
            s.state = GONE
            s.owner.discard.append(s.card)

    @staticmethod
    def heal(ch: Character, n: int) -> int:
        h = min(ch.wounds, n)
        ch.wounds -= h
        return h

    # -- combat and objectives ---------------------------------------------------------------
    def combat_result(self, s: Striker, defender: Character, might_a: int, might_b: int) -> int:
        """1 the defender wins, -1 the striker, 0 nobody (combat_tie = none)."""
        a = self.stat(self.a, defender, "str") + might_a
        b = s.card.stats["str"] + might_b
        if a != b:
            return 1 if a > b else -1
        tie = self.rules["combat_tie"]
        if tie == "intelligence":
            return 1 if self.stat(self.a, defender, "int") > s.card.stats["int"] else -1
        return {"defender": 1, "none": 0}.get(tie, -1)

    def objective_holds(self, seat: Seat, obj: int, arg: int) -> bool:
        """One objective, read now with the modifiers in force."""
        if obj in (K.O_INT, K.O_DEX, K.O_STR):
            name = {K.O_INT: "int", K.O_DEX: "dex", K.O_STR: "str"}[obj]
            return self.stat(seat, seat.pc, name) >= arg
        if obj == K.O_UNHURT:
            return self.pc_wounds_this_turn <= arg
        if obj == K.O_PARTY:
            return len(seat.party) >= arg
        if obj == K.O_PLACE:
            return seat.location is not None and seat.location.terrain == arg
        if obj == K.O_DEFEAT:
            return self.wins >= arg
        return True
