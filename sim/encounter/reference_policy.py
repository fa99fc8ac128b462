"""Reference engine, part 2: the scripted policies (random, careful, aggressive) read from the
match objects; they pick among the options the rules list and never read hidden zones."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.reference_state import FOUGHT, POLICY, WAITING, Card, Match, Seat

RANDOM, CAREFUL, AGGRESSIVE = "random", "careful", "aggressive"


def style(g: Match, seat: Seat) -> str:
    return g.styles[seat.index]["style"]


def word(g: Match, seat: Seat, name: str):
    """The seat's policy parameter of that name (a word, or a number as stored)."""
    return g.styles[seat.index][name]


def choose_first(g: Match, chooser: Seat) -> int:
    """first: the chooser goes first; second: the other; random: a coin."""
    how = word(g, chooser, "first")
    if how == "random":
        return g.rand(POLICY, chooser.index, 2)
    return chooser.index if how == "first" else 1 - chooser.index


def pick(g: Match, seat: Seat, scores: list[int]) -> int:
    """The best option (first of equals) when it scores above 0, else -1 for a pass;
    random: uniform over the options and the pass."""
    if style(g, seat) == RANDOM:
        j = g.rand(POLICY, seat.index, len(scores) + 1)
        return j if j < len(scores) else -1
    best, value = -1, 0
    for i, v in enumerate(scores):
        if v > value:
            best, value = i, v
    return best


def survivors_return(g: Match) -> bool:
    """strikers_after = hand (a public rule option): a surviving striker strikes again, so
    whether it dies counts; under discard it leaves play either way."""
    return g.rules["strikers_after"] == "hand"


def keep_value(g: Match, seat: Seat, card: Card) -> int:
    """Blanks and quests it cannot play go first, quests are kept longest."""
    if card.kind == K.BLANK or not g.race_ok(seat, card):
        return 0
    return 3 if card.kind == K.QUEST else 2


def discard_choice(g: Match, seat: Seat) -> int:
    """discard_down and pay: the hand position to discard (the last of the least worth)."""
    if style(g, seat) == RANDOM:
        return g.rand(POLICY, seat.index, len(seat.hand))
    values = [keep_value(g, seat, c) for c in seat.hand]
    low = min(values)
    return max(i for i, v in enumerate(values) if v == low)


def wants_mulligan(g: Match, seat: Seat) -> bool:
    if style(g, seat) == RANDOM:
        return g.rand(POLICY, seat.index, 2) == 1
    return not any(c.kind == K.QUEST and g.race_ok(seat, c) for c in seat.hand)


def helps_a_quest(g: Match, seat: Seat, card: Card) -> bool:
    """Playing the card makes an unmet objective of a quest in hand hold."""
    for q in seat.hand:
        if q.kind != K.QUEST:
            continue
        for obj, arg in q.objectives:
            if g.objective_holds(seat, obj, arg):
                continue
            if obj == K.O_PARTY and card.kind == K.NPC and card.nature == K.PARTY:
                if len(seat.party) + 1 >= arg:
                    return True
            elif obj == K.O_PLACE:
                if card.kind == K.LOCATION and card.terrain == arg:
                    return True
            elif obj in (K.O_INT, K.O_DEX, K.O_STR):
                name = {K.O_INT: "int", K.O_DEX: "dex", K.O_STR: "str"}[obj]
                if (card.kind != K.NPC or card.nature == K.SUPPORT) and (
                        g.stat(seat, seat.pc, name) + card.stats[name] >= arg):
                    return True
    return False


def held_back(g: Match, seat: Seat, cost: int) -> bool:
    """reserve: paying `cost` at the boost step would leave the pool below what the seat
    keeps for its instants of other steps in hand (their costs summed, at most `reserve`;
    pool currency only)."""
    most = word(g, seat, "reserve")
    if most == 0 or cost == 0 or g.rules["cost_currency"] != "pool":
        return False
    keep = sum(c.cost for c in seat.hand
               if c.kind == K.ACTION and c.nature == K.INSTANT and c.step != K.S_BOOST)
    return seat.pool - cost < min(keep, most)


def maneuver_worth(g: Match, seat: Seat, kw: int, arg: int, cost: int = 0) -> int:
    """A boost maneuver (an instant from hand costs `cost`): Heal when wounded, Draw,
    Revive with something to revive."""
    if held_back(g, seat, cost):
        return -1
    if kw == K.HEAL:
        hurt = seat.pc.wounds + sum(ch.wounds for ch in seat.party)
        return 500 if hurt > 0 else -1
    if kw == K.DRAW:
        return word(g, seat, "draw_value")
    if kw == K.REVIVE and any(c.kind == K.NPC and c.nature != K.STRIKE and c.cost <= arg
                              for c in seat.discard):
        return 400
    return -1


