"""Writes notebooks/04-payne.ipynb from the cell texts below (outputs are never committed).

Run `python notebooks/build_payne.py` after editing a cell here.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
NAME = "04-payne.ipynb"

CELLS = [
    new_markdown_cell("""# 04 · The Payne Academy Card Game

Which arrow patterns win, the best split of offensive and defensive characters (with its
interval), and what the Laptop booster is worth. Every figure is a count with its 95%
interval and n; the last section puts the simulation beside the exact answers."""),
    new_code_cell('''import os
from pathlib import Path

import pandas as pd

from sim.core.stats import paired_difference, wilson
from sim.kit.folders import read_folder
from sim.kit.game import get

# Small match counts when the test suite runs the notebooks; full counts otherwise.
GAMES = int(os.environ.get("CARDLAB_NOTEBOOK_GAMES", "20000"))
FOLDER = Path("..") / "decks" / "payne"
RESULTS = Path(os.environ.get("CARDLAB_RESULTS", Path("..") / "results")) / "payne-notebook"
RESULTS.mkdir(parents=True, exist_ok=True)
GAME = get("payne")
info = read_folder(FOLDER)
m = GAME.load_matchup(FOLDER, *info.decks, info.policy, None, {}, [])


print(f"{GAMES:,} matches a run: {m.decks[0].name} vs {m.decks[1].name}, {info.policy}")'''),
    new_markdown_cell("## The sample matchup"),
    new_code_cell('''rec = GAME.run_batch(m, GAMES, seed=1)
df = rec.matches_frame()
rows = []
for label, k in (("offense wins", (df.winner == 0).sum()), ("defense wins", (df.winner == 1).sum()),
                 ("draws", (df.winner == -1).sum())):
    lo, hi = wilson(k, len(df))
    rows.append({"outcome": label, "count": k, "rate": k / len(df), "low": float(lo),
                 "high": float(hi), "n": len(df)})
headline = pd.DataFrame(rows)
headline.to_csv(RESULTS / "headline.csv", index=False)
headline.round(4)'''),
    new_markdown_cell("""## Which arrow patterns win

Battles won per battle by each character's arrow pattern, both decks together (the
defensive rows count a battle won when the attack failed)."""),
    new_code_cell('''from sim.payne import pool as T

cs = rec.card_stats.sum(axis=0)
stats = list(GAME.schema.all_card_stats)
table = m.pool.table
chars = [c for c in range(len(m.pool)) if table[c, T.C_KIND] == T.CHARACTER]
pat = pd.DataFrame({
    "role": [T.ROLES[table[c, T.C_ROLE]] for c in chars],
    "arrows": [T.arrows_text(int(table[c, T.C_ARROWS])) for c in chars],
    "lit": [bin(int(table[c, T.C_ARROWS])).count("1") for c in chars],
    "battles": [cs[c, stats.index("battles")] for c in chars],
    "won": [cs[c, stats.index("battles_won")] for c in chars],
})
pat = pat.groupby(["role", "lit", "arrows"], as_index=False)[["battles", "won"]].sum()
pat = pat[pat.battles > 0]
pat["rate"] = pat.won / pat.battles
pat["low"], pat["high"] = wilson(pat.won, pat.battles)
pat.to_csv(RESULTS / "arrow_patterns.csv", index=False)
pat.sort_values(["role", "rate"], ascending=[True, False]).round(3)'''),
    new_markdown_cell("""## The best offensive / defensive split

The offense deck's characters re-split (the deck's own first, then the pool's commons), the
same seeds for every point so that the differences are paired."""),
    new_code_cell('''sweep = GAME.sweeps["ratio"]
points = []
for value in sweep.values:
    v = sweep.make(m, 0, value)
    r = GAME.run_batch(v.matchup, GAMES, seed=2)
    k = int((r.matches[:, 0] == 0).sum())
    lo, hi = wilson(k, len(r.matches))
    points.append({"offensive": value, **v.extra, "wins": k, "n": len(r.matches),
                   "rate": k / len(r.matches), "low": float(lo), "high": float(hi)})
ratio = pd.DataFrame(points)
ratio.to_csv(RESULTS / "ratio.csv", index=False)
best = ratio.loc[ratio.rate.idxmax()]
print(f"best: {int(best.offensive)} offensive / {int(best.defensive)} defensive, win rate "
      f"{best.rate:.3f} [{best.low:.3f}, {best.high:.3f}], n = {int(best.n)}")
ratio.round(3)'''),
    new_markdown_cell("""## What the Laptop is worth

0 to 3 Laptops in the offense deck (blanks make up the rest), paired seeds; the worth of
the three copies is the difference in win rate with its interval."""),
    new_code_cell('''wins = {}
for copies in (0, 1, 2, 3):
    v = GAME.sweeps["copies"].make(m, 0, copies, {"card": "laptop"})
    wins[copies] = (GAME.run_batch(v.matchup, GAMES, seed=3).matches[:, 0] == 0).astype(float)
laptop = pd.DataFrame([{"laptops": c, "rate": w.mean(), "n": len(w)} for c, w in wins.items()])
d = paired_difference(wins[0], wins[3])
print(f"3 Laptops vs none: {d['delta']:+.4f} win rate, 95% interval "
      f"[{d['lo']:+.4f}, {d['hi']:+.4f}], n = {d['n']} paired matches")
laptop.to_csv(RESULTS / "laptop.csv", index=False)
laptop.round(4)'''),
    new_markdown_cell("""## Exact answers beside the simulation

Under `plain` (nobody plays a card) and in battle mode the spec's exact checks apply; every
|z| should stay below 4."""),
    new_code_cell('''plain = GAME.load_matchup(FOLDER, *info.decks, "plain", None, {}, [])
battle = GAME.with_rules(plain, {"battle_mode": True})
checks = [GAME.exact_check(x, GAME.run_batch(x, GAMES, seed=s).totals())
          for x, s in ((plain, 4), (battle, 5))]
exact = pd.concat(checks, keys=["plain", "battle mode"])
exact.to_csv(RESULTS / "exact.csv")
exact.round(4)'''),
    new_markdown_cell("## One match, battle by battle"),
    new_code_cell('''print("\\n".join(GAME.replay(m, 1, 0).text[:40]))'''),
]


def notebooks() -> dict[str, str]:
    nb = new_notebook(cells=CELLS, metadata={"kernelspec": {"name": "python3",
                                                            "display_name": "Python 3",
                                                            "language": "python"}})
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"payne-{i:02d}"
    return {NAME: nbformat.writes(nb)}


def main() -> None:
    for name, text in notebooks().items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
