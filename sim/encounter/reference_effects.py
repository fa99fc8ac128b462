"""Reference engine, part 3: costs, playing cards, keyword effects, the start of a
step and maneuver windows."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.reference_policy import Player
from sim.encounter.reference_state import GONE, WAITING, Card, Match, Seat

MAX_ACTIONS = 256  # a step ends after this many plays or passes (the kernel's bound too)
MAX_JUDGED = 64  # "other" cards judged at a turn's end


class Option:
    """A maneuver or boost play on offer: a card in hand (kind "card": a boost card,
    "instant"), or an ability (kind "ability", where: its keyword slot) in play."""

    __slots__ = ("from_hand", "where", "card", "kind")

    def __init__(self, from_hand: bool, where: int, card: Card, kind: str = ""):
        self.from_hand, self.where, self.card = from_hand, where, card
        self.kind = kind or ("instant" if from_hand else "ability")

    @property
    def keyword(self) -> tuple[int, int]:
        return self.card.abilities[0 if self.from_hand else self.where]


class Effects(Match):
    """What playing a card or using an ability does."""

    def player(self, seat: Seat) -> Player:
        """The seat's player, which makes every decision the rules leave to it."""
        return Player(self, seat)

    # -- costs -------------------------------------------------------------------------------
    def can_pay(self, seat: Seat, cost: int, from_hand: bool) -> bool:
        """Whether the seat can pay now (cost_currency); from_hand: the card is in hand."""
        currency = self.rules["cost_currency"]
        if currency == "pool":
            return seat.pool >= cost
        if currency == "discard":
            return len(seat.hand) - int(from_hand) >= cost
        return seat is self.a or seat.left >= cost

    def pay(self, seat: Seat, cost: int):
        """pool: from the pool; discard: that many cards from hand (the policy picks);
        twilight: A's costs build its threat, B's come out of the strike budget left."""
        currency = self.rules["cost_currency"]
        if currency == "pool":
            seat.pool -= cost
        elif currency == "discard":
            for _ in range(cost):
                card = seat.hand.pop(self.player(seat).discard())
                seat.discard.append(card)
                self.say(seat.index, S.EV_DISCARD, card.id, 1)
        elif seat is self.a:
            seat.threat += cost
        else:
            seat.left -= cost

    def played(self, seat: Seat, card: Card, other: bool):
        """Count a play; an `other` card is judged by how its turn goes for its owner."""
        self.note(seat.index, card, S.ST_PLAYED)
        if other:
            self.note(seat.index, card, S.ST_USED)
            if len(self.judged) < MAX_JUDGED:
                self.judged.append((seat.index, card))

    # -- boost plays ---------------------------------------------------------------------------
    def boost_playable(self, seat: Seat, card: Card) -> bool:
        if not self.race_ok(seat, card) or not self.unique_ok(seat, card):
            return False
        if card.kind == K.LOCATION:
            return not seat.location_played
        if (card.kind == K.ACTION and card.nature == K.CHARACTER and card.attach == "party"
                and not seat.party):
            return False  # it may attach to a party NPC only, and there is none
        if card.kind == K.CHARACTERISTIC or (card.kind == K.NPC and card.nature != K.STRIKE) or (
                card.kind == K.ACTION and card.nature in (K.BULWARK, K.CHARACTER)):
            return self.can_pay(seat, card.cost, True)
        return False

    def play_boost_card(self, seat: Seat, i: int):
        """An NPC, characteristic, bulwark or character action (on the PC) from hand position
        i, paid; or a location, replacing the seat's. Then a character of the seat's left
        with no toughness is killed."""
        card = seat.hand.pop(i)
        self.pay(seat, card.cost)
        self.say(seat.index, S.EV_PLAY, card.id)
        if card.kind == K.NPC:
            self.enter_npc(seat, card)
            self.played(seat, card, card.nature != K.PARTY)
        else:
            if card.kind == K.CHARACTERISTIC:
                seat.characteristics.append(card)
            elif card.kind == K.LOCATION:
                if seat.location is not None:
                    seat.discard.append(seat.location)
                seat.location, seat.location_played = card, True
            elif card.nature == K.BULWARK:
                seat.bulwark.append(card)
            else:
                seat.gear.append((card, self.player(seat).gear(card)))
            self.played(seat, card, True)
        self.check_toughness(seat)

    def stay(self, b: Seat, card: Card):
        """Opponent b's strike card stays in play: in b's bulwark, or on the character of A's
        that b's policy picks, whose stats it changes until it leaves with it (to b's pile)."""
        if card.stays == "bulwark":
            b.bulwark.append(card)
            self.say(b.index, S.EV_STAY, card.id, K.STAY_BULWARK)
            return
        ch = self.player(b).stays_on(self.a)
        self.a.borne.append((card, ch, b))
        self.say(b.index, S.EV_STAY, card.id, K.STAY_CHARACTER,
                 -1 if ch.is_pc else self.a.party.index(ch))

    # -- keywords ------------------------------------------------------------------------------
    def resolve(self, seat: Seat, kw: int, arg: int, source: Card):
        """One keyword's effect for `seat` ("your character": its side of the combat)."""
        self.say(seat.index, S.EV_MANEUVER, source.id, kw, arg)
        mine = seat is self.a
        if kw == K.MIGHT:
            self.might[0 if mine else 1] += arg
        elif kw == K.WARD:
            who = self.player(seat).ward([s for s in self.striker_options()
                                          if s.owner is seat])
            if who is not None:
                who.ward += arg
        elif kw == K.HEAL:
            ch = self.player(seat).heal()
            if ch is not None:
                self.say(seat.index, S.EV_HEAL, ch.card.id, self.heal(ch, arg))
        elif kw == K.DRAW:
            for _ in range(arg):
                self.draw(seat)
        elif kw == K.REVIVE:
            i = self.player(seat).revive(self.revive_options(seat, arg))
            if i is not None:
                card = seat.discard.pop(i)
                self.enter_npc(seat, card)
                self.say(seat.index, S.EV_REVIVE, card.id)
                self.check_toughness(seat)
        elif kw in (K.CANCEL, K.ESCAPE):
            s = self.player(seat).cancel(self.cancel_options(arg, kw)) if mine else None
            if s is not None:
                s.state = GONE
                s.owner.discard.append(s.card)
                self.say(seat.index, S.EV_CANCEL, s.card.id)
        elif kw == K.WOUND:
            if mine:
                s = self.player(seat).wound_striker(self.striker_options(), arg)
                if s is not None:
                    self.wound_striker(s, arg)
            else:
                self.wound(self.a, self.player(seat).wound_party(self.a), arg)
        elif kw == K.HEX:
            self.hex += arg
        elif kw == K.AMBUSH:
            self.ambush += arg

    def cancel_options(self, arg: int, kw: int = K.CANCEL) -> list:
        """Strikers a Cancel n may discard: still to fight (not the one fighting now),
        strike cost <= n; an Escape n: still to fight, printed intelligence at least n under
        the active PC's now."""
        fighting = self.combat[0] if self.combat else None
        waiting = [s for s in self.strikers if s.state == WAITING and s is not fighting]
        if kw == K.ESCAPE:
            wits = self.stat(self.a, self.a.pc, "int")
            return [s for s in waiting if s.card.stats["int"] <= wits - arg]
        return [s for s in waiting if s.card.cost <= arg]

    def side_gone(self) -> bool:
        """A side of the combat under way is gone (killed or cancelled in its window)."""
        if self.combat is None:
            return False
        striker, defender = self.combat
        return striker.state == GONE or not (defender.is_pc or defender in self.a.party)

    def striker_options(self) -> list:
        """Strikers the active player's Wound (or the other's Ward) may reach: not gone."""
        return [s for s in self.strikers if s.state != GONE]

    def revive_options(self, seat: Seat, arg: int) -> list[int]:
        """Discard positions a Revive n may return: party or support NPCs of cost <= n that
        may enter play."""
        return [i for i, c in enumerate(seat.discard) if c.kind == K.NPC
                and c.nature != K.STRIKE and c.cost <= arg and self.unique_ok(seat, c)]

    def usable(self, seat: Seat, kw: int, arg: int, step: int) -> bool:
        """Whether a maneuver keyword has anything to act on now, in the step its card
        names, a combat's window as any other."""
        if kw == K.MIGHT:
            return step == K.S_COMBAT  # "your character in this combat"
        if kw == K.WARD:
            # A combatant in a combat; outside one A's characters or B's strikers not gone.
            return step == K.S_COMBAT or seat is self.a or any(
                s.owner is seat for s in self.striker_options())
        if kw in (K.CANCEL, K.ESCAPE):
            return seat is self.a and len(self.cancel_options(arg, kw)) > 0
        if kw == K.WOUND:
            return seat is not self.a or len(self.striker_options()) > 0
        if kw == K.REVIVE:
            return len(self.revive_options(seat, arg)) > 0
        return kw in (K.HEAL, K.DRAW)

    # -- steps --------------------------------------------------------------------------------
    def abilities_come_back(self):
        for seat in self.seats:
            seat.uses.clear()

    def start_step(self):
        """Under ability_limit = step, abilities come back at each step."""
        if self.rules["ability_limit"] == "step":
            self.abilities_come_back()

    # -- maneuvers -----------------------------------------------------------------------------
    def maneuvers(self, seat: Seat, step: int) -> list[Option]:
        """Instants of this step in hand the seat can pay for, then abilities of this step on
        its cards in play whose ability cost it can pay, not used up (one use a turn or step
        per copy in play; any number under ability_limit = unlimited)."""
        out = []
        for i, c in enumerate(seat.hand):
            if (c.kind == K.ACTION and c.nature == K.INSTANT and c.step == step
                    and self.can_pay(seat, c.cost, True) and self.usable(seat, *c.abilities[0],
                                                                          step)):
                out.append(Option(True, i, c))
        listed = set()
        # A start-of-turn or start-of-quest-step maneuver may be performed only once a turn,
        # whatever ability_limit.
        limited = (self.rules["ability_limit"] != "unlimited"
                   or step in (K.S_START, K.S_QSTART))
        for c in seat.ability_cards():
            if c.step != step or not self.can_pay(seat, c.ability_cost, False):
                continue
            if limited and seat.uses.get(c.id, 0) >= self.copies_in_play(seat, c):
                continue
            for j, (kw, arg) in enumerate(c.abilities):
                if (kw != 0 and kw < K.DAMAGE and c.id not in listed
                        and self.usable(seat, kw, arg, step)):
                    out.append(Option(False, j, c))
                    listed.add(c.id)
        return out

    def use(self, seat: Seat, o: Option):
        """An instant from hand (paid, then discarded, every keyword resolved) or one use of
        an in-play ability (its ability cost paid)."""
        c = o.card
        if o.from_hand:
            seat.hand.pop(o.where)
            self.pay(seat, c.cost)
            self.played(seat, c, True)
            seat.discard.append(c)
            self.resolve(seat, *c.abilities[0], c)
            if c.abilities[1][0] != 0:
                self.resolve(seat, *c.abilities[1], c)
        else:
            seat.uses[c.id] = seat.uses.get(c.id, 0) + 1
            self.pay(seat, c.ability_cost)
            self.resolve(seat, *c.abilities[o.where], c)

    def window(self, step: int):
        """Players act in turn, A first, then counterclockwise (a combat's window: A and the
        striker's owner), one maneuver or a pass each; it closes once every player in it
        has passed in a row."""
        seat, passes = self.a, 0
        sides = [self.a, self.combat[0].owner] if step == K.S_COMBAT else self.in_game()
        if step == K.S_QSTART and not any(self.maneuvers(s, step) for s in sides):
            return  # nobody has such a maneuver: no moment, no policy draw
        for _ in range(MAX_ACTIONS):
            if passes >= len(sides) or self.over or (step == K.S_COMBAT and self.side_gone()):
                break
            player = self.player(seat)
            choose = player.boost if step == K.S_QSTART else player.maneuver
            o = choose(self.maneuvers(seat, step))
            if o is None:
                passes += 1
            else:
                passes = 0
                self.use(seat, o)
            if step == K.S_COMBAT:
                seat = sides[1] if seat is sides[0] else sides[0]
            else:
                seat = self.to_the(seat, -1)
