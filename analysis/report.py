"""The run report: a self-contained HTML page (figures embedded) and a markdown summary."""

from __future__ import annotations

import base64
import html
import json
import os
from pathlib import Path

import pandas as pd

from analysis import metrics, plots, survival
from analysis.load import load_run
from analysis.quantities import seat_labels
from analysis.usage import card_usage, dead_cards
from sim.kit.records import SEAT_LETTERS
from sim.store.state import run_state

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
    """Write report.html and report.md into the run folder; returns their paths. Every
    section is built from the run's manifest and schema, so any game gets its report."""
    run = load_run(run_path)
    man = run.manifest
    schema = run.schema
    page = Page(f"cardlab report: {man['game']}, {run.label}")
    rules = ", ".join(f"{k}={v}" for k, v in man["rules"].items())
    page.text(f"Run {man['run_id']}: {len(run.matches):,} matches of {man['game']}, seed "
              f"{man['seed']}, cardlab {man['cardlab_version']} "
              f"({man.get('git_commit') or 'no commit'}), card pool sha256 "
              f"{man['card_pool']['sha256'][:12]}. Rules: {rules}.")
    state = run_state(run.path, man)
    if state.partial:  # every number below is of the finished chunks only
        page.text(state.sentence(run.path), flag=True)

    head = metrics.headline(run)
    page.section("Headline", "Counts, n, rates and Wilson 95% intervals; the match is the "
                 "unit. Wins and draws are counted apart.")
    page.table(head[["quantity", "k", "n", "rate", "lo", "hi"]])
    page.figure(plots.plot_headline(head, fair=1 / run.seats),
                f"headline rates with 95% intervals; dotted: a seat's fair share 1/{run.seats}")
    page.table(metrics.first_player_edge(run, head))

    if schema.get("lengths"):
        page.section("Match length", "Per match: mean with 95% interval and quantiles.")
        page.table(metrics.game_lengths(run))
        col, text = next(iter(schema["lengths"].items()))
        page.figure(plots.plot_lengths(run.matches, col, text), text)

    seats = run.seat_names
    for measure, spec in schema.get("histograms", {}).items():
        _survival_section(page, run, measure, spec, seats)

    if run.seats == 2:
        page.section("Matchup", "Each deck's win rate against the other, and deck A's win "
                     f"rate by which seat was the {schema['first_player_label']}.")
        m = run.matches
        a, b = seat_labels(run.deck_names, run.policy_names)
        mat = metrics.with_rate(pd.DataFrame([
            (a, b, int((m.winner == 0).sum()), len(m)),
            (b, a, int((m.winner == 1).sum()), len(m))],
            columns=["entrant", "opponent", "k", "n"]))
        page.figure(plots.plot_matrix(mat, title="row's win rate against column"), "matchup")
    else:
        page.section("Seats", f"A table of {run.seats}: each seat's win rate, wins by turn "
                     "position (0 the first player) with the edge over a fair share "
                     f"1/{run.seats} in the run's own seating (each position read with the "
                     "deck that sat there; every seating below), and deck A's win rate by "
                     f"which seat was the {schema['first_player_label']}.")
        page.table(metrics.seat_wins(run))
        page.table(metrics.position_edge(run))
    page.table(metrics.seat_matrix(run))
    if run.seats > 2:
        _seatings_section(page, run)

    for title, note, rates in schema.get("sections", ()):
        table = metrics.section_rates(run, rates)
        page.section(title, note)
        page.table(table)
        page.figure(plots.plot_headline(table), title)

    _card_sections(page, run)
    _dead_cards_section(page, run)

    page.section("Exact check", "Monte Carlo against the game's exact solution, where the "
                 "setting is covered: |z| > 4 is flagged.")
    if run.exact_check is not None:
        ec = run.exact_check
        page.text(f"{len(ec)} quantities, max |z| = {ec.z.abs().max():.2f}, flagged: "
                  f"{int(ec.flag.sum())}", flag=bool(ec.flag.any()))
        page.table(ec.drop(columns=[c for c in ("measure", "value") if c in ec]))
    else:
        page.text("Not covered: the exact solver of this game does not model this setting.")

    extra = run.path / "sensitivity.parquet"
    if extra.exists():
        sens = pd.read_parquet(extra)
        page.section("Card-value sensitivity", "Paired runs on the same seeds: change in win "
                     "rate per +1, with 95% intervals and the variance reduction of pairing.")
        page.figure(plots.plot_deltas(sens, label="change in win rate"), "sensitivity")
        page.table(sens)

    out_html = run.path / "report.html"
    out_md = run.path / "report.md"
    write_atomic(out_html, "\n".join(page.html))
    write_atomic(out_md, "\n".join(page.md))
    return out_html, out_md


