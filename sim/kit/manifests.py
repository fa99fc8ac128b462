"""A matchup's manifest entry in the one shape every game shares (decks, policies, rules, card
pool and table, histogram labels) and the identical matchup back from it, by what a game
declares of its own parts."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.kit.cards import CardTable
from sim.kit.decklists import Deck


def counted_deck(deck, pool: CardTable) -> dict:
    """A deck of (card, copies) pairs as a manifest writes it, its cards by id."""
    return {"name": deck.name, "path": str(deck.path),
            "cards": [[pool.ids[c], int(n)] for c, n in deck.counts]}


def deck_counts(entry: dict, pool: CardTable) -> tuple[tuple[int, int], ...]:
    """A counted deck's (card, copies) pairs back from its manifest entry."""
    index = {cid: i for i, cid in enumerate(pool.ids)}
    return tuple((index[cid], int(n)) for cid, n in entry["cards"])


def deck_back(entry: dict, pool: CardTable) -> Deck:
    """A deck of card counts alone (sim.kit.decklists.Deck) back from its manifest entry."""
    return Deck(entry.get("path", ""), entry["name"], deck_counts(entry, pool))


def read_pool(cls: type[CardTable], manifest: dict) -> CardTable:
    """The card table a run was made with, values as recorded, whatever the file says now.
    The texts are the manifest's, else the file's while it still lists the same cards (a
    moved or broken file: blank, the manifest alone is enough)."""
    cp = manifest["card_pool"]
    ids = tuple(cp["ids"])
    texts = cp.get("texts")
    if texts is None:
        try:
            words = cls.load(cp.get("path", ""))
            texts = words.texts if words.ids == ids else ()
        except Exception:
            texts = ()
    table = cp["table"] if "table" in cp else manifest["card_table"]
    return cls.from_words(cp.get("path", ""), ids, cp.get("names", ids), texts, table,
                          cp.get("sha256", ""))


@dataclass(frozen=True)
class Manifest:
    """What a game declares of its manifest entry; `describe` and `from_manifest` do the rest.

    - matchup: the game's matchup class, a dataclass with pool, rules, decks, policy_names,
      policies and, where the game keeps it, folder;
    - pool: its card table class (sim.kit.cards.CardTable);
    - rules(values: dict) -> the game's rule set from the recorded values (a rule set is
      written as its `values`, or as itself when it is a dict);
    - deck(entry, pool) -> one deck back from its entry (default: a deck of card counts
      alone, `deck_back`); deck_entry(deck, pool) -> the entry (default: counted_deck);
    - params(values: list) -> a policy's parameter vector (its dtype, any default filled in);
    - labels(matchup) -> the concrete histogram labels of the run;
    - game: the game's name, written with the matchup's folder as "game" and "folder" (""
      for a game whose manifests never held them);
    - texts: whether the card texts go into card_pool;
    - table_apart: the card table written as a top-level "card_table" rather than inside
      card_pool (manifests written so before keep their shape);
    - extra(matchup) -> further top-level entries;
    - finish(matchup) -> matchup: what the game derives after a rebuild.
    """

    matchup: type
    pool: type[CardTable]
    rules: Callable[[dict], Any]
    params: Callable[[list], np.ndarray]
    labels: Callable[[Any], dict]
    deck: Callable[[dict, CardTable], Any] = deck_back
    deck_entry: Callable[[Any, CardTable], dict] = counted_deck
    game: str = ""
    texts: bool = False
    table_apart: bool = False
    extra: Callable[[Any], dict] | None = None
    finish: Callable[[Any], Any] | None = None

    def describe(self, m) -> dict:
        """The matchup as the manifest records it: enough to rebuild it exactly."""
        pool = m.pool
        card_pool = {"path": str(pool.path), "ids": list(pool.ids), "names": list(pool.names),
                     "kinds": list(pool.kinds), "sha256": pool.sha256}
        if self.texts:
            card_pool["texts"] = list(pool.texts)
        if not self.table_apart:
            card_pool["table"] = pool.table.tolist()
        out = {
            "decks": [self.deck_entry(d, pool) for d in m.decks],
            "policies": [{"name": name, "params": np.asarray(vec).tolist()}
                         for name, vec in zip(m.policy_names, m.policies, strict=True)],
            "rules": dict(m.rules.values),
            "card_pool": card_pool,
            "histogram_labels": self.labels(m),
        }
        if self.table_apart:
            out["card_table"] = pool.table.tolist()
        if self.game:
            out |= {"game": self.game, "folder": m.folder}
        if self.extra is not None:
            out |= self.extra(m)
        return out

    def from_manifest(self, manifest: dict):
        """The exact matchup a run was made with (card values included) from describe()'s
        output."""
        pool = read_pool(self.pool, manifest)
        decks = tuple(self.deck(d, pool) for d in manifest["decks"])
        pols = manifest["policies"]
        fields = {f.name for f in dataclasses.fields(self.matchup)}
        folder = {"folder": manifest.get("folder", "")} if "folder" in fields else {}
        # Every seat's deck and policy (two, or as many as the table the run was made at).
        m = self.matchup(pool=pool, rules=self.rules(manifest["rules"]), decks=decks,
                         policy_names=tuple(p["name"] for p in pols),
                         policies=tuple(self.params(p["params"]) for p in pols), **folder)
        return self.finish(m) if self.finish is not None else m
