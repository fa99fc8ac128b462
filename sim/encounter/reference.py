"""The plain-Python reference engine of Encounter: a second, independent implementation of the
rules (reference_state, reference_effects, reference_scoring, reference_turn) with its own
policies (reference_policy), drawing from the same counter-based streams in the same order, so
that its records equal the compiled kernel's; and a readable replay of any match."""

from __future__ import annotations

import numpy as np

from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.params import PARAMS
from sim.encounter.reference_state import Card
from sim.encounter.reference_turn import Encounter
from sim.encounter.schema import schema_for
from sim.kit.records import BatchRecords, Replay, reference_records


class Table:
    """What every match of a matchup shares: the cards as objects, rules, policies, decks."""

    def __init__(self, m):
        self.cards = [Card(i, row) for i, row in enumerate(m.pool.table)]
        self.rules = dict(m.rules.values)
        self.styles = [policy_words(v) for v in m.policies]
        self.decks = m.decks
        self.in_deck = [sorted(d.counts()) for d in m.decks]

    def play(self, seed: int, index: int, log_rows: int) -> Encounter:
        g = Encounter(self.cards, self.rules, self.styles, seed, index, log_rows)
        g.play(self.decks)
        return g


def policy_words(vector) -> dict:
    """A policy vector as {parameter: its word, or its number as stored}."""
    return {name: words[int(vector[slot])] if words else int(vector[slot])
            for name, (slot, words, _, _) in PARAMS.items()}


def record_of(g: Encounter) -> list[int]:
    """The match's row, in the schema's column order."""
    row = [g.winner, g.end, g.first, g.turn, g.rounds]
    for name in ("points", "quests_attempted", "quests_completed", "pc_wounds",
                 "party_wounds", "strikes_faced", "strikers_defeated", "death_turn",
                 "death_round", "opening_quests"):
        row += [getattr(seat, name) for seat in g.seats]
    return row


def write(t: Table, g: Encounter, row, death, card_stats):
    """A played match into its row, its pc_death histogram row and the card statistics:
    in deck, drawn, won with it drawn, won without it; then the played/used/succeeded
    counts noted during play."""
    row[:] = record_of(g)
    for p, seat in enumerate(g.seats):
        if seat.death_round >= 0:
            death[p, min(seat.death_round, death.shape[1] - 1)] += 1
        won = g.winner == p
        for c in t.in_deck[p]:
            card_stats[p, c, 0] += 1
            if c in seat.drawn:
                card_stats[p, c, 1] += 1
                card_stats[p, c, 2] += won
            else:
                card_stats[p, c, 3] += won
    for p, c, stat in g.notes:
        card_stats[p, c, stat] += 1


def reference_batch(m, n: int, seed: int, first_match: int = 0, n_log: int = 0
                    ) -> BatchRecords:
    """Matches first_match .. first_match + n - 1 played by the reference engine."""
    if not 0 <= seed < 2**63:
        raise ValueError("seed must be in 0 .. 2**63 - 1")
    schema, t = schema_for(m), Table(m)
    layout = schema.layout

    def play(index: int, log_rows: int):
        g = t.play(seed, index, log_rows)
        row = np.zeros(len(layout.match_columns), dtype=np.int32)
        death = np.zeros((layout.seats, layout.hist_bins["pc_death"]), dtype=np.int32)
        stats = np.zeros((layout.seats, len(m.pool), len(layout.card_stats)), dtype=np.int64)
        write(t, g, row, death, stats)
        return row, {"pc_death": death}, stats, g.log

    return reference_records(schema, n, len(m.pool), first_match, n_log, play)


def replay(m, seed: int, match_index: int, rows: int = 100000) -> Replay:
    """Match `match_index` of a seed, played by the reference engine, as readable lines."""
    t = Table(m)
    g = t.play(seed, match_index, rows)
    return Replay(render(m, g.log), np.array(record_of(g), dtype=np.int32))


