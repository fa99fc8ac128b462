"""Survival figures and tables on a hand-made run with known censoring: Kaplan-Meier values
worked out from the definition, the report's figure of a censored measure, readable ticks,
and a table that runs to the last value anyone reached."""

import numpy as np
import pandas as pd
import pytest

from analysis import plots, report, survival
from analysis.load import Run
from sim.core.stats import Z95
from sim.kit.game import Histogram, Schema

# Ten matches. Deck A's PC is killed in turns 2, 2, 3 and 5; in the other six matches it
# lives to the end, turns 3, 4, 4, 6, 6 and 6 (censored there). Deck B's PC never dies, so
# it is censored at every match's last turn, one of them turn 63.
DEATH_A = [2, 2, 3, 5, -1, -1, -1, -1, -1, -1]
TURNS = [10, 63, 20, 30, 3, 4, 4, 6, 6, 6]
# P(killed in turn >= k) = product over j < k of (1 - killed at j / at risk at j):
# j = 2: 1 - 2/10, j = 3: 1 - 1/8, j = 5: 1 - 1/4 (at risk: 10, 10, 10, 8, 6, 4, 3).
HAND = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.8, 4: 0.7, 5: 0.7, 6: 0.525, 7: 0.525}
AT_RISK = [10, 10, 10, 8, 6, 4, 3, 0]


def death_run(tmp_path) -> Run:
    schema = Schema(
        match_columns={"winner": "", "first_player": "", "turns": "", "death_a": "",
                       "death_b": ""},
        first_player="first_player", first_player_label="first player",
        histograms={"death": Histogram(
            "PC killed in turn", "the PC's owner", 64, "game turn",
            censored=("turns * (death_a < 0) - (death_a >= 0)",
                      "turns * (death_b < 0) - (death_b >= 0)"),
            subject="PCs alive at this turn")})
    manifest = {"run_id": "hand", "seed": 1, "game": "hand", "schema": schema.to_json(),
                "decks": [{"name": "A"}, {"name": "B"}],
                "policies": [{"name": "p"}, {"name": "p"}], "rules": {},
                "histogram_labels": {"death": [str(t) for t in range(64)]}}
    matches = pd.DataFrame({"match_index": range(10), "winner": 0, "first_player": 0,
                            "turns": TURNS, "death_a": DEATH_A, "death_b": -1})
    hists = pd.DataFrame({"match_index": [0, 1, 2, 3], "seat": 0, "measure": "death",
                          "value": [2, 2, 3, 5], "count": 1})
    return Run(tmp_path, manifest, matches, hists, pd.DataFrame(), None)


def test_kaplan_meier_by_hand(tmp_path):
    km = survival.measure_km(death_run(tmp_path), "death")
    a = km[km.seat == 0].set_index("bin")
    assert a.rate.loc[:7].tolist() == pytest.approx(list(HAND.values()))
    assert a.at_risk.loc[:7].tolist() == AT_RISK
    assert a.censored.sum() == 6 and a.ended.sum() == 4
    # Greenwood: S(k) * sqrt(sum of killed / (at risk * (at risk - killed))) over j < k.
    se = 0.525 * np.sqrt(2 / (10 * 8) + 1 / (8 * 7) + 1 / (4 * 3))
    assert a.lo.loc[6] == pytest.approx(0.525 - Z95 * se)
    assert a.hi.loc[6] == pytest.approx(0.525 + Z95 * se)
    # Past turn 7 nobody of deck A was watched: the share there is unknown, not 0.525.
    assert a.rate.loc[8:].isna().all()
    # The hazard is killed / at risk: 1 of 4 at turn 5.
    assert a.hazard.loc[5] == pytest.approx(0.25)
    # Deck B's PC never died: 1 at every turn anyone is watched, with a band below 1 that
    # narrows as more are watched (none killed among those at risk a turn earlier).
    b = km[km.seat == 1].set_index("bin")
    assert (b.rate.loc[:63] == 1).all() and b.at_risk.loc[63] == 1
    assert b.lo.loc[0] == 1 and b.lo.loc[1] < 1 and b.lo.loc[1] > b.lo.loc[40]


def test_the_conditional_curve_is_not_the_survival_one(tmp_path):
    cond = survival.histogram_survival(death_run(tmp_path), "death")
    a = cond[cond.seat == 0].set_index("bin")
    # Among the four killed PCs none reached turn 6; half of all PCs did (0.525).
    assert a.rate.loc[6] == 0 and a.n.loc[6] == 4
    assert survival.survival_curve(death_run(tmp_path), "death").rate.iat[6] == 0.525


