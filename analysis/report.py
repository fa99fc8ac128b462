"""The run report: a self-contained HTML page (figures embedded) and a markdown summary."""

from __future__ import annotations

import base64
import html
import os
from pathlib import Path

import pandas as pd

from analysis import metrics, plots, survival
from analysis.load import load_run

CSS = """
body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:2px solid #1f5fa8;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;font-size:.85em;margin:1em 0}
td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f3f6fa}td:first-child,th:first-child{text-align:left}
.note{color:#555;font-size:.9em}.flag{color:#c0392b;font-weight:bold}img{max-width:100%}
"""


def _fmt(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].map(lambda v: "" if pd.isna(v) else f"{v:.4f}")
        elif pd.api.types.is_integer_dtype(out[c]):
            out[c] = out[c].map(lambda v: f"{v:,}")
    return out


class Page:
    """Collects sections as HTML and markdown side by side."""

    def __init__(self, title: str):
        self.html = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)}"
                     f"</title><style>{CSS}</style><h1>{html.escape(title)}</h1>"]
        self.md = [f"# {title}\n"]

    def section(self, title: str, note: str = "") -> None:
        self.html.append(f"<h2>{html.escape(title)}</h2>")
        self.md.append(f"\n## {title}\n")
        if note:
            self.html.append(f"<p class='note'>{html.escape(note)}</p>")
            self.md.append(f"{note}\n")

    def table(self, df: pd.DataFrame) -> None:
        shown = _fmt(df)
        self.html.append(shown.to_html(index=False, escape=True, border=0))
        self.md.append(shown.to_markdown(index=False) + "\n")

    def figure(self, ax, alt: str) -> None:
        data = base64.b64encode(plots.to_png(ax)).decode()
        self.html.append(f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{data}'>")
        self.md.append(f"*Figure: {alt} (in report.html)*\n")

    def text(self, line: str, flag: bool = False) -> None:
        cls = " class='flag'" if flag else ""
        self.html.append(f"<p{cls}>{html.escape(line)}</p>")
        self.md.append(line + "\n")


def build_report(run_path: Path | str) -> tuple[Path, Path]:
    """Write report.html and report.md into the run folder; returns their paths."""
    run = load_run(run_path)
    man = run.manifest
    page = Page(f"cardlab report: {run.label}")
    rules = ", ".join(f"{k}={v}" for k, v in man["rules"].items())
    page.text(f"Run {man['run_id']}: {len(run.matches):,} matches, seed {man['seed']}, "
              f"cardlab {man['cardlab_version']} ({man.get('git_commit') or 'no commit'}), "
              f"card pool sha256 {man['card_pool']['sha256'][:12]}. Rules: {rules}.")

    head = metrics.headline(run)
    page.section("Headline", "Counts, n, rates and Wilson 95% intervals; the match is the "
                 "unit.")
    page.table(head[["quantity", "k", "n", "rate", "lo", "hi"]])
    page.figure(plots.plot_headline(head), "headline rates with 95% intervals")
    page.table(metrics.first_serve_edge(head))

    page.section("Game length", "Points and turns per match: mean with 95% interval and "
                 "quantiles.")
    page.table(metrics.game_lengths(run))
    page.figure(plots.plot_lengths(run.matches), "points per match")

    surv = survival.index_survival(run)
    page.section("Escalation survival", "P(a rally reaches index >= k) by server with 95% "
                 "Wilson bands, and the per-step hazard. Dashed: the exact solution, where "
                 "the setting is one the exact solver covers.")
    labels = tuple(f"{d} serves" for d in run.deck_names)
    page.figure(plots.plot_survival(surv, labels=labels), "index survival by server")
    page.figure(plots.plot_hazard(surv, labels=labels), "hazard by index")
    cols = ["server", "index", "k", "n", "rate", "lo", "hi", "hazard"] + (
        ["exact"] if "exact" in surv else [])
    page.table(surv[cols])
    km = survival.length_km(run)
    if len(km):
        cens = int(km.censored.max())
        page.text(f"Kaplan-Meier of rally length: {cens:,} rallies cut short by a deck-out "
                  "forfeit are censored.")
        page.table(km[km.length <= 12][["server", "length", "survival", "lo", "hi", "n"]])

    page.section("Matchup", "Each deck's win rate against the other, and deck A's win rate "
                 "by who served first.")
    a, b = run.deck_names
    m = run.matches
    mat = metrics.with_rate(pd.DataFrame([
        (f"{a} ({run.policy_names[0]})", f"{b} ({run.policy_names[1]})",
         int((m.winner == 0).sum()), len(m)),
        (f"{b} ({run.policy_names[1]})", f"{a} ({run.policy_names[0]})",
         int((m.winner == 1).sum()), len(m))], columns=["entrant", "opponent", "k", "n"]))
    page.figure(plots.plot_matrix(mat, title="row's win rate against column"), "matchup")
    page.table(metrics.seat_matrix(run))

    cards = metrics.card_metrics(run)
    flagged = metrics.balance_flags(cards)
    page.section("Cards", "Per seat: games-in-hand win rate (GIH WR), not-drawn win rate, "
                 "improvement when drawn (IWD), plays and hits per game, landing rate, turns "
                 "dead in hand per game. Correlational: a card drawn more in long games "
                 "looks different from its causal effect (see `cardlab cards` for ablation).")
    page.table(cards[["deck", "name", "kind", "games_drawn", "gih_wr", "gih_lo", "gih_hi",
                      "gns_wr", "iwd", "iwd_relative", "plays_per_game", "hits_per_game",
                      "land_rate", "dead_turns_per_game"]].sort_values(
                          ["deck", "iwd_relative"], ascending=False))
    page.section("Balance flags", "Each shot card's and enhancement's IWD against the median "
                 "card of its deck (z-test), with Benjamini-Hochberg control of the false "
                 f"discovery rate at 5%; fewer than {metrics.MIN_GAMES} games drawn or not "
                 "drawn: not enough games.")
    page.figure(plots.plot_card_iwd(flagged), "improvement when drawn per card")
    counts = flagged.verdict.value_counts()
    page.text(", ".join(f"{v}: {n}" for v, n in counts.items()))
    page.table(flagged[flagged.verdict != "no evidence"][
        ["deck", "name", "iwd_relative", "iwd_relative_p", "p_adjusted", "verdict"]])

    page.section("Exact check", "Monte Carlo against the exact Markov solution, where the "
                 "setting is covered (rally mode): |z| > 4 is flagged.")
    if run.exact_check is not None:
        ec = run.exact_check
        worst = ec.z.abs().max()
        page.text(f"{len(ec)} quantities, max |z| = {worst:.2f}, flagged: "
                  f"{int(ec.flag.sum())}", flag=bool(ec.flag.any()))
        page.table(ec)
    else:
        page.text("Not covered: full-deck games depend on draws and stamina, which the exact "
                  "solver does not model. Rally-mode runs (--arsenal-a/--arsenal-b) are "
                  "checked automatically.")

    extra = run.path / "sensitivity.parquet"
    if extra.exists():
        sens = pd.read_parquet(extra)
        page.section("Card-value sensitivity", "Paired runs on the same seeds: change in win "
                     "rate per +1, with 95% intervals and the variance reduction of pairing.")
        page.figure(plots.plot_deltas(sens, label="change in win rate"), "sensitivity")
        page.table(sens)

    out_html = run.path / "report.html"
    out_md = run.path / "report.md"
    _write_atomic(out_html, "\n".join(page.html))
    _write_atomic(out_md, "\n".join(page.md))
    return out_html, out_md


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
