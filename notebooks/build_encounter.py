"""Writes notebooks/05-encounter.ipynb from the cell texts below (outputs never committed)."""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

CELLS = [
    new_markdown_cell("""# 05 · Encounter RPCCG

Which PC race wins, how many quests a 40-card deck wants, and what the cost pool's size does,
each with 95% intervals, on the compiled kernel through the game contract."""),
    new_code_cell('''import os
from dataclasses import replace
from pathlib import Path

import pandas as pd

from sim.core.stats import wilson
from sim.encounter import codes as K
from sim.kit.game import get

GAMES = int(os.environ.get("CARDLAB_NOTEBOOK_GAMES", "4000"))
FOLDER = Path("..") / "decks" / "encounter"
RESULTS = Path(os.environ.get("CARDLAB_RESULTS", Path("..") / "results"))
RESULTS.mkdir(parents=True, exist_ok=True)
GAME = get("encounter")
m = GAME.load_matchup(FOLDER, "orc-warband", "grey-expedition", "careful", None, {}, [])


def rates(rec, seat=1):
    """Win rate of a seat, draw rate, and a 95% Wilson interval, with n."""
    w = rec.matches[:, 0]
    n = len(w)
    k = int((w == seat).sum())
    lo, hi = wilson(k, n)
    return {"win": k / n, "lo": float(lo), "hi": float(hi), "draw": float((w == -1).mean()),
            "n": n}

print(f"{GAMES:,} matches per point")'''),
    new_markdown_cell("""## The sample matchup and the exact checks"""),
    new_code_cell('''rec = GAME.run_batch(m, GAMES, 1)
df = rec.matches_frame()
print(rates(rec))
print(df.end.map(dict(enumerate(K.END_REASONS))).value_counts(normalize=True))
GAME.exact_check(m, rec.totals())'''),
    new_markdown_cell("""## Which PC race wins

The Grey Expedition's PC is swapped for each race (its race-only cards become Blank) and
played against the Orc Warband."""),
    new_code_cell('''rows = []
table = m.pool.table


def fix(c, pc):
    """The card, or a Blank when it needs a race the PC lacks."""
    return c if table[c, K.C_REQUIRES] in (0, table[pc, K.C_RACE]) else m.pool.blank


for race in K.RACES[1:]:
    pc = next(i for i in range(len(m.pool)) if table[i, K.C_KIND] == K.PC
              and K.RACES[table[i, K.C_RACE]] == race)
    deck = m.decks[1]
    deck = replace(deck, pc=pc, draw=tuple(fix(c, pc) for c in deck.draw),
                   chars=tuple(fix(c, pc) if table[fix(c, pc), K.C_KIND] == K.CHARACTERISTIC
                               else deck.chars[0] for c in deck.chars))
    r = GAME.run_batch(replace(m, decks=(m.decks[0], deck)), GAMES, 2)
    rows.append({"race": race, **rates(r)})
races = pd.DataFrame(rows)
races.to_csv(RESULTS / "encounter-races.csv", index=False)
races.round(4)'''),
    new_markdown_cell("""## How many quests a 40-card deck wants

The Grey Expedition's quest count swept (extra quests copy its own; fewer: Blank)."""),
    new_code_cell('''sweep = GAME.sweeps["quests"]
rows = [{"quests": v, **rates(GAME.run_batch(sweep.make(m, 1, v).matchup, GAMES, 3))}
        for v in sweep.values]
quests = pd.DataFrame(rows)
quests.to_csv(RESULTS / "encounter-quests.csv", index=False)
best = quests.loc[quests.win.idxmax()]
print(f"best: {int(best.quests)} quests, win {best.win:.3f} [{best.lo:.3f}, {best.hi:.3f}]")
quests.round(4)'''),
    new_markdown_cell("""## What the pool size does

`pool_per_turn`, the cost pool refilled each turn, from 1 to 5."""),
    new_code_cell('''rows = []
for v in (1, 2, 3, 4, 5):
    r = GAME.run_batch(GAME.with_rules(m, {"pool_per_turn": v}), GAMES, 4)
    rows.append({"pool_per_turn": v, **rates(r),
                 "turns": float(r.column("turns").mean())})
pool = pd.DataFrame(rows)
pool.to_csv(RESULTS / "encounter-pool.csv", index=False)
pool'''),
]


def notebooks() -> dict[str, str]:
    nb = new_notebook(cells=CELLS, metadata={"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}})
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"encounter-{i:02d}"  # stable ids: rebuilding changes nothing
    return {"05-encounter.ipynb": nbformat.writes(nb)}


if __name__ == "__main__":
    for name, text in notebooks().items():
        (HERE / name).write_text(text, encoding="utf-8")
