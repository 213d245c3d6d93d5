"""Publish finished studies: ``experiments/results/<name>/`` gets the report of the store
``runs/<name>`` — ``report.html`` (self-contained), ``report.md`` with ``plots/``, ``tables/``
— and the store's ``manifest.json`` (a variant study's folder: its ``study.json``,
:mod:`cardsim.experiments.variants`). The store itself is not published (it is git-ignored and
large); each report's footer names the command that regenerates it from the shipped spec::

    cardsim run experiments/specs/<name>.toml --out runs/<name> && cardsim report runs/<name>

Usage, from the repository root::

    python experiments/publish.py [NAME ...] [--runs DIR]

Without names, every published study (a folder of ``experiments/results`` with a
``manifest.json`` or a ``study.json``) whose store is in ``--runs`` (default ``runs``) is
rebuilt; a store whose spec is not the published one is left alone. A published study without a store keeps its
files, its footer rewritten to that command. Prints one line per study: rebuilt, footer only,
or why not.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from cardsim.experiments.variants import STUDY
from cardsim.reports import build_report

ROOT = Path(__file__).resolve().parent
RESULTS = ROOT / "results"
FILES = ("report.html", "report.md", "plots", "tables")


def command(name: str) -> str:
    """The command that regenerates study ``name``'s store and report from its shipped spec."""
    return (f"cardsim run experiments/specs/{name}.toml --out runs/{name} && "
            f"cardsim report runs/{name}")


def described(folder: Path) -> tuple[str, dict | None]:
    """The file that says what a store or a published study ran (``manifest.json``, or a
    variant study's ``study.json``) and what it ran (the spec, or the study), None without
    one."""
    for name, key in (("manifest.json", "spec"), (STUDY, None)):
        if (folder / name).is_file():
            held = json.loads((folder / name).read_text(encoding="utf-8"))
            return name, held.get(key) if key else held
    return "", None


def published() -> list[str]:
    return sorted(p.name for p in RESULTS.iterdir() if described(p)[0])


def publish(name: str, runs: Path) -> str:
    """Rebuild study ``name``'s published report from ``runs/<name>`` (module docstring); what
    was done, in a few words."""
    folder, store = RESULTS / name, runs / name
    kind, ours = described(store)
    if not kind:
        if not (folder / "report.md").is_file():
            return f"not published: no store in {store}"
        return rewrite_footer(folder, name)
    theirs = described(folder)
    if theirs[0] and theirs != (kind, ours):
        return f"not rebuilt: {store} holds another spec than the published study"
    with tempfile.TemporaryDirectory() as tmp:
        files = build_report(store, out=Path(tmp) / "report", fmt="both", rebuild=command(name))
        folder.mkdir(parents=True, exist_ok=True)
        for part in FILES:
            target = folder / part
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            source = files.folder / part
            if source.is_dir():
                shutil.copytree(source, target)
            elif source.exists():
                shutil.copy2(source, target)
    shutil.copy2(store / kind, folder / kind)
    return "rebuilt"


def rewrite_footer(folder: Path, name: str) -> str:
    """A study without a store: its report's footer names the regenerating command."""
    path = folder / "report.md"
    text = path.read_text(encoding="utf-8")
    new = re.sub(r"rebuild with `[^`]*`", f"rebuild with `{command(name)}`", text)
    if new == text and command(name) not in text:
        return "no store, and no footer to rewrite"
    path.write_text(new, encoding="utf-8")
    return "no store: footer only"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="studies to publish (every published one)")
    parser.add_argument("--runs", type=Path, default=Path("runs"),
                        help="the folder of the stores (runs)")
    args = parser.parse_args(argv)
    for name in args.names or published():
        print(f"{name}: {publish(name, args.runs)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