def boost_worth(g: Match, seat: Seat, card: Card) -> int:
    """A boost card: whether it meets a quest's objective, then its worth per cost (weights
    in thousandths of a strength point)."""
    if held_back(g, seat, card.cost):
        return -1
    s, w = card.stats, g.styles[seat.index]
    reach = 1 + len(seat.party) if card.kind == K.LOCATION or card.nature == K.BULWARK else 1
    gain = (s["str"] * 1000 + (s["int"] + s["dex"]) * w["mind_value"]) * reach
    gain += s["tough"] * w["tough_value"]
    damage = card.keyword(K.DAMAGE) if survivors_return(g) else 0  # wounds a striker
    gain += damage * 500 + card.keyword(K.SNEAK) * w["sneak_value"]
    gain += card.keyword(K.BUDGET) * w["budget_value"]
    gain += card.keyword(K.HEAL) * w["heal_value"]  # a wound healed a turn
    old = seat.location
    if card.kind == K.LOCATION and old is not None:
        o = old.stats
        gain -= (o["str"] * 1000 + (o["int"] + o["dex"]) * w["mind_value"]) * reach
        if old.terrain == card.terrain:
            return -1
    return helps_a_quest(g, seat, card) * 100000 + gain // (card.cost + 1)


def quest_choice(g: Match, seat: Seat, forced: bool) -> int:
    """The hand position of the quest to play, -1 for none."""
    playable = [i for i, c in enumerate(seat.hand) if c.kind == K.QUEST and g.race_ok(seat, c)]
    if not playable:
        return -1
    st = style(g, seat)
    if st == RANDOM:
        j = g.rand(POLICY, seat.index, len(playable) + (0 if forced else 1))
        return playable[j] if j < len(playable) else -1
    strength = g.party_strength(seat)
    ratio = word(g, seat, "cost_ratio")
    sent = g.other(seat).sent
    best, points = -1, -1
    for i in playable:
        q = seat.hand[i]
        ok = True
        if st == CAREFUL:
            ok = q.quest_cost * 1000 <= ratio * strength and all(
                obj in (K.O_UNHURT, K.O_DEFEAT) or g.objective_holds(seat, obj, arg)
                for obj, arg in q.objectives)
        if word(g, seat, "defeat_check") and any(
                obj == K.O_DEFEAT and 0 <= sent < arg for obj, arg in q.objectives):
            ok = False  # the other player sent fewer strikers against the last quest
        if ok and q.quest_points > points:
            best, points = i, q.quest_points
    if best < 0 and forced:
        return min(playable, key=lambda i: seat.hand[i].quest_cost)
    return best


def beaten_for_defeat(g: Match, seat: Seat, card: Card) -> bool:
    """deny_defeat: against a quest with a DEFEAT objective (met by beating strikers), a
    strike NPC no stronger than A's strongest party character now is not sent."""
    if not word(g, seat, "deny_defeat") or not any(
            obj == K.O_DEFEAT for obj, _ in g.quest.objectives):
        return False
    a = g.a
    return card.stats["str"] <= max(g.stat(a, ch, "str") for ch in (a.pc, *a.party))


def strike_worth(g: Match, seat: Seat, card: Card) -> int:
    """careful: strength per strike cost; aggressive: strike NPCs by strength, then actions."""
    kw, arg = card.abilities[0]
    aggressive = style(g, seat) == AGGRESSIVE
    if card.nature == K.STRIKE:
        if beaten_for_defeat(g, seat, card):
            return -1
        power = card.stats["str"] * 1000
        if aggressive:
            return 1000000 + power
    else:
        power = arg * (word(g, seat, "hex_value") if kw == K.HEX else 1000)
        if aggressive:
            return power
    return power * 2 // (2 * card.cost + 1)


def striker_choice(g: Match, seat: Seat):
    """B sends its strongest waiting striker first (random: uniform); None when none waits."""
    waiting = [s for s in g.strikers if s.state == WAITING]
    if style(g, seat) == RANDOM:
        j = g.rand(POLICY, seat.index, len(waiting))
        return waiting[j] if waiting else None
    best = None
    for s in waiting:
        if best is None or s.card.stats["str"] > best.card.stats["str"]:
            best = s
    return best


def defender_choice(g: Match, seat: Seat, striker, options):
    """The weakest defender that wins, else the weakest party NPC, the PC last."""
    if style(g, seat) == RANDOM:
        return options[g.rand(POLICY, seat.index, len(options))]
    winner = npc = None
    for ch in options:
        s = g.stat(seat, ch, "str")
        if g.combat_result(striker, ch, 0, 0) == 1 and (
                winner is None or s < g.stat(seat, winner, "str")):
            winner = ch
        if not ch.is_pc and (npc is None or s < g.stat(seat, npc, "str")):
            npc = ch
    return winner or npc or seat.pc


