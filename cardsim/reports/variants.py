"""The report of a variant study's folder (:mod:`cardsim.experiments.variants`): what differs
from the baseline, the study, the measures' definitions, then per part the measures of every
variant with plots across the variants, and every difference from the baseline.

The same sentences open ``cardsim run`` and ``cardsim variants`` at the terminal
(:func:`answer`).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardsim.experiments.measures import MEASURES, words
from cardsim.experiments.variants import ALPHA, VariantStudy, study_differences, study_measures

from . import plots
from .content import Section, Table, pages, shown_table

INTERVALS = ("Intervals are 95% bootstrap intervals over the deals, a difference's paired on "
             "the deals both variants played; * marks a difference significant after Holm's "
             "correction over the study.")
GROUPS = ["skill", "balance", "decisiveness", "scoring", "pace"]
"""The order in which the answer names significant differences: what a designer weighs first
(then the smallest p-value first)."""
SHOWN = 12
"""The most differences the answer names in sentences (the tables hold them all)."""


def answer(study: VariantStudy, out, differences: pd.DataFrame) -> list[str]:
    """The answer's sentences: the study in one, then each significant difference from the
    baseline (at most :data:`SHOWN`, in the order of :data:`GROUPS`), or that none is."""
    found = differences[differences["significant"]]
    found = found.assign(rank=found["group"].map(GROUPS.index)).sort_values(
        ["rank", "p"], kind="stable")
    said = [f"{study.game}: {len(study.variants)} variants of the rules, each playing "
            f"{', '.join(study.parts)}, in {out}; the baseline is {study.baseline}."]
    if study.question:
        said.append(f"Question: {study.question}")
    for r in found.head(SHOWN).itertuples():
        where = f"{r.part}, " if len(study.parts) > 1 else ""
        said.append(f"Under {r.variant} ({where}{r.label}), {words(r.measure)}: "
                    f"{r.value:.3f} against {r.baseline:.3f} ({r.diff:+.3f} "
                    f"[{r.diff_lo:+.3f}, {r.diff_hi:+.3f}]).")
    if len(found) > SHOWN:
        said.append(f"... and {len(found) - SHOWN} more differences (the tables).")
    if not len(found):
        said.append(f"No measure differs from the baseline's ({len(differences)} compared; "
                    f"Holm's correction, family-wise error {ALPHA:.0%}).")
    return said


def _unit(study: VariantStudy, measure: str, per: str) -> str:
    """The x axis of a measure's panel: its unit, a return's in the game's return unit."""
    from cardsim.game import definition
    unit = MEASURES[measure.split("_", 1)[0]].unit
    return f"{definition(study.game).return_unit} {per}" if unit == "return" else unit


def variants_contents(folder) -> tuple[list[Section], dict]:
    """The report's sections and what the templates say of the folder (module docstring)."""
    from cardsim.experiments.variants import load_study_folder
    study = load_study_folder(folder)
    measures = study_measures(study, folder)
    differences = study_differences(study, folder)
    name = Path(folder).resolve().name
    sections = [Section("answer", "The answer", text=answer(study, name, differences))]
    about = Section("study", "The study", text=[
        f"Each variant is the game's rules with its options over the study's "
        f"({', '.join(f'{k}={v}' for k, v in study.source.get('rules', {}).items()) or 'none'})"
        f". Every variant plays every part on the same seeds (seed "
        f"{study.source.get('seed', 0)}): where its rules deal alike, the same cards, so "
        "each difference from the baseline is paired deal by deal."])
    about.tables.append(Table("variants", "the variants and their options", pd.DataFrame(
        [{"variant": v.name, "options": dict(v.options)} for v in study.variants]),
        pd.DataFrame([{"variant": v.name + (" (baseline)" if v.name == study.baseline else ""),
                       "options": ", ".join(f"{k}={val}" for k, val in v.options.items())}
                      for v in study.variants])))
    parts = []
    for part in study.parts:
        spec = study.specs[study.baseline, part]
        parts.append({"part": part, "agents": ", ".join(spec.agents), "unit": spec.unit,
                      "size": f"{spec.limit:,} {'matches' if spec.unit == 'match' else 'deals'} a matchup"})
    about.tables.append(Table("parts", "what each variant plays", pd.DataFrame(parts),
                              pd.DataFrame(parts)))
    sections.append(about)
    defined = pd.DataFrame([{"measure": k, "group": m.group, "definition": m.definition}
                            for k, m in MEASURES.items()])
    sections.append(Section("measures", "The measures", text=[
        "Each measure per matchup, with its 95% interval from a bootstrap over the deals "
        "(resampled 1,000 times from a fixed seed, widened to Student's t for a mean); a "
        "difference from the baseline resamples both on the same deals. A difference is "
        f"marked significant when its Holm-adjusted p-value over every difference of the study "
        f"is at most {ALPHA} (the p-value: the difference over its bootstrap standard error, "
        "against the normal). In a part of whole matches, a game is a match."],
        tables=[Table("definitions", "the measures", defined, defined)]))
    for part in study.parts:
        mine = measures[measures["part"] == part].reset_index(drop=True)
        spec_unit = "a match" if study.specs[study.baseline, part].unit == "match" else "a game"
        section = Section(f"part_{part}", f"{part}: the measures of every variant")
        section.tables.append(shown_table(f"measures_{part}", mine,
                                          ["label", "variant", "measure", "value"],
                                          {"label": "matchup", "value": "value [95%]"},
                                          f"{part}: every variant's measures"))
        for k, label in enumerate(dict.fromkeys(mine["label"])):
            one = mine[mine["label"] == label].assign(what=lambda t: t["measure"].map(words))
            units = {w: _unit(study, m, spec_unit) for m, w in zip(one["measure"], one["what"])}
            figures = plots.panels_of_hbars(
                one, "what", "variant", "value", units,
                f"{study.game.capitalize()}, {part}: {label}", marked=study.baseline)
            section.plots += pages(f"measures_{part}_{k}", f"{part}, {label}: each measure "
                                   "per variant, with its 95% interval (the baseline dark, "
                                   "its value dotted)", figures)
        sections.append(section)
    diff = Section("differences", "Each variant against the baseline", text=[
        "Each measure's difference from the baseline's on the same deals, with its 95% "
        "interval and Holm-adjusted p-value; * marks the significant ones."])
    shown = differences.assign(mark=differences["significant"].map({True: "*", False: ""}))
    diff.tables.append(shown_table("differences", shown, [
        "variant", "part", "label", "measure", "baseline", "value", "diff", "p_holm", "mark"],
        {"label": "matchup", "diff": "difference [95%]", "p_holm": "p (Holm)", "mark": ""},
        "every difference from the baseline"))
    sections.append(diff)
    games = int(measures.drop_duplicates(["variant", "part", "matchup"])["games"].sum()) \
        if len(measures) else 0
    context = {"title": f"{study.game.capitalize()} rules variants {name}", "run_name": name,
               "game": study.game, "games": f"{games:,}", "intervals": INTERVALS}
    return sections, context