def test_without_censoring_kaplan_meier_is_the_plain_share(tmp_path):
    run = death_run(tmp_path)
    run.matches["turns"] = -1  # nothing cut short: Kaplan-Meier is the plain share
    run.manifest["schema"]["histograms"]["death"]["censored"] = ["turns", "turns"]
    km = survival.measure_km(run, "death")
    plain = survival.histogram_survival(run, "death")
    a, p = km[km.seat == 0], plain[plain.seat == 0]
    assert a.rate.to_numpy() == pytest.approx(p.rate.to_numpy())
    assert a.rate.iat[3] == pytest.approx(2 / 4)  # two of four PCs killed before turn 3


def test_weighted_greenwood_equals_one_row_per_count():
    from statsmodels.duration.survfunc import SurvfuncRight

    ended, cut = np.array([0, 0, 2, 1, 0, 1, 0]), np.array([0, 0, 0, 1, 2, 0, 3])
    times, surv, se = survival._greenwood_fit(ended, cut)
    values = np.arange(7.0)
    one = SurvfuncRight(np.concatenate([np.repeat(values, ended), np.repeat(values, cut)]),
                        np.concatenate([np.ones(ended.sum()), np.zeros(cut.sum())]))
    assert times.tolist() == one.surv_times.tolist() == [2, 3, 5]
    assert surv == pytest.approx(one.surv_prob)
    assert se == pytest.approx(one.surv_prob_se)


class Capture(report.Page):
    """A report page that keeps its figures' axes instead of rendering them."""

    def __init__(self):
        super().__init__("test")
        self.axes = []

    def figure(self, ax, alt):
        self.axes.append(ax)


def test_report_draws_the_kaplan_meier_with_readable_ticks(tmp_path):
    run = death_run(tmp_path)
    page = Capture()
    report._survival_section(page, run, "death", run.schema["histograms"]["death"],
                             run.deck_names)
    surv, hazard = page.axes
    km = survival.measure_km(run, "death")
    a = km[(km.seat == 0) & km.rate.notna()]
    line = surv.lines[0]
    assert line.get_xdata().tolist() == a.bin.tolist()
    assert line.get_ydata().tolist() == pytest.approx(a.rate.tolist())
    assert line.get_ydata()[:8].tolist() == pytest.approx(list(HAND.values()))
    assert surv.lines[1].get_ydata().tolist() == [1.0] * 64
    assert "share of PCs alive at this turn" in surv.get_ylabel().replace("\n", " ")
    assert surv.get_xlabel() == "game turn"
    for ax in (surv, hazard):
        ax.figure.canvas.draw()
        shown = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        lo, hi = ax.get_xlim()
        visible = [t for t in ax.get_xticks() if lo <= t <= hi]
        assert 2 <= len(shown) <= 15 and len(visible) <= 15, shown
        assert all(t.isdigit() and int(t) < 64 for t in shown)


def test_few_bins_are_each_named():
    df = pd.DataFrame({"seat": [0, 0, 0, 1, 1, 1], "bin": [0, 1, 2] * 2,
                       "label": ["6", "8", "10"] * 2, "k": [10, 6, 2, 10, 5, 1],
                       "rate": [1, 0.6, 0.2, 1, 0.5, 0.1], "lo": 0.0, "hi": 1.0})
    ax = plots.plot_survival(df)
    ax.figure.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["6", "8", "10"]


def test_table_runs_to_the_last_value_at_risk(tmp_path):
    run = death_run(tmp_path)
    page = Capture()
    report._survival_section(page, run, "death", run.schema["histograms"]["death"],
                             run.deck_names)
    md = "\n".join(page.md)
    assert "| 63 " in md and "31 .. 62" in md
    table = survival.survival_table(survival.measure_km(run, "death"), run.deck_names,
                                    "game turn")
    last = table.iloc[-1]
    assert last["game turn"] == "63" and last["B: at risk"] == 1 and last["A: at risk"] == 0
    assert last["B: cut short"] == 1 and last["B: share"] == 1
    by_turn = table.set_index("game turn")
    assert by_turn.loc["6", "A: share"] == pytest.approx(0.525)
    assert by_turn.loc["6", "A: cut short"] == 3 and by_turn.loc["5", "A: ended"] == 1
    assert by_turn.loc["0 .. 1", "A: at risk"] == 10  # nothing happens in turns 0 and 1


def test_a_run_with_no_counts_says_there_is_nothing_to_show(tmp_path):
    # No PC was killed or watched (as when every match is forfeit before play starts).
    run = death_run(tmp_path)
    run.matches["turns"] = -1
    run.matches["death_a"] = -1
    run.histograms = run.histograms.iloc[:0]
    page = Capture()
    report._survival_section(page, run, "death", run.schema["histograms"]["death"],
                             run.deck_names)
    md = "\n".join(page.md)
    assert "Survival: PC killed in turn" in md
    assert "nothing to show" in md and "n = 0" in md
    assert page.axes == []  # no empty figures
    table = survival.survival_table(survival.measure_km(run, "death"), run.deck_names,
                                    "game turn")
    assert table.empty
