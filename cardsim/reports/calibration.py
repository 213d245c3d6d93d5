"""The report of a calibration study (``cardsim run`` of a ``kind = "calibration"`` spec;
:mod:`cardsim.experiments.calibration`): a reliability diagram per evaluator, the summary (expected
calibration error, Brier score and its decomposition, the mean return's bias; overall and per
third of the deal) and each evaluator's bins. Built from the store alone."""
from __future__ import annotations

from pathlib import Path

from cardsim.experiments.calibration import calibration_from_dict, is_calibration, reliability, summary
from cardsim.experiments.store import Store

from . import plots
from .content import Plot, Section, shown_table

INTERVALS = ("Intervals are 95%: Wilson score intervals for the share of a bin's positions "
             "that came true, a bootstrap over deals for the corrected calibration error, "
             "Student's t over deals for the bias of the mean return.")


def is_calibration_folder(path) -> bool:
    """Whether ``path`` holds a calibration study's store."""
    try:
        return is_calibration(Store.open(path).manifest()["spec"])
    except Exception:      # no store, or not one: another kind of folder's report
        return False


def calibration_contents(folder) -> tuple[list[Section], dict]:
    """The report's sections and what the templates say of the folder."""
    from .run import ReportError
    store = Store.open(folder)
    spec = calibration_from_dict(store.manifest()["spec"])
    rows = store.rows()
    if not len(rows):
        raise ReportError(f"{store.path} holds no finished batch yet: run (or resume) the study "
                          f"with `cardsim run {store.path}` first")
    deals = rows["deal"].nunique()
    who = ", ".join(dict.fromkeys(spec.agents))
    match = spec.match is not None
    table_of = f"the equity table in {spec.match}" if spec.match else ("cardsim equity's "
                                                                      "default table")
    text = [f"{spec.question} " if spec.question else "",
            f"{spec.game.capitalize()}: {deals:,} {spec.units} played by "
            f"{who} in every seat (seed "
            f"{spec.seed}); in each, {spec.positions} decisions drawn uniformly among those with "
            f"two or more legal actions ({len(rows) // len(spec.names):,} positions). At each "
            "the analysis (sampled worlds for the mover, played out by the evaluator: "
            f"{'; '.join(spec.names)}) predicted the mover's chance of winning the deal and mean return after "
            "the move actually played; the deal's own result is what came true. A win is a "
            "return above 0."
            + (f" It also predicted the chance of winning the match ({table_of}: the deal's "
               "result moves the match state, the table gives the chance from there); the "
               "match's result is what came true (a drawn match counts 1/2)." if match else "")]
    table = summary(rows, spec.names)
    sections = [_forecast_section(
        rows, spec, Section("calibration", "Calibration", text=[t for t in text if t]),
        "win", "", "Reliability diagrams: the share of positions won against the predicted "
        "chance, per bin of the forecast", f"{spec.game}: is the analysis calibrated?",
        [shown_table("summary", table, [
            "evaluator", "stage", "positions", "deals", "predicted_win", "realized_win", "ece",
            "ece_corrected", "brier", "reliability", "resolution", "uncertainty"]),
         shown_table("summary_return", table[[c for c in table.columns if not c.startswith(
             ("predicted_win", "realized_win", "ece", "brier", "reliability", "resolution",
              "uncertainty", "match_"))]], [
             "evaluator", "stage", "positions", "predicted_return", "realized_return", "bias",
             "seconds"], caption="Per evaluator (and third of the deal): the predicted and the "
             "realized mean return of the mover, the bias (realized less predicted, 95% "
             "interval over deals) and the analysis's mean seconds a position.")])]
    if match:
        sections.append(_forecast_section(
            rows, spec, Section("match", "The chance of winning the match", text=[
                "The same positions, the predicted chance of winning the match against the "
                "match's result (the thirds are the match's)."]),
            "match", "_match", "Reliability diagrams of the match: the share of positions "
            "whose match was won against the predicted chance, per bin of the forecast",
            f"{spec.game}: is the chance of winning the match calibrated?",
            [shown_table("summary_match", table, [
                "evaluator", "stage", "positions", "deals", "match_predicted",
                "match_realized", "match_ece", "match_ece_corrected", "match_brier",
                "match_reliability", "match_resolution", "match_uncertainty"])]))
    name = Path(folder).resolve().name
    context = {"title": f"{spec.game.capitalize()} calibration {name}", "run_name": name,
               "game": spec.game, "games": f"{deals:,}", "intervals": INTERVALS}
    return sections, context


def _forecast_section(rows, spec, section: Section, outcome: str, suffix: str, caption: str,
                      title: str, summary_tables) -> Section:
    """``section`` with one forecast's reliability diagrams (the rows' ``predicted_<outcome>``
    against ``realized_<outcome>``, per evaluator), its summary table and each evaluator's
    bins; ``suffix`` ends the plot's and the bins' names."""
    bins = {name: reliability(rows.loc[rows["evaluator"] == e, f"predicted_{outcome}"],
                              rows.loc[rows["evaluator"] == e, f"realized_{outcome}"])
            for e, name in enumerate(spec.names)}
    section.plots.append(Plot(f"reliability{suffix}", caption, plots.reliability(bins, title)))
    section.tables.extend(summary_tables)
    for e, name in enumerate(spec.names):
        section.tables.append(shown_table(f"bins{suffix}_{e}", bins[name], [
            "from", "to", "positions", "predicted", "realized"],
            caption=f"{name}: {bins[name].attrs['note']}"))
    return section