def _survival_section(page: Page, run, measure: str, spec: dict, seats) -> None:
    """One declared histogram: the share of counts reaching each value by seat with 95%
    bands (Kaplan-Meier when the game marks counts cut short), the hazard, and the table
    of every value at which anyone is at risk."""
    curve = survival.survival_curve(run, measure)
    xlabel, ylabel, hazard = plots.survival_words(spec)
    owner = spec["seat"]
    if spec.get("censored"):
        cut = int(curve.censored.sum())
        total = int(curve.groupby("seat").n.first().sum())
        note = (f"Kaplan-Meier: the {ylabel} by {owner}, with 95% pointwise bands "
                "(Greenwood; before any count has ended, Wilson's for none ending among "
                f"those at risk). {cut:,} of {total:,} counts were cut short "
                "before they ended (censored at their last value): they stay at risk up to "
                "it instead of being dropped. Hazard: the share ending at a value among "
                "those at risk there (Wilson 95%).")
    else:
        note = (f"The {ylabel} by {owner} with 95% Wilson bands, and the hazard: the share "
                "ending at a value among those reaching it. Dashed: the exact solution, "
                "where the setting is one the game's exact solver covers.")
    page.section(f"Survival: {spec['label']}", note)
    if not (curve.at_risk > 0).any():
        # Every match ended before any count began (a forfeit before play, say): a figure
        # or table of nothing would read as a measured curve.
        page.text(f"n = 0: no match of this run has a count of {spec['label']} (none ended "
                  "or was cut short), so there is nothing to show.")
        return
    page.figure(survival_figure(run, measure, spec, curve), f"{measure}: {ylabel}")
    labels = tuple(f"{d} as {owner}" for d in seats)
    page.figure(plots.plot_hazard(curve, labels=labels, xlabel=xlabel, ylabel=hazard),
                f"{measure} hazard")
    page.table(survival.survival_table(curve, seats, value=xlabel))


def survival_figure(run, measure: str, spec: dict, curve=None):
    """The report's survival figure of one declared histogram: the share of counts
    reaching each value by seat, with 95% bands (the workbench shows the same)."""
    curve = survival.survival_curve(run, measure) if curve is None else curve
    xlabel, ylabel, _ = plots.survival_words(spec)
    labels = tuple(f"{d} as {spec['seat']}" for d in run.seat_names)
    return plots.plot_survival(curve, labels=labels, xlabel=xlabel, ylabel=ylabel)


def _seatings_section(page: Page, run) -> None:
    """Wins by turn position over every seating of the decks, where the run has them
    (`seatings.parquet`, played on the run's own seeds), so that a position is not read for
    the deck that sat there."""
    path = run.path / "seatings.parquet"
    if path.exists():
        table = pd.read_parquet(path)
        played = int(table.n.iloc[0]) // int(table.seatings.iloc[0])
        if played != len(run.matches):  # played before the run was resumed: not its matches
            page.section("Turn position over every seating",
                         f"Played on {played:,} matches, before the run was resumed; it holds "
                         f"{len(run.matches):,} now (`cardlab report` with seatings plays "
                         "them again).")
            return
        page.section("Turn position over every seating",
                     f"The run's decks in all {int(table.seatings.iloc[0])} seatings, each "
                     "on the run's seeds: wins by turn position with the edge over a fair "
                     f"share 1/{run.seats} (95% intervals, a match's seatings counted as "
                     "one observation), then which deck held each position and how it did "
                     "there. A deck that holds a position in every seating is put there by "
                     "the rules (the chooser going first), not by the seats.")
        page.table(table.drop(columns=["seatings"]))
        page.table(pd.read_parquet(run.path / "seating_decks.parquet"))


def _card_sections(page: Page, run) -> None:
    cards = metrics.card_metrics(run)
    stats = [f"{s}_per_match" for s in run.schema.get("card_stats", {})]
    success = ["success_rate"] if "success_rate" in cards else []
    use, ok = run.schema.get("use_success", ("", ""))
    page.section("Cards (descriptive)", "Per seat: drawn win rate (GIH WR), not-drawn win "
                 "rate, improvement when drawn (IWD, and against the deck's median card), the "
                 "game's card statistics per match"
                 + (f", and {ok} per {use} (success rate)" if success else "")
                 + ". Correlational, not verdicts: a card drawn in longer matches, or one "
                 "that lets the deck act at all, looks stronger than what it causes.")
    # At a larger table, or in a mirror, a deck may sit twice: each row names its seat.
    seat = _seat_column(run)
    cards["seat"] = [SEAT_LETTERS[s].upper() for s in cards.seat]
    page.table(cards[[*seat, "deck", "label", "kind", "matches_drawn", "gih_wr", "gih_lo",
                      "gih_hi", "gns_wr", "iwd", "iwd_relative", *stats, *success]].sort_values(
                          [*seat, "deck", "iwd_relative"], ascending=[True] * len(seat)
                          + [False, False]))
    _verdict_section(page, run)