def window_worth(g: Match, seat: Seat, kw: int, arg: int) -> int:
    """Might or Ward to turn a loss or save a kill (a striker's only when survivors return
    to hand); Cancel and Wound whenever they can."""
    if kw in (K.MIGHT, K.WARD):
        if g.combat is None:
            return -1
        striker, defender = g.combat
        sign = 1 if seat is g.a else -1
        mine = sign * g.combat_result(striker, defender, *g.might)
        if mine == 1:
            return -1
        if kw == K.MIGHT:
            ma = g.might[0] + (arg if sign == 1 else 0)
            mb = g.might[1] + (arg if sign == -1 else 0)
            return 100 if sign * g.combat_result(striker, defender, ma, mb) == 1 else -1
        if mine == 0:
            return -1
        if sign == 1:
            hit = 1 + striker.card.keyword(K.DAMAGE)
            return 50 if g.toughness_left(seat, defender) <= hit else -1
        if not survivors_return(g):
            return -1
        return 50 if striker.card.stats["tough"] - striker.wounds <= 1 else -1
    return 80 if kw in (K.CANCEL, K.WOUND) else -1


def _nth_or_best(g: Match, seat: Seat, name: str, options: list, value):
    """An option for a target choice: random (its word): uniform on the seat's policy
    stream; else the first option of the highest value; None when there is none."""
    if not options:
        return None
    if word(g, seat, name) == "random":
        return options[g.rand(POLICY, seat.index, len(options))]
    return max(options, key=value)  # max keeps the first of equals


def cancel_options(g: Match, arg: int) -> list:
    """Strikers a Cancel n may discard: still to fight, strike cost <= n."""
    return [s for s in g.strikers if s.state == WAITING and s.card.cost <= arg]


def cancel_target(g: Match, seat: Seat, arg: int):
    """strongest: the strongest striker a Cancel may discard."""
    return _nth_or_best(g, seat, "cancel", cancel_options(g, arg),
                        lambda s: s.card.stats["str"])


def striker_options(g: Match) -> list:
    """Strikers the active player's Wound may hit: those not gone."""
    return [s for s in g.strikers if s.state in (WAITING, FOUGHT)]


def striker_target(g: Match, seat: Seat, arg: int):
    """kill: the strongest striker the Wound kills, else the strongest; a kill counts for a
    striker yet to fight, or any when survivors return to hand."""
    def value(s):
        kills = s.card.stats["tough"] - s.wounds <= arg and (
            s.state == WAITING or survivors_return(g))
        return s.card.stats["str"] + (100 if kills else 0)

    return _nth_or_best(g, seat, "wound_striker", striker_options(g), value)


def party_target(g: Match, seat: Seat, a: Seat):
    """The striking player's Wound on one of A's party characters (weakest: the least
    toughness left, the PC first of equals)."""
    return _nth_or_best(g, seat, "wound_party", [a.pc, *a.party],
                        lambda ch: -g.toughness_left(a, ch))


def revive_options(g: Match, seat: Seat, arg: int) -> list[int]:
    """Discard positions a Revive n may return: party or support NPCs of cost <= n that may
    enter play."""
    return [i for i, c in enumerate(seat.discard) if c.kind == K.NPC and c.nature != K.STRIKE
            and c.cost <= arg and g.unique_ok(seat, c)]


def revive_target(g: Match, seat: Seat, arg: int) -> int:
    """costliest: the discard position of the costliest NPC a Revive may return; -1 none."""
    i = _nth_or_best(g, seat, "revive", revive_options(g, seat, arg),
                     lambda i: seat.discard[i].cost)
    return -1 if i is None else i


def ward_target(g: Match, seat: Seat):
    """Who a Ward goes on: A's party character (combatant: the defender in this combat, the
    PC outside one), B's striker not gone (combatant: the striker in this combat)."""
    rnd = word(g, seat, "ward") == "random"
    if seat is g.a:
        if rnd:
            return _nth_or_best(g, seat, "ward", [seat.pc, *seat.party], None)
        return g.combat[1] if g.combat is not None else seat.pc
    if rnd:
        return _nth_or_best(g, seat, "ward", striker_options(g), None)
    return g.combat[0] if g.combat is not None else None


def heal_target(g: Match, seat: Seat):
    """One of the seat's wounded party characters (most_wounded: the most wounded, the PC
    first of equals; pc_first: the PC when wounded, else the most wounded); None when none
    is wounded."""
    hurt = [ch for ch in (seat.pc, *seat.party) if ch.wounds > 0]
    if word(g, seat, "heal") == "pc_first" and seat.pc.wounds > 0:
        return seat.pc
    return _nth_or_best(g, seat, "heal", hurt, lambda ch: ch.wounds)


def gear_target(g: Match, seat: Seat):
    """The party character a character action goes on (pc: the PC)."""
    if word(g, seat, "gear") == "random":
        return _nth_or_best(g, seat, "gear", [seat.pc, *seat.party], None)
    return seat.pc


def takes_loot(g: Match, seat: Seat) -> bool:
    if style(g, seat) == RANDOM:
        return g.rand(POLICY, seat.index, 2) == 1
    return True
