"""The rules pages shipped with the games (``cardsim/games/<game>/rules.md``) and ``cardsim rules
GAME [RULE-ID]``: every rule ID the code, the tests, the README and the shipped studies cite is
found; every ID of the specification is on its game's page; the options listed are the rules
dataclass's, with their defaults; the card notation is the one the engine prints; errors are
one line; no line is wider than 100 columns.
"""
import importlib
import pathlib
import re

import pytest

from cardsim.app import rulebook
from cardsim.app.cli import main
from cardsim.game import definition, list_games
from cardsim.protocol.options import describe
from tests import rule_ids

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAME_OF = {"SC": "scopa", "BU": "bura", "MU": "mushka", "MI": "minchiate"}
CITED_ID = re.compile(r"\b(?:SC|BU|MU|MI)-[A-Z]+-\d+\b")
WIDTH = 100


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cited_ids() -> dict[str, list[str]]:
    """Every rule ID cited in the package's and the tests' Python sources, the README and the
    shipped study specs, with the files citing it."""
    files = [*ROOT.glob("cardsim/**/*.py"), *ROOT.glob("tests/**/*.py"), ROOT / "README.md",
             *ROOT.glob("experiments/specs/*.toml")]
    found: dict[str, list[str]] = {}
    for path in files:
        for rid in set(CITED_ID.findall(path.read_text(encoding="utf-8"))):
            found.setdefault(rid, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_rule_id_cited_in_the_code_is_found_by_cardsim_rules(capsys):
    cited = cited_ids()
    assert len(cited) > 150, f"only {len(cited)} rule IDs cited: is ROOT the repository?"
    missing = []
    for rid, files in sorted(cited.items()):
        code, out, err = run(capsys, "rules", GAME_OF[rid[:2]], rid)
        if code != 0 or f"**{rid}**" not in out:
            missing.append(f"{rid} (cited in {', '.join(sorted(files)[:3])}): {err.strip()}")
    assert not missing, "cardsim rules does not find:\n" + "\n".join(missing)


@pytest.mark.parametrize("game", list_games())
def test_every_rule_id_of_the_specification_is_on_the_page_in_order(game):
    """The vendored IDs of ``../shared/rules`` (``tests/data/rule_ids.txt``): the page's entries
    are exactly these, in the specification's order."""
    assert rulebook.rule_ids(rulebook.rules_page(game)) == rule_ids.vendored()[game]


@pytest.mark.skipif(not rule_ids.RULES.is_dir(), reason=f"no specification folder {rule_ids.RULES} "
                    "(a clone of the repository alone); the vendored IDs are checked instead")
@pytest.mark.parametrize("game", list_games())
def test_every_rule_id_of_the_specification_files_is_on_the_page(game):
    on_page = set(rulebook.rule_ids(rulebook.rules_page(game)))
    missing = [rid for rid in rule_ids.from_rules()[game] if rid not in on_page]
    assert not missing, f"{game}: not on the rules page: {missing}"


@pytest.mark.parametrize("game", list_games())
def test_the_options_listed_are_the_rules_options_with_their_defaults_and_rules(game):
    """An option added to the rules dataclass without its line on the page fails here."""
    options_section = rulebook.section(rulebook.rules_page(game), "Options")
    listed = {m.group(1): m.group(0) for m in re.finditer(
        r"^- `(\w+)` \(default `([^`]*)`;.*?(?=^- |\Z)", options_section, re.M | re.S)}
    options = describe(definition(game).rules_type)
    assert list(listed) == [o["name"] for o in options]
    for o in options:
        text = " ".join(listed[o["name"]].split())
        assert f"(default `{o['default']}`;" in text, o["name"]
        allowed = o["allowed"] if len(o["allowed"]) <= 10 else o["allowed"][::len(o["allowed"]) - 1]
        assert all(a in text for a in allowed), (o["name"], allowed)
        assert f"({o['rule']})" in text, (o["name"], o["rule"])


@pytest.mark.parametrize("game", list_games())
def test_the_card_notation_is_the_engines(game):
    """Every card and move written in the notation section is one the game's deck and
    ``action_to_string`` write: cards of the deck, a move's cards in the deck's order (the order
    cardsim prints and the prompt expects), move words of the game's action kinds."""
    deck = definition(game).deck
    spans = re.findall(r"`([^`]+)`", rulebook.section(rulebook.rules_page(game), "Card notation"))
    cards = [t for t in spans if re.fullmatch(r"[0-9A-Z]{1,2}[a-z]{1,2}|T\d+|M", t)]
    assert cards and all(deck.index(c) >= 0 for c in cards)
    if game == "scopa":                 # a card, ">", the cards it captures
        moves = [("", t) for t in spans if re.fullmatch(r"\S+>\S+", t)]
    else:                               # a word and its cards
        kinds = importlib.import_module(f"cardsim.games.{game}.layout").KIND_NAMES
        moves = [tuple(t.split(" ")) for t in spans
                 if re.fullmatch(r"[a-z_]+ \S+", t) and not t.startswith("cardsim ")]
        assert all(word in kinds for word, _ in moves), moves
    assert moves, "no move written in the notation section"
    for word, rest in moves:
        if rest.isdigit() or rest == "bonus":   # an exchange of k unseen cards; "done bonus"
            continue
        indices = [deck.index(c) for c in re.split(r"[>+]", rest)]
        taken = indices[1:] if game == "scopa" else indices
        assert taken == sorted(taken), f"{word} {rest}: not in the order cardsim prints"


def test_one_rule_prints_its_entry_under_its_heading_in_any_case(capsys):
    code, out, err = run(capsys, "rules", "scopa", "sc-capt-3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "scopa: 2.2 Moves and captures"
    assert lines[2].startswith("- **SC-CAPT-3** An equal card")
    assert "SC-CAPT-4" not in out and "SC-CAPT-2" not in out
    code, out, _ = run(capsys, "rules", "minchiate", "MI-EX-18")
    assert code == 0 and out.startswith("minchiate: 4. Worked examples\n\n**MI-EX-18**")
    assert "team A wins" in out and "MI-EX-19" not in out


def test_a_game_prints_its_whole_page(capsys):
    code, out, _ = run(capsys, "rules", "bura")
    assert code == 0
    assert out == rulebook.rules_page("bura")
    assert out.startswith("# Bura") and "### Card notation" in out and "## 3. Options" in out


@pytest.mark.parametrize("argv, needle", [
    (["rules", "scopa", "SC-CAPT-" + "99"], "did you mean 'SC-CAPT-"),
    (["rules", "mushka", "nonsense"], "cardsim rules mushka"),
    (["rules", "bura", "SC-CAPT-3"], "SC-CAPT-3 is a rule of scopa"),
    (["rules", "bura", "sc-capt-" + "33"], "did you mean SC-CAPT-3, a rule of scopa"),
    (["rules", "scoppa"], "did you mean 'scopa'"),
    (["rules", "scoppa", "SC-CAPT-3"], "unknown game 'scoppa'"),
    (["rules", "scopa", ""], "no rule ''"),
    (["rules", "scopa", "SC-CAPT-3\nx"], "no rule"),
    (["rules", "scopa", "SC-CAPT-3", "SC-CAPT-4"], "unrecognized arguments: SC-CAPT-4"),
    (["rules", "\x00"], "unknown game"),
    (["rules"], "required: game"),
])
def test_an_unknown_rule_or_game_is_one_line_naming_the_nearest(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("cardsim: error: "), err
    assert needle in err, err


@pytest.mark.parametrize("game", list_games())
def test_every_line_of_a_page_and_of_its_rules_fits_100_columns(capsys, game):
    page = rulebook.rules_page(game)
    wide = [f"{i}: {len(line)}" for i, line in enumerate(page.splitlines(), 1) if len(line) > WIDTH]
    assert not wide, f"{game}: lines wider than {WIDTH}: {wide}"
    for rid in rulebook.rule_ids(page):
        assert max(len(line) for line in rulebook.rule_text(game, rid).splitlines()) <= WIDTH
