"""Analysis on hand-made frames with known answers, and on small real runs."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from analysis import metrics, survival
from analysis.load import Run, load_run
from sim.core import stats

from .conftest import FOLDER, cardlab


def test_wilson_known_values():
    lo, hi = stats.wilson(8, 10)
    assert (lo, hi) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))
    lo, hi = stats.wilson(0, 20)
    assert lo == pytest.approx(0, abs=1e-12) and hi == pytest.approx(0.1611, abs=1e-4)
    lo, hi = stats.wilson(np.array([5, 0]), np.array([10, 0]))
    assert lo[0] == pytest.approx(0.2366, abs=1e-4) and np.isnan(lo[1])


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_wilson_is_the_statsmodels_interval_to_the_last_bit(alpha):
    """The interval is written out so that a summary does not load scipy.stats; statsmodels'
    `proportion_confint` is the yardstick, to every bit (so no printed figure moves)."""
    from statsmodels.stats.proportion import proportion_confint

    n = np.concatenate([np.full(k + 1, k) for k in (1, 2, 7, 200)] + [np.full(60, 10**6)])
    k = np.concatenate([np.arange(k + 1) for k in (1, 2, 7, 200)]
                       + [np.arange(0, 10**6 + 1, 16_949)[:60]])
    lo, hi = stats.wilson(k, n, alpha)
    want_lo, want_hi = proportion_confint(k, n, alpha=alpha, method="wilson")
    np.testing.assert_array_equal(lo, want_lo)
    np.testing.assert_array_equal(hi, want_hi)


def test_a_summary_of_a_run_loads_no_scipy_stats(tmp_path):
    """A first `simulate` pays for every import: scipy.stats is most of a second of it
    (scipy.special a sixth), and neither a win rate's 95% interval nor an exact check
    (Payne's chain, Encounter's) needs them."""
    import subprocess
    import sys

    # The three games' runs in one process (each a summary, Payne's and Encounter's with an
    # exact check), then what that process has loaded.
    code = ("import sys; from sim.cli.app import app\n"
            "for game in ('payne', 'encounter', 'paintline'):\n"
            "    try:\n        app(['simulate', '--folder', game, '-n', '1000', '--results',"
            " sys.argv[1], '--quiet'])\n"
            "    except SystemExit as e:\n        assert not e.code\n"
            "print(*(m in sys.modules for m in ('scipy.stats', 'scipy.special', 'statsmodels')))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.count("exact check") == 2  # Payne's and Encounter's (greedy: none exact)
    assert out.split()[-3:] == ["False", "False", "False"]


def test_benjamini_hochberg_known_values():
    reject, adjusted = stats.bh([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert reject.tolist() == [True, True, True, True]
    reject, adjusted = stats.bh([0.01, 0.2, 0.03, 0.5], alpha=0.05)
    assert adjusted == pytest.approx([0.04, 0.2666667, 0.06, 0.5])
    assert reject.tolist() == [True, False, False, False]


def test_rates_means_and_paired_differences():
    df = pd.DataFrame({"g": ["x"] * 4 + ["y"] * 6, "win": [1, 1, 1, 0, 0, 0, 0, 0, 1, 1]})
    t = stats.rate_table(df, ["g"], "win").set_index("g")
    assert t.loc["x", "k"] == 3 and t.loc["x", "n"] == 4 and t.loc["y", "rate"] == pytest.approx(
        2 / 6)
    m = stats.mean_table(pd.DataFrame({"g": [0, 0, 0], "v": [1.0, 2.0, 3.0]}), ["g"], "v")
    assert m["mean"].iat[0] == 2 and m.hi.iat[0] == pytest.approx(2 + 1.959964 / np.sqrt(3))
    base = np.array([0, 1, 0, 1, 1, 0, 0, 1])
    var = np.array([1, 1, 0, 1, 1, 1, 0, 1])
    d = stats.paired_difference(base, var)
    assert d["delta"] == pytest.approx(0.25) and d["n"] == 8
    assert d["se"] == pytest.approx(np.std(var - base, ddof=1) / np.sqrt(8))
    assert d["variance_reduction"] > 1
    assert stats.two_proportion_p(50, 100, 50, 100) == pytest.approx(1.0)
    assert stats.two_proportion_p(70, 100, 50, 100) == pytest.approx(0.0039, abs=2e-4)


def hand_run(tmp_path):
    """A tiny run written by hand: four matches, rally counts and card counts."""
    from sim.paintline.schema import SCHEMA

    manifest = {
        "run_id": "hand", "seed": 1, "game": "paintline", "schema": SCHEMA.to_json(),
        "decks": [{"name": "A"}, {"name": "B"}],
        "policies": [{"name": "p"}, {"name": "q"}], "rules": {"escalation": [6, 8, 10]},
        "histogram_labels": {"top_step": [6, 8, 10]},
        "card_pool": {"ids": ["shot", "stamina"], "names": ["Shot", "Stamina"],
                      "kinds": ["basic_shot", "stamina"]},
    }
    matches = pd.DataFrame({
        "match_index": range(4), "winner": [0, 0, 1, 0], "first_server": [0, 1, 0, 1],
        "end": [0, 0, 1, 0], "points": [11, 13, 15, 20], "turns": [30, 40, 50, 60],
        "mulligans_a": [0, 1, 0, 0], "mulligans_b": [0, 0, 0, 0],
        "cut_len": [-1, -1, 1, -1], "cut_server": [-1, -1, 0, -1]})
    hists = pd.DataFrame({
        "match_index": 0, "seat": [0, 0, 0, 0, 0, 0],
        "measure": ["top_step"] * 3 + ["length"] * 3, "value": [0, 1, 2, 0, 1, 2],
        "count": [2, 3, 5, 2, 1, 0]})
    cards = pd.DataFrame({
        "seat": [0, 0], "card": ["shot", "stamina"], "matches_in_deck": [1000, 1000],
        "matches_drawn": [800, 1000], "wins_drawn": [480, 500], "wins_not_drawn": [80, 0],
        "played": [1600, 0], "hit": [1200, 0], "landed": [900, 0], "dead_turns": [50, 0]})
    return Run(tmp_path, manifest, matches, hists, cards, None)


def test_histogram_survival_and_hazard_by_hand(tmp_path):
    df = survival.histogram_survival(hand_run(tmp_path), "top_step")
    s0 = df[df.seat == 0].set_index("bin")
    assert s0.n.tolist() == [10, 10, 10]
    assert s0.rate.tolist() == pytest.approx([1.0, 0.8, 0.5])
    assert s0.hazard.tolist() == pytest.approx([0.2, 3 / 8, 1.0])
    assert s0["label"].tolist() == [6, 8, 10]


def test_kaplan_meier_with_a_censored_rally(tmp_path):
    km = survival.measure_km(hand_run(tmp_path), "length")
    s = km[km.seat == 0].set_index("bin")
    # Two rallies end at 0, one at 1, one is cut short (censored) at 1: all four reach 0,
    # half reach 1 (1 - 2/4), and half of the two at risk at 1 end there (0.5 * (1 - 1/2)).
    assert s.at_risk.loc[:2].tolist() == [4, 2, 0]
    assert s.rate.loc[:2].tolist() == pytest.approx([1.0, 0.5, 0.25])


def test_headline_and_card_metrics_by_hand(tmp_path):
    run = hand_run(tmp_path)
    h = metrics.headline(run).set_index("quantity")
    assert h.loc["A (p) wins", "k"] == 3 and h.loc["first server wins", "k"] == 1
    assert h.loc["ended by deck-out forfeit", "rate"] == pytest.approx(0.25)
    assert h.loc["A (p) wins when serving first", "n"] == 2
    assert "draws" not in h.index  # no match was drawn
    c = metrics.card_metrics(run).set_index("card")
    assert c.loc["shot", "name"] == "Shot" and c.loc["shot", "kind"] == "basic_shot"
    assert c.loc["shot", "gih_wr"] == pytest.approx(0.6)
    assert c.loc["shot", "gns_wr"] == pytest.approx(0.4)
    assert c.loc["shot", "iwd"] == pytest.approx(0.2)
    assert c.loc["shot", "success_rate"] == pytest.approx(0.75)
    assert c.loc["shot", "played_per_match"] == pytest.approx(1.6)
    assert "verdict" not in c  # correlational columns are never verdicts


def test_draws_are_counted_apart(tmp_path):
    run = hand_run(tmp_path)
    run.matches["winner"] = [0, -1, 1, -1]
    h = metrics.headline(run).set_index("quantity")
    assert h.loc["A (p) wins", "k"] == 1 and h.loc["B (q) wins", "k"] == 1
    assert h.loc["draws", "k"] == 2 and h.loc["draws", "n"] == 4


def payne_run(tmp_path):
    """Five Payne Academy matches by hand, two of them over at set-up before any round, so
    with no first attacker (-1): one drawn (both hands short of a role), one won by B."""
    from sim.payne.schema import SCHEMA

    manifest = {
        "run_id": "setup", "seed": 1, "game": "payne", "schema": SCHEMA.to_json(),
        "decks": [{"name": "A"}, {"name": "B"}],
        "policies": [{"name": "p"}, {"name": "p"}], "rules": {},
        "card_pool": {"ids": [], "names": [], "kinds": []},
    }
    matches = pd.DataFrame({c: np.zeros(5, dtype=np.int64) for c in SCHEMA.match_columns})
    matches["winner"] = [0, 1, -1, 1, 1]
    matches["first_attacker"] = [0, 0, -1, -1, 1]
    matches["end"] = [0, 0, 3, 3, 0]
    matches.insert(0, "match_index", range(5))
    empty = pd.DataFrame(columns=["match_index", "seat", "measure", "value", "count"])
    return Run(tmp_path, manifest, matches, empty, pd.DataFrame(), None)


def test_a_match_over_before_anyone_went_first_is_no_first_players_win(tmp_path):
    # The first attacker won matches 0 and 4 and lost match 1: 2 of the 3 matches that had
    # one. The draw at set-up (winner -1, first attacker -1) is no first attacker's win, and
    # neither set-up match is a trial of who goes first.
    run = payne_run(tmp_path)
    h = metrics.headline(run).set_index("quantity")
    assert (h.loc["first attacker wins", "k"], h.loc["first attacker wins", "n"]) == (2, 3)
    edge = metrics.first_player_edge(run, h.reset_index())
    assert (edge.n.iat[0], edge.edge.iat[0]) == (3, pytest.approx(2 / 3 - 1 / 2))
    # By who went first: A in matches 0 and 1 (A won one), B in match 4 (A won none).
    seats = metrics.seat_matrix(run).set_index("first")
    assert seats.k.to_dict() == {"A is first attacker": 1, "B is first attacker": 0}
    assert seats.n.to_dict() == {"A is first attacker": 2, "B is first attacker": 1}
    pos = metrics.position_edge(run).set_index("position")
    assert pos.k.tolist() == [2, 1] and pos.n.tolist() == [3, 3]
    # What-ifs and diffs read the same quantity: its mean over the matches with a first
    # attacker, as a ratio of per-match counts.
    from analysis.quantities import linearised, per_match

    k, n = per_match(run.schema, run.matches, ("A", "B"))["first attacker wins"]
    assert linearised(k, n).mean() == pytest.approx(2 / 3)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    out = cardlab("simulate", "-n", "3000", "--chunk-size", "1000", "--results", str(root),
                  "--run-id", "small", "-q")
    assert out.returncode == 0, out.stderr
    return root / "small"


def test_the_verdict_figure_keeps_its_labels_inside_the_picture():
    # Looked at as a person sees it: in the PNG, no card name and no axis title runs off
    # an edge, so the outermost rows and columns of pixels are blank.
    import io

    import matplotlib.image as mpimg

    from analysis import plots

    v = pd.DataFrame({"label": ["Star-Spangled Smash With A Long Name", "Push"],
                      "deck": ["us-red-tide", "ussr-red-tide"], "relative": [-0.02, 0.004],
                      "relative_lo": [-0.03, 0.001], "relative_hi": [-0.01, 0.007],
                      "margin": [0.01, 0.002], "verdict": ["under-powered", "over-powered"]})
    img = mpimg.imread(io.BytesIO(plots.to_png(plots.plot_verdicts(v))))
    ink = img[..., :3].min(axis=2) < 0.9
    assert ink.any()
    edge = 5  # pixels: the picture's own margin
    assert not ink[:, :edge].any() and not ink[:, -edge:].any()
    assert not ink[:edge, :].any() and not ink[-edge:, :].any()


def test_the_headline_figure_draws_the_fair_share_of_its_table():
    import matplotlib.pyplot as plt

    from analysis import plots

    head = pd.DataFrame({"quantity": ["seat A wins", "seat B wins"], "n": [10, 10],
                         "rate": [0.3, 0.2], "lo": [0.1, 0.05], "hi": [0.6, 0.5]})
    for seats in (2, 3, 4):
        ax = plots.plot_headline(head, fair=1 / seats)
        dotted = [ln for ln in ax.lines if ln.get_linestyle() == ":"]
        assert [ln.get_xdata()[0] for ln in dotted] == [pytest.approx(1 / seats)]
        plt.close(ax.figure)


def test_the_hazard_figure_draws_no_bar_where_nothing_stopped():
    import matplotlib.pyplot as plt

    from analysis import plots

    # Bin 2 saw no stops among the 4 at risk: its Wilson upper bound (0.49) is no hazard,
    # and draws no bar nor sets the axis; bins 1 and 3 saw stops and keep theirs.
    df = pd.DataFrame({"seat": 0, "bin": [1, 2, 3], "label": ["1", "2", "3"],
                       "at_risk": [50, 4, 40], "hazard": [0.2, 0.0, 0.1],
                       "hazard_lo": [0.1, 0.0, 0.04], "hazard_hi": [0.33, 0.49, 0.23]})
    ax = plots.plot_hazard(df, labels=("A",))
    bars = ax.containers[0].lines[2][0].get_segments()
    heights = [round(float(seg[1][1] - seg[0][1]), 3) for seg in bars]
    assert heights == [0.23, 0.0, 0.19]
    assert ax.get_ylim()[1] == pytest.approx(1.1 * 0.33)
    plt.close(ax.figure)


def test_a_count_per_match_is_drawn_on_whole_numbers():
    """A per-match count (AutoWin battles: 0, 1 or 2) has its ticks on whole numbers, not
    at -0.5, 0.5, 1.5 as a continuous axis would put them."""
    import matplotlib.pyplot as plt

    from analysis import plots

    ax = plots.plot_lengths(pd.DataFrame({"autowins": [0, 0, 1, 2, 1, 0]}), "autowins",
                            "AutoWin battles per match")
    ax.figure.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    plt.close(ax.figure)


def test_report_from_a_real_run(small_run):
    out = cardlab("report", str(small_run), "--verdict-start", "200", "--verdict-max", "400",
                  "--field-matches", "200")
    assert out.returncode == 0, out.stderr
    html = (small_run / "report.html").read_text()
    md = (small_run / "report.md").read_text()
    for section in ("Headline", "Match length", "Survival: shots landed in a rally",
                    "Survival: highest escalation index a rally reached", "Matchup",
                    "Cards (descriptive)",
                    "Card verdicts (causal)", "Exact check"):
        assert f"<h2>{section}</h2>" in html and f"## {section}" in md
    assert html.count("data:image/png;base64,") >= 6
    assert "Order of Lenin" in html and "95%" in html
    assert (small_run / "verdicts.parquet").exists() and "paired matches" in html
    # The legend gives every way a card comes out untested here (analysis.verdicts.classify:
    # never dealt, no record changed, or too little to clear a margin), not only one.
    legend = html[html.index("untested here:"):]
    assert "never dealt" in legend[:400] and "too little" in legend[:400]


def test_a_mirror_names_each_seat(tmp_path):
    """A deck against itself: every row, column and line that is a seat's names the seat,
    in the summary `simulate` prints, the report and the quantities a what-if compares."""
    from analysis.quantities import per_match

    out = cardlab("simulate", "us-red-tide", "us-red-tide", "-n", "300", "--results",
                  str(tmp_path), "--run-id", "mirror", "-q")
    assert out.returncode == 0, out.stderr
    shown = {line.split("│")[1].strip(): line for line in out.stdout.splitlines()
             if line.startswith("│")}
    for quantity in ("us-red-tide (seat A) wins", "us-red-tide (seat B) wins",
                     "us-red-tide (seat A) wins when serving first",
                     "us-red-tide (seat A) took a mulligan",
                     "us-red-tide (seat B) took a mulligan"):
        assert quantity in shown, out.stdout
    assert "us-red-tide wins" not in shown
    rep = cardlab("report", "mirror", "--results", str(tmp_path), "--no-verdicts")
    assert rep.returncode == 0, rep.stderr
    md = (tmp_path / "mirror" / "report.md").read_text(encoding="utf-8")
    for name in ("us-red-tide (greedy, seat A) wins", "us-red-tide (greedy, seat B) wins",
                 "us-red-tide (seat A): at risk", "us-red-tide (seat B): at risk"):
        assert name in md
    run = load_run(tmp_path / "mirror")
    rates = per_match(run.schema, run.matches, run.deck_names)
    a, b = rates["us-red-tide (seat A) wins"][0], rates["us-red-tide (seat B) wins"][0]
    assert a.sum() + b.sum() == 300 - (run.matches.winner == -1).sum()


def test_rally_mode_report_shows_the_exact_overlay(tmp_path):
    out = cardlab("simulate", "-n", "2000", "--results", str(tmp_path), "--run-id", "r", "-q",
                  "--rules", "rally_mode=true", "--rules", 'arsenal_a=["Drive Shot", "Topspin"]',
                  "--rules", 'arsenal_b=["Order of Lenin"]')
    assert out.returncode == 0, out.stderr
    assert "exact check" in out.stdout
    run = load_run(tmp_path / "r")
    assert run.exact_check is not None and not run.exact_check.flag.any()
    surv = survival.histogram_survival(run, "top_step")
    assert surv.exact.notna().all()
    assert (abs(surv.rate - surv.exact) < 0.05).all()
    assert cardlab("report", str(tmp_path / "r"), "--no-verdicts").returncode == 0


def test_sweep_keeps_decks_legal_and_reports_availability(tmp_path):
    from scipy.stats import hypergeom

    from sim.experiments.designs import sweep
    from sim.paintline.batch import load_matchup
    from sim.paintline.edits import stamina_deck
    from sim.paintline.game import GAME

    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
    for s in (10, 16, 30):
        d = stamina_deck(m.decks[0], m.pool, s)
        counts = dict(d.counts)
        assert sum(counts.values()) == 60 and counts[m.pool.lookup("Stamina")] == s
        assert max(n for c, n in counts.items() if c != m.pool.lookup("Stamina")) <= 4
    df = sweep(GAME, m, 0, "stamina", [12, 20], 300, 5, results=tmp_path, run_id="sw")
    assert df.n.tolist() == [300, 300] and df.rate.between(0, 1).all()
    assert df.p_stamina_by_turn_3.iat[0] == pytest.approx(1 - hypergeom(59, 12, 10).pmf(0))
    assert df.optimum_set.any()
    assert (tmp_path / "sw" / "sweep.parquet").exists()
    copies = sweep(GAME, m, 0, "copies", [0, 4], 300, 5, results=tmp_path, run_id="cp",
                   options={"card": "Liberty Lob"})
    assert len(copies) == 2


def test_a_sweep_tells_a_point_from_the_optimum_by_its_paired_difference(tmp_path):
    """Every point plays the same seeds. A point that wins 52 of 100 where the best wins 60,
    losing 8 of the best's wins and gaining none, has a Wilson interval (0.423 .. 0.615)
    that overlaps the best's (0.502 .. 0.691), yet its paired difference is -0.08 with a
    standard error of sqrt((8 * 0.92**2 + 92 * 0.08**2) / 99 / 100) = 0.0273: its 95%
    interval, -0.133 .. -0.027, lies below 0, so it is told apart from the optimum."""
    from types import SimpleNamespace

    from sim.experiments.designs import sweep
    from sim.kit.variants import Sweep, Variant

    best = np.array([1] * 60 + [0] * 40)
    wins = {0: best, 1: np.where(np.arange(100) < 8, 0, best), 2: best}

    def run_batch(value, n, seed):
        return SimpleNamespace(wins=lambda seat: wins[value],
                               matches=np.zeros((n, 1), dtype=np.int64))

    game = SimpleNamespace(
        sweeps={"x": Sweep("a hand-made sweep", (0, 1, 2),
                           lambda m, seat, value, options: Variant(f"x={value}", seat, value))},
        validate=None, run_batch=run_batch,
        describe=lambda m: {"decks": [{"name": "A"}, {"name": "B"}], "rules": {},
                            "policies": [{"name": "p"}, {"name": "p"}],
                            "card_pool": {"sha256": ""}},
        name="hand")
    df = sweep(game, None, 0, "x", [0, 1, 2], 100, 1, results=tmp_path, run_id="sw")
    assert df.rate.tolist() == [0.6, 0.52, 0.6]
    assert df.optimum_set.tolist() == [True, False, True]
    assert df.vs_best.tolist() == pytest.approx([0, -0.08, 0])
    assert (df.vs_best_lo.iat[1], df.vs_best_hi.iat[1]) == (
        pytest.approx(-0.08 - 1.959964 * 0.027266, abs=1e-5),
        pytest.approx(-0.08 + 1.959964 * 0.027266, abs=1e-5))


def test_whatif_histogram_rows_name_their_values_and_what_they_count(tmp_path):
    """Paint the Line's top_step counts the rung of the ladder a rally reached; with the
    default ladder 6, 8, ..., 20 the second rung is escalation index 8, so P(index >= 8) is
    the row of rung 1. A rally length is cut short by a forfeit (censored): its quantiles
    are of the rallies that ended, and say so (the guide's "must be labelled as such")."""
    from sim.experiments.designs import whatif
    from sim.paintline.batch import load_matchup
    from sim.paintline.game import GAME

    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
    items = list(whatif(GAME, m, {"hand_limit": 6}, 60, 2, results=tmp_path, run_id="w").item)
    assert [i for i in items if i.startswith("P(top_step")] == [
        f"P(top_step >= {x})" for x in (8, 10, 12, 14, 16, 18, 20)]
    assert "length q50 (among counts that ended)" in items
    # Arms on different ladders: a rung is not one index in both, so rungs are named.
    other = whatif(GAME, m, {"escalation": [6, 9, 12, 15, 18, 20]}, 60, 2, results=tmp_path,
                   run_id="w2")
    assert "P(top_step >= 1)" in list(other.item)


def test_ablation_sensitivity_whatif_and_diff(tmp_path, small_run):
    from sim.experiments.comparisons import diff_runs
    from sim.experiments.designs import ablation, sensitivity, whatif
    from sim.paintline.batch import load_matchup
    from sim.paintline.game import GAME

    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
    s = sensitivity(GAME, m, 400, 2, results=tmp_path, run_id="s", cards=["Order of Lenin"])
    assert len(s) == 4 and s.worth_d20.between(1, 10).all()
    assert (s.variance_reduction > 1).all()  # common random numbers pay off
    a = ablation(GAME, m, 100, 2, results=tmp_path, run_id="a")
    assert set(a.deck) == {"us-red-tide", "ussr-red-tide"} and a.p_adjusted.between(0, 1).all()
    w = whatif(GAME, m, {"points_to_win": 7}, 400, 2, results=tmp_path,
               run_id="w").set_index("item")
    assert w.loc["points per match", "delta"] < 0
    assert w.loc["points per match", "hi"] < 0
    d = diff_runs(small_run, small_run)
    assert (d.delta == 0).all() and not d.moved.any() and d.paired.all()
    manifest = json.loads((tmp_path / "w" / "manifest.json").read_text())
    assert manifest["changes"] == {"points_to_win": 7}


def test_sensitivity_names_an_unknown_card_and_writes_nothing(tmp_path):
    """A --card the pool does not hold is the pool's own error (with the nearest names),
    exit 2, before any match is played or any folder made."""
    for folder, word, near in (("payne", "nosuchcard", ""), ("highcard", "Nien", "'Nine'")):
        bad = cardlab("sensitivity", "--folder", folder, "-n", "50", "--card", word,
                      "--results", str(tmp_path))
        assert bad.returncode == 2 and "Traceback" not in bad.stderr, bad.stderr
        assert f"unknown card {word!r}" in bad.stderr and near in bad.stderr, bad.stderr
    assert not tmp_path.exists() or not list(tmp_path.iterdir())


def test_sensitivity_with_every_variant_refused_says_nothing_was_measured(tmp_path):
    """The template's decks hold number cards adding up to its value_cap (100), so every
    +1 breaks the cap; Nine (9, the highest value) has no +1 at all; Five is in both
    default decks (steady and peaks). Nothing measured: exit 2, every variant named with its
    reason, nothing written."""
    bad = cardlab("sensitivity", "--folder", "highcard", "-n", "50", "--results",
                  str(tmp_path))
    said = " ".join(bad.stderr.split())
    assert bad.returncode == 2 and "Traceback" not in said, said
    assert "nothing measured: every variant was skipped" in said
    assert "Nine value +1" in said and "1 .. 9, got 10" in said
    assert "Five value +1 (6) in steady" in said and "Five value +1 (6) in peaks" in said
    assert "value_cap" in said
    assert not tmp_path.exists() or not list(tmp_path.iterdir())


def test_sensitivity_tells_a_card_in_both_decks_apart_and_lists_one_at_its_highest(tmp_path):
    """With room under the value cap every +1 but Nine's is played; Five's two rows say
    their deck, and Nine is listed as skipped with the card table's reason."""
    out = cardlab("sensitivity", "--folder", "highcard", "--rules", "value_cap=120", "-n",
                  "50", "--results", str(tmp_path), "--run-id", "s")
    assert out.returncode == 0, out.stderr
    table = pd.read_parquet(tmp_path / "s" / "sensitivity.parquet").set_index("item")
    assert {"Five value +1 (6) in steady", "Five value +1 (6) in peaks"} <= set(table.index)
    assert table.loc["Five value +1 (6) in peaks", "deck"] == "peaks"
    assert "Nine" not in table.name.tolist()
    skipped = pd.read_parquet(tmp_path / "s" / "skipped.parquet")
    assert skipped.item.tolist() == ["Nine value +1 (10)"]
    assert "1 .. 9, got 10" in skipped.reason.iat[0]
    assert "Nine value +1 (10)" in out.stdout


def test_sensitivity_of_a_card_both_decks_hold_changes_the_named_decks_copies_alone(tmp_path):
    """"Change in its deck's win rate per +1": in a mirror of Steady (four Fives a deck),
    the deck whose Fives become Sixes beats the other's Fives and ties its Sixes where it
    tied and lost before, so each seat's row gains, and significantly at 3,000 matches. Were
    the +1 given to both decks' Fives, the mirror would stay even: the two rows would
    be one change seen from either side, one the other's loss."""
    out = cardlab("sensitivity", "steady", "steady", "--folder", "highcard", "--rules",
                  "value_cap=120", "--card", "Five", "-n", "3000", "--results",
                  str(tmp_path), "--run-id", "s")
    assert out.returncode == 0, out.stderr
    table = pd.read_parquet(tmp_path / "s" / "sensitivity.parquet").set_index("item")
    rows = table.loc[["Five value +1 (6) in seat A", "Five value +1 (6) in seat B"]]
    assert (rows.lo > 0).all(), rows[["delta", "lo", "hi"]]


def test_round_robin_matrix(tmp_path):
    out = cardlab("matchup", "us-red-tide", "ussr-red-tide", "--policies", "greedy,random",
                  "-n", "200", "--results", str(tmp_path), "--run-id", "rr", "-q")
    assert out.returncode == 0, out.stderr
    mat = metrics.matchup_matrix(tmp_path / "rr")
    assert len(mat) == 12  # 4 entrants, 6 pairings, both directions
    pair = mat.groupby(["entrant", "opponent"]).rate.sum()
    for (e, o), r in pair.items():
        assert r + pair[(o, e)] == pytest.approx(1.0)
    # Printed as the help says, a matrix: a row per entrant, a column per opponent, each
    # cell a win rate with its interval, the diagonal empty.
    lines = out.stdout.splitlines()
    header = next(line for line in lines if "opponent" in line)
    for entrant in ("us-red-tide / greedy", "us-red-tide / random", "ussr-red-tide / greedy",
                    "ussr-red-tide / random"):
        assert entrant in header
        row = next(line for line in lines if line.strip("│ ").startswith(entrant))
        assert len(re.findall(r"\d\.\d{3} \(\d\.\d{3}\.\.\d\.\d{3}\)", row)) == 3


def test_analysis_never_imports_compiled_code():
    import subprocess
    import sys

    code = ("import sys, analysis.report, analysis.metrics, analysis.survival, analysis.plots,"
            " analysis.load, sim.core.stats; print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_mix_sweep_and_robust_flags(tmp_path):
    from sim.experiments.comparisons import robust_flags
    from sim.experiments.designs import sweep
    from sim.experiments.verdicts import Precision
    from sim.paintline.batch import load_matchup
    from sim.paintline.edits import mix_deck
    from sim.paintline.game import GAME
    from sim.paintline.pool import C_KIND, C_TYPE, DRIVE, LOB

    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
    t = m.pool.table

    def typed(deck, kind_type):
        return sum(n for c, n in deck.counts if t[c, C_KIND] == 2 and t[c, C_TYPE] == kind_type)

    d = mix_deck(m.decks[0], m.pool, 3, "drive", "lob")
    assert sum(n for _, n in d.counts) == 60
    assert typed(d, DRIVE) == typed(m.decks[0], DRIVE) - 3
    assert typed(d, LOB) == typed(m.decks[0], LOB) + 3
    df = sweep(GAME, m, 0, "mix", [0, 2], 200, 1, results=tmp_path, run_id="mix")
    assert df.value.tolist() == [0, 2]
    precision = Precision(start=200, max_matches=400, screen=400)
    flags = robust_flags(GAME, FOLDER, "us-red-tide", "ussr-red-tide", ["greedy", "pressure",
                         "lookahead"], 1, precision, "pressure", results=tmp_path,
                         run_id="fl")
    assert {"greedy", "pressure", "lookahead", "verdict"} <= set(flags.columns)
    assert (flags.anchor == "pressure").all()
    held = flags[flags.verdict.isin(["over-powered", "under-powered"])]
    for _, row in held.iterrows():  # held under the anchor and both others
        assert row.pressure == row.verdict
        assert (row.greedy == row.verdict) and (row.lookahead == row.verdict)
    assert (tmp_path / "fl" / "flags.parquet").exists()
