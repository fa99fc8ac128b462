"""The shared manifest entry (sim/kit/manifests.py) on a small declared game: the entries it
writes, the matchup it rebuilds, where card texts come from; and Game.collect's reading of
a game module's names, and the defaults of a Schema."""

from __future__ import annotations

import dataclasses
import json

import numpy as np

from sim.kit import matchups
from sim.kit.cards import Cards, CardTable, Column
from sim.kit.game import Game, Schema, end_meaning
from sim.kit.manifests import Manifest, deck_counts
from sim.kit.options import Option, Options

OPTIONS = Options((Option("hand", 5, "cards in hand", lo=1, hi=9),),
                  lambda v: np.array([v["hand"]]))


class Table(CardTable):
    CARDS = Cards(columns=(Column("id"), Column("name"), Column("kind", 0, ("card", "blank")),
                           Column("power", 1), Column("text")),
                  width=2, kind_slot=0, kinds=("card", "blank"), check=lambda row: [])


@dataclasses.dataclass(frozen=True)
class Deck:
    path: str
    name: str
    counts: tuple


@dataclasses.dataclass(frozen=True)
class Matchup(matchups.Matchup):
    folder: str = ""


CSV = "id,name,kind,power,text\nx,Ex,card,3,Hits hard\nb,Blank,blank,0,\n"


def matchup(path="cards.csv") -> Matchup:
    pool = Table.from_words(path, ("x", "b"), ("Ex", "Blank"), ("Hits hard", ""),
                            [[0, 3], [1, 0]], "abc")
    return Matchup(pool, OPTIONS.rules(), (Deck("a.deck", "a", ((0, 2), (1, 1))),
                                       Deck("b.deck", "b", ((1, 3),))),
                   ("p", "q"), (np.array([1.5, 2.0]), np.array([0.0, 1.0])), folder="decks/fake")


def spec(**kw) -> Manifest:
    return Manifest(matchup=Matchup, pool=Table, rules=OPTIONS.from_manifest,
                    deck=lambda d, pool: Deck(d["path"], d["name"], deck_counts(d, pool)),
                    params=lambda v: np.array(v, dtype=np.float64),
                    labels=lambda m: {"h": ["0", "1"]}, **kw)


def test_describe_writes_the_shared_entries_and_rebuilds_the_matchup():
    m = matchup()
    d = json.loads(json.dumps(spec(game="fake", texts=True).describe(m)))
    assert d["game"] == "fake" and d["folder"] == "decks/fake"
    assert d["decks"][0] == {"name": "a", "path": "a.deck", "cards": [["x", 2], ["b", 1]]}
    assert d["policies"][0] == {"name": "p", "params": [1.5, 2.0]}
    assert d["rules"] == {"hand": 5} and d["histogram_labels"] == {"h": ["0", "1"]}
    assert d["card_pool"] == {"path": "cards.csv", "ids": ["x", "b"], "names": ["Ex", "Blank"],
                              "kinds": ["card", "blank"], "sha256": "abc",
                              "texts": ["Hits hard", ""], "table": [[0, 3], [1, 0]]}
    again = spec(game="fake", texts=True).from_manifest(d)
    assert (again.pool.path, again.pool.ids, again.pool.names, again.pool.texts,
            again.pool.sha256) == (m.pool.path, m.pool.ids, m.pool.names, m.pool.texts, "abc")
    assert again.pool.table.tolist() == [[0, 3], [1, 0]]
    assert again.decks == m.decks and again.rules == m.rules and again.folder == "decks/fake"
    assert [v.tolist() for v in again.policies] == [[1.5, 2.0], [0.0, 1.0]]


def test_a_table_kept_apart_and_no_game_name():
    d = spec(table_apart=True).describe(matchup())
    assert d["card_table"] == [[0, 3], [1, 0]]
    assert "table" not in d["card_pool"] and "game" not in d and "folder" not in d
    assert spec(table_apart=True).from_manifest(d).pool.table.tolist() == [[0, 3], [1, 0]]


def test_texts_from_the_file_only_while_it_lists_the_same_cards(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(CSV, encoding="utf-8")
    d = spec().describe(matchup(str(path)))
    assert spec().from_manifest(d).pool.texts == ("Hits hard", "")
    path.write_text(CSV.replace("x,Ex", "y,Ex"), encoding="utf-8")
    assert spec().from_manifest(d).pool.texts == ("", "")
    path.unlink()
    assert spec().from_manifest(d).pool.texts == ("", "")


def test_collect_takes_parts_by_name_tables_in_capitals_and_the_manifest():
    def run_batch(m, n, seed):
        return "batch"

    manifest = spec()
    names = {"run_batch": run_batch, "SCHEMA": Schema({}, "first", "first player"),
             "MANIFEST": manifest, "load_matchup": len, "reference_batch": len,
             "replay": len, "check_paths": len, "with_rules": len, "value_edits": len,
             "ablations": len, "SWEEPS": {"s": 1}, "title": "not this one"}
    g = Game.collect(names, name="fake", title="Fake", compile_seconds=3)
    assert g.run_batch is run_batch and g.schema is names["SCHEMA"]
    assert g.sweeps == {"s": 1} and g.title == "Fake" and g.compile_seconds == 3
    assert g.describe == manifest.describe and g.from_manifest == manifest.from_manifest
    assert g.worth is None and g.tuning is None
    # without a name, the game takes its package's: sim/fake/game.py is game "fake"
    named = Game.collect({**names, "__name__": "sim.fake.game"}, title="Fake")
    assert named.name == "fake"


def test_schema_defaults_name_the_end_column_and_label_the_first_player_in_words():
    s = Schema({"winner": "", "first_server": "", "end": ""}, "first_server")
    assert s.first_player_label == "first server" and s.end_column == "end"
    assert Schema({}, "first_server", "server").first_player_label == "server"
    # a manifest's schema reads back as it was written
    assert Schema.from_json(s.to_json()) == s
    assert end_meaning(("points", "deck-out")) == "how the match ended: 0 points, 1 deck-out"