def _verdict_section(page: Page, run) -> None:
    """The causal verdicts stored beside the run (`cardlab verdicts`), when there are any."""
    page.section("Card verdicts (causal)", "Each card's worth per copy against par: the "
                 "deck's win rate with the card as it is, less the same deck with the card "
                 "given par's numbers for its kind and cost (the deck keeps its length), "
                 "paired on the same seeds, each side under the best of its deck's "
                 "policies (as_par: the card's side did best playing it as par is played, "
                 "its policy reading the card as par while the rules play it as it is). "
                 "The margin is a share of the gap between par and the same card "
                 "with no effect below par, and above par the smaller of that and a share "
                 "of what par made strong gains (the card's own gaps once the run tells "
                 "them from zero, measured on the same matches as its worth; else its "
                 "peers'). "
                 "Over- or under-powered: beyond the margin, with Benjamini-Hochberg control "
                 "of the false discovery rate at 5%; balanced: the 95% intervals lie inside "
                 "the card's own margin and the run told a dead card from par; dead: "
                 "drawn, yet no policy played it; untested here: the matchup never dealt "
                 "it, or par's numbers changed no record, or its numbers matter too little "
                 "for any value of them to clear a margin (the card with no effect and par "
                 "made strong each moved its deck by nothing told from zero and by less than "
                 "its peers' margins); "
                 "misplayed: beyond the margin against its numbers (stronger than par in "
                 "every number yet worth less, or the reverse), which is the policies' "
                 "doing, not the card's. "
                 "detectable: the smallest worth the run would find at 80% power.")
    path = run.path / "verdicts.parquet"
    if not path.exists():
        page.text("Not computed for this run: `cardlab verdicts RUN` adds them.")
        return
    v = pd.read_parquet(path)
    meta = json.loads((run.path / "verdicts.json").read_text(encoding="utf-8"))
    plays = "; ".join(f"{d}: {', '.join(p)}" for d, p in meta.get("policies", {}).items())
    gap = meta.get("pooled_gap", {}).get("", 0)
    up = meta.get("pooled_up", {}).get("", 0)
    page.text(f"{meta['matches']:,} matches in {meta['rounds']} rounds "
              f"({meta['seconds']:.0f} s; each card {meta['start']:,} to "
              f"{meta['max_matches']:,} paired matches; {meta.get('screen_matches', 0):,} "
              f"choosing each deck's policies: {plays}); margins {meta.get('share', 0.5):g} "
              f"of the gap to no effect below par (the game's gap {gap:.4f} a copy, or its "
              f"kind's) and of the gain of par made strong above it (the game's {up:.4f}); "
              f"{meta.get('skipped', 0)} cards whose "
              "par or no-effect card the validator rejects skipped.")
    counts = v.verdict.value_counts()
    page.text(", ".join(f"{k}: {n}" for k, n in counts.items()) or "no cards to judge",
              flag=bool(v.verdict.isin(["over-powered", "under-powered"]).any()))
    if len(v):
        page.figure(plots.plot_verdicts(v), "card worth per copy against par")
    seat = _seat_column(run)
    v["seat"] = [SEAT_LETTERS[s].upper() for s in v.seat]
    page.table(v.sort_values([*seat, "deck", "relative"], ascending=[True] * len(seat)
                             + [False, False])[
        [*seat, "deck", "label", "copies", "n", "policy",
         *(["as_par"] if "as_par" in v else []), "par", "relative", "relative_lo",
         "relative_hi", "margin", "detectable", "p_adjusted", "verdict",
         *(["twins"] if "twins" in v else []),
         *([c for c in ("field_worth", "field_worth_lo", "field_worth_hi") if c in v])]])
    if "field" in meta:
        page.text("field_worth: each card against par with its deck facing every deck of the "
                  "folder's field, weighted by the field's Nash mix ("
                  + ", ".join(f"{d} {w:.2f}" for d, w in meta["field"].items())
                  + f"; {meta['field_matches']:,} matches).")
    elif "field_refused" in meta:
        page.text("field_worth: not measured: " + meta["field_refused"], flag=True)


def _dead_cards_section(page: Page, run) -> None:
    """Cards of a flagged kind that a seat held and its policy never played in this run."""
    expr = run.schema.get("played", "")
    page.section("Dead cards", "Cards of a kind that gets balance verdicts, in a seat's deck, "
                 f"that its policy never played in this run (played: {expr or 'not declared'})"
                 ". Cards in play from the start are not judged. `cardlab lint` checks every "
                 "policy of the folder.")
    if not expr:
        page.text("The game declares no played statistic.")
        return
    use = card_usage(run.cards, run.schema, run.card_kinds, run.manifest.get("starting"))
    dead = dead_cards(use)
    page.text(f"{len(dead)} dead of {int(use.judged.sum())} cards judged.", flag=bool(len(dead)))
    if len(dead):
        names = seat_labels(run.deck_names, run.policy_names)
        dead.insert(0, "deck", [names[s] for s in dead.seat])
        dead.insert(2, "name", dead.card.map(run.card_names))
        page.table(dead[["deck", "card", "name", "kind", "matches_in_deck", "matches_drawn",
                         "played"]])


def _seat_column(run) -> list[str]:
    """["seat"] where a table of cards needs its seat column: at a table of more than two,
    or where two seats hold the same deck."""
    return ["seat"] if run.seats > 2 or len(set(run.deck_names)) < run.seats else []


def write_atomic(path: Path, text: str) -> None:
    """Write a text file whole or not at all: a reader never sees half a report."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
