"""Arms of a paired experiment: matchups played on matches 0 .. n-1 of one seed (common
random numbers), each kept as one seat's per-match wins, a digest of every match's record
(to tell whether a change moved any record at all) and the card statistics summed; an arm
may be a mix of matchups (a card in each of its forms), its wins their mean match by match;
and the matchups an arm is built from (a seat on one of the folder's policies, a card
changed for one seat only)."""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.kit.folders import folder_policies


def digest(matches: np.ndarray) -> np.ndarray:
    """One uint64 per match row: its columns times fixed odd 64-bit weights, summed
    (wrapping); equal for equal records and, in practice, different for different ones."""
    weights = np.random.default_rng(20261204).integers(
        1, 2**62, matches.shape[1], dtype=np.uint64) | np.uint64(1)
    with np.errstate(over="ignore"):
        return (matches.astype(np.int64).view(np.uint64) * weights).sum(axis=1,
                                                                         dtype=np.uint64)


class Arms:
    """Arms by key, each a (matchup or mix of matchups, seat) whose matches are played on
    demand."""

    def __init__(self, game, seed: int):
        self.game, self.seed = game, seed
        self.matchups: dict = {}
        self.wins: dict = {}
        self.digests: dict = {}
        self.stats: dict = {}
        self.played = 0
        self.dropped: dict = {}  # {the keys of a race: the keys out of it (verdicts.best)}

    def add(self, key, matchup, seat: int) -> None:
        """An arm of one matchup, or of a list of matchups played alike and averaged."""
        if key not in self.matchups:
            mix = tuple(matchup) if isinstance(matchup, list | tuple) else (matchup,)
            self.matchups[key] = (mix, seat)
            self.wins[key] = np.zeros(0, np.int8 if len(mix) == 1 else np.float64)
            self.digests[key] = np.zeros((0, len(mix)), np.uint64)
            self.stats[key] = None

    def n(self, key) -> int:
        return len(self.wins[key])

    def extend(self, key, n: int) -> np.ndarray:
        """The arm's wins over matches 0 .. n-1, playing the ones it lacks."""
        have = self.n(key)
        if have < n:
            mix, seat = self.matchups[key]
            wins, digests = [], []
            for m in mix:
                rec = self.game.run_batch(m, n - have, self.seed, first_match=have)
                self.played += n - have
                wins.append(rec.wins(seat))
                digests.append(digest(rec.matches))
                s = self.stats[key]
                self.stats[key] = rec.card_stats if s is None else s + rec.card_stats
            new = wins[0] if len(mix) == 1 else np.mean(wins, axis=0)
            self.wins[key] = np.concatenate([self.wins[key], new])
            self.digests[key] = np.concatenate([self.digests[key], np.stack(digests, 1)])
        return self.wins[key][:n]

    def same(self, a, b, n: int) -> bool:
        """Whether two arms wrote the same record in every one of the first n matches that
        both have played (a mix: every one of its matchups the same as every other's)."""
        n = min(n, self.n(a), self.n(b))
        da, db = self.digests[a][:n], self.digests[b][:n]
        return bool((da[:, :, None] == db[:, None, :]).all())

    def agree(self, a, b, n: int) -> bool:
        """Whether two arms wrote the same record in every one of the first n matches,
        playing them on to n only while they agree on the matches they have."""
        if not self.same(a, b, n):
            return False
        self.extend(a, n)
        self.extend(b, n)
        return self.same(a, b, n)


def seat_policies(game, folder, trained: str | None) -> tuple[dict[str, object], str | None]:
    """{policy name: function(matchup, seat) -> matchup with the seat on it} for the folder's
    policies (the matchup's own when there is no folder or the game cannot change a seat's
    policy), and the trained one's name when it is among them."""
    names = folder_policies(folder) if folder is not None else []
    if not names or game.tuning is None:
        return {"as run": lambda mm, seat: mm}, None
    return ({p: (lambda mm, seat, p=p: game.tuning.with_policy(mm, seat, folder, p, {}, p))
             for p in names}, trained if trained in names else None)


def seat_local(game, m, seat: int, card: str):
    """The matchup in which a change to the card changes this seat's copies only: every
    other seat that holds the card gets a copy of its row under another id, in the same
    places of its deck (the seat itself keeps the card, and so its place in every order)."""
    holders = [s for s in range(len(m.decks))
               if s != seat and card in game.building.counts(m, s)]
    if not holders:
        return m
    other = f"{card}@others"
    out = dataclasses.replace(m, pool=m.pool.with_twin(m.pool.ids.index(card), other))
    for s in holders:
        counts = {(other if c == card else c): n
                  for c, n in game.building.counts(out, s).items()}
        out = game.building.with_counts(out, s, counts, m.decks[s].name)
    return out
