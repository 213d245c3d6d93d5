"""Every rule ID of the specification has a test named after it, and every test named after a
rule ID names one that exists.

A test cites a rule by its name: ``test_bu_resp_3_…`` cites BU-RESP-3. A name may cite several
(``test_mi_end_1_mi_end_2_the_end_event``): an ID counts wherever it stands in a test's name as
a whole ``_``-separated piece. The IDs come from ``tests/data/rule_ids.txt``, vendored from
``../shared/rules/*.md`` by ``python -m tests.rule_ids`` (a clean clone has no ``../shared``);
the last test checks the vendored file against the rules when they are there. Test names are
read with ``ast`` from the sources of ``tests/``, not by importing them.
"""
import ast
import pathlib
import re

import pytest

from tests import rule_ids

TESTS = pathlib.Path(__file__).resolve().parent
NAMED_ID = re.compile(r"(?:^|_)((?:sc|bu|mu|mi)_[a-z]+_\d+)(?=_|$)")


def snake(rule_id: str) -> str:
    """SC-CAPT-3 -> sc_capt_3."""
    return rule_id.lower().replace("-", "_")


def collect_test_names() -> dict[str, list[str]]:
    """The name of every test function (a ``def test…`` at module level or in a class) of every
    file under tests/, with the files defining it."""
    names: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.name.startswith("test_"):
                names.setdefault(node.name, []).append(str(path.relative_to(TESTS.parent)))
    return names


def cited_ids(name: str) -> list[str]:
    """The rule IDs (snake case) a test's name cites."""
    return NAMED_ID.findall(name.lower()) if name.startswith("test_") else []


def test_vendored_rule_ids_are_well_formed():
    ids = rule_ids.vendored()
    assert set(ids) == {"bura", "minchiate", "mushka", "scopa"}, ids.keys()
    prefix = {"bura": "BU", "minchiate": "MI", "mushka": "MU", "scopa": "SC"}
    for game, game_ids in ids.items():
        assert game_ids, f"no rule ID for {game} in {rule_ids.VENDORED}"
        wrong = [rid for rid in game_ids
                 if not re.fullmatch(prefix[game] + r"-[A-Z]+-\d+", rid)]
        assert not wrong, f"{game}: IDs not of the form {prefix[game]}-WORD-N: {wrong}"
    every = [rid for game_ids in ids.values() for rid in game_ids]
    assert len(every) == len(set(every)), "an ID is listed twice"


def test_every_rule_id_is_cited_by_a_test_name():
    names = collect_test_names()
    cited = {rid for name in names for rid in cited_ids(name)}
    assert len(names) > 100 and cited, "found no tests: is TESTS the tests folder?"
    missing = [rid for game_ids in rule_ids.vendored().values() for rid in game_ids
               if snake(rid) not in cited]
    assert not missing, (
        f"{len(missing)} rule ID(s) without a test named after them "
        f"(def test_{snake(missing[0])}_…): {', '.join(missing)}")


def test_every_rule_id_in_a_test_name_exists():
    known = {snake(rid) for game_ids in rule_ids.vendored().values() for rid in game_ids}
    unknown = [f"{name} ({', '.join(files)}): {rid}"
               for name, files in sorted(collect_test_names().items())
               for rid in cited_ids(name) if rid not in known]
    assert not unknown, ("test names citing rule IDs that no rules file defines "
                         "(a typo, or a rule renumbered?):\n" + "\n".join(unknown))


def test_rule_id_names_are_lower_case():
    """One spelling: ``test_mi_deal_1_…``, not ``test_MI_DEAL_1_…``."""
    upper = [f"{name} ({', '.join(files)})"
             for name, files in sorted(collect_test_names().items())
             if re.search(r"(?:^|_)(?:SC|BU|MU|MI)_[A-Za-z]+_\d+(?=_|$)", name)]
    assert not upper, "rule IDs in test names are written in lower case:\n" + "\n".join(upper)


def test_cited_ids_reads_names():
    assert cited_ids("test_bu_resp_3_the_answer") == ["bu_resp_3"]
    assert cited_ids("test_mi_end_1_mi_end_2_the_end_event") == ["mi_end_1", "mi_end_2"]
    assert cited_ids("test_mi_comb_3_and_mi_comb_5_values") == ["mi_comb_3", "mi_comb_5"]
    assert cited_ids("test_sc_capt_3") == ["sc_capt_3"]
    assert cited_ids("test_sc_capt_31x") == []
    assert cited_ids("test_scopa_deal") == []


def test_vendored_rule_ids_match_the_rules():
    if not rule_ids.RULES.is_dir():
        pytest.skip(f"no rules folder {rule_ids.RULES} (a clean clone): the vendored "
                    f"{rule_ids.VENDORED.name} is checked where ../shared/rules exists")
    assert rule_ids.VENDORED.read_text(encoding="utf-8") \
        == rule_ids.render(rule_ids.from_rules()), (
        f"{rule_ids.VENDORED} is out of date with {rule_ids.RULES}: "
        "run `python -m tests.rule_ids` and commit the file")