_SENTENCES = {
    S.EV_FIRST: "{who} chooses who goes first {why}: {deck_a}",
    S.EV_TURN: "-- turn {turn}: {who} (points {points})",
    S.EV_DRAW: "{who} draws {card}",
    S.EV_DISCARD: "{who} discards {card}",
    S.EV_PLAY: "boost: {who} plays {card}",
    S.EV_QUEST: "quest: {who} plays {card}; {budget_of}strike budget {a}",
    S.EV_BUDGET: "quest: {who}'s strike budget against {card}: {a}",
    S.EV_STRIKE: "strike: {who} plays {card} (cost {a}, budget left {b})",
    S.EV_MANEUVER: "{who} uses {card}: {kw} {b}",
    S.EV_COMBAT: "combat: {card} (strength {bm1000}) against {def_card} (strength "
                 "{am1000}): {result}",
    S.EV_WOUND: "{card} ({who}) takes {a} wound(s), {b} prevented",
    S.EV_KILL: "{card} ({who}) is killed",
    S.EV_OBJECTIVE: "objective {obj} {am1000}: {holds}",
    S.EV_SCORE: "score: {who} completes {card} for {a} points ({b} in all)",
    S.EV_FAIL: "score: {who} fails {card}; it goes under the draw deck",
    S.EV_REVEAL: "loot: {who} reveals {card}",
    S.EV_LOOT: "loot: {who} plays {card}",
    S.EV_END: "== game over: {end}, winner {who}",
    S.EV_CANCEL: "{who} cancels {card}",
    S.EV_HEAL: "{card} ({who}) heals {a} wound(s)",
    S.EV_REVIVE: "{who} revives {card}",
    S.EV_DECKOUT: "{who}'s draw deck is empty",
    S.EV_MULLIGAN: "{who} takes mulligan {a}",
    S.EV_ASIDE: "{who} sets {card} aside from the top of its {pile} deck",
    S.EV_STAY: "strike: {card} stays {where}",
    S.EV_CAPTURE: "capture: {card} captures the PC",
}


def points_text(decks: list[str], a: int, b: int) -> str:
    """Every seat's points from an EV_TURN row: "29-6" at two seats, "orc-warband 29,
    grey-expedition 6, orc-ambush 10" at more."""
    base = S.POINTS_BASE
    pts = [a % base, a // base, b % base, b // base][:len(decks)]
    if len(decks) == 2:
        return f"{pts[0]}-{pts[1]}"
    return ", ".join(f"{d} {p}" for d, p in zip(decks, pts, strict=True))


def render(m, rows) -> list[str]:
    """Log rows (turn, seat, event, card, a, b) as sentences."""
    names = m.pool.names
    decks = [d.name for d in m.decks]
    out = []
    for turn, seat, ev, card, a, b in (tuple(int(x) for x in r) for r in rows):
        fields = {
            "turn": turn, "a": a, "b": b, "points": points_text(decks, a, b),
            # A quest card's row names the first opponent whose budget it is (b).
            "budget_of": (f"{decks[b]}'s " if ev == S.EV_QUEST and card >= 0 and
                          0 <= b < len(decks) else ""),
            "who": decks[seat] if seat >= 0 else "none (draw)",
            "card": names[card] if card >= 0 else ("the quest" if ev in (
                S.EV_QUEST, S.EV_SCORE, S.EV_FAIL) else "striker"),
            "bm1000": b % 1000, "am1000": a % 1000,
            "deck_a": decks[a] if ev == S.EV_FIRST and 0 <= a < len(decks) else "",
            "why": ("in this round" if b < 0 else
                    f"(intelligence {b // 100} against {b % 100})" if len(decks) == 2 else
                    f"(highest intelligence {b})"),
            "kw": K.KEYWORDS[a] if ev == S.EV_MANEUVER else "",
            "def_card": names[a // 1000] if ev == S.EV_COMBAT else "",
            "result": {1: "defender wins", -1: "striker wins", 0: "no winner"}.get(
                round(b / 1000), ""),
            "obj": K.OBJECTIVES[a // 1000] if ev == S.EV_OBJECTIVE else "",
            "holds": "holds" if b else "fails",
            "end": K.END_REASONS[a] if ev == S.EV_END else "",
            "pile": "loot" if a == 1 else "draw",
            "where": (f"in {decks[seat]}'s bulwark" if a == K.STAY_BULWARK else
                      "on the questing player's " + ("PC" if b < 0 else f"party NPC {b + 1}")),
        }
        out.append(_SENTENCES[ev].format(**fields))
    return out
