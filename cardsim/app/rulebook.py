"""The rulebook subcommand: ``rules`` (a game's rules page, or one rule of it).

Each game ships its rules page as package data, ``cardsim/games/<game>/rules.md``: plain
Markdown for players, every rule under its stable ID written ``**SC-CAPT-3**`` at the start of
its entry (a ``- `` item or a paragraph, running to the next item, heading or blank line), the
options and the card notation. :func:`rules_page` reads a page, :func:`rule_text` finds one rule
in it, :func:`section` one section (such as ``Card notation``); :data:`SUBCOMMANDS` adds
``cardsim rules`` to :func:`cardsim.app.cli.make_parser`.
"""
from __future__ import annotations

import argparse
import importlib.resources
import re

from cardsim.errors import CardsimError, nearest
from cardsim.game import definition, list_games
from cardsim.protocol.registry import GAMES

ENTRY_ID = re.compile(r"^(?:- )?\*\*([A-Z]{2}-[A-Z]+-\d+)\*\*")
"""The ID that opens a rule's entry on its page: ``- **SC-CAPT-3** …``, ``**SC-EX-1** …``."""


def rules_page(game: str) -> str:
    """The text of ``game``'s rules page (an unknown game: :class:`UnknownGameError`)."""
    definition(game)
    page = importlib.resources.files(GAMES[game]) / "rules.md"
    if not page.is_file():
        raise CardsimError(f"{game} has no rules page ({GAMES[game]} ships no rules.md)")
    return page.read_text(encoding="utf-8")


def section(page: str, title: str) -> str:
    """The text of a page's section whose heading (``## …`` or ``### …``, numbered or not) is
    ``title``, up to the next heading of the same or a higher level: ``section(rules_page(game),
    "Card notation")`` is how a game's cards and moves are written."""
    m = re.search(rf"^(#+) (?:[\d.]+ )?{re.escape(title)}$", page, re.M)
    if not m:
        raise CardsimError(f"no section {title!r} on the rules page")
    body = page[m.end():]
    end = re.search(rf"^#{{1,{len(m.group(1))}}} ", body, re.M)
    return body[:end.start()] if end else body


def rule_ids(page: str) -> list[str]:
    """The IDs of the rules entries of a page, in page order."""
    return [m.group(1) for line in page.splitlines() if (m := ENTRY_ID.match(line))]


def rule_text(game: str, rule_id: str) -> str:
    """The entry of rule ``rule_id`` (any case) on ``game``'s page, after the heading it sits
    under; a :class:`CardsimError` names the nearest ID, or the game whose rule it is."""
    wanted = rule_id.strip().upper()
    lines = rules_page(game).splitlines()
    heading = None
    for i, line in enumerate(lines):
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        m = ENTRY_ID.match(line)
        if m and m.group(1) == wanted:
            end = i + 1
            while end < len(lines) and lines[end].strip() and not lines[end].startswith(("- ", "#")):
                end += 1
            return "\n".join([f"{game}: {heading}", "", *lines[i:end]])
    ids = {other: _page_ids(other) for other in list_games()}
    owner = next((other for other, other_ids in ids.items() if wanted in other_ids), None)
    if owner:
        raise CardsimError(f"{wanted} is a rule of {owner}, not of {game}: "
                           f"cardsim rules {owner} {wanted}")
    near = nearest(wanted, ids[game]) or nearest(wanted, [rid for g in ids for rid in ids[g]])
    near_owner = next((g for g in ids if near in ids[g]), game)
    hint = ("" if near is None else f"did you mean {near!r}? " if near_owner == game
            else f"did you mean {near}, a rule of {near_owner} (cardsim rules {near_owner} {near})? ")
    raise CardsimError(f"no rule {rule_id!r} in {game}: {hint}`cardsim rules {game}` lists them")


def _page_ids(game: str) -> list[str]:
    """The rule IDs of a game's page (none when it ships no page)."""
    try:
        return rule_ids(rules_page(game))
    except CardsimError:
        return []


# --- rules ---------------------------------------------------------------------------------------

def add_rules(sub) -> None:
    p = sub.add_parser("rules", help="print a game's rules, or one rule by its ID")
    p.add_argument("game", help="a game name (see `cardsim games`)")
    p.add_argument("rule", nargs="?", metavar="RULE-ID",
                   help="one rule, by the ID the code and reports cite (e.g. SC-CAPT-3)")
    p.set_defaults(handler=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rules page of a game, or one rule with the heading it sits under."""
    if args.rule is not None:
        print(rule_text(args.game, args.rule))
    else:
        print(rules_page(args.game), end="")
    return 0


SUBCOMMANDS = {"rules": add_rules}
"""Subcommand -> the function that adds its parser and handler to ``cardsim``'s subparsers."""
