"""Reports built from an experiment's store alone (DESIGN.md §5): HTML and Markdown with
matplotlib figures and CSV tables, rebuilt byte for byte from the same store.

>>> from cardsim.reports import build_report                                       # doctest: +SKIP
>>> files = build_report("runs/demo")      # runs/demo/report/report.html, report.md, ...
"""
from .build import ReportFiles, build_report
from .run import ReportError, Run, load_run

__all__ = ["ReportError", "ReportFiles", "Run", "build_report", "load_run"]
